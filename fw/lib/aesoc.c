/* SPDX-License-Identifier: Apache-2.0 */
/* aesoc platform library: console, exit, traps, interrupts, structured records. */
#include "aesoc.h"

#include <stdio.h>
#include <stdlib.h>

unsigned aesoc_check_failures;

/* The trap path runs from SRAM in a program executing in place (fw/link_xip.ld keeps .text.sram
 * and .rodata.sram there): when the flash fails its integrity check, the trap handler must still
 * be able to say so. Under fw/link.ld these are ordinary .text and .rodata. */
#define SRAM_TEXT __attribute__((section(".text.sram")))
#define SRAM_RODATA __attribute__((section(".rodata.sram")))

SRAM_TEXT void aesoc_putc(char c) { SYSCTRL(CONSOLE) = (uint8_t)c; }

SRAM_TEXT void aesoc_puts(const char *s) {
  while (*s) aesoc_putc(*s++);
}

SRAM_TEXT void aesoc_exit(int code) {
  SYSCTRL(SIM_EXIT) = (uint32_t)code & 0xFFu;
  for (;;) {
  }
}

/* picolibc: exit() ends in _exit(); stdout goes to the console. */
void _exit(int code) { aesoc_exit(code); }

static int console_put(char c, FILE *file) {
  (void)file;
  aesoc_putc(c);
  return (unsigned char)c;
}

static FILE console = FDEV_SETUP_STREAM(console_put, NULL, NULL, _FDEV_SETUP_WRITE);
FILE *const stdin = &console;
FILE *const stdout = &console;
FILE *const stderr = &console;

void aesoc_irq_unmask_line(unsigned line) {
  uint32_t bit = 1u << line;
  __asm__ volatile("csrs 0xBC0, %0" ::"r"(bit));
}

void aesoc_irq_mask_line(unsigned line) {
  uint32_t bit = (1u << line) & 0x7FFFFFFFu; /* never clear the CFU enable */
  __asm__ volatile("csrc 0xBC0, %0" ::"r"(bit));
}

void aesoc_timer_set(uint64_t mtimecmp) {
  /* Raise the high half first so no spurious match is seen between the two writes. */
  SYSCTRL(MTIMECMP_HI) = 0xFFFFFFFFu;
  SYSCTRL(MTIMECMP_LO) = (uint32_t)mtimecmp;
  SYSCTRL(MTIMECMP_HI) = (uint32_t)(mtimecmp >> 32);
}

__attribute__((weak)) void aesoc_timer_irq(void) { aesoc_timer_set(UINT64_MAX); }

__attribute__((weak)) void aesoc_external_irq(uint32_t pending) { (void)pending; }

#define MCAUSE_IRQ (1u << 31) /* mcause: the trap is an interrupt */
#define IRQ_TIMER 7u
#define IRQ_EXTERNAL 11u

static const char msg_bus_error[] SRAM_RODATA = "\n*** bus error: master ";
static const char msg_address[] SRAM_RODATA = " address 0x";
static const char msg_trap[] SRAM_RODATA = "\n*** trap: mcause=";
static const char msg_mepc[] SRAM_RODATA = " mepc=0x";
static const char msg_mtval[] SRAM_RODATA = " mtval=0x";
static const char hex_digits[] SRAM_RODATA = "0123456789abcdef";

SRAM_TEXT static void put_hex32(uint32_t v) {
  for (int shift = 28; shift >= 0; shift -= 4) aesoc_putc(hex_digits[(v >> shift) & 0xFu]);
}

SRAM_TEXT static void put_small(uint32_t v) { /* below 100: an mcause or a master index */
  if (v >= 10u) aesoc_putc((char)('0' + v / 10u));
  aesoc_putc((char)('0' + v % 10u));
}

/* Line 0: a CPU access ended in bus ERR. It is imprecise (the access was acknowledged with 0 so
 * the core could not hang), so the only safe reaction is to stop. */
