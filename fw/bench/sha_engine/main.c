/* SPDX-License-Identifier: Apache-2.0 */
/* Benchmark `sha-engine`: SHA-1, SHA-256 and SHA-512 (when built) on the SHA peripheral, fed by
 * the CPU (sha_dev_hash, MMIO) and by a DMA channel (sha_dma), for messages of 64 B .. 16 KB.
 * Each measurement runs three times back to back and reports the last (warm caches): the total
 * seen by the caller, and for the DMA path the hardware time (PERF_MSG: START to digest), the
 * cycles the engine compressed (PERF_BUSY) and the blocks (PERF_BLOCKS). The digest of every run
 * is printed so the host checks it. */
#include <string.h>

#include "aesoc.h"
#include "sha_dma.h"

#define SHA(member) AESOC_REG(AESOC_SHA_BASE, sha_periph_t, member)
#define MAX_MSG 16384u
#define REPS 3
#define WAIT_BOUND 1000000u

static sha_dev_t sha;
static dma_t dma;
static sha_dma_t eng;
static uint8_t buf[MAX_MSG] __attribute__((aligned(4)));
static uint8_t md[SHA_DEV_MAX_DIGEST] __attribute__((aligned(4)));
static const unsigned SIZES[] = {64, 256, 1024, 4096, 16384};
static const sha_dev_alg_t ALGS[] = {SHA_DEV_SHA1, SHA_DEV_SHA256, SHA_DEV_SHA512};

static void record(const char *path, sha_dev_alg_t alg, unsigned size, uint32_t total, uint32_t hw) {
  aesoc_rec_begin("sha_engine");
  aesoc_rec_str("path", path);
  aesoc_rec_u64("alg", alg);
  aesoc_rec_u64("bytes", size);
  aesoc_rec_u64("total", total);
  aesoc_rec_u64("hw", hw);
  aesoc_rec_u64("engine_busy", SHA(PERF_BUSY));
  aesoc_rec_u64("blocks", SHA(PERF_BLOCKS));
  aesoc_rec_hex("md", md, sha_dev_digest_len(alg));
  aesoc_rec_end();
}

static void mmio(sha_dev_alg_t alg, unsigned size) {
  uint32_t t = 0;
  for (int rep = 0; rep < REPS; ++rep) {
    SHA(PERF_BUSY) = 0;
    SHA(PERF_BLOCKS) = 0;
    SHA(PERF_MSG) = 0;
    uint32_t t0 = aesoc_cycles32();
    sha_dev_result_t r = sha_dev_hash(&sha, alg, buf, size, md);
    t = aesoc_cycles32() - t0;
    AESOC_CHECK(r == SHA_DEV_OK);
  }
  record("mmio", alg, size, t, SHA(PERF_MSG));
}

static void by_dma(sha_dev_alg_t alg, unsigned size) {
  uint32_t t = 0;
  for (int rep = 0; rep < REPS; ++rep) {
    SHA(PERF_BLOCKS) = 0;
    uint32_t t0 = aesoc_cycles32();
    sha_dma_result_t r = sha_dma_submit(&eng, alg, buf, size);
    if (r == SHA_DMA_PENDING) r = sha_dma_wait(&eng, WAIT_BOUND);
    if (r == SHA_DMA_OK) r = sha_dma_digest(&eng, md);
    t = aesoc_cycles32() - t0;
    AESOC_CHECK(r == SHA_DMA_OK);
  }
  record("dma", alg, size, t, eng.msg_cycles);
}

int main(void) {
  sha_dev_init(&sha, AESOC_SHA_BASE);
  dma_init(&dma, AESOC_DMA_BASE);
  AESOC_CHECK(sha_dma_init(&eng, &sha, &dma, 0, AESOC_DMA_REQ_SHA_IN, ~AESOC_UNCACHED_BIT) == SHA_DMA_OK);
  AESOC_CHECK(sha_dev_clear(&sha) == SHA_DEV_OK);
  unsigned num_algs = (SHA(HWCFG) & SHA_PERIPH__HWCFG__SHA512_bm) ? 3u : 2u;
  for (unsigned i = 0; i < MAX_MSG; ++i) buf[i] = (uint8_t)(i * 31u + 7u);
  for (unsigned a = 0; a < num_algs; ++a) {
    for (unsigned s = 0; s < sizeof SIZES / sizeof SIZES[0]; ++s) {
      mmio(ALGS[a], SIZES[s]);
      by_dma(ALGS[a], SIZES[s]);
    }
  }
  aesoc_rec_begin("sha_engine_done");
  aesoc_rec_u64("failures", aesoc_check_failures);
  aesoc_rec_end();
  return aesoc_check_failures ? 1 : 0;
}
