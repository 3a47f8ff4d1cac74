/* SPDX-License-Identifier: Apache-2.0 */
/*
 * AES variant SWC_AES_BARREL: constant time, eight blocks at once, barrel-shiftrows.
 *
 * Technique: the barrel-shiftrows representation of Adomnicai and Peyrin, "Fixslicing AES-like
 * Ciphers", TCHES 2021(1) (ePrint 2020/1123); an independent implementation for RV32 written
 * from the paper's description.
 *
 * State: 32 words, word 8r + b holding bit b of row r of eight blocks: byte (row r, column c) of
 * block k sits at bit 8c + k. ShiftRows is then a rotation of the eight row-r words by 8r bits
 * and MixColumns combines words of different rows at the same bit: XORs only, no shift. The
 * S-box circuit (swc_bitslice.h, 0x63 folded into the round keys as in the fixsliced variant)
 * runs once per row. A round keeps no more than one row or one bit position in registers; the
 * state lives in a 128-byte array between the two passes of a round.
 *
 * Round keys take 32 words each (every bit of a round-key byte spread over its eight block
 * bits), 1.9 KB for AES-256. Fewer than eight blocks cost as much as eight, so CBC encryption
 * (serial) pays eight blocks per block; the other modes run eight blocks per pass.
 *
 * Constant time: no table, no branch or address that depends on key or data (branches depend
 * on the number of rounds, the mode and the length only).
 */
#include <string.h>

#include "swc_internal.h"

#if defined(SWC_AES_BARREL)

#include "swc_bitslice.h"

#define SWC_BR_BLOCKS 8u
#define SWC_BR_WORDS 32u /* words of the state and of one round key */

const char swc_aes_impl_name[] = "barrel";

void swc_aes_impl_setup(void) {}

/* The encryption passes share one section so that they lie together, in the order below, and do
 * not evict each other from the direct-mapped 4 KB instruction cache; the decryption passes share
 * another (a program without decryption drops it whole). */
#if defined(__ELF__)
#define SWC_BR_HOT __attribute__((section(".text.swc_br_hot")))
#define SWC_BR_HOT_DEC __attribute__((section(".text.swc_br_hot_dec")))
#else
#define SWC_BR_HOT
#define SWC_BR_HOT_DEC
#endif

/* Transpose the 4 x 4 byte matrix (word i, lane j) -> (word j, lane i). Its own inverse. */
SWC_FS_INLINE void swc_br_bytes(uint32_t w[4]) {
  SWC_SWAPMOVE(w[0], w[1], 0x00ff00ffu, 8);
  SWC_SWAPMOVE(w[2], w[3], 0x00ff00ffu, 8);
  SWC_SWAPMOVE(w[0], w[2], 0x0000ffffu, 16);
  SWC_SWAPMOVE(w[1], w[3], 0x0000ffffu, 16);
}

/* Eight blocks (column words, block k at in[4k]) into the state, plus round key 0. Per column,
 * the bit transposition of its eight blocks gives words with (lane r, bit k); the byte
 * transposition of the four columns' words of one bit then gives (lane c, bit k) per row. Loops,
 * not unrolled: they run once per eight blocks, and unrolled they would push the round out of the
 * 4 KB instruction cache. */
SWC_BR_HOT static void swc_br_pack(uint32_t st[32], const uint32_t *in, const uint32_t *rk) {
#pragma GCC unroll 1
  for (unsigned c = 0; c < 4; ++c) {
    uint32_t s[8] = {in[c], in[4 + c], in[8 + c], in[12 + c], in[16 + c], in[20 + c], in[24 + c], in[28 + c]};
    uint32_t *p = st + 8 * c;
    swc_fs_transpose(s);
    p[0] = s[0], p[1] = s[1], p[2] = s[2], p[3] = s[3], p[4] = s[4], p[5] = s[5], p[6] = s[6], p[7] = s[7];
  }
#pragma GCC unroll 1
  for (unsigned b = 0; b < 8; ++b) {
    uint32_t w[4] = {st[b], st[8 + b], st[16 + b], st[24 + b]};
    swc_br_bytes(w);
    st[b] = w[0] ^ rk[b], st[8 + b] = w[1] ^ rk[8 + b], st[16 + b] = w[2] ^ rk[16 + b], st[24 + b] = w[3] ^ rk[24 + b];
  }
}

/* The last round key, then the state back into eight blocks: pack's steps in reverse order. With
 * x (CTR), the blocks are XORed into x on their way out (x == out allowed). */
