/* SPDX-License-Identifier: Apache-2.0 */
/*
 * AES variant SWC_AES_FIXSLICE: constant time, two blocks at once, fixsliced.
 *
 * Technique: Adomnicai and Peyrin, "Fixslicing AES-like Ciphers", TCHES 2021(1) (ePrint
 * 2020/1123). This is an independent implementation of the idea for RV32 (no rotate
 * instruction), written from the description below.
 *
 * Bitsliced state: eight 32-bit words s[b], word b holding bit b of all 32 bytes of two blocks;
 * byte (row r, column c) of block k sits at bit 8r + 2c + k. A rotation of a word by 8 moves
 * every row up by one, a rotation inside each byte by 2 moves every column by one.
 *
 * S-box: the Boyar-Peralta circuit (J. Boyar, R. Peralta, "A new combinational logic
 * minimization technique with applications to cryptology", SEA 2010; 34 AND + 94 XOR here)
 * without its four output NOTs; they add 0x63 to every byte, which passes unchanged through
 * ShiftRows and MixColumns and is folded into every round key but the first. The inverse S-box
 * is A^-1 o S o A^-1 with A the linear part of the S-box's affine map (inverse(x) =
 * A^-1(S(x) + 0x63)), the constants again folded into the round keys.
 *
 * Fixslicing: ShiftRows is never computed. After k rounds the stored state is the true state
 * with ShiftRows^k still to apply ("lag" k mod 4). MixColumns on the true state is, on the stored
 * one, MixColumns with the row rotation R replaced by R_L: row r+1 taken from column c + L,
 * i.e. a word rotation by 8 then a rotation inside each byte by 2L bits. Round keys are stored
 * with ShiftRows^-L applied; the output is corrected once at the end (lag 2 for AES-128/256: rows
 * 1 and 3 move by two columns; lag 0 for AES-192).
 *
 * Constant time: no table, no branch or address that depends on key or data (branches depend
 * on the number of rounds, the mode and the length only). The key schedule uses the same
 * bitsliced S-box.
 */
#include "swc_internal.h"

#if defined(SWC_AES_FIXSLICE)

#include "swc_bitslice.h"

const char swc_aes_impl_name[] = "fixslice";

void swc_aes_impl_setup(void) {}

/* Word j = 2c + k of the transposition's input is column c of block k. */
SWC_FS_INLINE void swc_fs_pack(uint32_t s[8], const uint32_t a[4], const uint32_t b[4]) {
  s[0] = a[0], s[1] = b[0], s[2] = a[1], s[3] = b[1], s[4] = a[2], s[5] = b[2], s[6] = a[3], s[7] = b[3];
  swc_fs_transpose(s);
}

SWC_FS_INLINE void swc_fs_unpack(uint32_t s[8], uint32_t a[4], uint32_t b[4]) {
  swc_fs_transpose(s);
  a[0] = s[0], b[0] = s[1], a[1] = s[2], b[1] = s[3], a[2] = s[4], b[2] = s[5], a[3] = s[6], b[3] = s[7];
}

SWC_FS_INLINE void swc_fs_ark(uint32_t s[8], const uint32_t *rk) {
  s[0] ^= rk[0], s[1] ^= rk[1], s[2] ^= rk[2], s[3] ^= rk[3];
  s[4] ^= rk[4], s[5] ^= rk[5], s[6] ^= rk[6], s[7] ^= rk[7];
}

/* Rotations inside every byte by 2, 4 and 6 bits (one, two, three columns). */
#define SWC_BROR2(x) ((((x) >> 2) & 0x3f3f3f3fu) | (((x) << 6) & 0xc0c0c0c0u))
#define SWC_BROR4(x) ((((x) >> 4) & 0x0f0f0f0fu) | (((x) << 4) & 0xf0f0f0f0u))
#define SWC_BROR6(x) ((((x) >> 6) & 0x03030303u) | (((x) << 2) & 0xfcfcfcfcu))

/* R_L: row r + 1, column c + L, and R_L applied twice. Lags 0 and 2 get their own code; lags 1
 * and 3 share one body whose byte rotation (2 or 6 bits) is a run-time amount, which keeps the
 * round loop inside the 4 KB instruction cache. */
