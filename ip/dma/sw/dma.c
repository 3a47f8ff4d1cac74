/* SPDX-License-Identifier: Apache-2.0 */
/* dma: driver for the DMA controller. Offsets and fields come from the generated dma_regs.h. */
#include "dma.h"

#include "dma_regs.h"

#define REG_AT(dma, off) (*(volatile uint32_t *)((dma)->base + (off)))
#define REG(dma, member) REG_AT(dma, offsetof(dma_regs_t, member))
/* Channel registers: regfile CH[ch], then the register inside the regfile. */
#define CH_STRIDE sizeof(dma_chan_regs_t)
#define CH_REG(dma, ch, member) REG_AT(dma, offsetof(dma_regs_t, CH) + (ch) * CH_STRIDE + offsetof(dma_chan_regs_t, member))
#define FIELD(value, name) (((uint32_t)(value) << DMA_REGS__##name##_bp) & DMA_REGS__##name##_bm)
#define GET(value, name) (((uint32_t)(value) & DMA_REGS__##name##_bm) >> DMA_REGS__##name##_bp)

_Static_assert(sizeof(dma_desc_t) == 16, "descriptor layout");

#define DMA_ID 0x444D4143u /* 'DMAC' */

static bool ch_ok(unsigned ch) { return ch < DMA_NUM_CHANNELS; }
static bool word_aligned(uintptr_t a) { return (a & 3u) == 0; }
static bool len_ok(uint32_t len) { return len != 0 && (len & 3u) == 0 && len <= DMA_MAX_LEN; }

void dma_init(dma_t *dma, uintptr_t base) {
  if (!dma) return;
  dma->base = base;
  dma->fifo_depth = 0;
  dma->num_req = 0;
}

dma_result_t dma_probe(dma_t *dma) {
  if (!dma) return DMA_BAD_ARG;
  if (REG(dma, ID) != DMA_ID) return DMA_NO_DEV;
  uint32_t hw = REG(dma, HWCFG);
  dma->fifo_depth = GET(hw, HWCFG__FIFO_DEPTH);
  dma->num_req = GET(hw, HWCFG__NUM_REQ);
  return GET(hw, HWCFG__CHANNELS) == DMA_NUM_CHANNELS ? DMA_OK : DMA_NO_DEV;
}

dma_chan_config_t dma_default_config(void) {
  dma_chan_config_t cfg = {
      .src_mode = DMA_ADDR_INC,
      .dst_mode = DMA_ADDR_INC,
      .burst = 8,
      .block_words = 4,
      .src_req = DMA_REQ_NONE,
      .dst_req = DMA_REQ_NONE,
      .prio = 0,
      .bus_prio = false,
      .prefetch = true,
      .fifo_limit = 0,
  };
  return cfg;
}

static bool req_ok(const dma_t *dma, int req) {
  if (req == DMA_REQ_NONE) return true;
  unsigned lines = dma->num_req ? dma->num_req : 8u; /* unknown before dma_probe: let hardware check */
  return req >= 0 && (unsigned)req < lines;
}

static uint32_t burst_code(unsigned burst) {
  return burst == 8 ? DMA_REGS__DMA_BURST__BL_8 : burst == 4 ? DMA_REGS__DMA_BURST__BL_4 : DMA_REGS__DMA_BURST__BL_1;
}

