/* SPDX-License-Identifier: Apache-2.0 */
/*
 * xip driver: the XIP flash controller with on-the-fly AES-CTR decryption (OTFAD).
 *
 * Every call takes the base address of the controller's register window, so the driver does
 * not depend on where the SoC maps it. Typical boot code (the image comes from
 * `aesoc image encrypt`, which puts the key table at the description's key_table offset):
 *
 *   xip_configure(XIP_REGS, 2, XIP_CMD_QUAD_IO, 4, 1);          // SCK = clk/2, 0xEB, continuous
 *   int n = xip_load_key_table(XIP_REGS, (const volatile uint32_t *)(FLASH_UNCACHED + 0x400));
 *   if (n < 0) ... handle XIP_ERR_*; else n contexts decrypt from now on
 *   xip_lock(XIP_REGS);                                           // nothing changes until reset
 *
 * Neither keys nor context settings pass through software in clear: the table holds one RFC 3394
 * wrap per context of its whole description (keys, nonce, bounds, flags, version, tag base, slot),
 * which the controller unwraps with its OTP key-encryption key and loads into the context itself.
 * Waits are bounded.
 *
 * The SoC's boot stub for firmware executing in place is fw/xip_boot.c. fw/link_xip.ld keeps
 * every function named xip_* in SRAM (reconfiguring the controller from code it is fetching is
 * unsafe, and encrypted flash is unreadable before the contexts are loaded): give any new
 * function or helper of this driver that prefix.
 */
#ifndef XIP_H
#define XIP_H

#include <stdint.h>

#include "xip_enums.h"

typedef enum {
  XIP_CMD_READ = XIP__XIP_READ_CMD__READ,      /* 0x03, no dummy clocks */
  XIP_CMD_FAST = XIP__XIP_READ_CMD__FAST,      /* 0x0B */
  XIP_CMD_QUAD_OUT = XIP__XIP_READ_CMD__QOUT,  /* 0x6B */
  XIP_CMD_QUAD_IO = XIP__XIP_READ_CMD__QIO,    /* 0xEB, mode bits, optional continuous-read mode */
} xip_cmd_t;

typedef enum {
  XIP_LAYOUT_INTERLEAVED = XIP__XIP_TAG_LAYOUT__INTERLEAVED,  /* tag after each 32-byte line */
  XIP_LAYOUT_SEPARATE = XIP__XIP_TAG_LAYOUT__SEPARATE,        /* tags at TAGBASE */
} xip_layout_t;

typedef enum {
  XIP_OK = 0,
  XIP_ERR_UNWRAP = -1,   /* the blob failed the RFC 3394 check or belongs to another slot */
  XIP_ERR_LOCKED = -2,   /* the context (or the whole controller: LOCK) is locked */
  XIP_ERR_TABLE = -3,    /* no valid key table at that address */
  XIP_ERR_TIMEOUT = -4,  /* the unwrap engine did not finish */
  XIP_ERR_ARG = -5,      /* an argument out of range */
  XIP_ERR_CONFIG = -6,   /* an integrity context the controller refuses (INTEG_STATUS.BAD_CFG) */
  XIP_ERR_VERSION = -7,  /* the description's version is below MIN_VERSION (rollback) */
  XIP_ERR_POLICY = -8,   /* POLICY.INTEG_REQ: a context without integrity, or none at all */
} xip_result_t;

/* Context description flags (inside the wrap; docs/xip.md "The key table"). */
#define XIP_CTX_ENABLE 1u
#define XIP_CTX_LOCK 2u
#define XIP_CTX_INTEG 4u
#define XIP_CTX_SEPARATE 8u /* tag layout SEPARATE (else INTERLEAVED) */

/* Key table version 3 (`aesoc image encrypt`, docs/xip.md "The key table"), in 32-bit words: a
 * header of XIP_TABLE_HEADER_WORDS (magic, version, count, 0), then one context blob of
 * XIP_BLOB_WORDS per context, context c's blob naming slot c. */
enum {
  XIP_TABLE_HEADER_WORDS = 4,
  XIP_BLOB_WORDS = 18,
};

/* An integrity failure as INTEG_STATUS/INTEG_ADDR recorded it. */
typedef struct {
  int fail;           /* a read ended in ERR on a line that failed or cannot be checked */
  int overflow;       /* more failures came after the first */
  unsigned ctx;       /* context of the first failure */
  uint32_t addr;      /* its line's logical flash offset */
  unsigned bad_cfg;   /* contexts with INTEG and EN whose layout is refused (bit n: context n) */
} xip_integ_status_t;

/* Read command, SCK divider (>= 2), dummy clocks and continuous-read mode (0xEB only). Ends the
 * open flash transaction and empties the prefetch buffer. */
void xip_configure(uintptr_t regs, unsigned div, xip_cmd_t cmd, unsigned dummy, int cont);

/* End the open flash transaction and empty the prefetch buffer. */
void xip_flush(uintptr_t regs);

/* Unwrap a 72-byte context blob (XIP_BLOB_WORDS words in memory order) into context ctx: on
 * success the controller loads the keys and every context register from it. An armed integrity
 * context whose layout the controller refuses gives XIP_ERR_CONFIG. */
xip_result_t xip_unwrap_context(uintptr_t regs, unsigned ctx, const volatile uint32_t *blob);

/* Set the global LOCK: no unwrap and no context register write until reset; with the integrity
 * policy fuse, only reads inside armed integrity contexts are answered from then on. */
void xip_lock(uintptr_t regs);

/* The OTP policy: integrity required (POLICY.INTEG_REQ), the anti-rollback minimum version. */
int xip_integ_required(uintptr_t regs);
uint32_t xip_min_version(uintptr_t regs);
/* Raise the minimum version to `version` (never lowers it). */
void xip_raise_min_version(uintptr_t regs, uint32_t version);

/* Read the integrity status; xip_integ_clear clears FAIL and OVERFLOW (releasing the address). */
void xip_integ_status(uintptr_t regs, xip_integ_status_t *st);
void xip_integ_clear(uintptr_t regs);
/* irq_o on integrity failures. */
void xip_integ_irq_enable(uintptr_t regs, int enable);

/* Arm every context of a version-3 key table written by `aesoc image encrypt`; returns the
 * number of contexts or an xip_result_t error (XIP_ERR_TABLE for an older table). */
int xip_load_key_table(uintptr_t regs, const volatile uint32_t *table);

#endif
