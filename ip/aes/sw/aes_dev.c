/* SPDX-License-Identifier: Apache-2.0 */
/* aes_dev: driver for the memory-mapped AES peripheral. Offsets come from the generated header. */
#include "aes_dev.h"

#include <stddef.h>
#include <string.h>

#define KEY_LEN(name) AES_PERIPH__AES_KEY_LEN__##name
#define REG(dev, member) (*(volatile uint32_t *)((dev)->base + offsetof(aes_periph_t, member)))
#define FIELD(value, name) (((uint32_t)(value) << AES_PERIPH__##name##_bp) & AES_PERIPH__##name##_bm)
#define GET(value, name) (((uint32_t)(value) & AES_PERIPH__##name##_bm) >> AES_PERIPH__##name##_bp)

static int aligned4(const void *p) { return ((uintptr_t)p & 3u) == 0; }

void aes_dev_init(aes_dev_t *dev, uintptr_t base) {
  dev->base = base;
  dev->in_depth = 0;
  dev->out_depth = 0;
  dev->gcm_ctrl = 0;
}

uint32_t aes_dev_status(const aes_dev_t *dev) { return REG(dev, STATUS); }

static aes_dev_result_t wait_status(const aes_dev_t *dev, uint32_t mask, uint32_t want) {
  for (unsigned i = 0; i < AES_DEV_POLL_BOUND; ++i) {
    uint32_t st = REG(dev, STATUS);
    if (st & AES_PERIPH__STATUS__ERR_bm) return AES_DEV_ERROR;
    if ((st & mask) == want) return AES_DEV_OK;
  }
  return AES_DEV_TIMEOUT;
}

aes_dev_result_t aes_dev_clear(aes_dev_t *dev) {
  if (!dev) return AES_DEV_BAD_ARG;
  REG(dev, CMD) = AES_PERIPH__CMD__CLEAR_bm;
  for (unsigned i = 0; i < AES_DEV_POLL_BOUND; ++i) {
    if ((REG(dev, STATUS) & (AES_PERIPH__STATUS__BUSY_bm | AES_PERIPH__STATUS__ERR_bm)) == 0) return AES_DEV_OK;
  }
  return AES_DEV_TIMEOUT;
}

aes_dev_result_t aes_dev_reseed(aes_dev_t *dev, const void *seed, size_t len) {
  if (!dev || !seed || !aligned4(seed) || len == 0 || len % 16u != 0) return AES_DEV_BAD_ARG;
  if (GET(REG(dev, HWCFG), HWCFG__MASKING) == 0) return AES_DEV_UNSUPPORTED;
  const uint32_t *w = seed;
  volatile uint32_t *sreg = &REG(dev, PRNG_SEED[0]);
  for (size_t i = 0; i < len / 4u; i += 4) {
    sreg[0] = w[i];
    sreg[1] = w[i + 1];
    sreg[2] = w[i + 2];
    sreg[3] = w[i + 3];
    REG(dev, CMD) = AES_PERIPH__CMD__RESEED_bm; /* takes the seed words and wipes them */
  }
  return AES_DEV_OK;
}

aes_dev_result_t aes_dev_set_iv(aes_dev_t *dev, const void *iv) {
  if (!dev || !iv || !aligned4(iv)) return AES_DEV_BAD_ARG;
  const uint32_t *w = iv;
  REG(dev, IV[0]) = w[0];
  REG(dev, IV[1]) = w[1];
  REG(dev, IV[2]) = w[2];
  REG(dev, IV[3]) = w[3]; /* loads all four */
  return (REG(dev, STATUS) & AES_PERIPH__STATUS__ERR_bm) ? AES_DEV_ERROR : AES_DEV_OK;
}

aes_dev_result_t aes_dev_get_iv(aes_dev_t *dev, void *iv) {
  if (!dev || !iv || !aligned4(iv)) return AES_DEV_BAD_ARG;
  uint32_t *w = iv;
  w[0] = REG(dev, IV[0]);
  w[1] = REG(dev, IV[1]);
  w[2] = REG(dev, IV[2]);
  w[3] = REG(dev, IV[3]);
  return AES_DEV_OK;
}

