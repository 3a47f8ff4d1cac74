/* SPDX-License-Identifier: Apache-2.0 */
/* xip driver: read configuration, key unwrap and OTFAD contexts (see xip.h). */
#include "xip.h"

#include <stddef.h>

#include "xip_regs.h"

#define XIP_REG(regs, member) (*(volatile uint32_t *)((regs) + offsetof(xip_t, member)))
/* Context registers: regfile CTX[ctx], then the register inside the regfile. */
typedef __typeof__(((xip_t *)0)->CTX[0]) xip_ctx_regs_t;
#define XIP_CTX_REG(regs, ctx, member) \
  (*(volatile uint32_t *)((regs) + offsetof(xip_t, CTX) + (ctx) * sizeof(xip_ctx_regs_t) + offsetof(xip_ctx_regs_t, member)))

#define TABLE_MAGIC 0x4B46544Fu /* "OTFK" read as a little-endian word */
#define TABLE_VERSION 2u
#define XIP_CONTEXTS 4u
#define UNWRAP_POLLS 10000u

void xip_configure(uintptr_t regs, unsigned div, xip_cmd_t cmd, unsigned dummy, int cont) {
  XIP_REG(regs, CFG) = ((uint32_t)div << XIP__CFG__DIV_bp) | ((uint32_t)dummy << XIP__CFG__DUMMY_bp) |
                       ((uint32_t)cmd << XIP__CFG__CMD_bp) | ((cont ? 1u : 0u) << XIP__CFG__CONT_bp);
}

void xip_flush(uintptr_t regs) { XIP_REG(regs, CTRL) = XIP__CTRL__FLUSH_bm; }

xip_result_t xip_unwrap(uintptr_t regs, unsigned ctx, xip_key_t key, const volatile uint32_t *blob) {
  if (ctx >= XIP_CONTEXTS || (key != XIP_KEY_DEC && key != XIP_KEY_MAC) || blob == NULL) return XIP_ERR_ARG;
  volatile uint32_t *kb = &XIP_REG(regs, KEYBLOB[0]);
  for (unsigned i = 0; i < 6; i++) kb[i] = blob[i];
  XIP_REG(regs, OTFAD_STATUS) = XIP__OTFAD_STATUS__UNWRAP_ERR_bm | XIP__OTFAD_STATUS__LOCK_ERR_bm;
  XIP_REG(regs, UNWRAP) = ((uint32_t)ctx << XIP__UNWRAP__CTX_bp) | ((uint32_t)key << XIP__UNWRAP__KEY_bp) |
                          XIP__UNWRAP__GO_bm;
  uint32_t status = XIP_REG(regs, OTFAD_STATUS);
  for (unsigned n = 0; status & XIP__OTFAD_STATUS__BUSY_bm; n++) {
    if (n == UNWRAP_POLLS) return XIP_ERR_TIMEOUT;
    status = XIP_REG(regs, OTFAD_STATUS);
  }
  if (status & XIP__OTFAD_STATUS__LOCK_ERR_bm) return XIP_ERR_LOCKED;
  if (status & XIP__OTFAD_STATUS__UNWRAP_ERR_bm) return XIP_ERR_UNWRAP;
  return XIP_OK;
}

xip_result_t xip_set_integrity(uintptr_t regs, unsigned ctx, uint32_t version, uint32_t tag_base) {
  if (ctx >= XIP_CONTEXTS || (tag_base & ~XIP__CTX_RF__TAGBASE__ADDR_bm) != 0) return XIP_ERR_ARG;
  XIP_CTX_REG(regs, ctx, VERSION) = version;
  XIP_CTX_REG(regs, ctx, TAGBASE) = tag_base;
  return XIP_OK;
}

