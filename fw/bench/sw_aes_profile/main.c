/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sw_aes_profile: one AES-128 CTR call on 1 KB (warm caches) between two cycle-counter reads,
 * for an instruction trace of exactly that window (aesoc.sim.swprofile): the first run prints the
 * window's cycles, the second traces it. Instead of CTR, -DSW_AES_PROFILE_KEY traces one warm
 * AES-128 key expansion (swc_aes_setkey_enc), -DSW_AES_PROFILE_CBC one CBC encryption of 1 KB,
 * -DSW_AES_PROFILE_SHA256 one SHA-256 of 1 KB.
 */
#include "swcrypto.h"
#include "aesoc.h"

static uint8_t buf_in[1024] __attribute__((aligned(32)));
static uint8_t buf_out[1024] __attribute__((aligned(32)));

int main(void) {
  static const uint8_t key[16] = {0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
                                  0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c};
  swc_aes_ctx enc;
  uint8_t ctr[16];
  for (unsigned i = 0; i < sizeof buf_in; ++i) buf_in[i] = (uint8_t)(i * 13u + 7u);
  AESOC_CHECK(swc_aes_setkey_enc(&enc, key, 128) == SWC_OK);
  uint32_t t0 = 0, t1 = 0;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 16; ++j) ctr[j] = 0xa5;
#if defined(SW_AES_PROFILE_KEY)
    t0 = aesoc_cycles32();
    AESOC_CHECK(swc_aes_setkey_enc(&enc, key, 128) == SWC_OK);
    t1 = aesoc_cycles32();
    (void)buf_out;
#elif defined(SW_AES_PROFILE_CBC)
    t0 = aesoc_cycles32();
    AESOC_CHECK(swc_aes_cbc_encrypt(&enc, ctr, buf_in, buf_out, sizeof buf_in) == SWC_OK);
    t1 = aesoc_cycles32();
#elif defined(SW_AES_PROFILE_SHA256)
    t0 = aesoc_cycles32();
    AESOC_CHECK(swc_sha256(buf_in, sizeof buf_in, buf_out) == SWC_OK);
    t1 = aesoc_cycles32();
#else
    t0 = aesoc_cycles32();
    AESOC_CHECK(swc_aes_ctr(&enc, ctr, buf_in, buf_out, sizeof buf_in) == SWC_OK);
    t1 = aesoc_cycles32();
#endif
  }
  (void)ctr; /* unused by the key and hash windows */
  aesoc_rec_begin("sw_aes_profile");
  aesoc_rec_str("variant", swc_aes_variant());
  aesoc_rec_u64("start", t0);
  aesoc_rec_u64("end", t1);
  aesoc_rec_end();
  return aesoc_check_failures != 0;
}
