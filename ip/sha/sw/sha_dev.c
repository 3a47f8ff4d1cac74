/* SPDX-License-Identifier: Apache-2.0 */
/* sha_dev: driver for the memory-mapped SHA peripheral. Offsets come from the generated header. */
#include "sha_dev.h"

#include <stddef.h>

#define REG(dev, member) (*(volatile uint32_t *)((dev)->base + offsetof(sha_periph_t, member)))
#define FIELD(value, name) (((uint32_t)(value) << SHA_PERIPH__##name##_bp) & SHA_PERIPH__##name##_bm)
#define GET(value, name) (((uint32_t)(value) & SHA_PERIPH__##name##_bm) >> SHA_PERIPH__##name##_bp)

static int aligned4(const void *p) { return ((uintptr_t)p & 3u) == 0; }

static int is_wide(sha_dev_alg_t alg) {
  return alg == SHA_DEV_SHA384 || alg == SHA_DEV_SHA512 || alg == SHA_DEV_SHA512_256;
}

static int known(sha_dev_alg_t alg) { return sha_dev_digest_len(alg) != 0; }

void sha_dev_init(sha_dev_t *dev, uintptr_t base) {
  dev->base = base;
  dev->alg = SHA_DEV_SHA256;
  dev->len = 0;
  dev->fed = 0;
}

unsigned sha_dev_digest_len(sha_dev_alg_t alg) {
  switch (alg) {
    case SHA_DEV_SHA1: return 20;
    case SHA_DEV_SHA224: return 28;
    case SHA_DEV_SHA256: return 32;
    case SHA_DEV_SHA384: return 48;
    case SHA_DEV_SHA512: return 64;
    case SHA_DEV_SHA512_256: return 32;
    default: return 0;
  }
}

unsigned sha_dev_block_len(sha_dev_alg_t alg) {
  if (!known(alg)) return 0;
  return is_wide(alg) ? 128u : 64u;
}

uint32_t sha_dev_status(const sha_dev_t *dev) { return REG(dev, STATUS); }
uint32_t sha_dev_error(const sha_dev_t *dev) { return GET(REG(dev, ERR_CODE), ERR_CODE__CODE); }

static sha_dev_result_t wait_status(const sha_dev_t *dev, uint32_t bit) {
  for (unsigned i = 0; i < SHA_DEV_POLL_BOUND; ++i) {
    uint32_t st = REG(dev, STATUS);
    if (st & SHA_PERIPH__STATUS__ERR_bm) return SHA_DEV_ERROR;
    if (st & bit) return SHA_DEV_OK;
  }
  return SHA_DEV_TIMEOUT;
}

sha_dev_result_t sha_dev_clear(sha_dev_t *dev) {
  if (!dev) return SHA_DEV_BAD_ARG;
  REG(dev, CMD) = SHA_PERIPH__CMD__CLEAR_bm;
  dev->len = 0;
  dev->fed = 0;
  for (unsigned i = 0; i < SHA_DEV_POLL_BOUND; ++i) {
    if ((REG(dev, STATUS) & (SHA_PERIPH__STATUS__BUSY_bm | SHA_PERIPH__STATUS__ERR_bm)) == 0) return SHA_DEV_OK;
  }
  return SHA_DEV_TIMEOUT;
}

void sha_dev_abort(sha_dev_t *dev) {
  if (dev) REG(dev, CMD) = SHA_PERIPH__CMD__ABORT_bm;
}

/* Algorithm and length, checked against this instance; nothing started yet. */
static sha_dev_result_t configure(sha_dev_t *dev, sha_dev_alg_t alg, uint64_t len) {
  if (!dev) return SHA_DEV_BAD_ARG;
  if (!known(alg)) return SHA_DEV_BAD_ARG;
  if (!is_wide(alg) && (len >> 61) != 0) return SHA_DEV_BAD_ARG;
  if (is_wide(alg) && !(REG(dev, HWCFG) & SHA_PERIPH__HWCFG__SHA512_bm)) return SHA_DEV_UNSUPPORTED;
  if (REG(dev, STATUS) & SHA_PERIPH__STATUS__ERR_bm) return SHA_DEV_ERROR;
  REG(dev, CTRL) = FIELD(alg, CTRL__ALG);
  REG(dev, MSG_LEN_LO) = (uint32_t)len;
  REG(dev, MSG_LEN_HI) = (uint32_t)(len >> 32);
  dev->alg = alg;
  dev->len = len;
  return SHA_DEV_OK;
}

sha_dev_result_t sha_dev_prepare(sha_dev_t *dev, sha_dev_alg_t alg, uint64_t len) {
  if (!dev) return SHA_DEV_BAD_ARG;
  /* CTRL may change only between messages: a finished or unstarted one. */
  if ((REG(dev, STATUS) & SHA_PERIPH__STATUS__BUSY_bm) != 0) return SHA_DEV_BAD_ARG;
  return configure(dev, alg, len);
}

void sha_dev_start(sha_dev_t *dev) {
  if (!dev) return;
  REG(dev, CMD) = SHA_PERIPH__CMD__START_bm;
  dev->fed = 0;
}

