/* SPDX-License-Identifier: Apache-2.0 */
/*
 * swcrypto timing test: for each key size, SWC_CT_TRIALS random keys and blocks (xorshift PRNG,
 * seed SWC_CT_SEED). Per trial and operation: one warm-up call, then the timed call on a new
 * random key or block with warm caches; with -DSWC_CT_COLD also with the D-cache invalidated
 * before the timed call. Reports the smallest and largest cycle count and how many distinct
 * counts were seen. A constant-time variant must show one count per operation with warm caches.
 */
#include <string.h>

#include "swcrypto.h"
#include "aesoc.h"

#ifndef SWC_CT_TRIALS
#define SWC_CT_TRIALS 128
#endif
#ifndef SWC_CT_SEED
#define SWC_CT_SEED 0x2545f491u
#endif

static uint32_t rng_state = SWC_CT_SEED;

static uint32_t rng(void) {
  uint32_t x = rng_state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return rng_state = x;
}

static void fill(uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; ++i) p[i] = (uint8_t)(rng() >> 24);
}

typedef struct {
  uint32_t min, max, distinct;
  uint32_t seen[SWC_CT_TRIALS];
} stats;

static void add(stats *s, uint32_t v) {
  for (uint32_t i = 0; i < s->distinct; ++i) {
    if (s->seen[i] == v) return;
  }
  s->seen[s->distinct++] = v;
  if (s->distinct == 1 || v < s->min) s->min = v;
  if (s->distinct == 1 || v > s->max) s->max = v;
}

static void emit(const char *op, unsigned bits, const char *cache, const stats *s) {
  aesoc_rec_begin("swc_ct");
  aesoc_rec_str("variant", swc_aes_variant());
  aesoc_rec_str("op", op);
  aesoc_rec_u64("bits", bits);
  aesoc_rec_str("cache", cache);
  aesoc_rec_u64("trials", SWC_CT_TRIALS);
  aesoc_rec_u64("min", s->min);
  aesoc_rec_u64("max", s->max);
  aesoc_rec_u64("distinct", s->distinct);
  aesoc_rec_end();
}

static stats st[5];

int main(void) {
  static const unsigned sizes[3] = {128, 192, 256};
  uint8_t key[32], block[16], out[16];
  swc_aes_ctx enc, dec;
  AESOC_CHECK(swc_aes_init() == SWC_OK);
  for (int k = 0; k < 3; ++k) {
    unsigned bits = sizes[k];
    memset(st, 0, sizeof st);
    for (int t = 0; t < SWC_CT_TRIALS; ++t) {
      fill(key, sizeof key); /* warm-up with another random key */
      AESOC_CHECK(swc_aes_setkey_enc(&enc, key, bits) == SWC_OK);
      fill(key, sizeof key);
      uint32_t t0 = aesoc_cycles32();
      AESOC_CHECK(swc_aes_setkey_enc(&enc, key, bits) == SWC_OK);
      add(&st[0], aesoc_cycles32() - t0);
      AESOC_CHECK(swc_aes_setkey_dec(&dec, key, bits) == SWC_OK);

      fill(block, sizeof block);
      AESOC_CHECK(swc_aes_encrypt_block(&enc, block, out) == SWC_OK); /* warm-up */
      fill(block, sizeof block);
      t0 = aesoc_cycles32();
      AESOC_CHECK(swc_aes_encrypt_block(&enc, block, out) == SWC_OK);
      add(&st[1], aesoc_cycles32() - t0);

      fill(block, sizeof block);
      AESOC_CHECK(swc_aes_decrypt_block(&dec, block, out) == SWC_OK);
      fill(block, sizeof block);
      t0 = aesoc_cycles32();
      AESOC_CHECK(swc_aes_decrypt_block(&dec, block, out) == SWC_OK);
      add(&st[2], aesoc_cycles32() - t0);

#ifdef SWC_CT_COLD
      /* cold D-cache: tables, key schedule and stack all come from memory again */
      fill(block, sizeof block);
      aesoc_dcache_invalidate();
      t0 = aesoc_cycles32();
      AESOC_CHECK(swc_aes_encrypt_block(&enc, block, out) == SWC_OK);
      add(&st[3], aesoc_cycles32() - t0);
      fill(block, sizeof block);
      aesoc_dcache_invalidate();
      t0 = aesoc_cycles32();
      AESOC_CHECK(swc_aes_decrypt_block(&dec, block, out) == SWC_OK);
      add(&st[4], aesoc_cycles32() - t0);
#endif
    }
    emit("setkey_enc", bits, "warm", &st[0]);
    emit("encrypt", bits, "warm", &st[1]);
    emit("decrypt", bits, "warm", &st[2]);
#ifdef SWC_CT_COLD
    emit("encrypt", bits, "cold", &st[3]);
    emit("decrypt", bits, "cold", &st[4]);
#endif
  }
  return aesoc_check_failures != 0;
}
