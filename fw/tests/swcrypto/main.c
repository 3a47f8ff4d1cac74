/* SPDX-License-Identifier: Apache-2.0 */
/*
 * swcrypto known-answer and differential test engine. It runs the cases of swc_cases.h (NIST
 * examples by default; the pytest suite generates random cases with answers from the Python
 * `cryptography` package and puts its own swc_cases.h first on the include path), checks each
 * result against the case's expected bytes and prints it, and checks the API's argument errors.
 * Builds for the SoC and, with -DSWC_HOST, natively on the host. Exit status: failed checks.
 */
#include <string.h>

#include "swcrypto.h"
#include "swc_io.h"

enum {
  SWC_OP_ECB_ENC,
  SWC_OP_ECB_DEC,
  SWC_OP_CBC_ENC,
  SWC_OP_CBC_DEC,
  SWC_OP_CTR,
  SWC_OP_SHA1,
  SWC_OP_SHA256,
  SWC_OP_SHA512,
};

#define SWC_NONE 0xffffffffu

typedef struct {
  uint8_t op;
  uint8_t align;     /* byte offset of input and output buffers from a word boundary */
  uint8_t inplace;   /* output written over the input */
  uint8_t reserved;
  uint16_t key_bits;
  uint16_t reserved2;
  uint32_t key;      /* offsets into swc_case_data */
  uint32_t iv;       /* IV or counter block */
  uint32_t in;
  uint32_t len;
  uint32_t split;    /* AES: bytes in the first of two calls (0: one call); hash: chunk size */
  uint32_t expect;   /* expected output, SWC_NONE if none */
  uint32_t expect_chain; /* expected IV/counter after the call(s), SWC_NONE if none */
} swc_case;

/* The pytest suite points SWC_CASES_FILE at its generated list. */
#ifdef SWC_CASES_FILE
#include SWC_CASES_FILE
#else
#include "swc_cases.h"
#endif

#define SWC_MAX_LEN 2048u

static uint8_t swc_buf_in[SWC_MAX_LEN + 4] __attribute__((aligned(4)));
static uint8_t swc_buf_out[SWC_MAX_LEN + 4] __attribute__((aligned(4)));

static swc_result swc_aes_call(const swc_aes_ctx *ctx, uint8_t op, uint8_t *chain, const uint8_t *in,
                               uint8_t *out, size_t len) {
  switch (op) {
    case SWC_OP_ECB_ENC: return swc_aes_ecb_encrypt(ctx, in, out, len);
    case SWC_OP_ECB_DEC: return swc_aes_ecb_decrypt(ctx, in, out, len);
    case SWC_OP_CBC_ENC: return swc_aes_cbc_encrypt(ctx, chain, in, out, len);
    case SWC_OP_CBC_DEC: return swc_aes_cbc_decrypt(ctx, chain, in, out, len);
    default: return swc_aes_ctr(ctx, chain, in, out, len);
  }
}

static size_t swc_run_aes(const swc_case *c, uint8_t *chain, uint8_t **result) {
  swc_aes_ctx ctx;
  int decrypt = c->op == SWC_OP_ECB_DEC || c->op == SWC_OP_CBC_DEC;
  const uint8_t *key = swc_case_data + c->key;
  SWC_CHECK((decrypt ? swc_aes_setkey_dec(&ctx, key, c->key_bits) : swc_aes_setkey_enc(&ctx, key, c->key_bits)) == SWC_OK);
  if (c->iv != SWC_NONE) memcpy(chain, swc_case_data + c->iv, 16);
  uint8_t *in = swc_buf_in + c->align;
  uint8_t *out = c->inplace ? in : swc_buf_out + c->align;
  memcpy(in, swc_case_data + c->in, c->len);
  size_t first = c->split ? c->split : c->len;
  SWC_CHECK(swc_aes_call(&ctx, c->op, chain, in, out, first) == SWC_OK);
  if (first < c->len) SWC_CHECK(swc_aes_call(&ctx, c->op, chain, in + first, out + first, c->len - first) == SWC_OK);
  swc_aes_wipe(&ctx);
  *result = out;
  return c->len;
}

