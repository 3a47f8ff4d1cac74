/* SPDX-License-Identifier: Apache-2.0 */
/*
 * swcrypto public AES layer: argument checks, key set-up, ECB/CBC/CTR entry points. Word-aligned
 * buffers go straight to the variant; others pass through an aligned bounce buffer a few blocks
 * at a time. A partial last CTR block is computed in a zero-padded local block.
 *
 * Encryption and decryption entry points reach the variant through separate functions passed
 * down as pointers, never through a direction flag, so a program that calls no decryption entry
 * point links no decryption code or tables (the build uses -ffunction-sections, -fdata-sections
 * and --gc-sections).
 */
#include <string.h>

#include "swc_internal.h"

/* The compact variant brings its own, smaller public layer (swc_aes_compact.c). */
#if !defined(SWC_AES_COMPACT)

/* Blocks per bounce-buffer round trip for unaligned buffers. */
#define SWC_BOUNCE_BLOCKS 4u

static int swc_aligned(const void *p) { return ((uintptr_t)p & 3u) == 0; }

static void swc_wipe_words(uint32_t *w, size_t n) {
  volatile uint32_t *v = w;
  for (size_t i = 0; i < n; ++i) v[i] = 0;
}

const char *swc_aes_variant(void) { return swc_aes_impl_name; }

swc_result swc_aes_init(void) {
  swc_aes_impl_setup();
  return SWC_OK;
}

typedef void (*swc_key_fn)(uint32_t *rk, const uint32_t *key, unsigned nk);
typedef void (*swc_impl_fn)(const swc_aes_ctx *ctx, swc_mode mode, uint32_t chain[4], const uint32_t *in,
                            uint32_t *out, size_t nblocks);

static swc_result swc_setkey(swc_aes_ctx *ctx, const uint8_t *key, unsigned key_bits, uint32_t dir,
                             swc_key_fn expand) {
  if (ctx == NULL || key == NULL) return SWC_ERR_NULL;
  if (key_bits != 128 && key_bits != 192 && key_bits != 256) return SWC_ERR_KEY_BITS;
  unsigned nk = key_bits / 32u;
  swc_aes_impl_setup();
  if (swc_aligned(key)) {
    expand(ctx->rk, (const uint32_t *)(const void *)key, nk);
  } else {
    uint32_t words[8];
    memcpy(words, key, key_bits / 8u);
    expand(ctx->rk, words, nk);
    swc_wipe_words(words, 8);
  }
  ctx->rounds = nk + 6u;
  ctx->direction = dir;
  return SWC_OK;
}

swc_result swc_aes_setkey_enc(swc_aes_ctx *ctx, const uint8_t *key, unsigned key_bits) {
  return swc_setkey(ctx, key, key_bits, SWC_DIR_ENC, swc_aes_impl_key_enc);
}

swc_result swc_aes_setkey_dec(swc_aes_ctx *ctx, const uint8_t *key, unsigned key_bits) {
  return swc_setkey(ctx, key, key_bits, SWC_DIR_DEC, swc_aes_impl_key_dec);
}

void swc_aes_wipe(swc_aes_ctx *ctx) {
  if (ctx == NULL) return;
  swc_wipe_words(ctx->rk, SWC_AES_RK_WORDS);
  ctx->rounds = 0;
  ctx->direction = 0;
}

static swc_result swc_check(const swc_aes_ctx *ctx, uint32_t dir, const void *in, const void *out) {
  if (ctx == NULL || in == NULL || out == NULL) return SWC_ERR_NULL;
  if (ctx->direction != dir) return SWC_ERR_DIRECTION;
  return SWC_OK;
}

/* Run nblocks of one direction and mode, bouncing unaligned buffers through the stack. */
static void swc_run(const swc_aes_ctx *ctx, swc_impl_fn impl, swc_mode mode, uint32_t chain[4],
                    const uint8_t *in, uint8_t *out, size_t nblocks) {
  if (swc_aligned(in) && swc_aligned(out)) {
    impl(ctx, mode, chain, (const uint32_t *)(const void *)in, (uint32_t *)(void *)out, nblocks);
    return;
  }
  uint32_t buf[4 * SWC_BOUNCE_BLOCKS];
  while (nblocks > 0) {
    size_t n = nblocks < SWC_BOUNCE_BLOCKS ? nblocks : SWC_BOUNCE_BLOCKS;
    memcpy(buf, in, 16u * n);
    impl(ctx, mode, chain, buf, buf, n);
    memcpy(out, buf, 16u * n);
    in += 16u * n;
    out += 16u * n;
    nblocks -= n;
  }
  swc_wipe_words(buf, 4 * SWC_BOUNCE_BLOCKS);
}

