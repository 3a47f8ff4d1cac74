/* SPDX-License-Identifier: Apache-2.0 */
/* litex_fw: console set-up and simulation exit on LiteX's libbase and generated CSR accessors. */
#include "litex_fw.h"

#include <generated/csr.h>
#include <irq.h>
#include <libbase/uart.h>
#include <stdio.h>

/* LiteX's VexRiscv keeps the CFU enable in bit 31 of the interrupt-mask CSR 0xBC0. */
#define CFU_ENABLE (1u << 31)

void litex_fw_init(void) {
  irq_setmask(irq_getmask() & CFU_ENABLE);
  irq_setie(1);
  uart_init();
}

uint64_t litex_fw_cycles(void) {
  timer0_uptime_latch_write(1);
  return timer0_uptime_cycles_read();
}

void litex_fw_hex(const void *data, size_t len) {
  const uint8_t *p = data;
  for (size_t i = 0; i < len; i++) printf("%02x", p[i]);
}

void litex_fw_exit(int status) {
  printf("CYCLES %llu\n", (unsigned long long)litex_fw_cycles());
  printf("EXIT %d\n", status);
  uart_sync(); /* the interrupt-driven UART drains before the simulation stops */
  sim_finish_finish_write(1);
  for (;;) {
  }
}
