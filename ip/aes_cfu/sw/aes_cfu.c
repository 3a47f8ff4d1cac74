/* SPDX-License-Identifier: Apache-2.0 */
/* aes_cfu driver: coarse engine operations and Zkn-style software AES on the round ops. */
#include "aes_cfu.h"

/* The coprocessor's CONFIG word uses the engine's encodings, as the AES peripheral's CTRL. */
#define KEY_LEN(name) AES_PERIPH__AES_KEY_LEN__##name

/* Polls of STATUS before a key load is declared stuck; key derivation takes ~15 cycles. */
#define AES_CFU_POLL_BOUND 1000u

static int aligned4(const void *p) { return ((uintptr_t)p & 3u) == 0; }

void aes_cfu_init(aes_cfu_t *cfu) {
  cfu->key_len = 0;
  cfu->mode = AES_CFU_ECB;
  cfu->dir = AES_CFU_ENCRYPT;
}

uint32_t aes_cfu_status(void) { return AES_CFU_OP(AES_CFU_F3_CTRL, AES_CFU_CTRL_STATUS, 0, 0); }

static aes_cfu_result_t wait_key_ready(void) {
  for (unsigned i = 0; i < AES_CFU_POLL_BOUND; ++i) {
    uint32_t st = aes_cfu_status();
    if (st & AES_CFU_STATUS_ERR) return AES_CFU_ERROR;
    if (st & AES_CFU_STATUS_KEY_READY) return AES_CFU_OK;
  }
  return AES_CFU_TIMEOUT;
}

aes_cfu_result_t aes_cfu_set_key(aes_cfu_t *cfu, const void *key, size_t key_len, aes_cfu_mode_t mode,
                                 aes_cfu_dir_t dir) {
  if (!cfu || !key || !aligned4(key) || (key_len != 16 && key_len != 24 && key_len != 32) ||
      (mode != AES_CFU_ECB && mode != AES_CFU_CBC) || (dir != AES_CFU_ENCRYPT && dir != AES_CFU_DECRYPT)) {
    return AES_CFU_BAD_ARG;
  }
  const uint32_t *k = key;
  AES_CFU_OP(AES_CFU_F3_KEY, 0, k[0], k[1]);
  AES_CFU_OP(AES_CFU_F3_KEY, 1, k[2], k[3]);
  if (key_len >= 24) AES_CFU_OP(AES_CFU_F3_KEY, 2, k[4], k[5]);
  if (key_len == 32) AES_CFU_OP(AES_CFU_F3_KEY, 3, k[6], k[7]);
  uint32_t klen = key_len == 16 ? KEY_LEN(KEY_128) : key_len == 24 ? KEY_LEN(KEY_192) : KEY_LEN(KEY_256);
  AES_CFU_OP(AES_CFU_F3_CTRL, AES_CFU_CTRL_CONFIG, (uint32_t)mode | ((uint32_t)dir << 2) | (klen << 3), 0);
  aes_cfu_result_t r = wait_key_ready();
  if (r == AES_CFU_OK) {
    cfu->key_len = (unsigned)key_len;
    cfu->mode = mode;
    cfu->dir = dir;
  }
  return r;
}

aes_cfu_result_t aes_cfu_set_iv(aes_cfu_t *cfu, const void *iv) {
  if (!cfu || !iv || !aligned4(iv) || cfu->key_len == 0) return AES_CFU_BAD_ARG;
  const uint32_t *w = iv;
  AES_CFU_OP(AES_CFU_F3_BLOCK, 0, w[0], w[1]);
  AES_CFU_OP(AES_CFU_F3_BLOCK, 1, w[2], w[3]);
  AES_CFU_OP(AES_CFU_F3_CTRL, AES_CFU_CTRL_IV, 0, 0);
  return (aes_cfu_status() & AES_CFU_STATUS_ERR) ? AES_CFU_ERROR : AES_CFU_OK;
}

aes_cfu_result_t aes_cfu_crypt(aes_cfu_t *cfu, const void *in, void *out, size_t nblocks) {
  if (!cfu || !in || !out || !aligned4(in) || !aligned4(out) || cfu->key_len == 0) return AES_CFU_BAD_ARG;
  const uint32_t *src = in;
  uint32_t *dst = out;
  /* RESULT waits in the coprocessor until the engine is done: no polling. */
  for (size_t b = 0; b < nblocks; ++b, src += 4, dst += 4) aes_cfu_block(src, dst);
  return (aes_cfu_status() & AES_CFU_STATUS_ERR) ? AES_CFU_ERROR : AES_CFU_OK;
}

void aes_cfu_clear(aes_cfu_t *cfu) {
  AES_CFU_OP(AES_CFU_F3_CTRL, AES_CFU_CTRL_CLEAR, 0, 0);
  if (cfu) aes_cfu_init(cfu);
}

/* ---- Zkn-style software AES ---- */

static uint32_t sub_word(uint32_t w) {
  uint32_t t = 0;
  t = aes32esi(t, w, 0);
  t = aes32esi(t, w, 1);
  t = aes32esi(t, w, 2);
  t = aes32esi(t, w, 3);
  return t;
}

/* InvMixColumns(w) = dsmi of SubWord(w): the inverse S-box undoes the forward one. */
static uint32_t inv_mix_column(uint32_t w) {
  uint32_t s = sub_word(w), t = 0;
  t = aes32dsmi(t, s, 0);
  t = aes32dsmi(t, s, 1);
  t = aes32dsmi(t, s, 2);
  t = aes32dsmi(t, s, 3);
  return t;
}

