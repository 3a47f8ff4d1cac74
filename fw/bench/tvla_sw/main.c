/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tvla benchmark, software rows: TVLA_TRACES fixed-vs-random encryptions with the swcrypto AES
 * variant this program is built with (-DSWC_AES_*), AES-128 under TVLA's fixed key, one block per
 * trace. Per trace, from TVLA_SEED: the class is bit 0 of the next aesoc_xorshift32 output, the
 * next four outputs (drawn for both classes) are the random plaintext, little-endian. The
 * plaintext is selected without a branch from both candidates in RAM, so that the code before a
 * window reads and writes the same addresses in either class: the cache state a window starts
 * from is no clue to the class (only the data are). The program writes the class
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
/* Read from data, not an immediate: programs built for different counts run the same code at the
 * same addresses, so a shorter run's traces are the first traces of a longer one. */
static volatile const uint32_t trace_count = TVLA_TRACES;

int main(void) {
  uint32_t pt[4], rnd[4], fixed[4];
  uint8_t ct[16] __attribute__((aligned(4)));
  uint8_t fixed_ct[16] = {0};
  uint32_t state = TVLA_SEED;
  AESOC_CHECK(state != 0);
  AESOC_CHECK(swc_aes_init() == SWC_OK);
  AESOC_CHECK(swc_aes_setkey_enc(&enc, tvla_key, 128) == SWC_OK);
  AESOC_CHECK(swc_aes_encrypt_block(&enc, tvla_fixed, fixed_ct) == SWC_OK);
  memcpy(fixed, tvla_fixed, 16);
  const uint32_t traces = trace_count;
  for (uint32_t t = 0; t < traces; ++t) {
    const uint32_t cls = aesoc_xorshift32(&state) & 1u;
    const uint32_t random_mask = 0u - cls;
    for (int w = 0; w < 4; ++w) {
      rnd[w] = aesoc_xorshift32(&state);
      pt[w] = (rnd[w] & random_mask) | (fixed[w] & ~random_mask);
    }
    aesoc_putc((char)('0' + cls));
    aesoc_activity_begin();
    const swc_result r = swc_aes_encrypt_block(&enc, (const uint8_t *)pt, ct);
    aesoc_activity_end();
    AESOC_CHECK(r == SWC_OK);
    AESOC_CHECK(cls || memcmp(ct, fixed_ct, 16) == 0);
  }
  aesoc_putc('\n');
  aesoc_rec_begin("tvla_sw");
  aesoc_rec_str("variant", swc_aes_variant());
  aesoc_rec_u64("traces", traces);
  aesoc_rec_hex("fixed_ct", fixed_ct, 16);
  aesoc_rec_end();
  swc_aes_wipe(&enc);
  return aesoc_check_failures == 0 ? 0 : 1;
}