typedef struct {
  unsigned lag;     /* 0, 2, or 1 for the shared body of lags 1 and 3 */
  unsigned sh, shl; /* lags 1/3: byte rotation right by sh, i.e. (x >> sh) | (x << shl) */
  uint32_t lo, hi;  /* lags 1/3: masks of the two parts */
} swc_fs_lag;

SWC_FS_INLINE uint32_t swc_fs_r1(uint32_t x, const swc_fs_lag *l) {
  uint32_t y = swc_ror32(x, 8);
  if (l->lag == 0) return y;
  if (l->lag == 2) return SWC_BROR4(y);
  return ((y >> l->sh) & l->lo) | ((y << l->shl) & l->hi);
}

SWC_FS_INLINE uint32_t swc_fs_r2(uint32_t x, const swc_fs_lag *l) {
  uint32_t y = swc_ror32(x, 16);
  return l->lag == 1 ? SWC_BROR4(y) : y;
}

/* MixColumns at lag L: out = 2 t + R(s) + R^2(t) with t = s + R(s), where 2 t is xtime on the
 * slices (x^8 = x^4 + x^3 + x + 1: slice 7 feeds slices 0, 1, 3, 4). */
SWC_FS_INLINE void swc_fs_mix(uint32_t s[8], const swc_fs_lag *l) {
  const uint32_t r7 = swc_fs_r1(s[7], l), t7 = s[7] ^ r7;
  uint32_t r = swc_fs_r1(s[0], l), t = s[0] ^ r, prev;
  s[0] = t7 ^ r ^ swc_fs_r2(t, l);
  prev = t, r = swc_fs_r1(s[1], l), t = s[1] ^ r;
  s[1] = prev ^ t7 ^ r ^ swc_fs_r2(t, l);
  prev = t, r = swc_fs_r1(s[2], l), t = s[2] ^ r;
  s[2] = prev ^ r ^ swc_fs_r2(t, l);
  prev = t, r = swc_fs_r1(s[3], l), t = s[3] ^ r;
  s[3] = prev ^ t7 ^ r ^ swc_fs_r2(t, l);
  prev = t, r = swc_fs_r1(s[4], l), t = s[4] ^ r;
  s[4] = prev ^ t7 ^ r ^ swc_fs_r2(t, l);
  prev = t, r = swc_fs_r1(s[5], l), t = s[5] ^ r;
  s[5] = prev ^ r ^ swc_fs_r2(t, l);
  prev = t, r = swc_fs_r1(s[6], l), t = s[6] ^ r;
  s[6] = prev ^ r ^ swc_fs_r2(t, l);
  s[7] = t ^ r7 ^ swc_fs_r2(t7, l);
}

/* InvMixColumns at lag L = MixColumns o (5 + 4 R^2) (swc_inv_mix_column explains the split). */
SWC_FS_INLINE void swc_fs_inv_mix(uint32_t s[8], const swc_fs_lag *lag) {
  const uint32_t u0 = s[0] ^ swc_fs_r2(s[0], lag), u1 = s[1] ^ swc_fs_r2(s[1], lag);
  const uint32_t u2 = s[2] ^ swc_fs_r2(s[2], lag), u3 = s[3] ^ swc_fs_r2(s[3], lag);
  const uint32_t u4 = s[4] ^ swc_fs_r2(s[4], lag), u5 = s[5] ^ swc_fs_r2(s[5], lag);
  const uint32_t u6 = s[6] ^ swc_fs_r2(s[6], lag), u7 = s[7] ^ swc_fs_r2(s[7], lag);
  /* multiply u by x^2: slices 6 and 7 feed back through x^8 + x^4 + x^3 + x + 1 */
  s[0] ^= u6;
  s[1] ^= u6 ^ u7;
  s[2] ^= u0 ^ u7;
  s[3] ^= u1 ^ u6;
  s[4] ^= u2 ^ u6 ^ u7;
  s[5] ^= u3 ^ u7;
  s[6] ^= u4;
  s[7] ^= u5;
  swc_fs_mix(s, lag);
}

/* Undo the lag left after the last round: 0 or 2 (rows 1 and 3 move by two columns). */
SWC_FS_INLINE void swc_fs_unlag(uint32_t w[4], unsigned lag) {
  if (lag == 2) {
    uint32_t a = w[0], b = w[1];
    w[0] = (a & 0x00ff00ffu) | (w[2] & 0xff00ff00u);
    w[1] = (b & 0x00ff00ffu) | (w[3] & 0xff00ff00u);
    w[2] = (w[2] & 0x00ff00ffu) | (a & 0xff00ff00u);
    w[3] = (w[3] & 0x00ff00ffu) | (b & 0xff00ff00u);
  }
}