SWC_FS_INLINE void swc_br_unpack(uint32_t st[32], uint32_t *out, const uint32_t *rk, const uint32_t *x) {
#pragma GCC unroll 1
  for (unsigned b = 0; b < 8; ++b) {
    uint32_t w[4] = {st[b] ^ rk[b], st[8 + b] ^ rk[8 + b], st[16 + b] ^ rk[16 + b], st[24 + b] ^ rk[24 + b]};
    swc_br_bytes(w);
    st[b] = w[0], st[8 + b] = w[1], st[16 + b] = w[2], st[24 + b] = w[3];
  }
#pragma GCC unroll 1
  for (unsigned c = 0; c < 4; ++c) {
    const uint32_t *p = st + 8 * c;
    uint32_t s[8] = {p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]};
    swc_fs_transpose(s);
    if (x != NULL) {
      s[0] ^= x[c], s[1] ^= x[4 + c], s[2] ^= x[8 + c], s[3] ^= x[12 + c];
      s[4] ^= x[16 + c], s[5] ^= x[20 + c], s[6] ^= x[24 + c], s[7] ^= x[28 + c];
    }
    out[c] = s[0], out[4 + c] = s[1], out[8 + c] = s[2], out[12 + c] = s[3];
    out[16 + c] = s[4], out[20 + c] = s[5], out[24 + c] = s[6], out[28 + c] = s[7];
  }
}

/* SubBytes and ShiftRows on rows lo..hi-1: row r moves left by r columns, a rotation right by
 * 8r bits (none for row 0). Not inlined: one copy of the S-box serves every round and the CTR
 * cache. */
SWC_BR_HOT static __attribute__((noinline)) void swc_br_sub_shift(uint32_t st[32], unsigned lo, unsigned hi) {
#pragma GCC unroll 1
  for (unsigned r = lo; r < hi; ++r) {
    uint32_t *p = st + 8 * r;
    uint32_t s[8] = {p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]};
    swc_fs_sbox(s);
    if (r == 0) {
      p[0] = s[0], p[1] = s[1], p[2] = s[2], p[3] = s[3], p[4] = s[4], p[5] = s[5], p[6] = s[6], p[7] = s[7];
    } else {
#pragma GCC unroll 8
      for (unsigned i = 0; i < 8; ++i) p[i] = swc_ror32(s[i], 8 * r);
    }
  }
}

/* MixColumns, then the round key rk (none if NULL), one bit position at a time:
 * out_r = 2 (a_r + a_{r+1}) + a_{r+1} + a_{r+2} + a_{r+3}, the doubling (xtime) taking bit b - 1
 * and, for bits 0, 1, 3, 4, bit 7 (x^8 = x^4 + x^3 + x + 1). */
SWC_FS_INLINE void swc_br_mix(uint32_t st[32], const uint32_t *rk) {
  const uint32_t h0 = st[7] ^ st[15], h1 = st[15] ^ st[23], h2 = st[23] ^ st[31], h3 = st[31] ^ st[7];
  uint32_t p0 = 0, p1 = 0, p2 = 0, p3 = 0; /* a_r + a_{r+1} of bit b - 1 */
#pragma GCC unroll 8
  for (unsigned b = 0; b < 8; ++b) {
    const uint32_t a0 = st[b], a1 = st[8 + b], a2 = st[16 + b], a3 = st[24 + b];
    const uint32_t t0 = a0 ^ a1, t1 = a1 ^ a2, t2 = a2 ^ a3, t3 = a3 ^ a0, all = t0 ^ t2;
    uint32_t x0 = p0, x1 = p1, x2 = p2, x3 = p3;
    if (b == 0 || b == 1 || b == 3 || b == 4) x0 ^= h0, x1 ^= h1, x2 ^= h2, x3 ^= h3;
    x0 ^= a0 ^ all, x1 ^= a1 ^ all, x2 ^= a2 ^ all, x3 ^= a3 ^ all;
    if (rk != NULL) x0 ^= rk[b], x1 ^= rk[8 + b], x2 ^= rk[16 + b], x3 ^= rk[24 + b];
    st[b] = x0, st[8 + b] = x1, st[16 + b] = x2, st[24 + b] = x3;
    p0 = t0, p1 = t1, p2 = t2, p3 = t3;
  }
}

/* Rounds 1..nr from the state after round key 0, rows below `row` of round 1 already through
 * SubBytes and ShiftRows; the blocks out to `out`, XORed into x unless it is NULL. */
