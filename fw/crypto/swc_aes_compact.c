/* SPDX-License-Identifier: Apache-2.0 */
/*
 * AES variant SWC_AES_COMPACT: the smallest code and data. Only the 256-byte S-box and inverse
 * S-box; SubBytes and ShiftRows are one pass of byte look-ups, MixColumns works on a whole column
 * word with packed xtime (swc_mix_column), decryption runs the straight inverse cipher
 * (FIPS-197 5.3) on the encryption key schedule. Loops are kept rolled: this variant trades speed
 * for size. Not constant time (S-box look-ups).
 */
#include "swc_internal.h"

#if defined(SWC_AES_COMPACT)

#include "swc_aes_tables.h"

const char swc_aes_impl_name[] = "compact";

static const uint8_t swc_sbox[256] = {SWC_SBOX_LIST(SWC_BYTE_ENTRY)};
static const uint8_t swc_inv_sbox[256] = {SWC_INV_SBOX_LIST(SWC_BYTE_ENTRY)};

void swc_aes_impl_setup(void) {}

__attribute__((noinline)) static uint32_t swc_subword(uint32_t w) {
  uint32_t r = 0;
  for (unsigned k = 0; k < 32; k += 8) r |= (uint32_t)swc_sbox[(w >> k) & 0xff] << k;
  return r;
}

__attribute__((noinline)) void swc_aes_impl_key_enc(uint32_t *rk, const uint32_t *key, unsigned nk) {
  swc_aes_expand(rk, key, nk, swc_subword);
}

/* The straight inverse cipher uses the encryption schedule as it is. */
void swc_aes_impl_key_dec(uint32_t *rk, const uint32_t *key, unsigned nk) { swc_aes_impl_key_enc(rk, key, nk); }

/* One round's byte layer: SubBytes and ShiftRows (or their inverses) in one pass over the 16
 * bytes. Byte i = 4c + r (row r of column c) comes from column c + r (encryption) or c - r
 * (decryption): index i + 4r, resp. i - 4r, modulo 16. */
static void swc_bytes(uint32_t s[4], const uint8_t box[256], int inverse) {
  uint32_t t[4];
  uint8_t *tb = (uint8_t *)t;
  const uint8_t *sb = (const uint8_t *)s;
  for (unsigned i = 0; i < 16; ++i) tb[i] = box[sb[(inverse ? i - 4 * (i & 3) : i + 4 * (i & 3)) & 15]];
  for (unsigned c = 0; c < 4; ++c) s[c] = t[c];
}

/* MixColumns of one column, out of line: encryption and decryption share one copy. */
__attribute__((noinline)) static uint32_t swc_mix(uint32_t w) { return swc_mix_column(w); }
__attribute__((noinline)) static uint32_t swc_xt(uint32_t w) { return swc_xtime4(w); }

static void swc_add_key(uint32_t s[4], const uint32_t *rk) {
  for (unsigned c = 0; c < 4; ++c) s[c] ^= rk[c];
}

/* FIPS-197 5.1 Cipher, or with the inverse S-box 5.3 InvCipher on the encryption key schedule,
 * on the column words s. One function for both directions keeps the code small; the direction
 * follows from the box passed, so only decryption refers to the inverse S-box and a program that
 * never decrypts links without it. */
__attribute__((noinline)) static void swc_cipher(const uint32_t *rk, unsigned rounds, uint32_t s[4],
                                                 const uint8_t *box) {
  int inverse = box != swc_sbox;
  int step = inverse ? -4 : 4;
  const uint32_t *k = inverse ? rk + 4 * rounds : rk;
  swc_add_key(s, k);
  for (unsigned r = 1; r <= rounds; ++r) {
    k += step;
    swc_bytes(s, box, inverse);
    if (inverse) swc_add_key(s, k);
    if (r < rounds) {
      for (unsigned c = 0; c < 4; ++c) {
        /* InvMixColumns = MixColumns o (multiply by {04}x^2 + {05}), see swc_inv_mix_column */
        uint32_t w = s[c];
        if (inverse) w ^= swc_xt(swc_xt(w ^ swc_ror32(w, 16)));
        s[c] = swc_mix(w);
      }
    }
    if (!inverse) swc_add_key(s, k);
  }
}

void swc_aes_impl_encrypt(const swc_aes_ctx *ctx, swc_mode mode, uint32_t chain[4],
                          const uint32_t *in, uint32_t *out, size_t nblocks) {
  uint32_t s[4];
  for (; nblocks > 0; --nblocks, in += 4, out += 4) {
    /* ECB: in; CBC: in ^ chain; CTR: chain */
    for (unsigned c = 0; c < 4; ++c) s[c] = (mode == SWC_MODE_CTR ? 0 : in[c]) ^ (mode == SWC_MODE_ECB ? 0 : chain[c]);
    swc_cipher(ctx->rk, ctx->rounds, s, swc_sbox);
    for (unsigned c = 0; c < 4; ++c) {
      if (mode == SWC_MODE_CTR) s[c] ^= in[c];
      if (mode == SWC_MODE_CBC) chain[c] = s[c];
      out[c] = s[c];
    }
    if (mode == SWC_MODE_CTR) swc_ctr_increment(chain);
  }
}

void swc_aes_impl_decrypt(const swc_aes_ctx *ctx, swc_mode mode, uint32_t chain[4],
                          const uint32_t *in, uint32_t *out, size_t nblocks) {
  uint32_t s[4];
  for (; nblocks > 0; --nblocks, in += 4, out += 4) {
    for (unsigned c = 0; c < 4; ++c) s[c] = in[c];
    swc_cipher(ctx->rk, ctx->rounds, s, swc_inv_sbox);
    for (unsigned c = 0; c < 4; ++c) {
      uint32_t x = in[c]; /* read before out[c] may overwrite it */
      if (mode == SWC_MODE_CBC) {
        s[c] ^= chain[c];
        chain[c] = x;
      }
      out[c] = s[c];
    }
  }
}

#endif /* SWC_AES_COMPACT */
