/* SPDX-License-Identifier: Apache-2.0 */
/* AES-GCM with the payload's whole blocks moved by two DMA channels (aes_dma_gcm_blocks), AAD,
 * the partial last block and the tag through aes_dev: messages recorded for an AESGCM check in
 * pytest, and each decrypted back through the DMA with its tag verified. */
#include <string.h>

#include "aes_dma.h"
#include "aesoc.h"
#include "aesoc_dma.h"

#define MESSAGES 4
#define MAX_LEN 1040

static uint8_t src[MAX_LEN] __attribute__((aligned(16), section(".sram1")));
static uint8_t dst[MAX_LEN] __attribute__((aligned(16)));
static uint8_t back[MAX_LEN] __attribute__((aligned(16)));

static aes_dev_t aes;
static dma_t dma;
static aes_dma_t eng;

static void fill(uint8_t *p, size_t n, uint32_t *seed) {
  for (size_t i = 0; i < n; ++i) p[i] = (uint8_t)aesoc_xorshift32(seed);
}

/* One message: whole blocks by DMA, the rest by the CPU. */
static int run(aes_dev_dir_t dir, const uint8_t *key, unsigned key_len, const uint8_t *iv, const uint8_t *aad,
               size_t aad_len, const uint8_t *in, uint8_t *out, size_t len, uint8_t *tag) {
  size_t whole = len / 16u * 16u;
  if (aes_dev_gcm_begin(&aes, dir, key, key_len, iv, 12) != AES_DEV_OK) return -1;
  if (aes_dev_gcm_aad(&aes, aad, aad_len) != AES_DEV_OK) return -2;
  if (whole && aes_dma_gcm_blocks(&eng, in, out, whole, DMA_WAIT_BOUND) != AES_DMA_OK) return -3;
  if (aes_dev_gcm_update(&aes, in + whole, out + whole, len - whole) != AES_DEV_OK) return -4;
  if (dir == AES_DEV_ENCRYPT) return aes_dev_gcm_finish(&aes, tag, 16) == AES_DEV_OK ? 0 : -5;
  return aes_dev_gcm_verify(&aes, tag, 16) == AES_DEV_OK ? 0 : -6;
}

int main(void) {
  static uint8_t key[32] __attribute__((aligned(4))), iv[12] __attribute__((aligned(4)));
  static uint8_t aad[64] __attribute__((aligned(4))), tag[16] __attribute__((aligned(4)));
  aes_dev_init(&aes, AESOC_AES_BASE);
  dma_init(&dma, AESOC_DMA_BASE);
  aes_dma_opts_t o = aes_dma_default_opts();
  o.platform = &aesoc_aes_dma_platform;
  o.use_irq = false;
  AESOC_CHECK(aes_dma_init(&eng, &aes, &dma, 0, 1, &o) == AES_DMA_OK);
  AESOC_CHECK(aes_dma_gcm_blocks(&eng, src, dst, 20, DMA_WAIT_BOUND) == AES_DMA_BAD_ARG);
  uint32_t seed = 0x3B1D7A55u;
  static const size_t lens[MESSAGES] = {1024, 16, 1037, 333};
  for (unsigned m = 0; m < MESSAGES; ++m) {
    unsigned key_len = 16u + 8u * (m % 3u);
    size_t aad_len = aesoc_xorshift32(&seed) % sizeof aad, len = lens[m];
    fill(key, key_len, &seed);
    fill(iv, sizeof iv, &seed);
    fill(aad, aad_len, &seed);
    fill(src, len, &seed);
    AESOC_CHECK(run(AES_DEV_ENCRYPT, key, key_len, iv, aad, aad_len, src, dst, len, tag) == 0);
    aesoc_rec_begin("aes_gcm_dma");
    aesoc_rec_hex("key", key, key_len);
    aesoc_rec_hex("iv", iv, sizeof iv);
    aesoc_rec_hex("aad", aad, aad_len);
    aesoc_rec_hex("pt", src, len);
    aesoc_rec_hex("ct", dst, len);
    aesoc_rec_hex("tag", tag, 16);
    aesoc_rec_end();
    /* Decrypt back through the DMA: the ciphertext goes where the DMA reads. */
    memcpy(back, src, len);
    memcpy(src, dst, len);
    AESOC_CHECK(run(AES_DEV_DECRYPT, key, key_len, iv, aad, aad_len, src, dst, len, tag) == 0);
    AESOC_CHECK(memcmp(dst, back, len) == 0);
  }
  AESOC_CHECK(aes_dev_clear(&aes) == AES_DEV_OK);
  aesoc_rec_begin("aes_gcm_dma_done");
  aesoc_rec_u64("failures", aesoc_check_failures);
  aesoc_rec_end();
  return aesoc_check_failures ? 1 : 0;
}
