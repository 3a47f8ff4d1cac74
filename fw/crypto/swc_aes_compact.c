/* SPDX-License-Identifier: Apache-2.0 */
/*
 * AES variant SWC_AES_COMPACT: the smallest code and data. Only the 256-byte S-box (the inverse
 * S-box is derived from it on the stack by each decryption call); SubBytes and ShiftRows are one
 * pass of byte look-ups, MixColumns works on a whole column word with packed xtime
 * (swc_mix_column), decryption runs the straight inverse cipher (FIPS-197 5.3) on the encryption
 * key schedule. Loops are kept rolled: this variant trades speed for size. Not constant time
 * (S-box look-ups).
 *
 * It brings its own public layer instead of swc_aes.c's: one routine runs every mode block by
 * block through 16-byte local copies, so buffers need no alignment and a partial CTR
 * block needs no special path. The argument checks and their order are the same as swc_aes.c's.
 *
 * On RV32IM the same design is hand-written assembly (swc_aes_compact_rv32.S, for size); this
 * file then holds only the S-box, the name and the two trivial entry points, and checks the
 * numbers the assembly uses (swc_aes_compact.h) against their C definitions.
 */
#include <stddef.h>

#include "swc_internal.h"

#if defined(SWC_AES_COMPACT)

#include "swc_aes_compact.h"
#include "swc_aes_tables.h"

const uint8_t swc_compact_sbox[256] = {SWC_SBOX_LIST(SWC_BYTE_ENTRY)};
static const char swc_name[] = "compact";

const char *swc_aes_variant(void) { return swc_name; }

swc_result swc_aes_init(void) { return SWC_OK; }

#if SWC_CA_ASM

_Static_assert(SWC_CA_ERR_NULL == SWC_ERR_NULL && SWC_CA_ERR_KEY_BITS == SWC_ERR_KEY_BITS &&
                   SWC_CA_ERR_LENGTH == SWC_ERR_LENGTH && SWC_CA_ERR_DIRECTION == SWC_ERR_DIRECTION,
               "swc_aes_compact.h: result codes");
_Static_assert(SWC_CA_CTX_BYTES == sizeof(swc_aes_ctx) && SWC_CA_ROUNDS == offsetof(swc_aes_ctx, rounds) &&
                   SWC_CA_DIRECTION == offsetof(swc_aes_ctx, direction) &&
                   SWC_CA_ROUNDS == 4u * SWC_AES_RK_WORDS,
               "swc_aes_compact.h: context layout");
_Static_assert(SWC_CA_DIR_ENC == SWC_DIR_ENC && SWC_CA_DIR_DEC == SWC_DIR_DEC,
               "swc_aes_compact.h: direction markers");

#else

/* Small leaf helpers called from several places: calls are cheaper in bytes than copies. */
__attribute__((noinline)) static void swc_copy(void *dst, const void *src, size_t n) {
  uint8_t *d = dst;
  const uint8_t *s = src;
  while (n--) *d++ = *s++;
}

/* The straight inverse cipher runs on the encryption key schedule, so both directions expand
 * the key the same way; only the direction marker differs. */
static swc_result swc_setkey(swc_aes_ctx *ctx, const uint8_t *key, unsigned key_bits, uint32_t dir) {
  if (ctx == NULL || key == NULL) return SWC_ERR_NULL;
  if (key_bits != 128 && key_bits != 192 && key_bits != 256) return SWC_ERR_KEY_BITS;
  unsigned nk = key_bits / 32u;
  uint32_t *w = ctx->rk, rcon = 1;
  for (unsigned i = 0; i < key_bits / 8u; ++i) ((uint8_t *)w)[i] = key[i];
  /* FIPS-197 5.2 on little-endian words: RotWord is a rotation right by 8, Rcon the low byte;
   * j = i mod nk, counted (RV32 division is slow) */
  for (unsigned i = nk, j = 0; i < 4u * (nk + 7u); ++i) {
    uint32_t t = w[i - 1];
    if (j == 0 || (nk == 8 && j == 4)) {
      if (j == 0) t = swc_ror32(t, 8);
      uint32_t u = 0;
      for (unsigned k = 0; k < 32; k += 8) u |= (uint32_t)swc_compact_sbox[(t >> k) & 0xff] << k;
      t = u;
      if (j == 0) {
        t ^= rcon;
        rcon = (rcon << 1) ^ ((rcon >> 7) * 0x11bu);
      }
    }
    w[i] = w[i - nk] ^ t;
    if (++j == nk) j = 0;
  }
  ctx->rounds = nk + 6u;
  ctx->direction = dir;
  return SWC_OK;
}