dma_result_t dma_config(dma_t *dma, unsigned ch, const dma_chan_config_t *cfg) {
  if (!dma || !cfg || !ch_ok(ch)) return DMA_BAD_ARG;
  if (cfg->src_mode > DMA_ADDR_WRAP || cfg->dst_mode > DMA_ADDR_WRAP) return DMA_BAD_ARG;
  if (cfg->burst != 1 && cfg->burst != 4 && cfg->burst != 8) return DMA_BAD_ARG;
  if (cfg->block_words == 0 || cfg->block_words > 255) return DMA_BAD_ARG;
  if (!req_ok(dma, cfg->src_req) || !req_ok(dma, cfg->dst_req) || cfg->prio > 3) return DMA_BAD_ARG;
  unsigned limit = cfg->fifo_limit;
  unsigned effective = (limit == 0 || (dma->fifo_depth && limit > dma->fifo_depth)) ? dma->fifo_depth : limit;
  if (limit > 127 || (effective && effective < 2 * cfg->burst)) return DMA_BAD_ARG;
  if (dma_busy(dma, ch)) return DMA_BUSY;
  uint32_t ctrl = FIELD(cfg->src_mode, DMA_CHAN__CTRL__SRC_MODE) | FIELD(cfg->dst_mode, DMA_CHAN__CTRL__DST_MODE) |
                  FIELD(burst_code(cfg->burst), DMA_CHAN__CTRL__BURST) | FIELD(cfg->prefetch, DMA_CHAN__CTRL__PREFETCH) |
                  FIELD(cfg->prio, DMA_CHAN__CTRL__PRIO) | FIELD(cfg->bus_prio, DMA_CHAN__CTRL__BUS_PRIO);
  if (cfg->src_req != DMA_REQ_NONE) {
    ctrl |= FIELD(1u, DMA_CHAN__CTRL__SRC_REQ_EN) | FIELD((uint32_t)cfg->src_req, DMA_CHAN__CTRL__SRC_REQ_SEL);
  }
  if (cfg->dst_req != DMA_REQ_NONE) {
    ctrl |= FIELD(1u, DMA_CHAN__CTRL__DST_REQ_EN) | FIELD((uint32_t)cfg->dst_req, DMA_CHAN__CTRL__DST_REQ_SEL);
  }
  CH_REG(dma, ch, CTRL) = ctrl;
  CH_REG(dma, ch, FLOW) = FIELD(cfg->block_words, DMA_CHAN__FLOW__BLOCK) | FIELD(limit, DMA_CHAN__FLOW__FIFO_LIMIT);
  return DMA_OK;
}

dma_result_t dma_set_transfer(dma_t *dma, unsigned ch, uintptr_t src, uintptr_t dst, uint32_t len,
                              const dma_desc_t *next) {
  if (!dma || !ch_ok(ch) || !word_aligned(src) || !word_aligned(dst) || !len_ok(len)) return DMA_BAD_ARG;
  if (next && !word_aligned((uintptr_t)next)) return DMA_BAD_ARG;
  if (dma_busy(dma, ch)) return DMA_BUSY;
  CH_REG(dma, ch, CTRL) &= ~DMA_REGS__DMA_CHAN__CTRL__CHAIN_bm;
  CH_REG(dma, ch, SRC) = (uint32_t)src;
  CH_REG(dma, ch, DST) = (uint32_t)dst;
  CH_REG(dma, ch, LEN) = len;
  CH_REG(dma, ch, NEXT) = (uint32_t)(uintptr_t)next;
  return DMA_OK;
}

dma_result_t dma_set_chain(dma_t *dma, unsigned ch, const dma_desc_t *first) {
  if (!dma || !ch_ok(ch) || !first || !word_aligned((uintptr_t)first)) return DMA_BAD_ARG;
  if (dma_busy(dma, ch)) return DMA_BUSY;
  CH_REG(dma, ch, NEXT) = (uint32_t)(uintptr_t)first;
  CH_REG(dma, ch, CTRL) |= DMA_REGS__DMA_CHAN__CTRL__CHAIN_bm;
  return DMA_OK;
}

dma_result_t dma_desc_fill(dma_desc_t *desc, uintptr_t src, uintptr_t dst, uint32_t len) {
  if (!desc || !word_aligned((uintptr_t)desc) || !word_aligned(src) || !word_aligned(dst) || !len_ok(len)) {
    return DMA_BAD_ARG;
  }
  desc->src = (uint32_t)src;
  desc->dst = (uint32_t)dst;
  desc->len = len;
  desc->next = 0;
  return DMA_OK;
}

dma_result_t dma_desc_link(dma_desc_t *descs, size_t n) {
  if (!descs || n == 0 || !word_aligned((uintptr_t)descs)) return DMA_BAD_ARG;
  for (size_t i = 0; i < n; ++i) {
    if (!len_ok(descs[i].len)) return DMA_BAD_ARG;
    descs[i].next = (i + 1 < n) ? (uint32_t)(uintptr_t)&descs[i + 1] : 0u;
  }
  return DMA_OK;
}

static uint32_t mask_fields(uint32_t ch_mask, uint32_t first_bit) {
  uint32_t out = 0;
  for (unsigned c = 0; c < DMA_NUM_CHANNELS; ++c) {
    if (ch_mask & DMA_CH(c)) out |= first_bit << c;
  }
  return out;
}