SRAM_TEXT static void report_bus_error(void) {
  uint32_t status = SYSCTRL(BUS_ERR_STATUS);
  aesoc_puts(msg_bus_error);
  put_small((status & SYSCTRL__BUS_ERR_STATUS__MASTER_bm) >> SYSCTRL__BUS_ERR_STATUS__MASTER_bp);
  aesoc_puts(msg_address);
  put_hex32(SYSCTRL(BUS_ERR_ADDR));
  aesoc_putc('\n');
  aesoc_exit(AESOC_EXIT_BUS_ERROR);
}

void aesoc_trap(uint32_t mcause, uint32_t mepc, uint32_t mtval);
SRAM_TEXT void aesoc_trap(uint32_t mcause, uint32_t mepc, uint32_t mtval) {
  if (mcause & MCAUSE_IRQ) {
    uint32_t code = mcause & 0x1Fu;
    if (code == IRQ_TIMER) {
      aesoc_timer_irq();
    } else if (code == IRQ_EXTERNAL) {
      uint32_t pending;
      __asm__ volatile("csrr %0, 0xFC0" : "=r"(pending));
      if (pending & 1u) {
        report_bus_error();
      }
      aesoc_external_irq(pending & ~1u);
    }
    return;
  }
  aesoc_puts(msg_trap);
  put_small(mcause & 0x3Fu);
  aesoc_puts(msg_mepc);
  put_hex32(mepc);
  aesoc_puts(msg_mtval);
  put_hex32(mtval);
  aesoc_putc('\n');
  /* An instruction fetch that ended in a bus error returns zeros, an illegal instruction that
   * traps before the (imprecise) bus-error interrupt is taken: the bus error is the cause. */
  if (SYSCTRL(BUS_ERR_STATUS) & SYSCTRL__BUS_ERR_STATUS__PENDING_bm) report_bus_error();
  aesoc_exit(AESOC_EXIT_TRAP_BASE | (int)(mcause & 0x3Fu));
}

static void put_u64(uint64_t v) {
  char buf[21];
  int i = 20;
  buf[i] = '\0';
  do {
    buf[--i] = (char)('0' + v % 10u);
    v /= 10u;
  } while (v);
  aesoc_puts(&buf[i]);
}

static void put_json_string(const char *s) {
  aesoc_putc('"');
  for (; *s; ++s) {
    if (*s == '"' || *s == '\\') aesoc_putc('\\');
    aesoc_putc(*s);
  }
  aesoc_putc('"');
}

static void rec_key(const char *key) {
  aesoc_putc(',');
  put_json_string(key);
  aesoc_putc(':');
}

void aesoc_rec_begin(const char *kind) {
  aesoc_puts(AESOC_RECORD_PREFIX "{\"kind\":");
  put_json_string(kind);
}

void aesoc_rec_str(const char *key, const char *value) {
  rec_key(key);
  put_json_string(value);
}

void aesoc_rec_u64(const char *key, uint64_t value) {
  rec_key(key);
  put_u64(value);
}

void aesoc_rec_i64(const char *key, int64_t value) {
  rec_key(key);
  if (value < 0) {
    aesoc_putc('-');
    put_u64((uint64_t)0 - (uint64_t)value);
  } else {
    put_u64((uint64_t)value);
  }
}

void aesoc_rec_hex(const char *key, const void *data, size_t len) {
  static const char digits[] = "0123456789abcdef";
  const uint8_t *p = data;
  rec_key(key);
  aesoc_putc('"');
  for (size_t i = 0; i < len; ++i) {
    aesoc_putc(digits[p[i] >> 4]);
    aesoc_putc(digits[p[i] & 15u]);
  }
  aesoc_putc('"');
}

void aesoc_rec_end(void) { aesoc_puts("}\n"); }

void aesoc_check_failed(const char *file, int line, const char *what) {
  ++aesoc_check_failures;
  printf("CHECK FAILED %s:%d: %s\n", file, line, what);
}
