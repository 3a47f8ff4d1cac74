/* SPDX-License-Identifier: Apache-2.0 */
/*
 * AES variants with T-tables (FIPS-197 round as four table look-ups per column; Daemen & Rijmen,
 * "AES Proposal: Rijndael", section 5.2.1):
 *   SWC_AES_TTABLE       rounds in a loop, tables const     (RIOT's default)
 *   SWC_AES_TTABLE_RT    rounds in a loop, tables in RAM computed by swc_aes_init()
 *   SWC_AES_UNROLLED     rounds fully unrolled, tables const
 *   SWC_AES_UNROLLED_RT  rounds fully unrolled, tables in RAM
 *
 * Tables: Te[k][x] is the contribution of S-box output S[x] in row k to its MixColumns column,
 * Td[k][x] the same for InvMixColumns of the inverse S-box; 4 x 1 KB each (8 KB), plus the
 * 256-byte inverse S-box for the last decryption round. The last encryption round takes S-box
 * bytes out of Te; the key schedule reads its own 256-byte S-box (8 data-cache lines instead of
 * the 32 a Te column spans: fewer conflicts with the key, the context and the stack, so key
 * expansion stays near its 415 instructions). Decryption uses the equivalent
 * inverse cipher (FIPS-197 5.3.5), so its key schedule is InvMixColumns of the encryption one.
 *
 * CTR mode caches the first two rounds (Bernstein and Schwabe, "New AES software speed
 * records", 2008): while only the last counter byte changes, round 1 changes in one column and
 * round 2 in one look-up per column, so a block costs 5 look-ups for those rounds instead of 32.
 *
 * Not constant time: look-up addresses depend on key and data.
 */
#include "swc_internal.h"

#if defined(SWC_AES_TTABLE) || defined(SWC_AES_TTABLE_RT) || defined(SWC_AES_UNROLLED) || \
    defined(SWC_AES_UNROLLED_RT) || defined(SWC_AES_ASM_TTABLE)

/* SWC_AES_ASM_TTABLE: const tables, key schedule and the CTR cache from this file, every block
 * in the RV32IM assembly of swc_aes_asm_ttable.S, which reads the tables by these names. */
#if defined(SWC_AES_ASM_TTABLE)
#define SWC_ASM 1
#define swc_te swc_tt_te
#define swc_td swc_tt_td
#define swc_isbox swc_tt_isbox
#define SWC_TABLE_LINKAGE
extern const uint32_t swc_tt_te[4][256], swc_tt_td[4][256];
extern const uint8_t swc_tt_isbox[256];
#else
#define SWC_ASM 0
#define SWC_TABLE_LINKAGE static
#endif

#if defined(SWC_AES_UNROLLED) || defined(SWC_AES_UNROLLED_RT)
#define SWC_UNROLL 1
#else
#define SWC_UNROLL 0
#endif
#if defined(SWC_AES_TTABLE_RT) || defined(SWC_AES_UNROLLED_RT)
#define SWC_RUNTIME_TABLES 1
#else
#define SWC_RUNTIME_TABLES 0
#endif

#if SWC_ASM
const char swc_aes_impl_name[] = "asm-ttable";
#elif SWC_UNROLL && SWC_RUNTIME_TABLES
const char swc_aes_impl_name[] = "ttable-unrolled-rt";
#elif SWC_UNROLL
const char swc_aes_impl_name[] = "ttable-unrolled";
#elif SWC_RUNTIME_TABLES
const char swc_aes_impl_name[] = "ttable-rt";
#else
const char swc_aes_impl_name[] = "ttable";
#endif

#if SWC_RUNTIME_TABLES

static uint32_t swc_te[4][256] __attribute__((aligned(32)));
static uint32_t swc_td[4][256] __attribute__((aligned(32)));
static uint8_t swc_isbox[256] __attribute__((aligned(32)));
static uint8_t swc_sbox[256] __attribute__((aligned(32)));
static int swc_te_ready, swc_td_ready;

static uint8_t swc_gf_mul(uint8_t a, uint8_t b) {
  uint8_t p = 0;
  while (b) {
    if (b & 1) p ^= a;
    a = (uint8_t)((a << 1) ^ ((a >> 7) * 0x1b));
    b >>= 1;
  }
  return p;
}