aes_dev_result_t aes_dev_setup(aes_dev_t *dev, const aes_dev_config_t *cfg, const void *key, const void *iv) {
  if (!dev || !cfg || !key || !aligned4(key) || (iv && !aligned4(iv))) return AES_DEV_BAD_ARG;
  if (cfg->key_len != 16 && cfg->key_len != 24 && cfg->key_len != 32) return AES_DEV_BAD_ARG;
  if (cfg->mode > AES_DEV_CTR || cfg->dir > AES_DEV_DECRYPT || cfg->ctr_width > AES_DEV_CTR128) return AES_DEV_BAD_ARG;
  if (cfg->mode != AES_DEV_ECB && !iv) return AES_DEV_BAD_ARG;
  aes_dev_result_t r = aes_dev_clear(dev);
  if (r != AES_DEV_OK) return r;
  uint32_t hw = REG(dev, HWCFG);
  dev->in_depth = GET(hw, HWCFG__IN_DEPTH);
  dev->out_depth = GET(hw, HWCFG__OUT_DEPTH);
  uint32_t key_code = cfg->key_len == 16 ? KEY_LEN(KEY_128) : cfg->key_len == 24 ? KEY_LEN(KEY_192) : KEY_LEN(KEY_256);
  REG(dev, CTRL) = FIELD(cfg->mode, CTRL__MODE) | FIELD(cfg->dir, CTRL__DIR) | FIELD(key_code, CTRL__KEY_LEN) |
                   FIELD(cfg->ctr_width, CTRL__CTR_WIDTH);
  const uint32_t *k = key;
  volatile uint32_t *kreg = &REG(dev, KEY[0]);
  for (unsigned i = 0; i < cfg->key_len / 4u; ++i) kreg[i] = k[i];
  REG(dev, CMD) = AES_PERIPH__CMD__KEY_LOAD_bm;
  /* The IV may be written only once the decryption key is derived (engine idle). */
  r = wait_status(dev, AES_PERIPH__STATUS__KEY_READY_bm | AES_PERIPH__STATUS__BUSY_bm, AES_PERIPH__STATUS__KEY_READY_bm);
  if (r != AES_DEV_OK) return r;
  return iv ? aes_dev_set_iv(dev, iv) : AES_DEV_OK;
}

aes_dev_result_t aes_dev_crypt(aes_dev_t *dev, const void *in, void *out, size_t nblocks) {
  if (!dev || !in || !out || !aligned4(in) || !aligned4(out) || dev->in_depth == 0) return AES_DEV_BAD_ARG;
  const uint32_t *src = in;
  uint32_t *dst = out;
  /* Keep at most in_depth + out_depth blocks outstanding: then a held DATA_IN[3] write always
   * completes (the engine can always drain into the output FIFO), so the bus never deadlocks. */
  size_t ahead = dev->in_depth + dev->out_depth;
  size_t sent = 0, got = 0;
  while (got < nblocks) {
    while (sent < nblocks && sent - got < ahead) {
      aes_dev_put_block(dev, src + 4 * sent);
      ++sent;
    }
    aes_dev_get_block(dev, dst + 4 * got);
    ++got;
  }
  return (REG(dev, STATUS) & AES_PERIPH__STATUS__ERR_bm) ? AES_DEV_ERROR : AES_DEV_OK;
}

aes_dev_result_t aes_dev_push(aes_dev_t *dev, const void *block) {
  if (!dev || !block || !aligned4(block)) return AES_DEV_BAD_ARG;
  if (!(REG(dev, STATUS) & AES_PERIPH__STATUS__IN_READY_bm)) return AES_DEV_AGAIN;
  aes_dev_put_block(dev, block);
  return AES_DEV_OK;
}

aes_dev_result_t aes_dev_pull(aes_dev_t *dev, void *block) {
  if (!dev || !block || !aligned4(block)) return AES_DEV_BAD_ARG;
  if (!(REG(dev, STATUS) & AES_PERIPH__STATUS__OUT_VALID_bm)) return AES_DEV_AGAIN;
  aes_dev_get_block(dev, block);
  return AES_DEV_OK;
}

void aes_dev_irq_enable(aes_dev_t *dev, int done, int err) {
  REG(dev, IRQ_ENABLE) = FIELD(done != 0, IRQ_ENABLE__DONE) | FIELD(err != 0, IRQ_ENABLE__ERR);
}

uint32_t aes_dev_irq_ack(aes_dev_t *dev) {
  uint32_t st = REG(dev, IRQ_STATUS);
  REG(dev, IRQ_STATUS) = st;
  return st;
}

/* ---- GCM ---- */

#define GCM_PHASE(name) AES_PERIPH__AES_GCM_PHASE__##name
#define BUSY_ERR (AES_PERIPH__STATUS__BUSY_bm | AES_PERIPH__STATUS__ERR_bm)