/* (Inv)MixColumns at lag 0..3: three bodies, chosen per round. */
SWC_FS_INLINE void swc_fs_lag_mix(uint32_t s[8], unsigned lag, int inverse) {
  if (lag & 1) {
    unsigned sh = lag == 1 ? 2u : 6u;
    uint32_t lo = 0x01010101u * (0xffu >> sh);
    const swc_fs_lag l = {1, sh, 8u - sh, lo, ~lo};
    inverse ? swc_fs_inv_mix(s, &l) : swc_fs_mix(s, &l);
  } else if (lag == 2) {
    const swc_fs_lag l = {2, 0, 0, 0, 0};
    inverse ? swc_fs_inv_mix(s, &l) : swc_fs_mix(s, &l);
  } else {
    const swc_fs_lag l = {0, 0, 0, 0, 0};
    inverse ? swc_fs_inv_mix(s, &l) : swc_fs_mix(s, &l);
  }
}

/* Encrypt the two blocks held in s (bitsliced): one S-box and four MixColumns (one per lag) in
 * the code, the round loop picks the lag. */
SWC_FS_INLINE void swc_fs_encrypt(const uint32_t *rk, unsigned nr, uint32_t s[8]) {
  uint32_t x[8] = {s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]};
  swc_fs_ark(x, rk);
  for (unsigned r = 1;; ++r) {
    rk += 8;
    swc_fs_sbox(x);
    if (r == nr) break;
    swc_fs_lag_mix(x, r & 3, 0);
    swc_fs_ark(x, rk);
  }
  swc_fs_ark(x, rk);
  s[0] = x[0], s[1] = x[1], s[2] = x[2], s[3] = x[3], s[4] = x[4], s[5] = x[5], s[6] = x[6], s[7] = x[7];
}

/* Decrypt (straight inverse cipher); decryption round key i is stored at rk + 8 i, with the lag
 * (i - nr) mod 4 of the round that adds it. */
SWC_FS_INLINE void swc_fs_decrypt(const uint32_t *rk, unsigned nr, uint32_t s[8]) {
  uint32_t x[8] = {s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]};
  const uint32_t *k = rk + 8 * nr;
  swc_fs_ark(x, k);
  for (unsigned i = nr - 1;; --i) {
    k -= 8;
    swc_fs_inv_sbox(x);
    swc_fs_ark(x, k);
    if (i == 0) break;
    swc_fs_lag_mix(x, (i - nr) & 3, 1);
  }
  s[0] = x[0], s[1] = x[1], s[2] = x[2], s[3] = x[3], s[4] = x[4], s[5] = x[5], s[6] = x[6], s[7] = x[7];
}

/* ---- modes -------------------------------------------------------------------------------- */

/* Two blocks through the cipher: a, b in and out as column words. Inlined into each mode loop
 * so that a loop, its cipher and its packing lie together in the instruction cache. */
SWC_FS_INLINE void swc_fs_two(const swc_aes_ctx *ctx, int decrypt, uint32_t a[4], uint32_t b[4]) {
  uint32_t s[8];
  unsigned nr = ctx->rounds;
  swc_fs_pack(s, a, b);
  if (decrypt) {
    swc_fs_decrypt(ctx->rk, nr, s);
  } else {
    swc_fs_encrypt(ctx->rk, nr, s);
  }
  swc_fs_unpack(s, a, b);
  swc_fs_unlag(a, nr & 3);
  swc_fs_unlag(b, nr & 3);
}

