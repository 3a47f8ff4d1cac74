/* SPDX-License-Identifier: Apache-2.0 */
/*
 * swcrypto internals: the interface between the public AES layer (swc_aes.c: argument checks,
 * alignment, partial CTR blocks) and one AES variant (swc_aes_<variant>.c or .S), plus helpers
 * shared by the variants. Not part of the public API.
 *
 * State convention: a 16-byte block is four little-endian 32-bit words, one per column, so row
 * r of column c is byte r of word c (bits 8r..8r+7). A round key is four such words.
 */
#ifndef SWC_INTERNAL_H
#define SWC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "swcrypto.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "swcrypto assumes a little-endian core"
#endif

/* Direction markers stored in swc_aes_ctx.direction (anything else: not keyed). */
#define SWC_DIR_ENC 0x454e4331u
#define SWC_DIR_DEC 0x44454331u

typedef enum { SWC_MODE_ECB = 0, SWC_MODE_CBC = 1, SWC_MODE_CTR = 2 } swc_mode;

/* ---- implemented by the variant ------------------------------------------------------------
 * Buffers are word aligned, nblocks >= 1, in == out is allowed. `chain` is unused for ECB, the
 * IV for CBC (updated to the last ciphertext block) and the counter block for CTR (advanced by
 * nblocks; out = in XOR keystream). Key words are the key bytes loaded as little-endian words;
 * nk is 4, 6 or 8 and the cipher has nk + 6 rounds. */
extern const char swc_aes_impl_name[];
void swc_aes_impl_setup(void);
void swc_aes_impl_key_enc(uint32_t *rk, const uint32_t *key, unsigned nk);
void swc_aes_impl_key_dec(uint32_t *rk, const uint32_t *key, unsigned nk);
void swc_aes_impl_encrypt(const swc_aes_ctx *ctx, swc_mode mode, uint32_t chain[4],
                          const uint32_t *in, uint32_t *out, size_t nblocks);
void swc_aes_impl_decrypt(const swc_aes_ctx *ctx, swc_mode mode, uint32_t chain[4],
                          const uint32_t *in, uint32_t *out, size_t nblocks);

/* ---- helpers ------------------------------------------------------------------------------ */

static inline uint32_t swc_ror32(uint32_t x, unsigned n) {
  return (x >> n) | (x << ((32u - n) & 31u));
}

static inline uint32_t swc_bswap32(uint32_t x) {
  return (x >> 24) | ((x >> 8) & 0xff00u) | ((x << 8) & 0xff0000u) | (x << 24);
}

/* Multiply each of the four bytes of w by x in GF(2^8) (FIPS-197 5.1.3 xtime). */
static inline uint32_t swc_xtime4(uint32_t w) {
  return ((w & 0x7f7f7f7fu) << 1) ^ (((w >> 7) & 0x01010101u) * 0x1bu);
}

/* MixColumns of one column word: out_r = 2 a_r + 3 a_{r+1} + a_{r+2} + a_{r+3}. */
static inline uint32_t swc_mix_column(uint32_t w) {
  uint32_t r1 = swc_ror32(w, 8);
  uint32_t t = w ^ r1;
  return swc_xtime4(t) ^ r1 ^ swc_ror32(t, 16);
}

/* InvMixColumns of one column: {0b}x^3+{0d}x^2+{09}x+{0e} = ({03}x^3+{01}x^2+{01}x+{02}) *
 * ({04}x^2+{05}), so pre-multiply each byte pair by ({04}x^2+{05}) and apply MixColumns. */
static inline uint32_t swc_inv_mix_column(uint32_t w) {
  uint32_t u = swc_xtime4(swc_xtime4(w ^ swc_ror32(w, 16)));
  return swc_mix_column(w ^ u);
}

/* FIPS-197 5.2 KeyExpansion on little-endian words: RotWord is a rotation right by 8 and Rcon
 * lands in the low byte. `subword` applies the S-box to the four bytes of a word. Writes
 * 4 * (nk + 7) words. */
static inline void swc_aes_expand(uint32_t *w, const uint32_t *key, unsigned nk,
                                  uint32_t (*subword)(uint32_t)) {
  unsigned total = 4u * (nk + 7u);
  uint32_t rcon = 1;
  for (unsigned i = 0; i < nk; ++i) w[i] = key[i];
  /* j = i mod nk, counted rather than divided: RV32 division takes tens of cycles */
  for (unsigned i = nk, j = 0; i < total; ++i, j = j + 1 == nk ? 0 : j + 1) {
    uint32_t t = w[i - 1];
    if (j == 0) {
      t = subword(swc_ror32(t, 8)) ^ rcon;
      rcon = (rcon << 1) ^ ((rcon >> 7) * 0x11bu);
    } else if (nk > 6 && j == 4) {
      t = subword(t);
    }
    w[i] = w[i - nk] ^ t;
  }
}

