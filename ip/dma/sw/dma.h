/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dma: driver for the four-channel DMA controller (ip/dma, registers in dma.rdl, docs/dma.md).
 *
 * Usage, one buffer:
 *   dma_t dma;
 *   dma_init(&dma, AESOC_DMA_BASE);                       // touches no hardware
 *   if (dma_probe(&dma) != DMA_OK) ...                     // checks ID, reads FIFO depth etc.
 *   dma_chan_config_t cfg = dma_default_config();          // increment/increment, 8-beat bursts
 *   dma_config(&dma, 0, &cfg);
 *   dma_set_transfer(&dma, 0, src_addr, dst_addr, nbytes, NULL);
 *   dma_start(&dma, DMA_CH(0));
 *   dma_result_t r = dma_wait(&dma, 0, DMA_WAIT_BOUND);   // DMA_ERROR: see dma_error()
 *
 * Scatter-gather: fill an array of dma_desc_t (16 bytes each, word aligned, in memory the DMA can
 * read), link it with dma_desc_link(), hand the first to dma_set_chain() and start once; the
 * channel walks the list and raises one done interrupt at the end.
 *
 * Peripherals: a side paced by a request line gets .src_req / .dst_req = the line number and
 * .block_words = words per request (4 for the AES peripheral); DMA_ADDR_WRAP writes DATA_IN[0..3]
 * (or reads DATA_OUT[0..3]) again and again. .prefetch reads ahead into the FIFO before the
 * destination asks; .fifo_limit caps the FIFO words a channel uses (0: all, else at least twice
 * the burst). Starting a channel before the peripheral raises its requests ("early start") is
 * allowed: the channel prefetches and waits.
 *
 * Interrupts: dma_irq_enable(); the handler calls dma_irq_ack(), which returns and clears the
 * pending bits (DMA_IRQ_DONE(c) / DMA_IRQ_ERR(c)).
 *
 * Counters (dma_counters) are cleared by each start: cycles from start to idle, cycles waiting
 * for a peripheral request, data words read and written. dma_busy_cycles() counts cycles in
 * which any channel is busy since dma_clear_busy_cycles().
 *
 * Addresses are bus byte addresses as the DMA sees them; they must lie in the address windows
 * of the SoC instance (else the channel stops with DMA_ERR_SRC_RANGE / DST_RANGE before any
 * access). The DMA does not see the CPU's data cache: write back (or use uncached aliases for)
 * source buffers and descriptors before a start, and invalidate destination buffers after it.
 * Every call checks its arguments first and returns one dma_result_t; every wait is bounded.
 */
#ifndef DMA_H
#define DMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dma_enums.h"
#include "dma_regs.h"

/* One channel's registers: an element of the regfile array CH of dma.rdl. */
typedef __typeof__(((dma_regs_t *)0)->CH[0]) dma_chan_regs_t;
/* Channels, positions and the length field as the register map (dma.rdl) has them. */
#define DMA_NUM_CHANNELS ((unsigned)(sizeof(((dma_regs_t *)0)->CH) / sizeof(dma_chan_regs_t)))
#define DMA_CH(c) (1u << (c))           /* channel mask bit for dma_start / dma_abort */
#define DMA_IRQ_DONE(c) (1u << (DMA_REGS__IRQ_STATUS__DONE0_bp + (c))) /* bits of dma_irq_ack() */
#define DMA_IRQ_ERR(c) (1u << (DMA_REGS__IRQ_STATUS__ERR0_bp + (c)))
_Static_assert(DMA_REGS__IRQ_STATUS__DONE3_bp == DMA_REGS__IRQ_STATUS__DONE0_bp + 3 &&
                   DMA_REGS__IRQ_STATUS__ERR3_bp == DMA_REGS__IRQ_STATUS__ERR0_bp + 3,
               "IRQ_STATUS bits are contiguous per channel");