/* S-box from its definition: inverse through log/antilog tables of the generator {03}, then
 * the affine map b ^ rotl(b,1) ^ rotl(b,2) ^ rotl(b,3) ^ rotl(b,4) ^ {63}. */
void swc_aes_impl_setup(void) {
  if (swc_te_ready) return;
  uint8_t exp[256], log[256];
  uint8_t x = 1;
  for (int i = 0; i < 255; ++i) {
    exp[i] = x;
    log[x] = (uint8_t)i;
    x ^= (uint8_t)((x << 1) ^ ((x >> 7) * 0x1b)); /* x *= {03} */
  }
  for (int i = 0; i < 256; ++i) {
    uint8_t inv = i == 0 ? 0 : exp[(255 - log[i]) % 255];
    uint32_t b = inv | (uint32_t)inv << 8;
    uint8_t s = (uint8_t)(inv ^ (b >> 7) ^ (b >> 6) ^ (b >> 5) ^ (b >> 4) ^ 0x63);
    uint32_t e = swc_gf_mul(s, 2) | (uint32_t)s << 8 | (uint32_t)s << 16 | (uint32_t)swc_gf_mul(s, 3) << 24;
    for (int k = 0; k < 4; ++k) swc_te[k][i] = k ? swc_ror32(e, 32 - 8 * k) : e;
    swc_sbox[i] = s;
  }
  swc_te_ready = 1;
}

/* Decryption tables, from the encryption ones (S[x] is byte 1 of Te0[x]); built by the first
 * decryption key set-up, so programs that only encrypt carry neither this code nor the tables. */
static void swc_td_setup(void) {
  if (swc_td_ready) return;
  for (int i = 0; i < 256; ++i) swc_isbox[(swc_te[0][i] >> 8) & 0xff] = (uint8_t)i;
  for (int i = 0; i < 256; ++i) {
    uint8_t is = swc_isbox[i];
    uint32_t d = swc_gf_mul(is, 14) | (uint32_t)swc_gf_mul(is, 9) << 8 |
                 (uint32_t)swc_gf_mul(is, 13) << 16 | (uint32_t)swc_gf_mul(is, 11) << 24;
    for (int k = 0; k < 4; ++k) swc_td[k][i] = k ? swc_ror32(d, 32 - 8 * k) : d;
  }
  swc_td_ready = 1;
}

#else /* const tables */

#include "swc_aes_tables.h"

/* Column contributions as little-endian words: row k of MixColumns' matrix column. */
#define SWC_TE0(s) ((uint32_t)SWC_GF2(s) | (uint32_t)(s) << 8 | (uint32_t)(s) << 16 | (uint32_t)SWC_GF3(s) << 24),
#define SWC_TE1(s) ((uint32_t)SWC_GF3(s) | (uint32_t)SWC_GF2(s) << 8 | (uint32_t)(s) << 16 | (uint32_t)(s) << 24),
#define SWC_TE2(s) ((uint32_t)(s) | (uint32_t)SWC_GF3(s) << 8 | (uint32_t)SWC_GF2(s) << 16 | (uint32_t)(s) << 24),
#define SWC_TE3(s) ((uint32_t)(s) | (uint32_t)(s) << 8 | (uint32_t)SWC_GF3(s) << 16 | (uint32_t)SWC_GF2(s) << 24),
#define SWC_TD0(s) ((uint32_t)SWC_GFE(s) | (uint32_t)SWC_GF9(s) << 8 | (uint32_t)SWC_GFD(s) << 16 | (uint32_t)SWC_GFB(s) << 24),
#define SWC_TD1(s) ((uint32_t)SWC_GFB(s) | (uint32_t)SWC_GFE(s) << 8 | (uint32_t)SWC_GF9(s) << 16 | (uint32_t)SWC_GFD(s) << 24),
#define SWC_TD2(s) ((uint32_t)SWC_GFD(s) | (uint32_t)SWC_GFB(s) << 8 | (uint32_t)SWC_GFE(s) << 16 | (uint32_t)SWC_GF9(s) << 24),
#define SWC_TD3(s) ((uint32_t)SWC_GF9(s) | (uint32_t)SWC_GFD(s) << 8 | (uint32_t)SWC_GFB(s) << 16 | (uint32_t)SWC_GFE(s) << 24),