static uint32_t rotr8(uint32_t w) { return (w >> 8) | (w << 24); }

aes_cfu_result_t aes_zkn_expand_key(aes_zkn_key_t *ks, const void *key, size_t key_len, aes_cfu_dir_t dir) {
  if (!ks || !key || !aligned4(key) || (key_len != 16 && key_len != 24 && key_len != 32)) return AES_CFU_BAD_ARG;
  const unsigned nk = (unsigned)key_len / 4u;
  const unsigned nr = nk + 6u;
  const unsigned total = 4u * (nr + 1u);
  const uint32_t *k = key;
  uint32_t *w = ks->rk;
  uint8_t rcon = 1;
  for (unsigned i = 0; i < nk; ++i) w[i] = k[i];
  /* j counts position within the nk-word group, avoiding a division per word. */
  for (unsigned i = nk, j = 0; i < total; ++i) {
    uint32_t t = w[i - 1];
    if (j == 0) {
      t = sub_word(rotr8(t)) ^ rcon;
      rcon = (uint8_t)((rcon << 1) ^ ((rcon & 0x80u) ? 0x1Bu : 0u));
    } else if (nk == 8 && j == 4) {
      t = sub_word(t);
    }
    w[i] = w[i - nk] ^ t;
    if (++j == nk) j = 0;
  }
  ks->rounds = nr;
  if (dir == AES_CFU_DECRYPT) {
    /* Equivalent inverse cipher: reverse the rounds, InvMixColumns on the middle ones. */
    for (unsigned r = 0; r < (nr + 1u) / 2u; ++r) {
      for (unsigned c = 0; c < 4; ++c) {
        uint32_t a = w[4 * r + c], b = w[4 * (nr - r) + c];
        w[4 * r + c] = b;
        w[4 * (nr - r) + c] = a;
      }
    }
    for (unsigned i = 4; i < 4 * nr; ++i) w[i] = inv_mix_column(w[i]);
  }
  return AES_CFU_OK;
}

/* One output word of a round: t = rk word with instruction op applied to byte k of state word
 * x_k, k = 0..3. */
#define ZKN_WORD(op, t, x0, x1, x2, x3) \
  t = op(t, x0, 0);                      \
  t = op(t, x1, 1);                      \
  t = op(t, x2, 2);                      \
  t = op(t, x3, 3)
/* Word 0's state words rotated by one, two and three places. */
#define ZKN_ROT1(a, b, c, d) b, c, d, a
#define ZKN_ROT2(a, b, c, d) c, d, a, b
#define ZKN_ROT3(a, b, c, d) d, a, b, c
#define ZKN_WORD_ROT(op, t, rot, ...) ZKN_WORD_ARGS(op, t, rot(__VA_ARGS__))
#define ZKN_WORD_ARGS(op, t, ...) ZKN_WORD(op, t, __VA_ARGS__)

/* One round: output word j takes byte k from state word j + k (encryption: word 0 takes s0 s1
 * s2 s3, word 1 those rotated by one) or j - k (decryption: word 0 takes s0 s3 s2 s1, word 1
 * those rotated by three). */
#define ZKN_ROUND(op, rot1, rot3, a, b, c, d)               \
  uint32_t t0 = rk[0], t1 = rk[1], t2 = rk[2], t3 = rk[3]; \
  ZKN_WORD(op, t0, a, b, c, d);                             \
  ZKN_WORD_ROT(op, t1, rot1, a, b, c, d);                   \
  ZKN_WORD_ROT(op, t2, ZKN_ROT2, a, b, c, d);               \
  ZKN_WORD_ROT(op, t3, rot3, a, b, c, d)

/* One block through the round instructions `mid` (rounds 1 to Nr - 1) and `last` (round Nr):
 * the encryption and decryption functions differ only in these and the rotations. */
#define ZKN_BLOCK(mid, last, rot1, rot3, a, b, c, d)                                         \
  const uint32_t *rk = ks->rk;                                                               \
  const uint32_t *src = in;                                                                  \
  uint32_t s0 = src[0] ^ rk[0], s1 = src[1] ^ rk[1], s2 = src[2] ^ rk[2], s3 = src[3] ^ rk[3]; \
  for (unsigned r = 1; r < ks->rounds; ++r) {                                                \
    rk += 4;                                                                                 \
    ZKN_ROUND(mid, rot1, rot3, a, b, c, d);                                                  \
    s0 = t0;                                                                                 \
    s1 = t1;                                                                                 \
    s2 = t2;                                                                                 \
    s3 = t3;                                                                                 \
  }                                                                                          \
  rk += 4;                                                                                   \
  uint32_t *dst = out;                                                                       \
  ZKN_ROUND(last, rot1, rot3, a, b, c, d);                                                   \
  dst[0] = t0;                                                                               \
  dst[1] = t1;                                                                               \
  dst[2] = t2;                                                                               \
  dst[3] = t3

void aes_zkn_encrypt_block(const aes_zkn_key_t *ks, const void *in, void *out) {
  ZKN_BLOCK(aes32esmi, aes32esi, ZKN_ROT1, ZKN_ROT3, s0, s1, s2, s3);
}

void aes_zkn_decrypt_block(const aes_zkn_key_t *ks, const void *in, void *out) {
  ZKN_BLOCK(aes32dsmi, aes32dsi, ZKN_ROT3, ZKN_ROT1, s0, s3, s2, s1);
}