swc_result swc_aes_setkey_enc(swc_aes_ctx *ctx, const uint8_t *key, unsigned key_bits) {
  return swc_setkey(ctx, key, key_bits, SWC_DIR_ENC);
}

swc_result swc_aes_setkey_dec(swc_aes_ctx *ctx, const uint8_t *key, unsigned key_bits) {
  return swc_setkey(ctx, key, key_bits, SWC_DIR_DEC);
}

void swc_aes_wipe(swc_aes_ctx *ctx) {
  if (ctx == NULL) return;
  volatile uint32_t *v = (volatile uint32_t *)ctx;
  for (size_t i = 0; i < sizeof *ctx / 4u; ++i) v[i] = 0;
}

/* Mode flags of swc_crypt. */
#define SWC_F_CBC ((unsigned)SWC_CA_CBC)
#define SWC_F_CTR ((unsigned)SWC_CA_CTR)
#define SWC_F_DEC ((unsigned)SWC_CA_DEC)

/* One block of any mode on b = {s, x, c}: s the cipher state (output), x the input block, c the
 * chain block (IV or counter; the next IV on return). FIPS-197 5.1 Cipher, or with the inverse
 * S-box 5.3 InvCipher on the encryption key schedule; SubBytes and ShiftRows (or their inverses)
 * are one pass over the 16 bytes: byte i = 4c + r comes from column c + r (encryption) or c - r
 * (decryption). */
static inline __attribute__((always_inline)) void swc_block(const swc_aes_ctx *ctx, uint32_t b[12], const uint8_t *box,
                                                unsigned flags) {
  uint32_t *s = b, *x = b + 4, *ch = b + 8;
  int inverse = (flags & SWC_F_DEC) != 0;
  unsigned rounds = ctx->rounds;
  const uint32_t *k = ctx->rk + (inverse ? 4u * rounds : 0u);
  int step = inverse ? -4 : 4;
  for (unsigned c = 0; c < 4; ++c) {
    uint32_t w = flags & SWC_F_CTR ? ch[c] : x[c];
    if (flags == SWC_F_CBC) w ^= ch[c];
    s[c] = w ^ k[c];
  }
  for (unsigned r = 1; r <= rounds; ++r) {
    k += step;
    uint32_t t[4];
    uint8_t *tb = (uint8_t *)t;
    const uint8_t *sb = (const uint8_t *)s;
    for (unsigned i = 0; i < 16; ++i) tb[i] = box[sb[(i + step * (int)(i & 3)) & 15]];
    for (unsigned c = 0; c < 4; ++c) {
      uint32_t w = t[c];
      if (inverse) w ^= k[c];
      if (r < rounds) {
        /* InvMixColumns = MixColumns o (multiply by {04}x^2 + {05}), see swc_inv_mix_column */
        if (inverse) w ^= swc_xtime4(swc_xtime4(w ^ swc_ror32(w, 16)));
        w = swc_mix_column(w);
      }
      if (!inverse) w ^= k[c];
      s[c] = w;
    }
  }
  for (unsigned c = 0; c < 4; ++c) {
    uint32_t in = x[c];
    if (flags & SWC_F_CTR) s[c] ^= in;
    if (flags == (SWC_F_CBC | SWC_F_DEC)) s[c] ^= ch[c], ch[c] = in;
    if (flags == SWC_F_CBC) ch[c] = s[c];
  }
}