SWC_TABLE_LINKAGE const uint32_t swc_te[4][256] __attribute__((aligned(32))) = {
    {SWC_SBOX_LIST(SWC_TE0)}, {SWC_SBOX_LIST(SWC_TE1)}, {SWC_SBOX_LIST(SWC_TE2)}, {SWC_SBOX_LIST(SWC_TE3)}};
SWC_TABLE_LINKAGE const uint32_t swc_td[4][256] __attribute__((aligned(32))) = {
    {SWC_INV_SBOX_LIST(SWC_TD0)}, {SWC_INV_SBOX_LIST(SWC_TD1)},
    {SWC_INV_SBOX_LIST(SWC_TD2)}, {SWC_INV_SBOX_LIST(SWC_TD3)}};
SWC_TABLE_LINKAGE const uint8_t swc_isbox[256] __attribute__((aligned(32))) = {SWC_INV_SBOX_LIST(SWC_BYTE_ENTRY)};
static const uint8_t swc_sbox[256] __attribute__((aligned(32))) = {SWC_SBOX_LIST(SWC_BYTE_ENTRY)};

void swc_aes_impl_setup(void) {}
static void swc_td_setup(void) {}

#endif

/* Table word for byte (x >> 8*n) & 0xff, with the index scaled in one shift-and-mask. */
#define SWC_B0(tab, x) (*(const uint32_t *)(const void *)((const uint8_t *)(tab) + (((x) << 2) & 0x3fcu)))
#define SWC_B1(tab, x) (*(const uint32_t *)(const void *)((const uint8_t *)(tab) + (((x) >> 6) & 0x3fcu)))
#define SWC_B2(tab, x) (*(const uint32_t *)(const void *)((const uint8_t *)(tab) + (((x) >> 14) & 0x3fcu)))
#define SWC_B3(tab, x) (*(const uint32_t *)(const void *)((const uint8_t *)(tab) + (((x) >> 22) & 0x3fcu)))

/* Tables 2 and 3 of a look-up: rotations by 16 of tables 0 and 1 (Te2 = ror16(Te0), Te3 =
 * ror16(Te1)) when SWC_TT_TWO_TABLES keeps the encryption tables to 2 KB (an experiment, see
 * docs/swcrypto.md "D-cache"). */
#if defined(SWC_TT_TWO_TABLES)
#define SWC_L2(sel, x) swc_ror32(sel(te[0], x), 16)
#define SWC_L3(sel, x) swc_ror32(sel(te[1], x), 16)
#define SWC_ECOL(kw, a, b, c, d) \
  ((kw) ^ SWC_B0(te[0], a) ^ SWC_B1(te[1], b) ^ swc_ror32(SWC_B2(te[0], c) ^ SWC_B3(te[1], d), 16))
#else
#define SWC_L2(sel, x) sel(te[2], x)
#define SWC_L3(sel, x) sel(te[3], x)
#define SWC_ECOL(kw, a, b, c, d) \
  ((kw) ^ SWC_B0(te[0], a) ^ SWC_B1(te[1], b) ^ SWC_B2(te[2], c) ^ SWC_B3(te[3], d))
#endif

/* One encryption round: column j takes row k from column j + k. */
#define SWC_EROUND(o0, o1, o2, o3, i0, i1, i2, i3, k)                                   \
  do {                                                                                  \
    o0 = SWC_ECOL((k)[0], i0, i1, i2, i3);                                              \
    o1 = SWC_ECOL((k)[1], i1, i2, i3, i0);                                              \
    o2 = SWC_ECOL((k)[2], i2, i3, i0, i1);                                              \
    o3 = SWC_ECOL((k)[3], i3, i0, i1, i2);                                              \
  } while (0)

/* Last encryption round: S-box bytes taken out of the T-table words where they already sit in
 * the right row (Te2 byte 0, Te3 byte 1, Te0 byte 2, Te1 byte 3). */
#define SWC_ELAST(o, a, b, c, d, kw)                                                     \
  o = (kw) ^ (SWC_L2(SWC_B0, a) & 0xffu) ^ (SWC_L3(SWC_B1, b) & 0xff00u) ^              \
      (SWC_B2(te[0], c) & 0xff0000u) ^ (SWC_B3(te[1], d) & 0xff000000u)

