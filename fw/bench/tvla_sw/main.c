/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tvla benchmark, software rows: TVLA_TRACES fixed-vs-random encryptions with the swcrypto AES
 * variant this program is built with (-DSWC_AES_*), AES-128 under TVLA's fixed key, one block per
 * trace. The class of each trace is bit 0 of the next aesoc_xorshift32 output from TVLA_SEED;
 * a random-class plaintext is the next four outputs, little-endian. The program writes the class
 * to the console as '0' or '1' just before it opens the trace's window (aesoc_activity_begin):
 * the harness's power capture (aesoc-sim --power) takes it as the trace's class byte. The window
 * holds the swc_aes_encrypt_block call only. One untraced encryption of the fixed plaintext comes
 * first (it warms the caches, so the first trace is not the only cold one); every fixed-class
 * trace must give its ciphertext again. Last, one record: the variant, the trace count and that
 * ciphertext, which the benchmark checks against an AES of its own before it trusts the traces.
 */
#include <string.h>

#include "aesoc.h"
#include "swcrypto.h"

#ifndef TVLA_TRACES
#error "define TVLA_TRACES (the number of traces)"
#endif
#ifndef TVLA_SEED
#error "define TVLA_SEED (non-zero seed of the class and plaintext generator)"
#endif

/* TVLA's fixed key and fixed plaintext (Goodwill et al., 2011, AES-128), as the engine rows use. */
static const uint8_t tvla_key[16] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
                                     0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0};
static const uint8_t tvla_fixed[16] = {0xda, 0x39, 0xa3, 0xee, 0x5e, 0x6b, 0x4b, 0x0d,
                                       0x32, 0x55, 0xbf, 0xef, 0x95, 0x60, 0x18, 0x90};

static swc_aes_ctx enc;

int main(void) {
  uint8_t pt[16] __attribute__((aligned(4)));
  uint8_t ct[16] __attribute__((aligned(4)));
  uint8_t fixed_ct[16] = {0};
  uint32_t state = TVLA_SEED;
  AESOC_CHECK(state != 0);
  AESOC_CHECK(swc_aes_init() == SWC_OK);
  AESOC_CHECK(swc_aes_setkey_enc(&enc, tvla_key, 128) == SWC_OK);
  AESOC_CHECK(swc_aes_encrypt_block(&enc, tvla_fixed, fixed_ct) == SWC_OK);
  for (uint32_t t = 0; t < TVLA_TRACES; ++t) {
    const uint32_t cls = aesoc_xorshift32(&state) & 1u;
    if (cls) {
      for (int w = 0; w < 4; ++w) {
        const uint32_t r = aesoc_xorshift32(&state);
        memcpy(pt + 4 * w, &r, 4);
      }
    } else {
      memcpy(pt, tvla_fixed, 16);
    }
    aesoc_putc(cls ? '1' : '0');
    aesoc_activity_begin();
    const swc_result r = swc_aes_encrypt_block(&enc, pt, ct);
    aesoc_activity_end();
    AESOC_CHECK(r == SWC_OK);
    AESOC_CHECK(cls || memcmp(ct, fixed_ct, 16) == 0);
  }
  aesoc_putc('\n');
  aesoc_rec_begin("tvla_sw");
  aesoc_rec_str("variant", swc_aes_variant());
  aesoc_rec_u64("traces", TVLA_TRACES);
  aesoc_rec_hex("fixed_ct", fixed_ct, 16);
  aesoc_rec_end();
  swc_aes_wipe(&enc);
  return aesoc_check_failures == 0 ? 0 : 1;
}