sha_dev_result_t sha_dev_begin(sha_dev_t *dev, sha_dev_alg_t alg, uint64_t len) {
  sha_dev_result_t r = sha_dev_prepare(dev, alg, len);
  if (r == SHA_DEV_OK) sha_dev_start(dev);
  return r;
}

sha_dev_result_t sha_dev_update(sha_dev_t *dev, const void *data, size_t n) {
  if (!dev || (n && (!data || !aligned4(data)))) return SHA_DEV_BAD_ARG;
  if (n > dev->len - dev->fed) return SHA_DEV_BAD_ARG;
  if ((n & 3u) != 0 && dev->fed + n != dev->len) return SHA_DEV_BAD_ARG;
  volatile uint32_t *din = &REG(dev, DATA_IN);
  const uint32_t *w = data;
  size_t words = n / 4u;
  for (size_t i = 0; i < words; ++i) *din = w[i];
  if (n & 3u) {
    /* The last bytes, without reading past the buffer; the hardware ignores the rest. */
    const uint8_t *b = (const uint8_t *)data + 4u * words;
    uint32_t last = 0;
    for (unsigned i = 0; i < (n & 3u); ++i) last |= (uint32_t)b[i] << (8u * i);
    *din = last;
  }
  dev->fed += n;
  return (REG(dev, STATUS) & SHA_PERIPH__STATUS__ERR_bm) ? SHA_DEV_ERROR : SHA_DEV_OK;
}

sha_dev_result_t sha_dev_wait_done(const sha_dev_t *dev) {
  if (!dev) return SHA_DEV_BAD_ARG;
  return wait_status(dev, SHA_PERIPH__STATUS__DONE_bm);
}

sha_dev_result_t sha_dev_finish(sha_dev_t *dev, void *digest) {
  if (!dev || !digest || !aligned4(digest)) return SHA_DEV_BAD_ARG;
  if (dev->fed != dev->len) return SHA_DEV_BAD_ARG;
  sha_dev_result_t r = wait_status(dev, SHA_PERIPH__STATUS__DONE_bm);
  if (r != SHA_DEV_OK) return r;
  uint32_t *out = digest;
  for (unsigned i = 0; i < sha_dev_digest_len(dev->alg) / 4u; ++i) out[i] = REG(dev, DIGEST[i]);
  return SHA_DEV_OK;
}

sha_dev_result_t sha_dev_hash(sha_dev_t *dev, sha_dev_alg_t alg, const void *msg, size_t len, void *digest) {
  if (!dev || (len && (!msg || !aligned4(msg))) || !digest || !aligned4(digest)) return SHA_DEV_BAD_ARG;
  sha_dev_result_t r = sha_dev_begin(dev, alg, len);
  if (r == SHA_DEV_OK) r = sha_dev_update(dev, msg, len);
  if (r == SHA_DEV_OK) r = sha_dev_finish(dev, digest);
  return r;
}

sha_dev_result_t sha_dev_save(sha_dev_t *dev, sha_dev_ctx_t *ctx) {
  if (!dev || !ctx) return SHA_DEV_BAD_ARG;
  /* Only whole blocks can be saved, and a finished message has nothing to save. */
  if (dev->fed % sha_dev_block_len(dev->alg) != 0 || dev->fed == dev->len) return SHA_DEV_BAD_ARG;
  sha_dev_result_t r = wait_status(dev, SHA_PERIPH__STATUS__SAVEABLE_bm);
  if (r != SHA_DEV_OK) return r;
  ctx->alg = dev->alg;
  ctx->len = dev->len;
  ctx->count = REG(dev, COUNT_LO) | ((uint64_t)REG(dev, COUNT_HI) << 32);
  for (unsigned i = 0; i < SHA_DEV_STATE_WORDS; ++i) ctx->state[i] = REG(dev, DIGEST[i]);
  if (ctx->count != dev->fed) return SHA_DEV_ERROR;
  /* The context lives in software now: zeroise the engine for the next message. */
  return sha_dev_clear(dev);
}

sha_dev_result_t sha_dev_restore(sha_dev_t *dev, const sha_dev_ctx_t *ctx) {
  if (!dev || !ctx || ctx->count > ctx->len || ctx->count % sha_dev_block_len(ctx->alg) != 0) return SHA_DEV_BAD_ARG;
  if ((REG(dev, STATUS) & SHA_PERIPH__STATUS__BUSY_bm) != 0) return SHA_DEV_BAD_ARG;
  sha_dev_result_t r = configure(dev, ctx->alg, ctx->len);
  if (r != SHA_DEV_OK) return r;
  for (unsigned i = 0; i < SHA_DEV_STATE_WORDS; ++i) REG(dev, DIGEST[i]) = ctx->state[i];
  REG(dev, COUNT_LO) = (uint32_t)ctx->count;
  REG(dev, COUNT_HI) = (uint32_t)(ctx->count >> 32);
  REG(dev, CMD) = SHA_PERIPH__CMD__RESUME_bm;
  dev->fed = ctx->count;
  return SHA_DEV_OK;
}