/* One decryption round (equivalent inverse cipher): row k comes from column j - k. */
#define SWC_DROUND(o0, o1, o2, o3, i0, i1, i2, i3, k)                                   \
  do {                                                                                  \
    o0 = (k)[0] ^ SWC_B0(td[0], i0) ^ SWC_B1(td[1], i3) ^ SWC_B2(td[2], i2) ^ SWC_B3(td[3], i1); \
    o1 = (k)[1] ^ SWC_B0(td[0], i1) ^ SWC_B1(td[1], i0) ^ SWC_B2(td[2], i3) ^ SWC_B3(td[3], i2); \
    o2 = (k)[2] ^ SWC_B0(td[0], i2) ^ SWC_B1(td[1], i1) ^ SWC_B2(td[2], i0) ^ SWC_B3(td[3], i3); \
    o3 = (k)[3] ^ SWC_B0(td[0], i3) ^ SWC_B1(td[1], i2) ^ SWC_B2(td[2], i1) ^ SWC_B3(td[3], i0); \
  } while (0)

#define SWC_DLAST(o, a, b, c, d, kw)                                                     \
  o = (kw) ^ (uint32_t)isb[(a) & 0xff] ^ (uint32_t)isb[((b) >> 8) & 0xff] << 8 ^         \
      (uint32_t)isb[((c) >> 16) & 0xff] << 16 ^ (uint32_t)isb[(d) >> 24] << 24

void swc_aes_impl_key_enc(uint32_t *rk, const uint32_t *key, unsigned nk) {
  swc_aes_expand_sbox(rk, key, nk, swc_sbox, 1);
}

void swc_aes_impl_key_dec(uint32_t *rk, const uint32_t *key, unsigned nk) {
  unsigned nr = nk + 6u;
  swc_td_setup();
  swc_aes_expand_sbox(rk, key, nk, swc_sbox, 1);
  /* Reverse the order of the round keys, then InvMixColumns on all but the first and last. */
  for (unsigned i = 0, j = 4 * nr; i < j; i += 4, j -= 4) {
    for (unsigned c = 0; c < 4; ++c) {
      uint32_t t = rk[i + c];
      rk[i + c] = rk[j + c];
      rk[j + c] = t;
    }
  }
  for (unsigned i = 4; i < 4 * nr; ++i) rk[i] = swc_inv_mix_column(rk[i]);
}

/* Rounds 3 .. nr of an encryption, state in s0..s3 on entry, output in o0..o3. */
#if SWC_UNROLL
#define SWC_ETAIL(nr, rk, s0, s1, s2, s3, t0, t1, t2, t3, o0, o1, o2, o3)                 \
  do {                                                                                   \
    SWC_EROUND(t0, t1, t2, t3, s0, s1, s2, s3, (rk) + 12);                               \
    SWC_EROUND(s0, s1, s2, s3, t0, t1, t2, t3, (rk) + 16);                               \
    SWC_EROUND(t0, t1, t2, t3, s0, s1, s2, s3, (rk) + 20);                               \
    SWC_EROUND(s0, s1, s2, s3, t0, t1, t2, t3, (rk) + 24);                               \
    SWC_EROUND(t0, t1, t2, t3, s0, s1, s2, s3, (rk) + 28);                               \
    SWC_EROUND(s0, s1, s2, s3, t0, t1, t2, t3, (rk) + 32);                               \
    SWC_EROUND(t0, t1, t2, t3, s0, s1, s2, s3, (rk) + 36);                               \
    if (__builtin_expect((nr) > 10, 0)) { /* keep the AES-128 path contiguous */         \
      SWC_EROUND(s0, s1, s2, s3, t0, t1, t2, t3, (rk) + 40);                             \
      SWC_EROUND(t0, t1, t2, t3, s0, s1, s2, s3, (rk) + 44);                             \
      if ((nr) > 12) {                                                                   \
        SWC_EROUND(s0, s1, s2, s3, t0, t1, t2, t3, (rk) + 48);                           \
        SWC_EROUND(t0, t1, t2, t3, s0, s1, s2, s3, (rk) + 52);                           \
      }                                                                                  \
    }                                                                                    \
    const uint32_t *kl = (rk) + 4 * (nr);                                                \
    SWC_ELAST(o0, t0, t1, t2, t3, kl[0]);                                                \
    SWC_ELAST(o1, t1, t2, t3, t0, kl[1]);                                                \
    SWC_ELAST(o2, t2, t3, t0, t1, kl[2]);                                                \
    SWC_ELAST(o3, t3, t0, t1, t2, kl[3]);                                                \
  } while (0)
