/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Merkle-Damgard streaming shared by SHA-1, SHA-256 and SHA-512 (FIPS 180-4 5.1 padding): a
 * partial block waits in the context buffer, whole blocks go to the compression function
 * straight from the caller's buffer. Internal to swcrypto.
 */
#ifndef SWC_HASH_H
#define SWC_HASH_H

#include <string.h>

#include "swc_internal.h"

/* Marks a finalised context in its `fill` field. */
#define SWC_HASH_DONE 0xffffffffu
/* Message length limit: 2^61 - 1 bytes keeps the bit count within 64 bits for every hash. */
#define SWC_HASH_MAX_BYTES ((1ull << 61) - 1u)

typedef void (*swc_compress_fn)(void *state, const uint8_t *blocks, size_t nblocks);

/* Load a big-endian word from any address. */
static inline uint32_t swc_load_be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline void swc_store_be32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

static inline swc_result swc_hash_update(void *state, uint8_t *buf, uint32_t *fill, uint64_t *bytes,
                                         size_t block, swc_compress_fn compress,
                                         const uint8_t *data, size_t len) {
  if (*fill == SWC_HASH_DONE) return SWC_ERR_STATE;
  if (len == 0) return SWC_OK;
  if (data == NULL) return SWC_ERR_NULL;
  if ((uint64_t)len > SWC_HASH_MAX_BYTES - *bytes) return SWC_ERR_TOO_LONG;
  *bytes += len;
  if (*fill > 0) {
    size_t take = block - *fill;
    if (take > len) take = len;
    memcpy(buf + *fill, data, take);
    *fill += (uint32_t)take;
    data += take;
    len -= take;
    if (*fill < block) return SWC_OK;
    compress(state, buf, 1);
    *fill = 0;
  }
  if (len >= block) {
    compress(state, data, len / block);
    data += len - len % block;
    len %= block;
  }
  memcpy(buf, data, len);
  *fill = (uint32_t)len;
  return SWC_OK;
}

/* Pad with 0x80, zeros and the big-endian bit length in the last `lenbytes` bytes. */
static inline void swc_hash_pad(void *state, uint8_t *buf, uint32_t fill, uint64_t bytes,
                                size_t block, size_t lenbytes, swc_compress_fn compress) {
  buf[fill++] = 0x80;
  if (fill > block - lenbytes) {
    memset(buf + fill, 0, block - fill);
    compress(state, buf, 1);
    fill = 0;
  }
  memset(buf + fill, 0, block - fill);
  uint64_t bits = bytes << 3;
  for (size_t i = 0; i < 8; ++i) buf[block - 1 - i] = (uint8_t)(bits >> (8 * i));
  compress(state, buf, 1);
}

/* The body of a one-shot hash function(data, len, digest): init, update and final on a context of
 * type CTX on the stack, the first error returned. */
#define SWC_HASH_ONESHOT(CTX, init, update, final) \
  CTX ctx;                                         \
  swc_result r = init(&ctx);                       \
  if (r == SWC_OK) r = update(&ctx, data, len);    \
  if (r == SWC_OK) r = final(&ctx, digest);        \
  return r

#endif /* SWC_HASH_H */
