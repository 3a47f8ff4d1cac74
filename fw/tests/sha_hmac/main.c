/* SPDX-License-Identifier: Apache-2.0 */
/* HMAC (FIPS 198-1) on the SHA engine through sha_dev_hmac_*: every case of the case list (the
 * committed RFC 4231 list, or the generated one SHA_HMAC_CASES_FILE names) in one call, and again
 * streamed in two parts; tags are printed for pytest to compare with Python's hmac
 * (ip/sha/tests/test_sha_hmac_soc.py). Key wiping and argument checks are self-checked. */
#include <string.h>

#include "aesoc.h"
#include "sha_dev.h"

typedef struct {
  sha_dev_alg_t alg;
  uint32_t key_offset; /* into sha_hmac_data, 4-byte aligned */
  uint32_t key_len;
  uint32_t msg_offset;
  uint32_t msg_len;
} sha_hmac_case_t;

#ifdef SHA_HMAC_CASES_FILE
#include SHA_HMAC_CASES_FILE
#else
#include "sha_hmac_cases.h"
#endif

#define NUM_OF(a) (sizeof(a) / sizeof((a)[0]))

static sha_dev_t sha;
static uint8_t tag[SHA_DEV_MAX_DIGEST] __attribute__((aligned(4)));

static int okey_wiped(const sha_dev_hmac_t *mac) {
  for (unsigned i = 0; i < NUM_OF(mac->okey); ++i) {
    if (mac->okey[i] != 0) return 0;
  }
  return 1;
}

static void record(unsigned i, const char *how, const sha_hmac_case_t *c, sha_dev_result_t r) {
  aesoc_rec_begin("sha_hmac");
  aesoc_rec_u64("i", i);
  aesoc_rec_str("how", how);
  aesoc_rec_u64("alg", c->alg);
  aesoc_rec_u64("result", r);
  aesoc_rec_hex("tag", tag, sha_dev_digest_len(c->alg));
  aesoc_rec_end();
}

/* The message in two parts: a whole number of words, then the rest. */
static sha_dev_result_t streamed(const sha_hmac_case_t *c) {
  const uint8_t *msg = sha_hmac_data + c->msg_offset;
  size_t first = (c->msg_len / 2u) & ~(size_t)3u;
  sha_dev_hmac_t mac;
  sha_dev_result_t r = sha_dev_hmac_begin(&sha, &mac, c->alg, sha_hmac_data + c->key_offset, c->key_len, c->msg_len);
  if (r != SHA_DEV_OK) return r;
  r = sha_dev_hmac_update(&sha, msg, first);
  if (r == SHA_DEV_OK) r = sha_dev_hmac_update(&sha, msg + first, c->msg_len - first);
  if (r == SHA_DEV_OK) {
    r = sha_dev_hmac_finish(&sha, &mac, tag);
    AESOC_CHECK(okey_wiped(&mac));
  }
  return r;
}

static void argument_checks(void) {
  sha_dev_hmac_t mac;
  static const uint32_t key[2] = {1u, 2u};
  AESOC_CHECK(sha_dev_hmac(&sha, SHA_DEV_SHA256, NULL, 8, key, 8, tag) == SHA_DEV_BAD_ARG);
  AESOC_CHECK(sha_dev_hmac(&sha, SHA_DEV_SHA256, (const uint8_t *)key + 1, 4, key, 8, tag) == SHA_DEV_BAD_ARG);
  AESOC_CHECK(sha_dev_hmac(&sha, SHA_DEV_SHA256, key, 8, key, 8, tag + 2) == SHA_DEV_BAD_ARG);
  AESOC_CHECK(sha_dev_hmac(&sha, (sha_dev_alg_t)6, key, 8, key, 8, tag) == SHA_DEV_BAD_ARG);
  AESOC_CHECK(sha_dev_hmac_begin(&sha, &mac, SHA_DEV_SHA384, key, 8, UINT64_MAX - 64u) == SHA_DEV_BAD_ARG);
  /* finish before the whole message: refused, the padded key wiped, the engine cleared after. */
  AESOC_CHECK(sha_dev_hmac_begin(&sha, &mac, SHA_DEV_SHA256, key, 8, 8) == SHA_DEV_OK);
  AESOC_CHECK(!okey_wiped(&mac));
  AESOC_CHECK(sha_dev_hmac_finish(&sha, &mac, tag) != SHA_DEV_OK);
  AESOC_CHECK(okey_wiped(&mac));
  AESOC_CHECK((sha_dev_status(&sha) & (SHA_PERIPH__STATUS__BUSY_bm | SHA_PERIPH__STATUS__ERR_bm)) == 0);
}

int main(void) {
  sha_dev_init(&sha, AESOC_SHA_BASE);
  AESOC_CHECK(sha_dev_clear(&sha) == SHA_DEV_OK);
  int sha512 = (AESOC_REG(AESOC_SHA_BASE, sha_periph_t, HWCFG) & SHA_PERIPH__HWCFG__SHA512_bm) != 0;
  aesoc_rec_begin("sha_hmac_info");
  aesoc_rec_str("set", SHA_HMAC_SET);
  aesoc_rec_u64("cases", NUM_OF(sha_hmac_cases));
  aesoc_rec_u64("sha512", (uint64_t)sha512);
  aesoc_rec_end();
  for (unsigned i = 0; i < NUM_OF(sha_hmac_cases); ++i) {
    const sha_hmac_case_t *c = &sha_hmac_cases[i];
    if (!sha512 && sha_dev_block_len(c->alg) != 64u) continue;
    memset(tag, 0, sizeof tag);
    sha_dev_result_t r = sha_dev_hmac(&sha, c->alg, sha_hmac_data + c->key_offset, c->key_len,
                                      sha_hmac_data + c->msg_offset, c->msg_len, tag);
    AESOC_CHECK(r == SHA_DEV_OK);
    record(i, "oneshot", c, r);
    memset(tag, 0, sizeof tag);
    r = streamed(c);
    AESOC_CHECK(r == SHA_DEV_OK);
    record(i, "streamed", c, r);
  }
  argument_checks();
  aesoc_rec_begin("sha_hmac_done");
  aesoc_rec_u64("failures", aesoc_check_failures);
  aesoc_rec_end();
  return aesoc_check_failures ? 1 : 0;
}