#else
#define SWC_ETAIL(nr, rk, s0, s1, s2, s3, t0, t1, t2, t3, o0, o1, o2, o3)                 \
  do {                                                                                   \
    const uint32_t *k = (rk) + 12;                                                       \
    SWC_EROUND(t0, t1, t2, t3, s0, s1, s2, s3, k);                                       \
    for (unsigned r = ((nr) - 4) / 2; r > 0; --r) {                                      \
      SWC_EROUND(s0, s1, s2, s3, t0, t1, t2, t3, k + 4);                                 \
      SWC_EROUND(t0, t1, t2, t3, s0, s1, s2, s3, k + 8);                                 \
      k += 8;                                                                            \
    }                                                                                    \
    k += 4;                                                                              \
    SWC_ELAST(o0, t0, t1, t2, t3, k[0]);                                                 \
    SWC_ELAST(o1, t1, t2, t3, t0, k[1]);                                                 \
    SWC_ELAST(o2, t2, t3, t0, t1, k[2]);                                                 \
    SWC_ELAST(o3, t3, t0, t1, t2, k[3]);                                                 \
  } while (0)
#endif

/* Cached rounds 1 and 2 of CTR for the counter words c (only byte 15 may differ later). */
typedef struct {
  uint32_t r1c0; /* round-1 column 0 without the byte-15 look-up */
  uint32_t p[4]; /* round-2 columns without their one look-up of round-1 column 0 */
  uint32_t kb;   /* byte 15 of round key 0 */
} swc_ctr_cache;

static void swc_ctr_precompute(const uint32_t *rk, const uint32_t c[4], swc_ctr_cache *cc) {
  const uint32_t(*te)[256] = (const uint32_t(*)[256])swc_te;
  uint32_t s0 = c[0] ^ rk[0], s1 = c[1] ^ rk[1], s2 = c[2] ^ rk[2], s3 = c[3] ^ rk[3];
  uint32_t t1, t2, t3;
  cc->r1c0 = rk[4] ^ SWC_B0(te[0], s0) ^ SWC_B1(te[1], s1) ^ SWC_L2(SWC_B2, s2);
  t1 = rk[5] ^ SWC_B0(te[0], s1) ^ SWC_B1(te[1], s2) ^ SWC_L2(SWC_B2, s3) ^ SWC_L3(SWC_B3, s0);
  t2 = rk[6] ^ SWC_B0(te[0], s2) ^ SWC_B1(te[1], s3) ^ SWC_L2(SWC_B2, s0) ^ SWC_L3(SWC_B3, s1);
  t3 = rk[7] ^ SWC_B0(te[0], s3) ^ SWC_B1(te[1], s0) ^ SWC_L2(SWC_B2, s1) ^ SWC_L3(SWC_B3, s2);
  cc->p[0] = rk[8] ^ SWC_B1(te[1], t1) ^ SWC_L2(SWC_B2, t2) ^ SWC_L3(SWC_B3, t3);
  cc->p[1] = rk[9] ^ SWC_B0(te[0], t1) ^ SWC_B1(te[1], t2) ^ SWC_L2(SWC_B2, t3);
  cc->p[2] = rk[10] ^ SWC_B0(te[0], t2) ^ SWC_B1(te[1], t3) ^ SWC_L3(SWC_B3, t1);
  cc->p[3] = rk[11] ^ SWC_B0(te[0], t3) ^ SWC_L2(SWC_B2, t1) ^ SWC_L3(SWC_B3, t2);
  cc->kb = rk[3] >> 24;
}

#if SWC_ASM

void swc_tt_asm_encrypt(const uint32_t *rk, unsigned nr, uint32_t *chain, const uint32_t *in, uint32_t *out,
                        size_t nblocks);
void swc_tt_asm_decrypt(const uint32_t *rk, unsigned nr, uint32_t *chain, const uint32_t *in, uint32_t *out,
                        size_t nblocks);