/* A block or chaining value stored from the four words that hold it (a macro, so that every
 * optimisation level compiles it as the four assignments it stands for). */
#define SWC_STORE4(p, a, b, c, d) \
  do {                            \
    (p)[0] = (a);                 \
    (p)[1] = (b);                 \
    (p)[2] = (c);                 \
    (p)[3] = (d);                 \
  } while (0)

/* KeyExpansion written out per key size, the way table code does it (one round key, or one
 * nk-word group, per pass, key words kept in registers, no index arithmetic). S-box bytes come
 * from `sb` at a stride of `st` bytes: 1 for a byte S-box, 4 for a byte lane of a T-table. */
#define SWC_KS_S(sb, st, t, sh) ((uint32_t)(sb)[(((t) >> (sh)) & 0xffu) * (st)])

static inline uint32_t swc_ks_subrot(const uint8_t *sb, unsigned st, uint32_t t) {
  return SWC_KS_S(sb, st, t, 8) | SWC_KS_S(sb, st, t, 16) << 8 | SWC_KS_S(sb, st, t, 24) << 16 |
         SWC_KS_S(sb, st, t, 0) << 24;
}

static inline uint32_t swc_ks_sub(const uint8_t *sb, unsigned st, uint32_t t) {
  return SWC_KS_S(sb, st, t, 0) | SWC_KS_S(sb, st, t, 8) << 8 | SWC_KS_S(sb, st, t, 16) << 16 |
         SWC_KS_S(sb, st, t, 24) << 24;
}

/* Writes 4 * (nk + 7) words. */
static inline void swc_aes_expand_sbox(uint32_t *w, const uint32_t *key, unsigned nk, const uint8_t *sb,
                                       unsigned st) {
  static const uint8_t rcon[10] = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36};
  uint32_t k0 = key[0], k1 = key[1], k2 = key[2], k3 = key[3];
  w[0] = k0, w[1] = k1, w[2] = k2, w[3] = k3;
  if (nk == 4) {
    for (unsigned i = 0; i < 10; ++i) {
      k0 ^= swc_ks_subrot(sb, st, k3) ^ rcon[i];
      k1 ^= k0, k2 ^= k1, k3 ^= k2;
      w += 4;
      w[0] = k0, w[1] = k1, w[2] = k2, w[3] = k3;
    }
  } else if (nk == 6) {
    uint32_t k4 = key[4], k5 = key[5];
    w[4] = k4, w[5] = k5;
    for (unsigned i = 0;; ++i) {
      k0 ^= swc_ks_subrot(sb, st, k5) ^ rcon[i];
      k1 ^= k0, k2 ^= k1, k3 ^= k2;
      w += 6;
      w[0] = k0, w[1] = k1, w[2] = k2, w[3] = k3;
      if (i == 7) break; /* 52 words */
      k4 ^= k3, k5 ^= k4;
      w[4] = k4, w[5] = k5;
    }
  } else {
    uint32_t k4 = key[4], k5 = key[5], k6 = key[6], k7 = key[7];
    w[4] = k4, w[5] = k5, w[6] = k6, w[7] = k7;
    for (unsigned i = 0;; ++i) {
      k0 ^= swc_ks_subrot(sb, st, k7) ^ rcon[i];
      k1 ^= k0, k2 ^= k1, k3 ^= k2;
      w += 8;
      w[0] = k0, w[1] = k1, w[2] = k2, w[3] = k3;
      if (i == 6) break; /* 60 words */
      k4 ^= swc_ks_sub(sb, st, k3);
      k5 ^= k4, k6 ^= k5, k7 ^= k6;
      w[4] = k4, w[5] = k5, w[6] = k6, w[7] = k7;
    }
  }
}

/* Add one to a 128-bit big-endian counter held as four little-endian words. */
static inline void swc_ctr_increment(uint32_t c[4]) {
  for (int i = 3; i >= 0; --i) {
    uint32_t v = swc_bswap32(c[i]) + 1u;
    c[i] = swc_bswap32(v);
    if (v != 0) break;
  }
}

#endif /* SWC_INTERNAL_H */