/* Every mode, block by block through local copies (no alignment needed, and a partial last CTR
 * block is just a short copy). chain: the IV (CBC) or the counter block (CTR); the argument
 * order follows swc_aes_cbc_* and swc_aes_ctr so their wrappers only add the flags. */
__attribute__((noinline)) static swc_result swc_crypt(const swc_aes_ctx *ctx, uint8_t *chain, const uint8_t *in,
                                                      uint8_t *out, size_t len, unsigned flags) {
  if (ctx == NULL || in == NULL || out == NULL) return SWC_ERR_NULL;
  unsigned dec = flags & SWC_F_DEC;
  /* the marker chosen without a branch: GCC would otherwise duplicate the checks per direction */
  if (ctx->direction != (SWC_DIR_ENC ^ (flags >> 2) * (SWC_DIR_ENC ^ SWC_DIR_DEC))) return SWC_ERR_DIRECTION;
  if ((flags & (SWC_F_CBC | SWC_F_CTR)) && chain == NULL) return SWC_ERR_NULL;
  if (!(flags & SWC_F_CTR) && len % 16u != 0) return SWC_ERR_LENGTH;
  const uint8_t *box = swc_compact_sbox;
  uint8_t inv[256]; /* the inverse S-box, derived here instead of stored */
  if (dec) {
    for (unsigned i = 0; i < 256; ++i) inv[swc_compact_sbox[i]] = (uint8_t)i;
    box = inv;
  }
  uint32_t b[12]; /* state, input block, chain block */
  size_t chain_len = chain ? 16u : 0u;
  while (len > 0) {
    size_t n = len < 16u ? len : 16u;
    swc_copy(b + 4, in, n);
    swc_copy(b + 8, chain, chain_len);
    swc_block(ctx, b, box, flags);
    swc_copy(chain, b + 8, chain_len);
    for (int i = 15; (flags & SWC_F_CTR) && i >= 0 && ++chain[i] == 0; --i) {
    }
    swc_copy(out, b, n);
    in += n;
    out += n;
    len -= n;
  }
  return SWC_OK;
}

swc_result swc_aes_encrypt_block(const swc_aes_ctx *ctx, const uint8_t in[16], uint8_t out[16]) {
  return swc_crypt(ctx, NULL, in, out, 16, 0);
}

swc_result swc_aes_decrypt_block(const swc_aes_ctx *ctx, const uint8_t in[16], uint8_t out[16]) {
  return swc_crypt(ctx, NULL, in, out, 16, SWC_F_DEC);
}

swc_result swc_aes_ecb_encrypt(const swc_aes_ctx *ctx, const uint8_t *in, uint8_t *out, size_t len) {
  return swc_crypt(ctx, NULL, in, out, len, 0);
}

swc_result swc_aes_ecb_decrypt(const swc_aes_ctx *ctx, const uint8_t *in, uint8_t *out, size_t len) {
  return swc_crypt(ctx, NULL, in, out, len, SWC_F_DEC);
}

swc_result swc_aes_cbc_encrypt(const swc_aes_ctx *ctx, uint8_t iv[16], const uint8_t *in, uint8_t *out,
                               size_t len) {
  return swc_crypt(ctx, iv, in, out, len, SWC_F_CBC);
}

swc_result swc_aes_cbc_decrypt(const swc_aes_ctx *ctx, uint8_t iv[16], const uint8_t *in, uint8_t *out,
                               size_t len) {
  return swc_crypt(ctx, iv, in, out, len, SWC_F_CBC | SWC_F_DEC);
}

swc_result swc_aes_ctr(const swc_aes_ctx *ctx, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                       size_t len) {
  return swc_crypt(ctx, counter, in, out, len, SWC_F_CTR);
}

#endif /* SWC_CA_ASM */

#endif /* SWC_AES_COMPACT */
