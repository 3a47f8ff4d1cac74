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
#define TABLE_VERSION 3u
#define XIP_CONTEXTS 4u
#define UNWRAP_POLLS 10000u

void xip_configure(uintptr_t regs, unsigned div, xip_cmd_t cmd, unsigned dummy, int cont) {
  XIP_REG(regs, CFG) = ((uint32_t)div << XIP__CFG__DIV_bp) | ((uint32_t)dummy << XIP__CFG__DUMMY_bp) |
                       ((uint32_t)cmd << XIP__CFG__CMD_bp) | ((cont ? 1u : 0u) << XIP__CFG__CONT_bp);
}

void xip_flush(uintptr_t regs) { XIP_REG(regs, CTRL) = XIP__CTRL__FLUSH_bm; }

xip_result_t xip_unwrap_context(uintptr_t regs, unsigned ctx, const volatile uint32_t *blob) {
  if (ctx >= XIP_CONTEXTS || blob == NULL) return XIP_ERR_ARG;
  volatile uint32_t *kb = &XIP_REG(regs, KEYBLOB[0]);
  for (unsigned i = 0; i < XIP_BLOB_WORDS; i++) kb[i] = blob[i];
  const uint32_t errors = XIP__OTFAD_STATUS__UNWRAP_ERR_bm | XIP__OTFAD_STATUS__LOCK_ERR_bm |
                          XIP__OTFAD_STATUS__VERSION_ERR_bm | XIP__OTFAD_STATUS__POLICY_ERR_bm;
  XIP_REG(regs, OTFAD_STATUS) = errors;
  XIP_REG(regs, UNWRAP) = ((uint32_t)ctx << XIP__UNWRAP__CTX_bp) | XIP__UNWRAP__GO_bm;
  uint32_t status = XIP_REG(regs, OTFAD_STATUS);
  for (unsigned n = 0; status & XIP__OTFAD_STATUS__BUSY_bm; n++) {
    if (n == UNWRAP_POLLS) return XIP_ERR_TIMEOUT;
    status = XIP_REG(regs, OTFAD_STATUS);
  }
  if (status & XIP__OTFAD_STATUS__LOCK_ERR_bm) return XIP_ERR_LOCKED;
  if (status & XIP__OTFAD_STATUS__UNWRAP_ERR_bm) return XIP_ERR_UNWRAP;
  if (status & XIP__OTFAD_STATUS__VERSION_ERR_bm) return XIP_ERR_VERSION;
  if (status & XIP__OTFAD_STATUS__POLICY_ERR_bm) return XIP_ERR_POLICY;
  if (XIP_REG(regs, INTEG_STATUS) & (1u << (XIP__INTEG_STATUS__BAD_CFG_bp + ctx))) return XIP_ERR_CONFIG;
  return XIP_OK;
}

void xip_lock(uintptr_t regs) { XIP_REG(regs, LOCK) = XIP__LOCK__LOCK_bm; }

int xip_integ_required(uintptr_t regs) { return (XIP_REG(regs, POLICY) & XIP__POLICY__INTEG_REQ_bm) != 0; }

uint32_t xip_min_version(uintptr_t regs) { return XIP_REG(regs, MIN_VERSION); }

void xip_raise_min_version(uintptr_t regs, uint32_t version) { XIP_REG(regs, MIN_VERSION_RAISE) = version; }

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
    xip_result_t r = xip_unwrap_context(regs, c, table + XIP_TABLE_HEADER_WORDS + XIP_BLOB_WORDS * c);
    if (r != XIP_OK) return r;
  }
  return (int)count;
}