#define DMA_REQ_NONE (-1)               /* no request line: the side runs freely */
/* Bytes per transfer or descriptor: the LEN field's largest multiple of 4. */
#define DMA_MAX_LEN ((uint32_t)DMA_REGS__DMA_CHAN__LEN__LEN_bm & ~3u)
#define DMA_WAIT_BOUND 1000000u         /* default poll bound of dma_wait */

typedef enum {
  DMA_OK = 0,
  DMA_BAD_ARG, /* NULL, channel number, alignment, length or configuration out of range; nothing done */
  DMA_BUSY,    /* the channel is busy: its transfer registers ignore writes until it stops */
  DMA_TIMEOUT, /* a bounded wait ran out (the channel keeps running; dma_abort stops it) */
  DMA_ERROR,   /* the channel stopped with an error: dma_error() tells which */
  DMA_NO_DEV,  /* dma_probe: no DMA controller at this address */
} dma_result_t;

/* Error codes of CH[c].STATUS.ERR (dma_enums.h, generated from dma.rdl). */
typedef enum {
  DMA_ERR_NONE = DMA_REGS__DMA_ERR__NONE,
  DMA_ERR_ZERO_LEN = DMA_REGS__DMA_ERR__ZERO_LEN,
  DMA_ERR_ADDR_ALIGN = DMA_REGS__DMA_ERR__ADDR_ALIGN,
  DMA_ERR_LEN_ALIGN = DMA_REGS__DMA_ERR__LEN_ALIGN,
  DMA_ERR_SRC_RANGE = DMA_REGS__DMA_ERR__SRC_RANGE,
  DMA_ERR_DST_RANGE = DMA_REGS__DMA_ERR__DST_RANGE,
  DMA_ERR_RD_BUS = DMA_REGS__DMA_ERR__RD_BUS,
  DMA_ERR_WR_BUS = DMA_REGS__DMA_ERR__WR_BUS,
  DMA_ERR_DESC_ADDR = DMA_REGS__DMA_ERR__DESC_ADDR,
  DMA_ERR_DESC_BUS = DMA_REGS__DMA_ERR__DESC_BUS,
  DMA_ERR_CFG = DMA_REGS__DMA_ERR__CFG,
  DMA_ERR_ABORT = DMA_REGS__DMA_ERR__ABORT,
} dma_err_t;

typedef enum {
  DMA_ADDR_INC = DMA_REGS__DMA_ADDR_MODE__INC,
  DMA_ADDR_FIXED = DMA_REGS__DMA_ADDR_MODE__FIXED,
  DMA_ADDR_WRAP = DMA_REGS__DMA_ADDR_MODE__WRAP,
} dma_addr_mode_t;

typedef struct {
  dma_addr_mode_t src_mode, dst_mode;
  unsigned burst;       /* beats per burst: 1, 4 or 8 */
  unsigned block_words; /* words per request and wrap length, 1..255 */
  int src_req, dst_req; /* request line 0..num_req-1, or DMA_REQ_NONE */
  unsigned prio;        /* 0..3, 3 highest; equal priorities take turns burst by burst */
  bool bus_prio;        /* the channel's bursts use the crossbar's high-priority class */
  bool prefetch;        /* read ahead before the destination requests */
  unsigned fifo_limit;  /* FIFO words this channel may fill, 0 = all (else >= 2 * burst) */
} dma_chan_config_t;

/* A linked-list descriptor as the DMA reads it: 16 bytes, word aligned. */
typedef struct {
  uint32_t src;  /* byte address, word aligned */
  uint32_t dst;  /* byte address, word aligned */
  uint32_t len;  /* bytes, a non-zero multiple of 4, at most DMA_MAX_LEN; bits 31:24 zero */
  uint32_t next; /* address of the next descriptor, 0 ends the chain */
} dma_desc_t;

typedef struct {
  uint32_t cycles;   /* start to idle, all descriptors */
  uint32_t wait;     /* cycles a paced side had words left but no request granted */
  uint32_t rd_beats; /* data words read (descriptor fetches excluded) */
  uint32_t wr_beats; /* data words written */
} dma_counters_t;