SWC_BR_HOT static void swc_br_finish(uint32_t st[32], const uint32_t *rk, unsigned nr, unsigned row, uint32_t *out,
                                     const uint32_t *x) {
  for (unsigned r = 1;; ++r) {
    swc_br_sub_shift(st, row, 4);
    row = 0;
    rk += SWC_BR_WORDS;
    if (r == nr) break;
    swc_br_mix(st, rk);
  }
  swc_br_unpack(st, out, rk, x);
}

/* Eight blocks in (in) and out (out; in == out allowed). */
SWC_BR_HOT static void swc_br_encrypt(const uint32_t *rk, unsigned nr, const uint32_t *in, uint32_t *out) {
  uint32_t st[SWC_BR_WORDS];
  swc_br_pack(st, in, rk);
  swc_br_finish(st, rk, nr, 0, out, NULL);
}

/* ---- decryption --------------------------------------------------------------------------- */

/* InvShiftRows (row r right by r columns, a rotation left by 8r bits) and InvSubBytes of
 * (x + 0x63), the constant coming from the round keys. */
static inline void swc_br_inv_sub_shift(uint32_t st[32]) {
#pragma GCC unroll 1
  for (unsigned r = 0; r < 4; ++r) {
    uint32_t *p = st + 8 * r;
    uint32_t s[8];
#pragma GCC unroll 8
    for (unsigned b = 0; b < 8; ++b) s[b] = r == 0 ? p[b] : swc_ror32(p[b], 32u - 8u * r);
    swc_fs_inv_sbox(s);
#pragma GCC unroll 8
    for (unsigned b = 0; b < 8; ++b) p[b] = s[b];
  }
}

/* The round key, then InvMixColumns = MixColumns o (5 + 4 R^2) (swc_inv_mix_column): rows r and
 * r + 2 both get 4 (a_r + a_{r+2}) added, x^2 on slices feeding slices 6 and 7 back through
 * x^8 + x^4 + x^3 + x + 1. */
static inline void swc_br_inv_mix(uint32_t st[32], const uint32_t *rk) {
#pragma GCC unroll 1
  for (unsigned r = 0; r < 2; ++r) {
    uint32_t *p = st + 8 * r, *q = st + 8 * (r + 2);
    const uint32_t *kp = rk + 8 * r, *kq = rk + 8 * (r + 2);
    uint32_t u[8];
#pragma GCC unroll 8
    for (unsigned b = 0; b < 8; ++b) {
      p[b] ^= kp[b], q[b] ^= kq[b];
      u[b] = p[b] ^ q[b];
    }
    const uint32_t f[8] = {u[6], u[6] ^ u[7], u[0] ^ u[7], u[1] ^ u[6], u[2] ^ u[6] ^ u[7], u[3] ^ u[7], u[4], u[5]};
#pragma GCC unroll 8
    for (unsigned b = 0; b < 8; ++b) p[b] ^= f[b], q[b] ^= f[b];
  }
  swc_br_mix(st, NULL);
}

SWC_BR_HOT_DEC static void swc_br_decrypt(const uint32_t *rk, unsigned nr, const uint32_t *in, uint32_t *out) {
  uint32_t st[SWC_BR_WORDS];
  swc_br_pack(st, in, rk + SWC_BR_WORDS * nr);
  for (unsigned i = nr - 1;; --i) {
    swc_br_inv_sub_shift(st);
    if (i == 0) break;
    swc_br_inv_mix(st, rk + SWC_BR_WORDS * i);
  }
  swc_br_unpack(st, out, rk, NULL);
}

/* ---- modes -------------------------------------------------------------------------------- */

/* CTR: eight counter blocks that differ only in byte 15 share rows 0-2 (bytes 0-2, 4-6, 8-10,
 * 12-14), so round 1's SubBytes and ShiftRows of those rows are kept from the pass that computed
 * them while those counter bytes stay the same, and only row 3 is packed and substituted. The
 * choice depends on the counter only, never on key or data. */
typedef struct {
  uint32_t rows[24]; /* rows 0-2 after round 1's SubBytes and ShiftRows */
  uint32_t tag[4];   /* counter bytes 0-14 they belong to (byte 15 cleared) */
  int valid;
} swc_br_ctr_cache;

/* The eight counter blocks from chain on, packed with round key 0. Outside the hot section: it
 * runs when the CTR cache is filled or byte 15 carries inside a pass. */