static size_t swc_run_hash(const swc_case *c, uint8_t **result) {
  const uint8_t *msg = swc_buf_in + c->align;
  memcpy(swc_buf_in + c->align, swc_case_data + c->in, c->len);
  size_t chunk = c->split ? c->split : (c->len ? c->len : 1);
  static uint8_t digest[SWC_SHA512_BYTES];
  size_t n = 0;
  if (c->op == SWC_OP_SHA1) {
    swc_sha1_ctx h;
    SWC_CHECK(swc_sha1_init(&h) == SWC_OK);
    for (size_t o = 0; o < c->len; o += chunk) SWC_CHECK(swc_sha1_update(&h, msg + o, c->len - o < chunk ? c->len - o : chunk) == SWC_OK);
    SWC_CHECK(swc_sha1_final(&h, digest) == SWC_OK);
    n = SWC_SHA1_BYTES;
  } else if (c->op == SWC_OP_SHA256) {
    swc_sha256_ctx h;
    SWC_CHECK(swc_sha256_init(&h) == SWC_OK);
    for (size_t o = 0; o < c->len; o += chunk) SWC_CHECK(swc_sha256_update(&h, msg + o, c->len - o < chunk ? c->len - o : chunk) == SWC_OK);
    SWC_CHECK(swc_sha256_final(&h, digest) == SWC_OK);
    n = SWC_SHA256_BYTES;
  } else {
    swc_sha512_ctx h;
    SWC_CHECK(swc_sha512_init(&h) == SWC_OK);
    for (size_t o = 0; o < c->len; o += chunk) SWC_CHECK(swc_sha512_update(&h, msg + o, c->len - o < chunk ? c->len - o : chunk) == SWC_OK);
    SWC_CHECK(swc_sha512_final(&h, digest) == SWC_OK);
    n = SWC_SHA512_BYTES;
  }
  *result = digest;
  return n;
}

