/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sha_dma: asynchronous hashing on the SHA peripheral, the message fed by one DMA channel
 * (ip/sha + ip/dma), paced by the peripheral's input request line.
 *
 * Usage:
 *   static sha_dev_t sha;  static dma_t dma;  static sha_dma_t eng;
 *   sha_dev_init(&sha, AESOC_SHA_BASE);
 *   dma_init(&dma, AESOC_DMA_BASE);
 *   if (sha_dma_init(&eng, &sha, &dma, 0, AESOC_DMA_REQ_SHA_IN, ~AESOC_UNCACHED_BIT) != SHA_DMA_OK) ...
 *   sha_dma_submit(&eng, SHA_DEV_SHA256, msg, len);   // PENDING: the DMA streams the message
 *   ... sha_dma_poll(&eng) (or sha_dma_irq(&eng) from the SHA interrupt, done and error enabled
 *   with sha_dev_irq_enable) tells when it is over; sha_dma_wait(&eng, bound) polls with a bound;
 *   sha_dma_digest(&eng, md) reads the digest.
 *
 * The channel reads the message (4-byte aligned; the last word is read whole, the hardware
 * ignores its bytes past the length) with 8-beat bursts into DATA_IN at a fixed address, one
 * request per HWCFG.DMA_WORDS words. A DMA error aborts the message (SHA error ABORT) and the
 * result is SHA_DMA_BUS_ERROR; sha_dev_clear recovers. The DMA does not see the data cache: with
 * the write-through cache of this SoC a source buffer needs no maintenance.
 *
 * Every call checks its arguments first and returns one sha_dma_result_t; every wait is bounded.
 */
#ifndef SHA_DMA_H
#define SHA_DMA_H

#include <stddef.h>
#include <stdint.h>

#include "dma.h"
#include "sha_dev.h"

typedef enum {
  SHA_DMA_OK = 0,     /* done, or a call that succeeded */
  SHA_DMA_PENDING,    /* the message is being hashed */
  SHA_DMA_BAD_ARG,    /* NULL, misaligned, length, algorithm or channel out of range; nothing done */
  SHA_DMA_TIMEOUT,    /* a bounded wait ran out; the request is still pending */
  SHA_DMA_SHA_ERROR,  /* the SHA peripheral raised an error (sha_dev_error) */
  SHA_DMA_BUS_ERROR,  /* the DMA channel stopped with an error (dma_error); the message was aborted */
  SHA_DMA_NO_DEV,     /* sha_dma_init: no DMA controller, or no such request line */
} sha_dma_result_t;

typedef struct {
  sha_dev_t *sha;
  dma_t *dma;
  unsigned ch;
  uint32_t bus_addr_mask; /* CPU address of a buffer -> DMA bus address */
  int pending;
  uint32_t engine_busy; /* of the last request: cycles the engine compressed blocks (PERF_BUSY) */
  uint32_t msg_cycles;  /* of the last request: START to digest, the hardware time (PERF_MSG) */
} sha_dma_t;

__attribute__((warn_unused_result)) sha_dma_result_t sha_dma_init(sha_dma_t *eng, sha_dev_t *sha, dma_t *dma,
                                                                  unsigned ch, unsigned req_line,
                                                                  uint32_t bus_addr_mask);
__attribute__((warn_unused_result)) sha_dma_result_t sha_dma_submit(sha_dma_t *eng, sha_dev_alg_t alg,
                                                                    const void *msg, size_t len);
__attribute__((warn_unused_result)) sha_dma_result_t sha_dma_poll(sha_dma_t *eng);
__attribute__((warn_unused_result)) sha_dma_result_t sha_dma_wait(sha_dma_t *eng, uint32_t max_polls);
/* From the SHA interrupt handler: acknowledges the SHA's IRQ_STATUS; then as sha_dma_poll. */
__attribute__((warn_unused_result)) sha_dma_result_t sha_dma_irq(sha_dma_t *eng);
__attribute__((warn_unused_result)) sha_dma_result_t sha_dma_digest(sha_dma_t *eng, void *digest);

#endif /* SHA_DMA_H */
