/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SHA-512 (FIPS 180-4 6.4) on 64-bit words; a 32-bit core runs each 64-bit rotation, addition
 * and logic operation as two to four 32-bit instructions, which is why SHA-512 is the slow case
 * on RV32. Same structure as SHA-256: schedule first, then swc_sha2.h's rounds.
 */
#include "swc_sha2.h"

/* FIPS 180-4 4.2.3: first 64 bits of the fractional parts of the cube roots of the first 80
 * primes. */
static const uint64_t swc_sha512_k[80] = {
    0x428a2f98d728ae22ull, 0x7137449123ef65cdull, 0xb5c0fbcfec4d3b2full, 0xe9b5dba58189dbbcull,
    0x3956c25bf348b538ull, 0x59f111f1b605d019ull, 0x923f82a4af194f9bull, 0xab1c5ed5da6d8118ull,
    0xd807aa98a3030242ull, 0x12835b0145706fbeull, 0x243185be4ee4b28cull, 0x550c7dc3d5ffb4e2ull,
    0x72be5d74f27b896full, 0x80deb1fe3b1696b1ull, 0x9bdc06a725c71235ull, 0xc19bf174cf692694ull,
    0xe49b69c19ef14ad2ull, 0xefbe4786384f25e3ull, 0x0fc19dc68b8cd5b5ull, 0x240ca1cc77ac9c65ull,
    0x2de92c6f592b0275ull, 0x4a7484aa6ea6e483ull, 0x5cb0a9dcbd41fbd4ull, 0x76f988da831153b5ull,
    0x983e5152ee66dfabull, 0xa831c66d2db43210ull, 0xb00327c898fb213full, 0xbf597fc7beef0ee4ull,
    0xc6e00bf33da88fc2ull, 0xd5a79147930aa725ull, 0x06ca6351e003826full, 0x142929670a0e6e70ull,
    0x27b70a8546d22ffcull, 0x2e1b21385c26c926ull, 0x4d2c6dfc5ac42aedull, 0x53380d139d95b3dfull,
    0x650a73548baf63deull, 0x766a0abb3c77b2a8ull, 0x81c2c92e47edaee6ull, 0x92722c851482353bull,
    0xa2bfe8a14cf10364ull, 0xa81a664bbc423001ull, 0xc24b8b70d0f89791ull, 0xc76c51a30654be30ull,
    0xd192e819d6ef5218ull, 0xd69906245565a910ull, 0xf40e35855771202aull, 0x106aa07032bbd1b8ull,
    0x19a4c116b8d2d0c8ull, 0x1e376c085141ab53ull, 0x2748774cdf8eeb99ull, 0x34b0bcb5e19b48a8ull,
    0x391c0cb3c5c95a63ull, 0x4ed8aa4ae3418acbull, 0x5b9cca4f7763e373ull, 0x682e6ff3d6b2b8a3ull,
    0x748f82ee5defb2fcull, 0x78a5636f43172f60ull, 0x84c87814a1f0ab72ull, 0x8cc702081a6439ecull,
    0x90befffa23631e28ull, 0xa4506cebde82bde9ull, 0xbef9a3f7b2c67915ull, 0xc67178f2e372532bull,
    0xca273eceea26619cull, 0xd186b8c721c0c207ull, 0xeada7dd6cde0eb1eull, 0xf57d4f7fee6ed178ull,
    0x06f067aa72176fbaull, 0x0a637dc5a2c898a6ull, 0x113f9804bef90daeull, 0x1b710b35131c471bull,
    0x28db77f523047d84ull, 0x32caab7b40c72493ull, 0x3c9ebe0a15c9bebcull, 0x431d67c49c100d4cull,
    0x4cc5d4becb3e42b6ull, 0x597f299cfc657e2aull, 0x5fcb6fab3ad6faecull, 0x6c44198c4a475817ull,
};