dma_result_t dma_start(dma_t *dma, uint32_t ch_mask) {
  if (!dma || ch_mask == 0 || (ch_mask >> DMA_NUM_CHANNELS) != 0) return DMA_BAD_ARG;
  for (unsigned c = 0; c < DMA_NUM_CHANNELS; ++c) {
    if ((ch_mask & DMA_CH(c)) && dma_busy(dma, c)) return DMA_BUSY;
  }
  /* Clear the channels' old interrupt bits so a wait sees only this run's outcome. */
  REG(dma, IRQ_STATUS) = mask_fields(ch_mask, DMA_REGS__IRQ_STATUS__DONE0_bm) |
                         mask_fields(ch_mask, DMA_REGS__IRQ_STATUS__ERR0_bm);
  REG(dma, CMD) = mask_fields(ch_mask, DMA_REGS__CMD__START0_bm);
  return DMA_OK;
}

dma_result_t dma_abort(dma_t *dma, uint32_t ch_mask) {
  if (!dma || ch_mask == 0 || (ch_mask >> DMA_NUM_CHANNELS) != 0) return DMA_BAD_ARG;
  REG(dma, CMD) = mask_fields(ch_mask, DMA_REGS__CMD__ABORT0_bm);
  return DMA_OK;
}

bool dma_busy(const dma_t *dma, unsigned ch) {
  if (!dma || !ch_ok(ch)) return false;
  return (GET(REG(dma, STATUS), STATUS__BUSY) >> ch) & 1u;
}

dma_err_t dma_error(const dma_t *dma, unsigned ch) {
  if (!dma || !ch_ok(ch)) return DMA_ERR_NONE;
  return (dma_err_t)GET(CH_REG(dma, ch, STATUS), DMA_CHAN__STATUS__ERR);
}

dma_result_t dma_wait(dma_t *dma, unsigned ch, uint32_t max_polls) {
  if (!dma || !ch_ok(ch)) return DMA_BAD_ARG;
  for (uint32_t i = 0; i < max_polls; ++i) {
    if (!dma_busy(dma, ch)) return dma_error(dma, ch) == DMA_ERR_NONE ? DMA_OK : DMA_ERROR;
  }
  return DMA_TIMEOUT;
}

const char *dma_err_name(dma_err_t err) {
  static const char *const names[] = {"none",     "zero length", "misaligned address", "misaligned length",
                                      "source out of range",     "destination out of range",
                                      "read bus error",          "write bus error",
                                      "bad descriptor address",  "descriptor bus error",
                                      "bad configuration",       "aborted"};
  return ((unsigned)err < sizeof(names) / sizeof(names[0])) ? names[err] : "unknown";
}

dma_result_t dma_counters(const dma_t *dma, unsigned ch, dma_counters_t *out) {
  if (!dma || !ch_ok(ch) || !out) return DMA_BAD_ARG;
  out->cycles = CH_REG(dma, ch, CYCLES);
  out->wait = CH_REG(dma, ch, WAIT);
  out->rd_beats = CH_REG(dma, ch, RD_BEATS);
  out->wr_beats = CH_REG(dma, ch, WR_BEATS);
  return DMA_OK;
}

uint32_t dma_busy_cycles(const dma_t *dma) { return dma ? REG(dma, BUSY_CYCLES) : 0u; }

void dma_clear_busy_cycles(dma_t *dma) {
  if (dma) REG(dma, CMD) = DMA_REGS__CMD__CLR_BUSY_CYCLES_bm;
}

void dma_irq_enable(dma_t *dma, uint32_t done_mask, uint32_t err_mask) {
  if (!dma) return;
  REG(dma, IRQ_ENABLE) = FIELD(done_mask, IRQ_ENABLE__DONE) | FIELD(err_mask, IRQ_ENABLE__ERR);
}

uint32_t dma_irq_ack(dma_t *dma) {
  if (!dma) return 0;
  uint32_t pending = REG(dma, IRQ_STATUS);
  REG(dma, IRQ_STATUS) = pending;
  return pending;
}

uint32_t dma_irq_ack_mask(dma_t *dma, uint32_t mask) {
  if (!dma) return 0;
  uint32_t pending = REG(dma, IRQ_STATUS) & mask;
  if (pending) REG(dma, IRQ_STATUS) = pending;
  return pending;
}