swc_result swc_aes_encrypt_block(const swc_aes_ctx *ctx, const uint8_t in[16], uint8_t out[16]) {
  swc_result r = swc_check(ctx, SWC_DIR_ENC, in, out);
  if (r == SWC_OK) swc_run(ctx, swc_aes_impl_encrypt, SWC_MODE_ECB, NULL, in, out, 1);
  return r;
}

swc_result swc_aes_decrypt_block(const swc_aes_ctx *ctx, const uint8_t in[16], uint8_t out[16]) {
  swc_result r = swc_check(ctx, SWC_DIR_DEC, in, out);
  if (r == SWC_OK) swc_run(ctx, swc_aes_impl_decrypt, SWC_MODE_ECB, NULL, in, out, 1);
  return r;
}

static swc_result swc_blocks(const swc_aes_ctx *ctx, uint32_t dir, swc_impl_fn impl, swc_mode mode,
                             uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len) {
  swc_result r = swc_check(ctx, dir, in, out);
  if (r != SWC_OK) return r;
  if (mode == SWC_MODE_CBC && iv == NULL) return SWC_ERR_NULL;
  if (len % 16u != 0) return SWC_ERR_LENGTH;
  if (len == 0) return SWC_OK;
  uint32_t chain[4] = {0, 0, 0, 0};
  if (iv != NULL) memcpy(chain, iv, 16);
  swc_run(ctx, impl, mode, chain, in, out, len / 16u);
  if (iv != NULL) memcpy(iv, chain, 16);
  return SWC_OK;
}

swc_result swc_aes_ecb_encrypt(const swc_aes_ctx *ctx, const uint8_t *in, uint8_t *out, size_t len) {
  return swc_blocks(ctx, SWC_DIR_ENC, swc_aes_impl_encrypt, SWC_MODE_ECB, NULL, in, out, len);
}

swc_result swc_aes_ecb_decrypt(const swc_aes_ctx *ctx, const uint8_t *in, uint8_t *out, size_t len) {
  return swc_blocks(ctx, SWC_DIR_DEC, swc_aes_impl_decrypt, SWC_MODE_ECB, NULL, in, out, len);
}

swc_result swc_aes_cbc_encrypt(const swc_aes_ctx *ctx, uint8_t iv[16], const uint8_t *in,
                               uint8_t *out, size_t len) {
  return swc_blocks(ctx, SWC_DIR_ENC, swc_aes_impl_encrypt, SWC_MODE_CBC, iv, in, out, len);
}

swc_result swc_aes_cbc_decrypt(const swc_aes_ctx *ctx, uint8_t iv[16], const uint8_t *in,
                               uint8_t *out, size_t len) {
  return swc_blocks(ctx, SWC_DIR_DEC, swc_aes_impl_decrypt, SWC_MODE_CBC, iv, in, out, len);
}

swc_result swc_aes_ctr(const swc_aes_ctx *ctx, uint8_t counter[16], const uint8_t *in,
                       uint8_t *out, size_t len) {
  swc_result r = swc_check(ctx, SWC_DIR_ENC, in, out);
  if (r != SWC_OK) return r;
  if (counter == NULL) return SWC_ERR_NULL;
  if (len == 0) return SWC_OK;
  uint32_t chain[4];
  memcpy(chain, counter, 16);
  size_t full = len / 16u, tail = len % 16u;
  if (full > 0) swc_run(ctx, swc_aes_impl_encrypt, SWC_MODE_CTR, chain, in, out, full);
  if (tail > 0) {
    uint32_t block[4] = {0, 0, 0, 0};
    memcpy(block, in + 16u * full, tail);
    swc_aes_impl_encrypt(ctx, SWC_MODE_CTR, chain, block, block, 1);
    memcpy(out + 16u * full, block, tail);
    swc_wipe_words(block, 4);
  }
  memcpy(counter, chain, 16);
  return SWC_OK;
}

#endif /* !SWC_AES_COMPACT */