static inline uint64_t swc_ror64(uint64_t x, unsigned n) { return (x >> n) | (x << (64u - n)); }

#define SWC_S512_BSIG0(x) (swc_ror64(x, 28) ^ swc_ror64(x, 34) ^ swc_ror64(x, 39))
#define SWC_S512_BSIG1(x) (swc_ror64(x, 14) ^ swc_ror64(x, 18) ^ swc_ror64(x, 41))
#define SWC_S512_SSIG0(x) (swc_ror64(x, 1) ^ swc_ror64(x, 8) ^ ((x) >> 7))
#define SWC_S512_SSIG1(x) (swc_ror64(x, 19) ^ swc_ror64(x, 61) ^ ((x) >> 6))

static void swc_sha512_compress(void *state, const uint8_t *p, size_t nblocks) {
  uint64_t *hs = state;
  uint64_t w[80];
  for (; nblocks > 0; --nblocks, p += 128) {
    for (int i = 0; i < 16; ++i) w[i] = (uint64_t)swc_load_be32(p + 8 * i) << 32 | swc_load_be32(p + 8 * i + 4);
    for (uint64_t *q = w + 16; q < w + 80; q += 4) {
#define SWC_S512_W(j) q[j] = SWC_S512_SSIG1(q[(j) - 2]) + q[(j) - 7] + SWC_S512_SSIG0(q[(j) - 15]) + q[(j) - 16]
      SWC_S512_W(0); SWC_S512_W(1); SWC_S512_W(2); SWC_S512_W(3);
#undef SWC_S512_W
    }
    SWC_SHA2_BLOCK(uint64_t, SWC_S512_BSIG0, SWC_S512_BSIG1, hs, w, swc_sha512_k, 80);
  }
}

swc_result swc_sha512_init(swc_sha512_ctx *ctx) {
  /* FIPS 180-4 5.3.5: fractional parts of the square roots of the first 8 primes. */
  static const uint64_t iv[8] = {
    0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull, 0x3c6ef372fe94f82bull, 0xa54ff53a5f1d36f1ull,
    0x510e527fade682d1ull, 0x9b05688c2b3e6c1full, 0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull,
  };
  if (ctx == NULL) return SWC_ERR_NULL;
  memcpy(ctx->h, iv, sizeof iv);
  ctx->bytes = 0;
  ctx->fill = 0;
  return SWC_OK;
}

swc_result swc_sha512_update(swc_sha512_ctx *ctx, const uint8_t *data, size_t len) {
  if (ctx == NULL) return SWC_ERR_NULL;
  return swc_hash_update(ctx->h, ctx->buf, &ctx->fill, &ctx->bytes, 128, swc_sha512_compress, data, len);
}

swc_result swc_sha512_final(swc_sha512_ctx *ctx, uint8_t digest[SWC_SHA512_BYTES]) {
  if (ctx == NULL || digest == NULL) return SWC_ERR_NULL;
  if (ctx->fill == SWC_HASH_DONE) return SWC_ERR_STATE;
  /* The 128-bit length field's upper half is zero under the 2^61-byte limit. */
  swc_hash_pad(ctx->h, ctx->buf, ctx->fill, ctx->bytes, 128, 16, swc_sha512_compress);
  for (int i = 0; i < 8; ++i) {
    swc_store_be32(digest + 8 * i, (uint32_t)(ctx->h[i] >> 32));
    swc_store_be32(digest + 8 * i + 4, (uint32_t)ctx->h[i]);
  }
  memset(ctx->buf, 0, sizeof ctx->buf);
  ctx->fill = SWC_HASH_DONE;
  return SWC_OK;
}

swc_result swc_sha512(const uint8_t *data, size_t len, uint8_t digest[SWC_SHA512_BYTES]) {
  SWC_HASH_ONESHOT(swc_sha512_ctx, swc_sha512_init, swc_sha512_update, swc_sha512_final);
}
