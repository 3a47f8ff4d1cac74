/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mbedtls-style hardware rows: AES-CBC-128/192/256 encryption of a 1 KB buffer through the
 * DMA-fed AES peripheral (aes_dma driver), the key set once, measured like mbedtls_benchmark
 * (repeated requests, warm caches; the third of three is reported). Each output is compared with
 * the software library's.
 */
#include <string.h>

#include "aes_dma.h"
#include "aesoc_dma.h"
#include "aesoc.h"
#include "swcrypto.h"

#define BYTES 1024u

static uint8_t src[BYTES] __attribute__((aligned(32)));
static uint8_t dst[BYTES] __attribute__((aligned(32), section(".sram1")));
static uint8_t ref[BYTES] __attribute__((aligned(32)));
static uint8_t key[32] __attribute__((aligned(4)));
static uint8_t iv[16] __attribute__((aligned(4)));

static aes_dev_t aes;
static dma_t dma;
static aes_dma_t eng;

int main(void) {
  uint32_t s = 0x3C6EF372u;
  for (unsigned i = 0; i < BYTES / 4; ++i) ((uint32_t *)src)[i] = aesoc_xorshift32(&s);
  for (unsigned i = 0; i < 32; ++i) key[i] = (uint8_t)aesoc_xorshift32(&s);
  for (unsigned i = 0; i < 16; ++i) iv[i] = (uint8_t)aesoc_xorshift32(&s);
  AESOC_CHECK(swc_aes_init() == SWC_OK);
  aes_dev_init(&aes, AESOC_AES_BASE);
  dma_init(&dma, AESOC_DMA_BASE);
  /* The dma-aes benchmark's best configuration. */
  aes_dma_opts_t o = aes_dma_default_opts();
  o.burst = 8;
  o.prefetch = true;
  o.fifo_words = 64;
  o.prio = 3;
  o.bus_prio = true;
  o.platform = &aesoc_aes_dma_platform;
  AESOC_CHECK(aes_dma_init(&eng, &aes, &dma, 0, 1, &o) == AES_DMA_OK);
  static const char *const names[3] = {"AES-CBC-128", "AES-CBC-192", "AES-CBC-256"};
  for (unsigned k = 0; k < 3; ++k) {
    aes_dma_key_t hk;
    AESOC_CHECK(aes_dma_key_set(&hk, key, 16u + 8u * k) == AES_DMA_OK);
    swc_aes_ctx ctx;
    uint8_t civ[16];
    memcpy(civ, iv, 16);
    AESOC_CHECK(swc_aes_setkey_enc(&ctx, key, 128u + 64u * k) == SWC_OK);
    AESOC_CHECK(swc_aes_cbc_encrypt(&ctx, civ, src, ref, BYTES) == SWC_OK);
    uint32_t t = 0;
    for (unsigned rep = 0; rep < 3; ++rep) {
      aes_dma_req_t req = {.key = &hk, .mode = AES_DEV_CBC, .dir = AES_DEV_ENCRYPT, .src = src, .dst = dst, .len = BYTES,
                           .flags = AES_DMA_CHAIN};  /* mbedtls_aes_crypt_cbc returns the next IV */
      memcpy(req.iv, iv, 16);
      uint32_t t0 = aesoc_cycles32();
      aes_dma_result_t r = aes_dma_submit(&eng, &req);
      if (r == AES_DMA_PENDING) r = aes_dma_wait(&eng, &req, 1000000u);
      t = aesoc_cycles32() - t0;
      AESOC_CHECK(r == AES_DMA_OK);
    }
    AESOC_CHECK(memcmp(dst, ref, BYTES) == 0);
    aesoc_rec_begin("mbedtls_style_hw");
    aesoc_rec_str("alg", names[k]);
    aesoc_rec_u64("bytes", BYTES);
    aesoc_rec_u64("cycles", t);
    aesoc_rec_end();
    aes_dma_key_wipe(&hk);
    swc_aes_wipe(&ctx);
  }
  return aesoc_check_failures ? 1 : 0;
}
