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
 *
 * Keys never pass through software in clear: the table holds RFC 3394 wrapped keys that the
 * controller unwraps with its OTP key-encryption key. Waits are bounded.
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
  XIP_KEY_DEC = XIP__XIP_KEY__DEC,  /* the AES-CTR decryption key */
  XIP_KEY_MAC = XIP__XIP_KEY__MAC,  /* the AES-CMAC line-integrity key */
} xip_key_t;

typedef enum {
  XIP_LAYOUT_INTERLEAVED = XIP__XIP_TAG_LAYOUT__INTERLEAVED,  /* tag after each 32-byte line */
  XIP_LAYOUT_SEPARATE = XIP__XIP_TAG_LAYOUT__SEPARATE,        /* tags at TAGBASE */
} xip_layout_t;

typedef enum {
  XIP_OK = 0,
  XIP_ERR_UNWRAP = -1,   /* the key blob failed the RFC 3394 integrity check */
  XIP_ERR_LOCKED = -2,   /* the context is locked */
  XIP_ERR_TABLE = -3,    /* no valid key table at that address */
  XIP_ERR_TIMEOUT = -4,  /* the unwrap engine did not finish */
  XIP_ERR_ARG = -5,      /* an argument out of range */
  XIP_ERR_CONFIG = -6,   /* an integrity context the controller refuses (INTEG_STATUS.BAD_CFG) */
} xip_result_t;

/* Context flags (key table word +64, xip_set_context). */
#define XIP_CTX_ENABLE 1u
#define XIP_CTX_LOCK 2u
#define XIP_CTX_INTEG 4u
#define XIP_CTX_SEPARATE 8u /* tag layout SEPARATE (else INTERLEAVED) */

/* Key table version 2 (`aesoc image encrypt`, docs/xip.md "Image layout"), in 32-bit words: a
 * header of XIP_TABLE_HEADER_WORDS (magic, version, count, 0), then XIP_TABLE_ENTRY_WORDS per
 * context with these fields. */
enum {
  XIP_TABLE_HEADER_WORDS = 4,
  XIP_TABLE_ENTRY_WORDS = 20,
  XIP_ENTRY_BLOB = 0,      /* wrapped decryption key, 6 words */
  XIP_ENTRY_MAC_BLOB = 6,  /* wrapped MAC key, 6 words (zero without integrity) */
  XIP_ENTRY_NONCE = 12,    /* 2 words */
  XIP_ENTRY_START = 14,
  XIP_ENTRY_END = 15,
  XIP_ENTRY_FLAGS = 16,    /* XIP_CTX_* */
  XIP_ENTRY_VERSION = 17,
  XIP_ENTRY_TAG_BASE = 18,
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

/* Unwrap a 24-byte blob (six words in memory order) into key `key` of context ctx. */
xip_result_t xip_unwrap(uintptr_t regs, unsigned ctx, xip_key_t key, const volatile uint32_t *blob);

/* Integrity settings of a context: image version and (SEPARATE layout) tag base. Write them
 * before xip_set_context enables the context. */
xip_result_t xip_set_integrity(uintptr_t regs, unsigned ctx, uint32_t version, uint32_t tag_base);

/* Unwrap the decryption key (and, with XIP_CTX_INTEG, the MAC key mac_blob), then set nonce (two
 * words in memory order), [start, end) and CTRL from flags (XIP_CTX_*); LOCK is written last.
 * An integrity context the controller refuses gives XIP_ERR_CONFIG (it is left disabled). */
xip_result_t xip_set_context(uintptr_t regs, unsigned ctx, const volatile uint32_t *blob,
                             const volatile uint32_t *mac_blob, const volatile uint32_t *nonce,
                             uint32_t start, uint32_t end, uint32_t flags);

/* Read the integrity status; xip_integ_clear clears FAIL and OVERFLOW (releasing the address). */
void xip_integ_status(uintptr_t regs, xip_integ_status_t *st);
void xip_integ_clear(uintptr_t regs);
/* irq_o on integrity failures. */
void xip_integ_irq_enable(uintptr_t regs, int enable);

/* Program every context of a version-2 key table written by `aesoc image encrypt`; returns the
 * number of contexts or an xip_result_t error (XIP_ERR_TABLE for a version-1 table). */
int xip_load_key_table(uintptr_t regs, const volatile uint32_t *table);

#endif
