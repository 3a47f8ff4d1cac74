/* SPDX-License-Identifier: Apache-2.0 */
/* sha_dma: the SHA peripheral fed by a DMA channel paced by its input request line. */
#include "sha_dma.h"

#include <stddef.h>

#define SHA_REG(eng, member) (*(volatile uint32_t *)((eng)->sha->base + offsetof(sha_periph_t, member)))

sha_dma_result_t sha_dma_init(sha_dma_t *eng, sha_dev_t *sha, dma_t *dma, unsigned ch, unsigned req_line,
                              uint32_t bus_addr_mask) {
  if (!eng || !sha || !dma || ch >= DMA_NUM_CHANNELS || bus_addr_mask == 0) return SHA_DMA_BAD_ARG;
  if (dma_probe(dma) != DMA_OK || req_line >= dma->num_req) return SHA_DMA_NO_DEV;
  unsigned words = (SHA_REG(&(sha_dma_t){.sha = sha}, HWCFG) & SHA_PERIPH__HWCFG__DMA_WORDS_bm) >>
                   SHA_PERIPH__HWCFG__DMA_WORDS_bp;
  if (words == 0) return SHA_DMA_NO_DEV;
  dma_chan_config_t cfg = dma_default_config();
  cfg.dst_mode = DMA_ADDR_FIXED;
  cfg.block_words = words;
  cfg.burst = words >= 8 ? 8 : words >= 4 ? 4 : 1;
  cfg.dst_req = (int)req_line;
  if (dma_config(dma, ch, &cfg) != DMA_OK) return SHA_DMA_BAD_ARG;
  eng->sha = sha;
  eng->dma = dma;
  eng->ch = ch;
  eng->bus_addr_mask = bus_addr_mask;
  eng->pending = 0;
  eng->engine_busy = 0;
  eng->msg_cycles = 0;
  return SHA_DMA_OK;
}

sha_dma_result_t sha_dma_submit(sha_dma_t *eng, sha_dev_alg_t alg, const void *msg, size_t len) {
  if (!eng || eng->pending || (len && (!msg || ((uintptr_t)msg & 3u))) || len > DMA_MAX_LEN) return SHA_DMA_BAD_ARG;
  if (sha_dev_digest_len(alg) == 0 || (len && dma_busy(eng->dma, eng->ch))) return SHA_DMA_BAD_ARG;
  sha_dev_result_t r = sha_dev_prepare(eng->sha, alg, len);
  if (r == SHA_DEV_BAD_ARG || r == SHA_DEV_UNSUPPORTED) return SHA_DMA_BAD_ARG;
  if (r != SHA_DEV_OK) return SHA_DMA_SHA_ERROR;
  SHA_REG(eng, PERF_BUSY) = 0;
  SHA_REG(eng, PERF_MSG) = 0;
  if (len) {
    /* The channel starts first and waits for the request line, which rises with CMD.START: the
     * message's hardware time then holds no set-up. Arguments are checked above and the channel
     * is idle, so the unchecked register paths do. */
    uint32_t src = (uint32_t)(uintptr_t)msg & eng->bus_addr_mask;
    /* A register address is a bus address already (the mask is for cached memory aliases). */
    uint32_t dst = (uint32_t)(eng->sha->base + offsetof(sha_periph_t, DATA_IN));
    dma_set_transfer_fast(eng->dma, eng->ch, src, dst, (uint32_t)((len + 3u) & ~(size_t)3u));
    SHA_REG(eng, DMA_CTRL) = SHA_PERIPH__DMA_CTRL__IN_EN_bm;
    dma_start_fast(eng->dma, DMA_CH(eng->ch));
  }
  sha_dev_start(eng->sha);
  eng->pending = 1;
  return SHA_DMA_PENDING;
}

static sha_dma_result_t finish(sha_dma_t *eng, sha_dma_result_t result) {
  SHA_REG(eng, DMA_CTRL) = 0;
  eng->engine_busy = SHA_REG(eng, PERF_BUSY);
  eng->msg_cycles = SHA_REG(eng, PERF_MSG);
  eng->pending = 0;
  return result;
}

sha_dma_result_t sha_dma_poll(sha_dma_t *eng) {
  if (!eng) return SHA_DMA_BAD_ARG;
  if (!eng->pending) return SHA_DMA_OK;
  /* The SHA's status first: once its digest is ready every word has been written. */
  uint32_t st = sha_dev_status(eng->sha);
  if (st & SHA_PERIPH__STATUS__DONE_bm) {
    eng->sha->fed = eng->sha->len;
    return finish(eng, SHA_DMA_OK);
  }
  if (st & SHA_PERIPH__STATUS__ERR_bm) {
    /* The engine drops what the channel still writes; stop the channel anyway. */
    if (dma_busy(eng->dma, eng->ch) && dma_abort(eng->dma, DMA_CH(eng->ch)) != DMA_OK) {
      return finish(eng, SHA_DMA_BUS_ERROR);
    }
    return finish(eng, SHA_DMA_SHA_ERROR);
  }
  if (!dma_busy(eng->dma, eng->ch) && dma_error(eng->dma, eng->ch) != DMA_ERR_NONE) {
    sha_dev_abort(eng->sha); /* never a digest of a partly fed message */
    return finish(eng, SHA_DMA_BUS_ERROR);
  }
  return SHA_DMA_PENDING;
}

sha_dma_result_t sha_dma_wait(sha_dma_t *eng, uint32_t max_polls) {
  if (!eng) return SHA_DMA_BAD_ARG;
  for (uint32_t i = 0; i < max_polls; ++i) {
    sha_dma_result_t r = sha_dma_poll(eng);
    if (r != SHA_DMA_PENDING) return r;
  }
  return SHA_DMA_TIMEOUT;
}

sha_dma_result_t sha_dma_irq(sha_dma_t *eng) {
  if (!eng) return SHA_DMA_BAD_ARG;
  (void)sha_dev_irq_ack(eng->sha);
  return sha_dma_poll(eng);
}

sha_dma_result_t sha_dma_digest(sha_dma_t *eng, void *digest) {
  if (!eng || !digest || ((uintptr_t)digest & 3u) || eng->pending) return SHA_DMA_BAD_ARG;
  sha_dev_result_t r = sha_dev_finish(eng->sha, digest);
  return r == SHA_DEV_OK ? SHA_DMA_OK : r == SHA_DEV_BAD_ARG ? SHA_DMA_BAD_ARG : SHA_DMA_SHA_ERROR;
}