void swc_aes_impl_encrypt(const swc_aes_ctx *ctx, swc_mode mode, uint32_t chain[4],
                          const uint32_t *in, uint32_t *out, size_t nblocks) {
  uint32_t a[4], b[4];
  while (nblocks > 0) {
    /* CBC encryption is serial: one block per call of the cipher, the other lane idle. */
    size_t n = (nblocks >= 2 && mode != SWC_MODE_CBC) ? 2 : 1;
    for (int c = 0; c < 4; ++c) {
      if (mode == SWC_MODE_CTR) {
        a[c] = chain[c];
      } else {
        a[c] = in[c] ^ (mode == SWC_MODE_CBC ? chain[c] : 0);
        b[c] = n == 2 ? in[4 + c] : 0;
      }
    }
    if (mode == SWC_MODE_CTR) {
      swc_ctr_increment(chain);
      /* written out: as a loop GCC turns it into a memcpy call (5.8 c/B of CTR) */
      b[0] = chain[0], b[1] = chain[1], b[2] = chain[2], b[3] = chain[3];
      if (n == 2) swc_ctr_increment(chain);
    }
    swc_fs_two(ctx, 0, a, b);
    for (int c = 0; c < 4; ++c) {
      if (mode == SWC_MODE_CTR) {
        a[c] ^= in[c];
        if (n == 2) b[c] ^= in[4 + c];
      } else if (mode == SWC_MODE_CBC) {
        chain[c] = a[c];
      }
      out[c] = a[c];
      if (n == 2) out[4 + c] = b[c];
    }
    in += 4 * n;
    out += 4 * n;
    nblocks -= n;
  }
}

void swc_aes_impl_decrypt(const swc_aes_ctx *ctx, swc_mode mode, uint32_t chain[4],
                          const uint32_t *in, uint32_t *out, size_t nblocks) {
  uint32_t a[4], b[4], x[8];
  while (nblocks > 0) {
    size_t n = nblocks >= 2 ? 2 : 1;
    /* written out: as a loop GCC turns the copies into memcpy calls */
    x[0] = a[0] = in[0], x[1] = a[1] = in[1], x[2] = a[2] = in[2], x[3] = a[3] = in[3];
    if (n == 2) {
      x[4] = b[0] = in[4], x[5] = b[1] = in[5], x[6] = b[2] = in[6], x[7] = b[3] = in[7];
    } else {
      x[4] = b[0] = 0, x[5] = b[1] = 0, x[6] = b[2] = 0, x[7] = b[3] = 0;
    }
    swc_fs_two(ctx, 1, a, b);
    if (mode == SWC_MODE_CBC) {
      for (int c = 0; c < 4; ++c) {
        a[c] ^= chain[c];
        b[c] ^= x[c];
        chain[c] = x[4 * (n - 1) + c];
      }
    }
    for (int c = 0; c < 4; ++c) {
      out[c] = a[c];
      if (n == 2) out[4 + c] = b[c];
    }
    in += 4 * n;
    out += 4 * n;
    nblocks -= n;
  }
}

/* ---- key schedule ----------------------------------------------------------------------- */

/* Store round key `k` (4 words) bitsliced for both blocks, with ShiftRows^-lag applied and
 * 0x63 added when `affine` is set. */
static void swc_fs_store_key(uint32_t *out, const uint32_t k[4], unsigned lag, int affine) {
  uint32_t w[4];
  for (unsigned c = 0; c < 4; ++c) {
    uint32_t v = 0;
    for (unsigned r = 0; r < 4; ++r) v |= k[(c - lag * r) & 3] & (0xffu << (8 * r));
    w[c] = affine ? v ^ 0x63636363u : v;
  }
  swc_fs_pack(out, w, w);
}

void swc_aes_impl_key_enc(uint32_t *rk, const uint32_t *key, unsigned nk) {
  uint32_t w[60];
  unsigned nr = nk + 6;
  swc_aes_expand(w, key, nk, swc_fs_subword);
  for (unsigned i = 0; i <= nr; ++i) swc_fs_store_key(rk + 8 * i, w + 4 * i, i & 3, i > 0);
  for (unsigned i = 0; i < 60; ++i) ((volatile uint32_t *)w)[i] = 0;
}

void swc_aes_impl_key_dec(uint32_t *rk, const uint32_t *key, unsigned nk) {
  uint32_t w[60];
  unsigned nr = nk + 6;
  swc_aes_expand(w, key, nk, swc_fs_subword);
  /* the round adding key i has lag (i - nr) mod 4 */
  for (unsigned i = 0; i <= nr; ++i) swc_fs_store_key(rk + 8 * i, w + 4 * i, (i - nr) & 3, i > 0);
  for (unsigned i = 0; i < 60; ++i) ((volatile uint32_t *)w)[i] = 0;
}

#endif /* SWC_AES_FIXSLICE */