xip_result_t xip_set_context(uintptr_t regs, unsigned ctx, const volatile uint32_t *blob,
                             const volatile uint32_t *mac_blob, const volatile uint32_t *nonce,
                             uint32_t start, uint32_t end, uint32_t flags) {
  int integ = (flags & XIP_CTX_INTEG) != 0;
  if (ctx >= XIP_CONTEXTS || nonce == NULL || (integ && mac_blob == NULL)) return XIP_ERR_ARG;
  xip_result_t r = xip_unwrap(regs, ctx, XIP_KEY_DEC, blob);
  if (r == XIP_OK && integ) r = xip_unwrap(regs, ctx, XIP_KEY_MAC, mac_blob);
  if (r != XIP_OK) return r;
  XIP_CTX_REG(regs, ctx, NONCE[0]) = nonce[0];
  XIP_CTX_REG(regs, ctx, NONCE[1]) = nonce[1];
  XIP_CTX_REG(regs, ctx, START) = start;
  XIP_CTX_REG(regs, ctx, END) = end;
  uint32_t ctrl = ((flags & XIP_CTX_ENABLE) ? XIP__CTX_RF__CTRL__EN_bm : 0u) |
                  (integ ? XIP__CTX_RF__CTRL__INTEG_bm : 0u) |
                  ((flags & XIP_CTX_SEPARATE) ? ((uint32_t)XIP_LAYOUT_SEPARATE << XIP__CTX_RF__CTRL__LAYOUT_bp) : 0u);
  XIP_CTX_REG(regs, ctx, CTRL) = ctrl;
  /* Refused layouts leave the context disabled rather than failing every read. */
  if (integ && (flags & XIP_CTX_ENABLE) &&
      (XIP_REG(regs, INTEG_STATUS) & (1u << (XIP__INTEG_STATUS__BAD_CFG_bp + ctx)))) {
    XIP_CTX_REG(regs, ctx, CTRL) = 0;
    return XIP_ERR_CONFIG;
  }
  if (flags & XIP_CTX_LOCK) XIP_CTX_REG(regs, ctx, CTRL) = ctrl | XIP__CTX_RF__CTRL__LOCK_bm;
  return XIP_OK;
}

void xip_integ_status(uintptr_t regs, xip_integ_status_t *st) {
  if (st == NULL) return;
  uint32_t s = XIP_REG(regs, INTEG_STATUS);
  st->fail = (s & XIP__INTEG_STATUS__FAIL_bm) != 0;
  st->overflow = (s & XIP__INTEG_STATUS__OVERFLOW_bm) != 0;
  st->ctx = (s & XIP__INTEG_STATUS__CTX_bm) >> XIP__INTEG_STATUS__CTX_bp;
  st->bad_cfg = (s & XIP__INTEG_STATUS__BAD_CFG_bm) >> XIP__INTEG_STATUS__BAD_CFG_bp;
  st->addr = XIP_REG(regs, INTEG_ADDR);
}

void xip_integ_clear(uintptr_t regs) {
  XIP_REG(regs, INTEG_STATUS) = XIP__INTEG_STATUS__FAIL_bm | XIP__INTEG_STATUS__OVERFLOW_bm;
}

void xip_integ_irq_enable(uintptr_t regs, int enable) {
  XIP_REG(regs, INTEG_IE) = enable ? XIP__INTEG_IE__FAIL_bm : 0u;
}

int xip_load_key_table(uintptr_t regs, const volatile uint32_t *table) {
  uint32_t count = table[2];
  if (table[0] != TABLE_MAGIC || table[1] != TABLE_VERSION || count > XIP_CONTEXTS) return XIP_ERR_TABLE;
  for (uint32_t c = 0; c < count; c++) {
    const volatile uint32_t *e = table + XIP_TABLE_HEADER_WORDS + XIP_TABLE_ENTRY_WORDS * c;
    xip_result_t r = xip_set_integrity(regs, c, e[XIP_ENTRY_VERSION], e[XIP_ENTRY_TAG_BASE]);
    if (r == XIP_OK)
      r = xip_set_context(regs, c, e, e + XIP_ENTRY_MAC_BLOB, e + XIP_ENTRY_NONCE, e[XIP_ENTRY_START], e[XIP_ENTRY_END],
                          e[XIP_ENTRY_FLAGS]);
    if (r != XIP_OK) return r;
  }
  return (int)count;
}