/* CTRL may change only while the peripheral is idle. */
static aes_dev_result_t gcm_ctrl(aes_dev_t *dev, uint32_t phase, size_t nbytes) {
  aes_dev_result_t r = wait_status(dev, AES_PERIPH__STATUS__BUSY_bm, 0);
  if (r != AES_DEV_OK) return r;
  REG(dev, CTRL) = dev->gcm_ctrl | FIELD(phase, CTRL__GCM_PHASE) | FIELD(nbytes & 15u, CTRL__GCM_BYTES);
  return AES_DEV_OK;
}

static int tag_len_ok(unsigned n) { return n == 4 || n == 8 || (n >= 12 && n <= 16); }

/* Blocks of one phase: whole blocks streamed, the partial last one (its own CTRL.GCM_BYTES) on
 * its own. `out` NULL: the phase gives no results (AAD, IV). */
static aes_dev_result_t gcm_phase(aes_dev_t *dev, uint32_t phase, const uint8_t *in, uint8_t *out, size_t len) {
  size_t whole = len / 16u, rest = len % 16u;
  aes_dev_result_t r = gcm_ctrl(dev, phase, 0);
  if (r != AES_DEV_OK) return r;
  if (out) {
    r = aes_dev_crypt(dev, in, out, whole);
    if (r != AES_DEV_OK) return r;
  } else {
    for (size_t i = 0; i < whole; ++i) aes_dev_put_block(dev, in + 16u * i);
  }
  if (rest) {
    uint32_t block[4] = {0, 0, 0, 0};
    memcpy(block, in + 16u * whole, rest);
    r = gcm_ctrl(dev, phase, rest);
    if (r != AES_DEV_OK) return r;
    aes_dev_put_block(dev, block);
    if (out) {
      aes_dev_get_block(dev, block);
      memcpy(out + 16u * whole, block, rest);
    }
  }
  return (REG(dev, STATUS) & AES_PERIPH__STATUS__ERR_bm) ? AES_DEV_ERROR : AES_DEV_OK;
}

aes_dev_result_t aes_dev_gcm_begin(aes_dev_t *dev, aes_dev_dir_t dir, const void *key, unsigned key_len,
                                   const void *iv, size_t iv_len) {
  if (!dev || !key || !iv || !aligned4(key) || !aligned4(iv) || iv_len == 0 || dir > AES_DEV_DECRYPT) {
    return AES_DEV_BAD_ARG;
  }
  if (key_len != 16 && key_len != 24 && key_len != 32) return AES_DEV_BAD_ARG;
  aes_dev_result_t r = aes_dev_clear(dev);
  if (r != AES_DEV_OK) return r;
  uint32_t hw = REG(dev, HWCFG);
  if (GET(hw, HWCFG__GHASH_BITS) == 0) return AES_DEV_BAD_ARG;
  dev->in_depth = GET(hw, HWCFG__IN_DEPTH);
  dev->out_depth = GET(hw, HWCFG__OUT_DEPTH);
  uint32_t key_code = key_len == 16 ? KEY_LEN(KEY_128) : key_len == 24 ? KEY_LEN(KEY_192) : KEY_LEN(KEY_256);
  dev->gcm_ctrl = FIELD(AES_PERIPH__AES_MODE__GCM, CTRL__MODE) | FIELD(dir, CTRL__DIR) | FIELD(key_code, CTRL__KEY_LEN);
  REG(dev, CTRL) = dev->gcm_ctrl;
  const uint32_t *k = key;
  volatile uint32_t *kreg = &REG(dev, KEY[0]);
  for (unsigned i = 0; i < key_len / 4u; ++i) kreg[i] = k[i];
  REG(dev, CMD) = AES_PERIPH__CMD__KEY_LOAD_bm;
  r = wait_status(dev, AES_PERIPH__STATUS__KEY_READY_bm | AES_PERIPH__STATUS__BUSY_bm, AES_PERIPH__STATUS__KEY_READY_bm);
  if (r != AES_DEV_OK) return r;
  if (iv_len == 12) {
    /* J0 = IV || 0^31 || 1: the peripheral appends the counter. */
    uint32_t block[4] = {0, 0, 0, 0};
    memcpy(block, iv, 12);
    r = aes_dev_set_iv(dev, block);
    if (r != AES_DEV_OK) return r;
    REG(dev, CMD) = AES_PERIPH__CMD__GCM_START_bm;
    return AES_DEV_OK;
  }
  /* Any other length: J0 = GHASH(IV || 0-pad || [len(IV)]64), from IV-phase blocks. */
  REG(dev, CTRL) = dev->gcm_ctrl | FIELD(GCM_PHASE(IV), CTRL__GCM_PHASE);
  REG(dev, CMD) = AES_PERIPH__CMD__GCM_START_bm;
  return gcm_phase(dev, GCM_PHASE(IV), iv, NULL, iv_len);
}

