/* SPDX-License-Identifier: Apache-2.0 */
/* The memory-mapped AES peripheral with a masked engine (HWCFG.MASKING): the reseed register and
 * driver call, FIPS-197 in both directions and every key size before and after a reseed, and a
 * reseed while blocks are queued. On an unmasked instance: the driver refuses to reseed. */
#include <string.h>

#include "aes_dev.h"
#include "aes_dev_fips197.h"
#include "aes_regs.h"
#include "aesoc.h"
#include "aesoc_vectors.h"

#define AES(member) AESOC_REG(AESOC_AES_BASE, aes_periph_t, member)

static aes_dev_t dev;

/* Two FIPS-197 AES-128 blocks queued, the PRNG reseeded while the engine runs them. */
static void reseed_while_running(const uint32_t *seed) {
  uint8_t key[16] __attribute__((aligned(4)));
  uint8_t out[16] __attribute__((aligned(4)));
  for (unsigned i = 0; i < 16; ++i) key[i] = (uint8_t)i;
  aes_dev_config_t cfg = {.mode = AES_DEV_ECB, .dir = AES_DEV_ENCRYPT, .key_len = 16};
  AESOC_CHECK(aes_dev_setup(&dev, &cfg, key, NULL) == AES_DEV_OK);
  aes_dev_put_block(&dev, AESOC_FIPS197_PT);
  aes_dev_put_block(&dev, AESOC_FIPS197_PT);
  AESOC_CHECK(aes_dev_status(&dev) & AES_PERIPH__STATUS__BUSY_bm);
  AESOC_CHECK(aes_dev_reseed(&dev, seed, 16) == AES_DEV_OK);
  for (unsigned b = 0; b < 2; ++b) {
    aes_dev_get_block(&dev, out);
    AESOC_CHECK(memcmp(out, AESOC_FIPS197_CT[0], 16) == 0);
  }
  AESOC_CHECK((aes_dev_status(&dev) & AES_PERIPH__STATUS__ERR_bm) == 0);
}

int main(void) {
  static uint32_t seed[32];
  uint32_t s = 0x6A09E667u;
  for (unsigned i = 0; i < 32; ++i) seed[i] = aesoc_xorshift32(&s);
  aes_dev_init(&dev, AESOC_AES_BASE);
  uint32_t masking = (AES(HWCFG) & AES_PERIPH__HWCFG__MASKING_bm) >> AES_PERIPH__HWCFG__MASKING_bp;
  aesoc_rec_begin("aes_masking");
  aesoc_rec_u64("masking", masking);
  aesoc_rec_end();
  /* Arguments are checked first, on every instance. */
  AESOC_CHECK(aes_dev_reseed(NULL, seed, 16) == AES_DEV_BAD_ARG);
  AESOC_CHECK(aes_dev_reseed(&dev, NULL, 16) == AES_DEV_BAD_ARG);
  AESOC_CHECK(aes_dev_reseed(&dev, seed, 0) == AES_DEV_BAD_ARG);
  AESOC_CHECK(aes_dev_reseed(&dev, seed, 20) == AES_DEV_BAD_ARG);
  AESOC_CHECK(aes_dev_reseed(&dev, (const uint8_t *)seed + 2, 16) == AES_DEV_BAD_ARG);
  if (masking == 0) {
    AESOC_CHECK(aes_dev_reseed(&dev, seed, 16) == AES_DEV_UNSUPPORTED);
    aes_dev_check_fips197(&dev);
    return 0;
  }
  /* The seed words are write-only, and CMD.RESEED wipes them. */
  AES(PRNG_SEED[0]) = 0xA5A5A5A5u;
  AESOC_CHECK(AES(PRNG_SEED[0]) == 0);
  aes_dev_check_fips197(&dev);
  AESOC_CHECK(aes_dev_reseed(&dev, seed, sizeof seed) == AES_DEV_OK); /* 8 lanes of 16 bytes */
  aes_dev_check_fips197(&dev);
  reseed_while_running(seed);
  AESOC_CHECK(aes_dev_clear(&dev) == AES_DEV_OK);
  aesoc_rec_begin("aes_masked_done");
  aesoc_rec_u64("ok", 1);
  aesoc_rec_end();
  return 0;
}