/* Argument errors: every public entry point rejects bad input without touching its outputs. */
static void swc_api_checks(void) {
  static const uint8_t key[32] = {1, 2, 3};
  uint8_t block[32] = {0}, iv[16] = {0}, d[SWC_SHA512_BYTES];
  swc_aes_ctx enc, dec, none;
  memset(&none, 0, sizeof none);
  SWC_CHECK(swc_aes_init() == SWC_OK);
  SWC_CHECK(swc_aes_setkey_enc(NULL, key, 128) == SWC_ERR_NULL);
  SWC_CHECK(swc_aes_setkey_enc(&enc, NULL, 128) == SWC_ERR_NULL);
  SWC_CHECK(swc_aes_setkey_enc(&enc, key, 0) == SWC_ERR_KEY_BITS);
  SWC_CHECK(swc_aes_setkey_dec(&dec, key, 160) == SWC_ERR_KEY_BITS);
  SWC_CHECK(swc_aes_setkey_enc(&enc, key, 128) == SWC_OK);
  SWC_CHECK(swc_aes_setkey_dec(&dec, key, 128) == SWC_OK);
  SWC_CHECK(swc_aes_encrypt_block(&dec, block, block) == SWC_ERR_DIRECTION);
  SWC_CHECK(swc_aes_decrypt_block(&enc, block, block) == SWC_ERR_DIRECTION);
  SWC_CHECK(swc_aes_encrypt_block(&none, block, block) == SWC_ERR_DIRECTION);
  SWC_CHECK(swc_aes_ctr(&dec, iv, block, block, 16) == SWC_ERR_DIRECTION);
  SWC_CHECK(swc_aes_encrypt_block(NULL, block, block) == SWC_ERR_NULL);
  SWC_CHECK(swc_aes_encrypt_block(&enc, NULL, block) == SWC_ERR_NULL);
  SWC_CHECK(swc_aes_ecb_encrypt(&enc, block, block, 15) == SWC_ERR_LENGTH);
  SWC_CHECK(swc_aes_cbc_decrypt(&dec, iv, block, block, 17) == SWC_ERR_LENGTH);
  SWC_CHECK(swc_aes_cbc_encrypt(&enc, NULL, block, block, 16) == SWC_ERR_NULL);
  SWC_CHECK(swc_aes_ctr(&enc, NULL, block, block, 16) == SWC_ERR_NULL);
  SWC_CHECK(swc_aes_ecb_encrypt(&enc, block, block, 0) == SWC_OK);
  /* An error leaves the output alone. */
  memset(block, 0x5a, sizeof block);
  SWC_CHECK(swc_aes_ecb_encrypt(&enc, block, block + 16, 15) == SWC_ERR_LENGTH && block[16] == 0x5a);
  swc_aes_wipe(&enc);
  SWC_CHECK(swc_aes_encrypt_block(&enc, block, block) == SWC_ERR_DIRECTION);
  SWC_CHECK(swc_aes_variant() != NULL && swc_aes_variant()[0] != '\0');

  swc_sha256_ctx h;
  SWC_CHECK(swc_sha256_init(NULL) == SWC_ERR_NULL);
  SWC_CHECK(swc_sha256_init(&h) == SWC_OK);
  SWC_CHECK(swc_sha256_update(&h, NULL, 1) == SWC_ERR_NULL);
  SWC_CHECK(swc_sha256_update(&h, NULL, 0) == SWC_OK);
  SWC_CHECK(swc_sha256_final(&h, NULL) == SWC_ERR_NULL);
  SWC_CHECK(swc_sha256_final(&h, d) == SWC_OK);
  SWC_CHECK(swc_sha256_final(&h, d) == SWC_ERR_STATE);
  SWC_CHECK(swc_sha256_update(&h, key, 1) == SWC_ERR_STATE);
  swc_sha1_ctx h1;
  SWC_CHECK(swc_sha1_init(&h1) == SWC_OK);
  h1.bytes = (1ull << 61) - 2u; /* just below the length limit */
  SWC_CHECK(swc_sha1_update(&h1, key, 2) == SWC_ERR_TOO_LONG);
  SWC_CHECK(swc_sha1_update(&h1, key, 1) == SWC_OK);
  swc_sha512_ctx h5;
  SWC_CHECK(swc_sha512_init(&h5) == SWC_OK);
  SWC_CHECK(swc_sha512_final(&h5, d) == SWC_OK);
  SWC_CHECK(swc_sha512_update(&h5, key, 1) == SWC_ERR_STATE);
  SWC_CHECK(swc_sha1(NULL, 0, d) == SWC_OK);
}

int main(void) {
  swc_rec_begin("swc_info");
  swc_rec_str("variant", swc_aes_variant());
  swc_rec_str("cases", SWC_CASES_NAME);
  swc_rec_u64("count", sizeof swc_cases / sizeof swc_cases[0]);
  swc_rec_end();
  swc_api_checks();
  for (size_t i = 0; i < sizeof swc_cases / sizeof swc_cases[0]; ++i) {
    const swc_case *c = &swc_cases[i];
    uint8_t chain[16] = {0};
    uint8_t *result;
    size_t n = c->op >= SWC_OP_SHA1 ? swc_run_hash(c, &result) : swc_run_aes(c, chain, &result);
    int ok = 1;
    if (c->expect != SWC_NONE) ok &= memcmp(result, swc_case_data + c->expect, n) == 0;
    if (c->expect_chain != SWC_NONE) ok &= memcmp(chain, swc_case_data + c->expect_chain, 16) == 0;
    SWC_CHECK(ok);
    swc_rec_begin("swc_case");
    swc_rec_u64("i", i);
    swc_rec_u64("ok", (uint64_t)ok);
    swc_rec_hex("out", result, n);
    if (c->op >= SWC_OP_CBC_ENC && c->op <= SWC_OP_CTR) swc_rec_hex("chain", chain, 16);
    swc_rec_end();
  }
  swc_rec_begin("swc_done");
  swc_rec_u64("failures", swc_failures());
  swc_rec_end();
  return swc_failures() != 0;
}