aes_dev_result_t aes_dev_gcm_text_ctrl(aes_dev_t *dev) {
  if (!dev || dev->gcm_ctrl == 0) return AES_DEV_BAD_ARG;
  return gcm_ctrl(dev, GCM_PHASE(TEXT), 0);
}

aes_dev_result_t aes_dev_gcm_aad(aes_dev_t *dev, const void *aad, size_t len) {
  if (!dev || (len && (!aad || !aligned4(aad))) || dev->gcm_ctrl == 0) return AES_DEV_BAD_ARG;
  return len ? gcm_phase(dev, GCM_PHASE(AAD), aad, NULL, len) : AES_DEV_OK;
}

aes_dev_result_t aes_dev_gcm_update(aes_dev_t *dev, const void *in, void *out, size_t len) {
  if (!dev || (len && (!in || !out || !aligned4(in) || !aligned4(out))) || dev->gcm_ctrl == 0) return AES_DEV_BAD_ARG;
  return len ? gcm_phase(dev, GCM_PHASE(TEXT), in, out, len) : AES_DEV_OK;
}

/* CMD.GCM_FINAL, then a bounded wait for the tag. */
static aes_dev_result_t gcm_final(aes_dev_t *dev, unsigned tag_len) {
  aes_dev_result_t r = gcm_ctrl(dev, GCM_PHASE(TEXT), 0);
  if (r != AES_DEV_OK) return r;
  REG(dev, CTRL) = dev->gcm_ctrl | FIELD(tag_len & 15u, CTRL__TAG_LEN);
  REG(dev, CMD) = AES_PERIPH__CMD__GCM_FINAL_bm;
  return wait_status(dev, AES_PERIPH__STATUS__TAG_VALID_bm, AES_PERIPH__STATUS__TAG_VALID_bm);
}

aes_dev_result_t aes_dev_gcm_finish(aes_dev_t *dev, void *tag, unsigned tag_len) {
  if (!dev || !tag || !tag_len_ok(tag_len) || dev->gcm_ctrl == 0) return AES_DEV_BAD_ARG;
  if (GET(dev->gcm_ctrl, CTRL__DIR) != AES_DEV_ENCRYPT) return AES_DEV_BAD_ARG;
  aes_dev_result_t r = gcm_final(dev, tag_len);
  if (r != AES_DEV_OK) return r;
  uint32_t words[4];
  for (unsigned i = 0; i < 4; ++i) words[i] = REG(dev, TAG[i]);
  memcpy(tag, words, tag_len);
  dev->gcm_ctrl = 0;
  return AES_DEV_OK;
}

aes_dev_result_t aes_dev_gcm_verify(aes_dev_t *dev, const void *tag, unsigned tag_len) {
  if (!dev || !tag || !tag_len_ok(tag_len) || dev->gcm_ctrl == 0) return AES_DEV_BAD_ARG;
  if (GET(dev->gcm_ctrl, CTRL__DIR) != AES_DEV_DECRYPT) return AES_DEV_BAD_ARG;
  uint32_t words[4] = {0, 0, 0, 0};
  memcpy(words, tag, tag_len);
  for (unsigned i = 0; i < 4; ++i) REG(dev, EXPECTED_TAG[i]) = words[i];
  aes_dev_result_t r = gcm_final(dev, tag_len);
  dev->gcm_ctrl = 0;
  if (r != AES_DEV_OK) return r;
  /* The hardware compared every byte; a mismatch is the one result a caller cannot take for OK. */
  return (REG(dev, STATUS) & AES_PERIPH__STATUS__TAG_MISMATCH_bm) ? AES_DEV_TAG_MISMATCH : AES_DEV_OK;
}

aes_dev_result_t aes_dev_gcm_decrypt(aes_dev_t *dev, const void *key, unsigned key_len, const void *iv, size_t iv_len,
                                     const void *aad, size_t aad_len, const void *ct, void *pt, size_t len,
                                     const void *tag, unsigned tag_len) {
  if (!dev || !tag || !tag_len_ok(tag_len) || (len && (!ct || !pt))) return AES_DEV_BAD_ARG;
  aes_dev_result_t r = aes_dev_gcm_begin(dev, AES_DEV_DECRYPT, key, key_len, iv, iv_len);
  if (r == AES_DEV_OK) r = aes_dev_gcm_aad(dev, aad, aad_len);
  if (r == AES_DEV_OK) r = aes_dev_gcm_update(dev, ct, pt, len);
  if (r == AES_DEV_OK) r = aes_dev_gcm_verify(dev, tag, tag_len);
  if (r != AES_DEV_OK && len && pt) memset(pt, 0, len);
  return r;
}
