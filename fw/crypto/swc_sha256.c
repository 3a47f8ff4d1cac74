/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SHA-256 (FIPS 180-4 6.2): the whole message schedule computed first, then the rounds of
 * swc_sha2.h (eight per loop iteration, working variables renamed instead of moved).
 */
#include "swc_sha2.h"

/* FIPS 180-4 4.2.2: first 32 bits of the fractional parts of the cube roots of the first 64
 * primes. */
static const uint32_t swc_sha256_k[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u,
    0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u,
    0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
    0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u,
    0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
    0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
    0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u,
};

#define SWC_S256_BSIG0(x) (swc_ror32(x, 2) ^ swc_ror32(x, 13) ^ swc_ror32(x, 22))
#define SWC_S256_BSIG1(x) (swc_ror32(x, 6) ^ swc_ror32(x, 11) ^ swc_ror32(x, 25))
#define SWC_S256_SSIG0(x) (swc_ror32(x, 7) ^ swc_ror32(x, 18) ^ ((x) >> 3))
#define SWC_S256_SSIG1(x) (swc_ror32(x, 17) ^ swc_ror32(x, 19) ^ ((x) >> 10))

static void swc_sha256_compress(void *state, const uint8_t *p, size_t nblocks) {
  uint32_t *hs = state;
  uint32_t w[64];
  for (; nblocks > 0; --nblocks, p += 64) {
    /* message schedule first (FIPS 180-4 6.2.2 step 1), so the rounds index w and k by
     * constants from one pointer each */
    for (int i = 0; i < 16; ++i) w[i] = swc_load_be32(p + 4 * i);
    /* eight words per iteration from one pointer: no sliding window of register moves */
    for (uint32_t *q = w + 16; q < w + 64; q += 8) {
#define SWC_S256_W(j) q[j] = SWC_S256_SSIG1(q[(j) - 2]) + q[(j) - 7] + SWC_S256_SSIG0(q[(j) - 15]) + q[(j) - 16]
      SWC_S256_W(0); SWC_S256_W(1); SWC_S256_W(2); SWC_S256_W(3);
      SWC_S256_W(4); SWC_S256_W(5); SWC_S256_W(6); SWC_S256_W(7);
#undef SWC_S256_W
    }
    SWC_SHA2_BLOCK(uint32_t, SWC_S256_BSIG0, SWC_S256_BSIG1, hs, w, swc_sha256_k, 64);
  }
}

swc_result swc_sha256_init(swc_sha256_ctx *ctx) {
  /* FIPS 180-4 5.3.3: fractional parts of the square roots of the first 8 primes. */
  static const uint32_t iv[8] = {
    0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au, 0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u,
  };
  if (ctx == NULL) return SWC_ERR_NULL;
  memcpy(ctx->h, iv, sizeof iv);
  ctx->bytes = 0;
  ctx->fill = 0;
  return SWC_OK;
}

swc_result swc_sha256_update(swc_sha256_ctx *ctx, const uint8_t *data, size_t len) {
  if (ctx == NULL) return SWC_ERR_NULL;
  return swc_hash_update(ctx->h, ctx->buf, &ctx->fill, &ctx->bytes, 64, swc_sha256_compress, data, len);
}

swc_result swc_sha256_final(swc_sha256_ctx *ctx, uint8_t digest[SWC_SHA256_BYTES]) {
  if (ctx == NULL || digest == NULL) return SWC_ERR_NULL;
  if (ctx->fill == SWC_HASH_DONE) return SWC_ERR_STATE;
  swc_hash_pad(ctx->h, ctx->buf, ctx->fill, ctx->bytes, 64, 8, swc_sha256_compress);
  for (int i = 0; i < 8; ++i) swc_store_be32(digest + 4 * i, ctx->h[i]);
  memset(ctx->buf, 0, sizeof ctx->buf);
  ctx->fill = SWC_HASH_DONE;
  return SWC_OK;
}

swc_result swc_sha256(const uint8_t *data, size_t len, uint8_t digest[SWC_SHA256_BYTES]) {
  SWC_HASH_ONESHOT(swc_sha256_ctx, swc_sha256_init, swc_sha256_update, swc_sha256_final);
}
