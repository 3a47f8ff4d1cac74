/* SPDX-License-Identifier: Apache-2.0 */
/*
 * XIP boot stub (placement "xip", fw/link_xip.ld), called by crt0_xip.S before any flash code
 * runs: configures the XIP controller, arms the OTFAD contexts from the key table at the start of
 * the flash (`aesoc image encrypt` with key_table = 0), raises the anti-rollback minimum to the
 * image's version, sets the controller's LOCK and reports the outcome as one record. A table
 * that fails (a blob that does not unwrap under the OTP KEK or names another slot: any changed
 * byte of a context's description; a locked context; a bad header; a version below the OTP
 * minimum; a context without integrity while the OTP policy requires it) stops here with exit
 * status 0xE0 | -xip_result_t, before any flash instruction runs.
 * An erased table (all ones) boots plaintext unless the OTP policy requires integrity.
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
static const char rec_policy[] BOOT_RODATA = ",\"integ_required\":";
static const char rec_min_version[] BOOT_RODATA = ",\"min_version\":";
static const char rec_cycles[] BOOT_RODATA = ",\"cycles\":";
static const char rec_tail[] BOOT_RODATA = "}\n";
static const char st_ok[] BOOT_RODATA = "ok";
static const char st_no_table[] BOOT_RODATA = "no-table";
static const char st_unwrap[] BOOT_RODATA = "unwrap-error";
static const char st_locked[] BOOT_RODATA = "locked";
static const char st_table[] BOOT_RODATA = "bad-table";
static const char st_timeout[] BOOT_RODATA = "timeout";
static const char st_config[] BOOT_RODATA = "bad-config";
static const char st_version[] BOOT_RODATA = "rollback";
static const char st_policy[] BOOT_RODATA = "policy";
static const char msg_fail[] BOOT_RODATA = "*** XIP boot failed: ";
static const char msg_unwrap[] BOOT_RODATA =
    "a context blob fails the RFC 3394 integrity check (wrong KEK, changed entry or another slot's blob)\n";
static const char msg_version[] BOOT_RODATA = "the image's version is below the OTP minimum\n";
static const char msg_policy[] BOOT_RODATA = "the OTP policy requires integrity for every context\n";
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
  uint32_t cycles = aesoc_cycles32(); /* from reset: the boot's cost, before any console output */
  uint32_t otfad = XIP(OTFAD_STATUS);
  aesoc_puts(rec_head);
  aesoc_puts(status);
  aesoc_puts(rec_contexts);
  boot_put_uint(contexts);
  aesoc_puts(rec_key_valid);
  boot_put_uint((otfad & XIP__OTFAD_STATUS__KEY_VALID_bm) >> XIP__OTFAD_STATUS__KEY_VALID_bp);
  aesoc_puts(rec_active);
  boot_put_uint((otfad & XIP__OTFAD_STATUS__ACTIVE_bm) >> XIP__OTFAD_STATUS__ACTIVE_bp);
  aesoc_puts(rec_policy);
  boot_put_uint((uint32_t)xip_integ_required(AESOC_XIP_BASE));
  aesoc_puts(rec_min_version);
  boot_put_uint(xip_min_version(AESOC_XIP_BASE));
  aesoc_puts(rec_cycles);
  boot_put_uint(cycles);
  aesoc_puts(rec_tail);
}

/* By -xip_result_t. A table in .rodata.boot, not an if-chain: the compiler may turn one into a
 * lookup table in the flash's .rodata, which is not readable yet. */
static const char *const status_names[] BOOT_RODATA = {
    [-XIP_ERR_UNWRAP] = st_unwrap, [-XIP_ERR_LOCKED] = st_locked,   [-XIP_ERR_TABLE] = st_table,
    [-XIP_ERR_TIMEOUT] = st_timeout, [-XIP_ERR_ARG] = st_timeout,   [-XIP_ERR_CONFIG] = st_config,
    [-XIP_ERR_VERSION] = st_version, [-XIP_ERR_POLICY] = st_policy,
};
static const char *const messages[] BOOT_RODATA = {
    [-XIP_ERR_UNWRAP] = msg_unwrap, [-XIP_ERR_LOCKED] = msg_other,   [-XIP_ERR_TABLE] = msg_other,
    [-XIP_ERR_TIMEOUT] = msg_other, [-XIP_ERR_ARG] = msg_other,      [-XIP_ERR_CONFIG] = msg_other,
    [-XIP_ERR_VERSION] = msg_version, [-XIP_ERR_POLICY] = msg_policy,
};

/* The anti-rollback step: the lowest version among the armed contexts (read back from the
 * controller, which took it from the authenticated blobs) becomes the minimum, so this image
 * keeps booting and every older one stops. A part would burn it into its OTP counter. */
static BOOT_TEXT void commit_version(uint32_t contexts) {
  if (contexts == 0) return;
  uint32_t version = UINT32_MAX;
  for (uint32_t c = 0; c < contexts; c++) {
    uint32_t v = XIP(CTX[c].VERSION);
    if (v < version) version = v;
  }
  xip_raise_min_version(AESOC_XIP_BASE, version);
}

BOOT_TEXT void xip_boot(void) {
  xip_configure(AESOC_XIP_BASE, BOOT_SCK_DIV, XIP_CMD_QUAD_IO, BOOT_DUMMY_CLOCKS, 1);
  /* The uncached view: no D-cache line of the table outlives the boot. */
  const volatile uint32_t *table = AESOC_UNCACHED(__xip_key_table);
  const int required = xip_integ_required(AESOC_XIP_BASE);
  const int erased = table[0] == ERASED_WORD;
  int n = erased ? 0 : xip_load_key_table(AESOC_XIP_BASE, table);
  /* With the policy fuse nothing outside an integrity context is served after LOCK: a table
   * without contexts would only end in bus errors, so stop here with the policy's code. */
  if (n == 0 && required) n = XIP_ERR_POLICY;
  if (n >= 0) {
    commit_version((uint32_t)n);
    xip_lock(AESOC_XIP_BASE);
    boot_record(erased ? st_no_table : st_ok, (uint32_t)n);
    return;
  }
  boot_record(status_names[-n], erased ? 0u : table[2]);
  aesoc_puts(msg_fail);
  aesoc_puts(messages[-n]);
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