void sha_dev_irq_enable(sha_dev_t *dev, int done, int err) {
  if (!dev) return;
  REG(dev, IRQ_ENABLE) = (done ? SHA_PERIPH__IRQ_ENABLE__DONE_bm : 0u) | (err ? SHA_PERIPH__IRQ_ENABLE__ERR_bm : 0u);
}

uint32_t sha_dev_irq_ack(sha_dev_t *dev) {
  if (!dev) return 0;
  uint32_t st = REG(dev, IRQ_STATUS);
  REG(dev, IRQ_STATUS) = st;
  return st;
}

/* ---- HMAC (FIPS 198-1) ------------------------------------------------------------------------ */

#define HMAC_IPAD 0x36363636u
#define HMAC_OPAD 0x5c5c5c5cu

/* Volatile stores, so the compiler cannot drop the wipe of a buffer it sees no later use of. */
static void wipe(void *p, size_t n) {
  volatile uint8_t *b = p;
  for (size_t i = 0; i < n; ++i) b[i] = 0;
}

sha_dev_result_t sha_dev_hmac_begin(sha_dev_t *dev, sha_dev_hmac_t *mac, sha_dev_alg_t alg, const void *key,
                                    size_t key_len, uint64_t msg_len) {
  if (!dev || !mac || (key_len && (!key || !aligned4(key)))) return SHA_DEV_BAD_ARG;
  unsigned block = sha_dev_block_len(alg);
  if (block == 0 || msg_len > UINT64_MAX - block) return SHA_DEV_BAD_ARG;
  uint32_t k0[SHA_DEV_MAX_BLOCK / 4u] = {0};
  sha_dev_result_t r = SHA_DEV_OK;
  if (key_len > block) {
    r = sha_dev_hash(dev, alg, key, key_len, k0); /* K0 = H(K), then zeros */
  } else {
    const uint8_t *kb = key;
    for (size_t i = 0; i < key_len; ++i) ((uint8_t *)k0)[i] = kb[i];
  }
  if (r == SHA_DEV_OK) {
    for (unsigned i = 0; i < block / 4u; ++i) {
      mac->okey[i] = k0[i] ^ HMAC_OPAD;
      k0[i] ^= HMAC_IPAD;
    }
    /* The inner hash: (K0 ^ ipad) || message, one message on the engine. */
    r = sha_dev_begin(dev, alg, block + msg_len);
    if (r == SHA_DEV_OK) r = sha_dev_update(dev, k0, block);
  }
  wipe(k0, sizeof k0);
  if (r != SHA_DEV_OK) {
    wipe(mac->okey, sizeof mac->okey);
    return r;
  }
  mac->alg = alg;
  return SHA_DEV_OK;
}

sha_dev_result_t sha_dev_hmac_update(sha_dev_t *dev, const void *data, size_t n) {
  /* The key block is whole words, so the message's own alignment rules carry over. */
  return sha_dev_update(dev, data, n);
}

sha_dev_result_t sha_dev_hmac_finish(sha_dev_t *dev, sha_dev_hmac_t *mac, void *tag) {
  if (!dev || !mac || !tag || !aligned4(tag) || mac->alg != dev->alg) return SHA_DEV_BAD_ARG;
  unsigned block = sha_dev_block_len(mac->alg), d = sha_dev_digest_len(mac->alg);
  uint32_t inner[SHA_DEV_MAX_DIGEST / 4u];
  sha_dev_result_t r = sha_dev_finish(dev, inner);
  /* The outer hash: (K0 ^ opad) || inner digest. */
  if (r == SHA_DEV_OK) r = sha_dev_begin(dev, mac->alg, block + d);
  if (r == SHA_DEV_OK) r = sha_dev_update(dev, mac->okey, block);
  if (r == SHA_DEV_OK) r = sha_dev_update(dev, inner, d);
  if (r == SHA_DEV_OK) r = sha_dev_finish(dev, tag);
  wipe(inner, sizeof inner);
  wipe(mac->okey, sizeof mac->okey);
  /* Nothing key-derived may stay in the engine. A peripheral error has zeroised it already and
   * stays for sha_dev_error (the caller's sha_dev_clear recovers); otherwise clear it here. */
  if (!(REG(dev, STATUS) & SHA_PERIPH__STATUS__ERR_bm)) {
    sha_dev_result_t c = sha_dev_clear(dev);
    if (r == SHA_DEV_OK) r = c;
  }
  return r;
}

sha_dev_result_t sha_dev_hmac(sha_dev_t *dev, sha_dev_alg_t alg, const void *key, size_t key_len, const void *msg,
                              size_t len, void *tag) {
  if (!dev || (len && (!msg || !aligned4(msg))) || !tag || !aligned4(tag)) return SHA_DEV_BAD_ARG;
  sha_dev_hmac_t mac;
  sha_dev_result_t r = sha_dev_hmac_begin(dev, &mac, alg, key, key_len, len);
  if (r != SHA_DEV_OK) return r;
  r = sha_dev_hmac_update(dev, msg, len);
  if (r != SHA_DEV_OK) {
    wipe(mac.okey, sizeof mac.okey);
    return r;
  }
  return sha_dev_hmac_finish(dev, &mac, tag);
}
