/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SHA-1 (FIPS 180-4 6.1), for compatibility only: collisions are practical, so do not use it for
 * signatures. Five renamed rounds per step (the variables come back to their places after five
 * rounds), the whole schedule computed first.
 */
#include "swc_hash.h"

#define SWC_S1_F0(b, c, d) ((d) ^ ((b) & ((c) ^ (d))))
#define SWC_S1_F1(b, c, d) ((b) ^ (c) ^ (d))
#define SWC_S1_F2(b, c, d) (((b) & (c)) | ((d) & ((b) | (c))))

#define SWC_S1_ROUND(a, b, c, d, e, F, k, wv)                          \
  do {                                                                 \
    (e) += swc_ror32(a, 27) + F(b, c, d) + (k) + (wv);                 \
    (b) = swc_ror32(b, 2);                                             \
  } while (0)

#define SWC_S1_FIVE(F, k, w)                          \
  do {                                                \
    SWC_S1_ROUND(a, b, c, d, e, F, k, (w)[0]);        \
    SWC_S1_ROUND(e, a, b, c, d, F, k, (w)[1]);        \
    SWC_S1_ROUND(d, e, a, b, c, F, k, (w)[2]);        \
    SWC_S1_ROUND(c, d, e, a, b, F, k, (w)[3]);        \
    SWC_S1_ROUND(b, c, d, e, a, F, k, (w)[4]);        \
  } while (0)

static void swc_sha1_compress(void *state, const uint8_t *p, size_t nblocks) {
  uint32_t *hs = state;
  uint32_t w[80];
  for (; nblocks > 0; --nblocks, p += 64) {
    for (int i = 0; i < 16; ++i) w[i] = swc_load_be32(p + 4 * i);
    for (uint32_t *q = w + 16; q < w + 80; q += 8) {
#define SWC_S1_W(j) q[j] = swc_ror32(q[(j) - 3] ^ q[(j) - 8] ^ q[(j) - 14] ^ q[(j) - 16], 31)
      SWC_S1_W(0); SWC_S1_W(1); SWC_S1_W(2); SWC_S1_W(3);
      SWC_S1_W(4); SWC_S1_W(5); SWC_S1_W(6); SWC_S1_W(7);
#undef SWC_S1_W
    }
    uint32_t a = hs[0], b = hs[1], c = hs[2], d = hs[3], e = hs[4];
    /* FIPS 180-4 4.2.1 constants: floor(2^30 * sqrt(2, 3, 5, 10)). */
    const uint32_t *wp = w;
    for (; wp < w + 20; wp += 5) SWC_S1_FIVE(SWC_S1_F0, 0x5a827999u, wp);
    for (; wp < w + 40; wp += 5) SWC_S1_FIVE(SWC_S1_F1, 0x6ed9eba1u, wp);
    for (; wp < w + 60; wp += 5) SWC_S1_FIVE(SWC_S1_F2, 0x8f1bbcdcu, wp);
    for (; wp < w + 80; wp += 5) SWC_S1_FIVE(SWC_S1_F1, 0xca62c1d6u, wp);
    hs[0] += a;
    hs[1] += b;
    hs[2] += c;
    hs[3] += d;
    hs[4] += e;
  }
}

swc_result swc_sha1_init(swc_sha1_ctx *ctx) {
  /* FIPS 180-4 5.3.1 */
  static const uint32_t iv[5] = {0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u, 0xc3d2e1f0u};
  if (ctx == NULL) return SWC_ERR_NULL;
  memcpy(ctx->h, iv, sizeof iv);
  ctx->bytes = 0;
  ctx->fill = 0;
  return SWC_OK;
}

swc_result swc_sha1_update(swc_sha1_ctx *ctx, const uint8_t *data, size_t len) {
  if (ctx == NULL) return SWC_ERR_NULL;
  return swc_hash_update(ctx->h, ctx->buf, &ctx->fill, &ctx->bytes, 64, swc_sha1_compress, data, len);
}

swc_result swc_sha1_final(swc_sha1_ctx *ctx, uint8_t digest[SWC_SHA1_BYTES]) {
  if (ctx == NULL || digest == NULL) return SWC_ERR_NULL;
  if (ctx->fill == SWC_HASH_DONE) return SWC_ERR_STATE;
  swc_hash_pad(ctx->h, ctx->buf, ctx->fill, ctx->bytes, 64, 8, swc_sha1_compress);
  for (int i = 0; i < 5; ++i) swc_store_be32(digest + 4 * i, ctx->h[i]);
  memset(ctx->buf, 0, sizeof ctx->buf);
  ctx->fill = SWC_HASH_DONE;
  return SWC_OK;
}

swc_result swc_sha1(const uint8_t *data, size_t len, uint8_t digest[SWC_SHA1_BYTES]) {
  SWC_HASH_ONESHOT(swc_sha1_ctx, swc_sha1_init, swc_sha1_update, swc_sha1_final);
}