void swc_tt_asm_ctr(const uint32_t *rk, unsigned nr, const swc_ctr_cache *cache, unsigned c15, const uint32_t *in,
                    uint32_t *out, size_t nblocks);

void swc_aes_impl_encrypt(const swc_aes_ctx *ctx, swc_mode mode, uint32_t chain[4],
                          const uint32_t *in, uint32_t *out, size_t nblocks) {
  if (mode != SWC_MODE_CTR) {
    swc_tt_asm_encrypt(ctx->rk, ctx->rounds, mode == SWC_MODE_CBC ? chain : NULL, in, out, nblocks);
    return;
  }
  /* CTR: one assembly call per run of counters that differ in byte 15 only */
  while (nblocks > 0) {
    swc_ctr_cache cc;
    unsigned c15 = chain[3] >> 24;
    size_t n = 256u - c15 < nblocks ? 256u - c15 : nblocks;
    swc_ctr_precompute(ctx->rk, chain, &cc);
    swc_tt_asm_ctr(ctx->rk, ctx->rounds, &cc, c15, in, out, n);
    if (c15 + n == 256u) { /* byte 15 wrapped: carry into bytes 0..14 */
      chain[3] |= 0xff000000u;
      swc_ctr_increment(chain);
    } else {
      chain[3] += (uint32_t)n << 24;
    }
    in += 4 * n;
    out += 4 * n;
    nblocks -= n;
  }
}

void swc_aes_impl_decrypt(const swc_aes_ctx *ctx, swc_mode mode, uint32_t chain[4],
                          const uint32_t *in, uint32_t *out, size_t nblocks) {
  swc_tt_asm_decrypt(ctx->rk, ctx->rounds, mode == SWC_MODE_CBC ? chain : NULL, in, out, nblocks);
}

#else /* C rounds */

void swc_aes_impl_encrypt(const swc_aes_ctx *ctx, swc_mode mode, uint32_t chain[4],
                          const uint32_t *in, uint32_t *out, size_t nblocks) {
  const uint32_t(*te)[256] = (const uint32_t(*)[256])swc_te;
  const uint32_t *rk = ctx->rk;
  const unsigned nr = ctx->rounds;
  uint32_t c0 = chain[0], c1 = chain[1], c2 = chain[2], c3 = chain[3];
  swc_ctr_cache cc = {0, {0, 0, 0, 0}, 0}; /* filled before first use; initialised for -Os */
  int fresh = 1;
  for (; nblocks > 0; --nblocks, in += 4, out += 4) {
    uint32_t s0, s1, s2, s3, t0, t1, t2, t3, o0, o1, o2, o3;
    if (mode == SWC_MODE_CTR) {
      if (fresh) {
        uint32_t c[4] = {c0, c1, c2, c3};
        swc_ctr_precompute(rk, c, &cc);
        fresh = 0;
      }
      t0 = cc.r1c0 ^ SWC_L3(SWC_B0, (c3 >> 24) ^ cc.kb);
      s0 = cc.p[0] ^ SWC_B0(te[0], t0);
      s1 = cc.p[1] ^ SWC_L3(SWC_B3, t0);
      s2 = cc.p[2] ^ SWC_L2(SWC_B2, t0);
      s3 = cc.p[3] ^ SWC_B1(te[1], t0);
    } else {
      s0 = in[0] ^ rk[0];
      s1 = in[1] ^ rk[1];
      s2 = in[2] ^ rk[2];
      s3 = in[3] ^ rk[3];
      if (mode == SWC_MODE_CBC) {
        s0 ^= c0;
        s1 ^= c1;
        s2 ^= c2;
        s3 ^= c3;
      }
      SWC_EROUND(t0, t1, t2, t3, s0, s1, s2, s3, rk + 4);
      SWC_EROUND(s0, s1, s2, s3, t0, t1, t2, t3, rk + 8);
    }
    SWC_ETAIL(nr, rk, s0, s1, s2, s3, t0, t1, t2, t3, o0, o1, o2, o3);
    if (mode == SWC_MODE_CTR) {
      o0 ^= in[0];
      o1 ^= in[1];
      o2 ^= in[2];
      o3 ^= in[3];
      c3 += 0x01000000u;
      if ((c3 >> 24) == 0) { /* byte 15 wrapped: carry into bytes 0..14, new cache */
        uint32_t c[4] = {c0, c1, c2, c3 | 0xff000000u};
        swc_ctr_increment(c);
        c0 = c[0];
        c1 = c[1];
        c2 = c[2];
        c3 = c[3];
        fresh = 1;
      }
    } else if (mode == SWC_MODE_CBC) {
      c0 = o0;
      c1 = o1;
      c2 = o2;
      c3 = o3;
    }
    SWC_STORE4(out, o0, o1, o2, o3);
  }
  SWC_STORE4(chain, c0, c1, c2, c3);
}

