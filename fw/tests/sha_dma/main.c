/* SPDX-License-Identifier: Apache-2.0 */
/* DMA-fed SHA self-test through sha_dma: FIPS 180-4 "abc" and pseudo-random messages of every
 * built algorithm and of random lengths up to 4 KB plus one of 16 KB (printed for a hashlib check
 * in pytest), completion by polling and by interrupt, and a DMA error mid-request. */
#include <string.h>

#include "aesoc.h"
#include "sha_dma.h"

#define RANDOM_MSGS 10
#define BIG_MSG 16384u
#define WAIT_BOUND 200000u

static sha_dev_t sha;
static dma_t dma;
static sha_dma_t eng;
static volatile int irq_result = -1;
static uint8_t buf[BIG_MSG] __attribute__((aligned(4)));
static uint8_t md[SHA_DEV_MAX_DIGEST] __attribute__((aligned(4)));

static const sha_dev_alg_t ALGS[] = {SHA_DEV_SHA1,   SHA_DEV_SHA224, SHA_DEV_SHA256,
                                     SHA_DEV_SHA384, SHA_DEV_SHA512, SHA_DEV_SHA512_256};

void aesoc_external_irq(uint32_t pending) {
  if (pending & (1u << AESOC_IRQ_SHA)) {
    sha_dma_result_t r = sha_dma_irq(&eng);
    if (r != SHA_DMA_PENDING) irq_result = (int)r;
  }
}

static void record(sha_dev_alg_t alg, size_t len, int by_irq) {
  aesoc_rec_begin("sha_dma_md");
  aesoc_rec_u64("alg", alg);
  aesoc_rec_u64("irq", (uint64_t)by_irq);
  aesoc_rec_hex("msg", buf, len);
  aesoc_rec_hex("md", md, sha_dev_digest_len(alg));
  aesoc_rec_u64("msg_cycles", eng.msg_cycles);
  aesoc_rec_u64("engine_busy", eng.engine_busy);
  aesoc_rec_end();
}

static void hash_polled(sha_dev_alg_t alg, size_t len) {
  AESOC_CHECK(sha_dma_submit(&eng, alg, buf, len) == SHA_DMA_PENDING);
  AESOC_CHECK(sha_dma_wait(&eng, WAIT_BOUND) == SHA_DMA_OK);
  AESOC_CHECK(sha_dma_digest(&eng, md) == SHA_DMA_OK);
  record(alg, len, 0);
}

static void hash_by_irq(sha_dev_alg_t alg, size_t len) {
  (void)sha_dev_irq_ack(&sha); /* drop the done bits of earlier, polled messages */
  irq_result = -1;
  sha_dev_irq_enable(&sha, 1, 1);
  aesoc_irq_unmask_line(AESOC_IRQ_SHA);
  AESOC_CHECK(sha_dma_submit(&eng, alg, buf, len) == SHA_DMA_PENDING);
  for (unsigned i = 0; i < WAIT_BOUND && irq_result < 0; ++i) {
  }
  aesoc_irq_mask_line(AESOC_IRQ_SHA);
  sha_dev_irq_enable(&sha, 0, 0);
  AESOC_CHECK(irq_result == SHA_DMA_OK);
  AESOC_CHECK(sha_dma_digest(&eng, md) == SHA_DMA_OK);
  record(alg, len, 1);
}

int main(void) {
  sha_dev_init(&sha, AESOC_SHA_BASE);
  dma_init(&dma, AESOC_DMA_BASE);
  aesoc_irq_enable_external();
  AESOC_CHECK(sha_dma_init(&eng, &sha, &dma, 0, AESOC_DMA_REQ_SHA_IN, ~AESOC_UNCACHED_BIT) == SHA_DMA_OK);
  AESOC_CHECK(sha_dev_clear(&sha) == SHA_DEV_OK);
  unsigned num_algs = (AESOC_REG(AESOC_SHA_BASE, sha_periph_t, HWCFG) & SHA_PERIPH__HWCFG__SHA512_bm) ? 6u : 3u;

  memcpy(buf, "abc", 3);
  hash_polled(SHA_DEV_SHA256, 3);
  uint32_t seed = 0xD3A5EEDu;
  for (unsigned i = 0; i < RANDOM_MSGS; ++i) {
    size_t len = i == 0 ? 0 : aesoc_xorshift32(&seed) % 4097u;
    sha_dev_alg_t alg = ALGS[i < num_algs ? i : aesoc_xorshift32(&seed) % num_algs];
    for (size_t j = 0; j < len; ++j) buf[j] = (uint8_t)aesoc_xorshift32(&seed);
    if (i & 1) hash_by_irq(alg, len);
    else hash_polled(alg, len);
  }
  for (size_t j = 0; j < BIG_MSG; ++j) buf[j] = (uint8_t)aesoc_xorshift32(&seed);
  hash_polled(SHA_DEV_SHA256, BIG_MSG);

  /* A source the DMA may not read (the flash window is not a DMA window): the channel stops, the
   * message is aborted, no digest; clear recovers. */
  AESOC_CHECK(sha_dma_submit(&eng, SHA_DEV_SHA256, (const void *)AESOC_FLASH_BASE, 256) == SHA_DMA_PENDING);
  AESOC_CHECK(sha_dma_wait(&eng, WAIT_BOUND) == SHA_DMA_BUS_ERROR);
  AESOC_CHECK(sha_dev_error(&sha) == SHA_PERIPH__SHA_ERR__ABORT);
  AESOC_CHECK(sha_dma_digest(&eng, md) != SHA_DMA_OK);
  AESOC_CHECK(sha_dev_clear(&sha) == SHA_DEV_OK);
  memcpy(buf, "abc", 3);
  hash_polled(SHA_DEV_SHA256, 3);

  /* Argument checks: nothing happens on bad input. */
  AESOC_CHECK(sha_dma_submit(&eng, SHA_DEV_SHA256, buf + 2, 8) == SHA_DMA_BAD_ARG);
  AESOC_CHECK(sha_dma_submit(&eng, (sha_dev_alg_t)6, buf, 8) == SHA_DMA_BAD_ARG);
  AESOC_CHECK(sha_dma_init(&eng, &sha, &dma, 4, AESOC_DMA_REQ_SHA_IN, ~0u) == SHA_DMA_BAD_ARG);

  aesoc_rec_begin("sha_dma");
  aesoc_rec_u64("failures", aesoc_check_failures);
  aesoc_rec_end();
  return aesoc_check_failures ? 1 : 0;
}