static __attribute__((noinline)) void swc_br_ctr_pack(uint32_t st[32], const uint32_t chain[4], const uint32_t *rk) {
  uint32_t ks[SWC_BR_WORDS], c[4] = {chain[0], chain[1], chain[2], chain[3]};
  for (size_t k = 0; k < SWC_BR_BLOCKS; ++k) {
    /* written out: as a loop GCC turns the copy into a memcpy call */
    ks[4 * k] = c[0], ks[4 * k + 1] = c[1], ks[4 * k + 2] = c[2], ks[4 * k + 3] = c[3];
    swc_ctr_increment(c);
  }
  swc_br_pack(st, ks, rk);
}

/* Eight counter blocks from chain on: out = in XOR keystream for n blocks; chain advances by n. */
SWC_BR_HOT static void swc_br_ctr_pass(const swc_aes_ctx *ctx, swc_br_ctr_cache *cc, uint32_t chain[4],
                                       const uint32_t *in, uint32_t *out, size_t n) {
  const uint32_t *rk = ctx->rk;
  const uint32_t low = chain[3] >> 24, c3 = chain[3] & 0x00ffffffu;
  uint32_t st[SWC_BR_WORDS];
  unsigned row = 3; /* rows of round 1 left to substitute */
  if (low > 0xffu - (SWC_BR_BLOCKS - 1)) { /* byte 15 carries inside the pass: nothing shared */
    swc_br_ctr_pack(st, chain, rk);
    row = 0;
  } else {
    if (!cc->valid || cc->tag[0] != chain[0] || cc->tag[1] != chain[1] || cc->tag[2] != chain[2] || cc->tag[3] != c3) {
      swc_br_ctr_pack(st, chain, rk);
      swc_br_sub_shift(st, 0, 3);
      for (unsigned i = 0; i < 24; ++i) cc->rows[i] = st[i];
      cc->tag[0] = chain[0], cc->tag[1] = chain[1], cc->tag[2] = chain[2], cc->tag[3] = c3;
      cc->valid = 1;
    } else {
      for (unsigned i = 0; i < 24; ++i) st[i] = cc->rows[i];
    }
    /* row 3 of block k: bytes 3, 7, 11 of the counter and byte 15 = low + k */
    const uint32_t base = (chain[0] >> 24) | (chain[1] >> 24) << 8 | (chain[2] >> 24) << 16;
    uint32_t x[8];
#pragma GCC unroll 8
    for (uint32_t k = 0; k < SWC_BR_BLOCKS; ++k) x[k] = base | (low + k) << 24;
    swc_fs_transpose(x);
#pragma GCC unroll 8
    for (unsigned b = 0; b < 8; ++b) st[24 + b] = x[b] ^ rk[24 + b];
  }
  if (n == SWC_BR_BLOCKS) {
    swc_br_finish(st, rk, ctx->rounds, row, out, in);
  } else {
    uint32_t ks[SWC_BR_WORDS];
    swc_br_finish(st, rk, ctx->rounds, row, ks, NULL);
    for (size_t i = 0; i < 4 * n; ++i) out[i] = in[i] ^ ks[i];
  }
  if (low + n <= 0xffu) {
    chain[3] += (uint32_t)n << 24;
  } else {
    for (size_t k = 0; k < n; ++k) swc_ctr_increment(chain);
  }
}

typedef void (*swc_br_cipher)(const uint32_t *rk, unsigned nr, const uint32_t *in, uint32_t *out);

/* n < 8 blocks through the eight-block cipher, zero-padded. */
static void swc_br_partial(swc_br_cipher f, const swc_aes_ctx *ctx, const uint32_t *in, uint32_t *out, size_t n) {
  uint32_t buf[SWC_BR_WORDS] = {0};
  memcpy(buf, in, 16u * n);
  f(ctx->rk, ctx->rounds, buf, buf);
  memcpy(out, buf, 16u * n);
}