void swc_aes_impl_decrypt(const swc_aes_ctx *ctx, swc_mode mode, uint32_t chain[4],
                          const uint32_t *in, uint32_t *out, size_t nblocks) {
  const uint32_t(*td)[256] = (const uint32_t(*)[256])swc_td;
  const uint8_t *isb = swc_isbox;
  const uint32_t *rk = ctx->rk;
  const unsigned nr = ctx->rounds;
  uint32_t c0 = chain[0], c1 = chain[1], c2 = chain[2], c3 = chain[3];
  for (; nblocks > 0; --nblocks, in += 4, out += 4) {
    uint32_t x0 = in[0], x1 = in[1], x2 = in[2], x3 = in[3];
    uint32_t s0 = x0 ^ rk[0], s1 = x1 ^ rk[1], s2 = x2 ^ rk[2], s3 = x3 ^ rk[3];
    uint32_t t0, t1, t2, t3, o0, o1, o2, o3;
#if SWC_UNROLL
    SWC_DROUND(t0, t1, t2, t3, s0, s1, s2, s3, rk + 4);
    SWC_DROUND(s0, s1, s2, s3, t0, t1, t2, t3, rk + 8);
    SWC_DROUND(t0, t1, t2, t3, s0, s1, s2, s3, rk + 12);
    SWC_DROUND(s0, s1, s2, s3, t0, t1, t2, t3, rk + 16);
    SWC_DROUND(t0, t1, t2, t3, s0, s1, s2, s3, rk + 20);
    SWC_DROUND(s0, s1, s2, s3, t0, t1, t2, t3, rk + 24);
    SWC_DROUND(t0, t1, t2, t3, s0, s1, s2, s3, rk + 28);
    SWC_DROUND(s0, s1, s2, s3, t0, t1, t2, t3, rk + 32);
    SWC_DROUND(t0, t1, t2, t3, s0, s1, s2, s3, rk + 36);
    if (__builtin_expect(nr > 10, 0)) {
      SWC_DROUND(s0, s1, s2, s3, t0, t1, t2, t3, rk + 40);
      SWC_DROUND(t0, t1, t2, t3, s0, s1, s2, s3, rk + 44);
      if (nr > 12) {
        SWC_DROUND(s0, s1, s2, s3, t0, t1, t2, t3, rk + 48);
        SWC_DROUND(t0, t1, t2, t3, s0, s1, s2, s3, rk + 52);
      }
    }
    const uint32_t *k = rk + 4 * nr;
#else
    const uint32_t *k = rk;
    for (unsigned r = nr / 2;;) {
      SWC_DROUND(t0, t1, t2, t3, s0, s1, s2, s3, k + 4);
      k += 8;
      if (--r == 0) break;
      SWC_DROUND(s0, s1, s2, s3, t0, t1, t2, t3, k);
    }
#endif
    SWC_DLAST(o0, t0, t3, t2, t1, k[0]);
    SWC_DLAST(o1, t1, t0, t3, t2, k[1]);
    SWC_DLAST(o2, t2, t1, t0, t3, k[2]);
    SWC_DLAST(o3, t3, t2, t1, t0, k[3]);
    if (mode == SWC_MODE_CBC) {
      o0 ^= c0;
      o1 ^= c1;
      o2 ^= c2;
      o3 ^= c3;
      c0 = x0;
      c1 = x1;
      c2 = x2;
      c3 = x3;
    }
    SWC_STORE4(out, o0, o1, o2, o3);
  }
  SWC_STORE4(chain, c0, c1, c2, c3);
}

#endif /* SWC_ASM */

#endif /* T-table variants */
