/* SPDX-License-Identifier: Apache-2.0 */
/* Test firmware: FIPS-197 Appendix C through the AES peripheral's driver, every key size, both
 * directions; a mismatch fails the program (AESOC_CHECK). */
#ifndef AES_DEV_FIPS197_H
#define AES_DEV_FIPS197_H

#include <stdint.h>
#include <string.h>

#include "aes_dev.h"
#include "aesoc.h"
#include "aesoc_vectors.h"

static inline void aes_dev_check_fips197(aes_dev_t *dev) {
  uint8_t key[32] __attribute__((aligned(4)));
  uint8_t out[16] __attribute__((aligned(4)));
  for (unsigned i = 0; i < 32; ++i) key[i] = (uint8_t)i;
  for (unsigned k = 0; k < 3; ++k) {
    aes_dev_config_t cfg = {.mode = AES_DEV_ECB, .dir = AES_DEV_ENCRYPT, .key_len = 16u + 8u * k};
    AESOC_CHECK(aes_dev_setup(dev, &cfg, key, NULL) == AES_DEV_OK);
    AESOC_CHECK(aes_dev_crypt(dev, AESOC_FIPS197_PT, out, 1) == AES_DEV_OK);
    AESOC_CHECK(memcmp(out, AESOC_FIPS197_CT[k], 16) == 0);
    cfg.dir = AES_DEV_DECRYPT;
    AESOC_CHECK(aes_dev_setup(dev, &cfg, key, NULL) == AES_DEV_OK);
    AESOC_CHECK(aes_dev_crypt(dev, AESOC_FIPS197_CT[k], out, 1) == AES_DEV_OK);
    AESOC_CHECK(memcmp(out, AESOC_FIPS197_PT, 16) == 0);
  }
}

#endif