SWC_BR_HOT void swc_aes_impl_encrypt(const swc_aes_ctx *ctx, swc_mode mode, uint32_t chain[4],
                          const uint32_t *in, uint32_t *out, size_t nblocks) {
  uint32_t buf[SWC_BR_WORDS];
  swc_br_ctr_cache cc;
  cc.valid = 0;
  if (mode == SWC_MODE_CBC) memset(buf, 0, sizeof buf); /* the seven idle lanes */
  while (nblocks > 0) {
    size_t n = nblocks < SWC_BR_BLOCKS ? nblocks : SWC_BR_BLOCKS;
    if (mode == SWC_MODE_CTR) {
      swc_br_ctr_pass(ctx, &cc, chain, in, out, n);
    } else if (mode == SWC_MODE_CBC) {
      /* serial: one block per pass, the other seven lanes idle */
      n = 1;
      buf[0] = in[0] ^ chain[0], buf[1] = in[1] ^ chain[1], buf[2] = in[2] ^ chain[2], buf[3] = in[3] ^ chain[3];
      swc_br_encrypt(ctx->rk, ctx->rounds, buf, buf);
      out[0] = chain[0] = buf[0], out[1] = chain[1] = buf[1], out[2] = chain[2] = buf[2], out[3] = chain[3] = buf[3];
    } else if (n == SWC_BR_BLOCKS) {
      swc_br_encrypt(ctx->rk, ctx->rounds, in, out);
    } else {
      swc_br_partial(swc_br_encrypt, ctx, in, out, n);
    }
    in += 4 * n;
    out += 4 * n;
    nblocks -= n;
  }
  if (cc.valid) {
    for (unsigned i = 0; i < 24; ++i) ((volatile uint32_t *)cc.rows)[i] = 0;
  }
}

SWC_BR_HOT_DEC void swc_aes_impl_decrypt(const swc_aes_ctx *ctx, swc_mode mode, uint32_t chain[4],
                          const uint32_t *in, uint32_t *out, size_t nblocks) {
  while (nblocks > 0) {
    size_t n = nblocks < SWC_BR_BLOCKS ? nblocks : SWC_BR_BLOCKS;
    if (mode == SWC_MODE_CBC) {
      uint32_t pt[SWC_BR_WORDS];
      if (n == SWC_BR_BLOCKS) {
        swc_br_decrypt(ctx->rk, ctx->rounds, in, pt);
      } else {
        swc_br_partial(swc_br_decrypt, ctx, in, pt, n);
      }
      const uint32_t *last = in + 4 * (n - 1);
      const uint32_t next[4] = {last[0], last[1], last[2], last[3]};
      /* backwards, so that in place (out == in) every ciphertext word is read before it is
       * overwritten, with no copy of the ciphertext */
      for (size_t i = 4 * n; i-- > 4;) out[i] = pt[i] ^ in[i - 4];
      out[0] = pt[0] ^ chain[0], out[1] = pt[1] ^ chain[1], out[2] = pt[2] ^ chain[2], out[3] = pt[3] ^ chain[3];
      chain[0] = next[0], chain[1] = next[1], chain[2] = next[2], chain[3] = next[3];
    } else if (n == SWC_BR_BLOCKS) {
      swc_br_decrypt(ctx->rk, ctx->rounds, in, out);
    } else {
      swc_br_partial(swc_br_decrypt, ctx, in, out, n);
    }
    in += 4 * n;
    out += 4 * n;
    nblocks -= n;
  }
}

/* ---- key schedule ----------------------------------------------------------------------- */

/* Round key k (4 column words) in the state's layout, 0x63 added when `affine` is set: bit b of
 * byte (r, c) becomes all eight block bits of lane c of word 8r + b. */
static void swc_br_store_key(uint32_t *out, const uint32_t k[4], int affine) {
  const uint32_t a = affine ? 0x63636363u : 0;
  uint32_t w[4] = {k[0] ^ a, k[1] ^ a, k[2] ^ a, k[3] ^ a};
  swc_br_bytes(w); /* w[r]: lane c = byte (r, c) */
  for (unsigned r = 0; r < 4; ++r) {
    /* unrolled: the shift-by-variable loop stalled on every shift result (4.2k of 8.6k cycles) */
#pragma GCC unroll 8
    for (unsigned b = 0; b < 8; ++b) out[8 * r + b] = ((w[r] >> b) & 0x01010101u) * 0xffu;
  }
}

/* Encryption and decryption use the same round keys. */
static void swc_br_key(uint32_t *rk, const uint32_t *key, unsigned nk) {
  uint32_t w[60];
  unsigned nr = nk + 6;
  swc_aes_expand(w, key, nk, swc_fs_subword);
  for (unsigned i = 0; i <= nr; ++i) swc_br_store_key(rk + SWC_BR_WORDS * i, w + 4 * i, i > 0);
  for (unsigned i = 0; i < 60; ++i) ((volatile uint32_t *)w)[i] = 0;
}

void swc_aes_impl_key_enc(uint32_t *rk, const uint32_t *key, unsigned nk) { swc_br_key(rk, key, nk); }

void swc_aes_impl_key_dec(uint32_t *rk, const uint32_t *key, unsigned nk) { swc_br_key(rk, key, nk); }

#endif /* SWC_AES_BARREL */
