/* SPDX-License-Identifier: Apache-2.0 */
/*
 * XIP boot stub (placement "xip", fw/link_xip.ld), called by crt0_xip.S before any flash code
 * runs: configures the XIP controller, programs the OTFAD contexts from the key table at the
 * start of the flash (`aesoc image encrypt` with key_table = 0) and reports the outcome as one
 * record. A table that fails (a blob that does not unwrap under the OTP KEK, a locked context, a
 * bad header) stops here with exit status 0xE0 | -xip_result_t: the context's key is erased, so
 * its region would read back as ciphertext and execute as garbage.
 * An erased table (all ones) boots plaintext; nothing in this SoC demands encryption (a part
 * would have an OTP fuse for that).
 * Everything used here must be in SRAM: functions in .text.boot, constants in .rodata.boot (a
 * string literal would land in the flash's .rodata), the xip_* driver and the platform library's
 * console and trap path (.text.sram; link_xip.ld).
 */
#include <stdint.h>

#include "aesoc.h"
#include "xip.h"
#include "xip_regs.h"

#define BOOT_TEXT __attribute__((section(".text.boot")))
#define BOOT_RODATA __attribute__((section(".rodata.boot")))

/* SCK = clk / 2, 0xEB quad I/O, 4 dummy clocks (the flash model's default), continuous-read mode
 * (later transactions skip the command byte). */
#define BOOT_SCK_DIV 2u
#define BOOT_DUMMY_CLOCKS 4u
#define ERASED_WORD 0xFFFFFFFFu

#define XIP(member) AESOC_REG(AESOC_XIP_BASE, xip_t, member)

extern const uint32_t __xip_key_table[];

void xip_boot(void);
void xip_boot_trap(void);

static const char rec_head[] BOOT_RODATA = AESOC_RECORD_PREFIX "{\"kind\":\"xip_boot\",\"status\":\"";
static const char rec_contexts[] BOOT_RODATA = "\",\"contexts\":";
static const char rec_key_valid[] BOOT_RODATA = ",\"key_valid\":";
static const char rec_active[] BOOT_RODATA = ",\"active\":";
static const char rec_tail[] BOOT_RODATA = "}\n";
static const char st_ok[] BOOT_RODATA = "ok";
static const char st_no_table[] BOOT_RODATA = "no-table";
static const char st_unwrap[] BOOT_RODATA = "unwrap-error";
static const char st_locked[] BOOT_RODATA = "locked";
static const char st_table[] BOOT_RODATA = "bad-table";
static const char st_timeout[] BOOT_RODATA = "timeout";
static const char msg_fail[] BOOT_RODATA = "*** XIP boot failed: ";
static const char msg_unwrap[] BOOT_RODATA =
    "a key blob fails the RFC 3394 integrity check (wrong KEK or corrupted blob)\n";
static const char msg_other[] BOOT_RODATA = "see the xip_boot record\n";
static const char msg_trap[] BOOT_RODATA = "*** trap during XIP boot\n";

static BOOT_TEXT void boot_put_uint(uint32_t v) {
  char buf[11];
  int i = 10;
  buf[i] = '\0';
  do {
    buf[--i] = (char)('0' + v % 10u);
    v /= 10u;
  } while (v);
  aesoc_puts(&buf[i]);
}

static BOOT_TEXT void boot_record(const char *status, uint32_t contexts) {
  uint32_t otfad = XIP(OTFAD_STATUS);
  aesoc_puts(rec_head);
  aesoc_puts(status);
  aesoc_puts(rec_contexts);
  boot_put_uint(contexts);
  aesoc_puts(rec_key_valid);
  boot_put_uint((otfad & XIP__OTFAD_STATUS__KEY_VALID_bm) >> XIP__OTFAD_STATUS__KEY_VALID_bp);
  aesoc_puts(rec_active);
  boot_put_uint((otfad & XIP__OTFAD_STATUS__ACTIVE_bm) >> XIP__OTFAD_STATUS__ACTIVE_bp);
  aesoc_puts(rec_tail);
}

static BOOT_TEXT const char *status_name(int result) {
  if (result == XIP_ERR_UNWRAP) return st_unwrap;
  if (result == XIP_ERR_LOCKED) return st_locked;
  if (result == XIP_ERR_TABLE) return st_table;
  return st_timeout;
}

BOOT_TEXT void xip_boot(void) {
  xip_configure(AESOC_XIP_BASE, BOOT_SCK_DIV, XIP_CMD_QUAD_IO, BOOT_DUMMY_CLOCKS, 1);
  /* The uncached view: no D-cache line of the table outlives the boot. */
  const volatile uint32_t *table = AESOC_UNCACHED(__xip_key_table);
  if (table[0] == ERASED_WORD) {
    boot_record(st_no_table, 0);
    return;
  }
  int n = xip_load_key_table(AESOC_XIP_BASE, table);
  if (n >= 0) {
    boot_record(st_ok, (uint32_t)n);
    return;
  }
  boot_record(status_name(n), table[2]);
  aesoc_puts(msg_fail);
  aesoc_puts(n == XIP_ERR_UNWRAP ? msg_unwrap : msg_other);
  SYSCTRL(SIM_EXIT) = (uint32_t)(AESOC_EXIT_XIP_BOOT_BASE | -n);
  for (;;) {
  }
}

/* mtvec until the boot is done: the usual handler lives in the flash. */
__attribute__((interrupt("machine"))) BOOT_TEXT void xip_boot_trap(void) {
  uint32_t mcause;
  __asm__ volatile("csrr %0, mcause" : "=r"(mcause));
  aesoc_puts(msg_trap);
  SYSCTRL(SIM_EXIT) = 0x80u | (mcause & 0x3Fu);
  for (;;) {
  }
}
