/* SPDX-License-Identifier: Apache-2.0 */
/* litex_fw: UART console and simulation exit on LiteX's generated CSR accessors. */
#include "litex_fw.h"

#include <generated/csr.h>

/* Bound on waiting for room in the UART's transmit FIFO (the simulated console drains it). */
#define UART_POLL_BOUND 100000u

void litex_fw_putc(char c) {
  for (uint32_t i = 0; i < UART_POLL_BOUND && uart_txfull_read(); i++) {
  }
  uart_rxtx_write((uint8_t)c);
}

void litex_fw_puts(const char *s) {
  while (*s) litex_fw_putc(*s++);
}

void litex_fw_hex(const void *data, size_t len) {
  static const char digits[] = "0123456789abcdef";
  const uint8_t *p = data;
  for (size_t i = 0; i < len; i++) {
    litex_fw_putc(digits[p[i] >> 4]);
    litex_fw_putc(digits[p[i] & 0xf]);
  }
}

void litex_fw_hex32(uint32_t value) {
  for (int shift = 28; shift >= 0; shift -= 4) litex_fw_putc("0123456789abcdef"[(value >> shift) & 0xfu]);
}

void litex_fw_dec(uint32_t value) {
  char buf[11];
  int n = 0;
  do {
    buf[n++] = (char)('0' + value % 10u);
    value /= 10u;
  } while (value);
  while (n) litex_fw_putc(buf[--n]);
}

void litex_fw_exit(int status) {
  litex_fw_puts("EXIT ");
  if (status < 0) {
    litex_fw_putc('-');
    status = -status;
  }
  litex_fw_dec((uint32_t)status);
  litex_fw_putc('\n');
  /* Let the UART drain before the simulation stops. */
  for (uint32_t i = 0; i < UART_POLL_BOUND && !uart_txempty_read(); i++) {
  }
  sim_finish_finish_write(1);
  for (;;) {
  }
}

void litex_fw_trap(uint32_t mcause, uint32_t mepc) {
  litex_fw_puts("TRAP mcause=");
  litex_fw_hex32(mcause);
  litex_fw_puts(" mepc=");
  litex_fw_hex32(mepc);
  litex_fw_putc('\n');
  litex_fw_exit(-1);
}
