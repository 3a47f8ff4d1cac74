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

/* Key table layout (aesoc/image.py): header of four words, then 12 words per context. */
#define TABLE_MAGIC 0x4B46544Fu /* "OTFK" read as a little-endian word */
#define TABLE_VERSION 1u
#define TABLE_HEADER_WORDS 4u
#define TABLE_ENTRY_WORDS 12u
#define XIP_CONTEXTS 4u
#define UNWRAP_POLLS 10000u

void xip_configure(uintptr_t regs, unsigned div, xip_cmd_t cmd, unsigned dummy, int cont) {
  XIP_REG(regs, CFG) = ((uint32_t)div << XIP__CFG__DIV_bp) | ((uint32_t)dummy << XIP__CFG__DUMMY_bp) |
                       ((uint32_t)cmd << XIP__CFG__CMD_bp) | ((cont ? 1u : 0u) << XIP__CFG__CONT_bp);
}

void xip_flush(uintptr_t regs) { XIP_REG(regs, CTRL) = XIP__CTRL__FLUSH_bm; }

xip_result_t xip_unwrap(uintptr_t regs, unsigned ctx, const volatile uint32_t *blob) {
  volatile uint32_t *kb = &XIP_REG(regs, KEYBLOB[0]);
  for (unsigned i = 0; i < 6; i++) kb[i] = blob[i];
  XIP_REG(regs, OTFAD_STATUS) = XIP__OTFAD_STATUS__UNWRAP_ERR_bm | XIP__OTFAD_STATUS__LOCK_ERR_bm;
  XIP_REG(regs, UNWRAP) = ((uint32_t)ctx << XIP__UNWRAP__CTX_bp) | XIP__UNWRAP__GO_bm;
  uint32_t status = XIP_REG(regs, OTFAD_STATUS);
  for (unsigned n = 0; status & XIP__OTFAD_STATUS__BUSY_bm; n++) {
    if (n == UNWRAP_POLLS) return XIP_ERR_TIMEOUT;
    status = XIP_REG(regs, OTFAD_STATUS);
  }
  if (status & XIP__OTFAD_STATUS__LOCK_ERR_bm) return XIP_ERR_LOCKED;
  if (status & XIP__OTFAD_STATUS__UNWRAP_ERR_bm) return XIP_ERR_UNWRAP;
  return XIP_OK;
}

xip_result_t xip_set_context(uintptr_t regs, unsigned ctx, const volatile uint32_t *blob,
                             const volatile uint32_t *nonce, uint32_t start, uint32_t end,
                             uint32_t flags) {
  xip_result_t r = xip_unwrap(regs, ctx, blob);
  if (r != XIP_OK) return r;
  XIP_CTX_REG(regs, ctx, NONCE[0]) = nonce[0];
  XIP_CTX_REG(regs, ctx, NONCE[1]) = nonce[1];
  XIP_CTX_REG(regs, ctx, START) = start;
  XIP_CTX_REG(regs, ctx, END) = end;
  XIP_CTX_REG(regs, ctx, CTRL) = flags & (XIP_CTX_ENABLE | XIP_CTX_LOCK);
  return XIP_OK;
}

int xip_load_key_table(uintptr_t regs, const volatile uint32_t *table) {
  uint32_t count = table[2];
  if (table[0] != TABLE_MAGIC || table[1] != TABLE_VERSION || count > XIP_CONTEXTS) return XIP_ERR_TABLE;
  for (uint32_t c = 0; c < count; c++) {
    const volatile uint32_t *e = table + TABLE_HEADER_WORDS + TABLE_ENTRY_WORDS * c;
    xip_result_t r = xip_set_context(regs, c, e, e + 6, e[8], e[9], e[10]);
    if (r != XIP_OK) return r;
  }
  return (int)count;
}