typedef struct {
  uintptr_t base;
  unsigned fifo_depth; /* words per channel FIFO, from HWCFG (dma_probe) */
  unsigned num_req;    /* request lines, from HWCFG (dma_probe) */
} dma_t;

void dma_init(dma_t *dma, uintptr_t base);
__attribute__((warn_unused_result)) dma_result_t dma_probe(dma_t *dma);
dma_chan_config_t dma_default_config(void);
__attribute__((warn_unused_result)) dma_result_t dma_config(dma_t *dma, unsigned ch, const dma_chan_config_t *cfg);
__attribute__((warn_unused_result)) dma_result_t dma_set_transfer(dma_t *dma, unsigned ch, uintptr_t src,
                                                                  uintptr_t dst, uint32_t len,
                                                                  const dma_desc_t *next);
__attribute__((warn_unused_result)) dma_result_t dma_set_chain(dma_t *dma, unsigned ch, const dma_desc_t *first);
__attribute__((warn_unused_result)) dma_result_t dma_desc_fill(dma_desc_t *desc, uintptr_t src, uintptr_t dst,
                                                               uint32_t len);
__attribute__((warn_unused_result)) dma_result_t dma_desc_link(dma_desc_t *descs, size_t n);
__attribute__((warn_unused_result)) dma_result_t dma_start(dma_t *dma, uint32_t ch_mask);
__attribute__((warn_unused_result)) dma_result_t dma_abort(dma_t *dma, uint32_t ch_mask);
bool dma_busy(const dma_t *dma, unsigned ch);
__attribute__((warn_unused_result)) dma_result_t dma_wait(dma_t *dma, unsigned ch, uint32_t max_polls);
dma_err_t dma_error(const dma_t *dma, unsigned ch);
const char *dma_err_name(dma_err_t err);
__attribute__((warn_unused_result)) dma_result_t dma_counters(const dma_t *dma, unsigned ch, dma_counters_t *out);
uint32_t dma_busy_cycles(const dma_t *dma);
void dma_clear_busy_cycles(dma_t *dma);
void dma_irq_enable(dma_t *dma, uint32_t done_mask, uint32_t err_mask);
uint32_t dma_irq_ack(dma_t *dma);
/* Returns and clears only the pending bits in `mask`, leaving other channels' bits to their
 * owners (several drivers may share one controller). */
uint32_t dma_irq_ack_mask(dma_t *dma, uint32_t mask);

/* Fast path for a channel configured once by dma_config and used again and again without
 * descriptors (NEXT stays 0): writes SRC, DST and LEN only, no checks; the next dma_start (or
 * dma_start_fast) runs it. The caller guarantees an idle channel and valid, aligned arguments. */
static inline void dma_set_transfer_fast(const dma_t *dma, unsigned ch, uint32_t src, uint32_t dst, uint32_t len) {
  /* One pointer, computed before the stores: a volatile store may alias dma->base. */
  volatile uint32_t *r = (volatile uint32_t *)(dma->base + offsetof(dma_regs_t, CH) + ch * sizeof(dma_chan_regs_t));
  r[offsetof(dma_chan_regs_t, SRC) / 4u] = src;
  r[offsetof(dma_chan_regs_t, DST) / 4u] = dst;
  r[offsetof(dma_chan_regs_t, LEN) / 4u] = len;
}
/* Starts the channels of ch_mask (bits DMA_CH(c)) without checks or clearing interrupt bits. */
_Static_assert(DMA_REGS__CMD__START3_bp == DMA_REGS__CMD__START0_bp + 3, "CMD.START bits are contiguous");
static inline void dma_start_fast(const dma_t *dma, uint32_t ch_mask) {
  *(volatile uint32_t *)(dma->base + offsetof(dma_regs_t, CMD)) =
      (ch_mask & ((1u << DMA_NUM_CHANNELS) - 1u)) << DMA_REGS__CMD__START0_bp;
}

#endif /* DMA_H */
