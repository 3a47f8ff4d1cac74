/* SPDX-License-Identifier: Apache-2.0 */
/* AES CFU self-test: FIPS-197 Appendix C vectors through both coprocessor styles, back-to-back
 * dependent round ops, and pseudo-random blocks printed for a differential check in pytest. */
#include <string.h>

#include "aes_cfu.h"
#include "aesoc.h"
#include "aesoc_vectors.h"

/* FIPS-197 Appendix C.1-C.3: key 00 01 02 ..., plaintext 00 11 22 ... ff. */

#define DIFF_BLOCKS 8

static void fips_vectors(void) {
  uint8_t key[32] __attribute__((aligned(4)));
  uint8_t out[16] __attribute__((aligned(4)));
  for (unsigned i = 0; i < 32; ++i) key[i] = (uint8_t)i;
  for (unsigned k = 0; k < 3; ++k) {
    size_t key_len = 16u + 8u * k;
    aes_cfu_t cfu;
    aes_cfu_init(&cfu);
    AESOC_CHECK(aes_cfu_set_key(&cfu, key, key_len, AES_CFU_ECB, AES_CFU_ENCRYPT) == AES_CFU_OK);
    AESOC_CHECK(aes_cfu_crypt(&cfu, AESOC_FIPS197_PT, out, 1) == AES_CFU_OK);
    AESOC_CHECK(memcmp(out, AESOC_FIPS197_CT[k], 16) == 0);
    AESOC_CHECK(aes_cfu_set_key(&cfu, key, key_len, AES_CFU_ECB, AES_CFU_DECRYPT) == AES_CFU_OK);
    AESOC_CHECK(aes_cfu_crypt(&cfu, AESOC_FIPS197_CT[k], out, 1) == AES_CFU_OK);
    AESOC_CHECK(memcmp(out, AESOC_FIPS197_PT, 16) == 0);

    aes_zkn_key_t ks;
    AESOC_CHECK(aes_zkn_expand_key(&ks, key, key_len, AES_CFU_ENCRYPT) == AES_CFU_OK);
    aes_zkn_encrypt_block(&ks, AESOC_FIPS197_PT, out);
    AESOC_CHECK(memcmp(out, AESOC_FIPS197_CT[k], 16) == 0);
    AESOC_CHECK(aes_zkn_expand_key(&ks, key, key_len, AES_CFU_DECRYPT) == AES_CFU_OK);
    aes_zkn_decrypt_block(&ks, AESOC_FIPS197_CT[k], out);
    AESOC_CHECK(memcmp(out, AESOC_FIPS197_PT, 16) == 0);
  }
}

/* Eight dependent round ops with nothing in between: each reads the previous result. */
static void back_to_back(void) {
  uint32_t acc = 0x01234567u, x = 0x89abcdefu, y = 0x0f1e2d3cu;
  __asm__ volatile(
      ".insn r 0x0B, 1, 0, %0, %0, %1\n"
      ".insn r 0x0B, 1, 1, %0, %0, %2\n"
      ".insn r 0x0B, 3, 2, %0, %0, %1\n"
      ".insn r 0x0B, 3, 3, %0, %0, %2\n"
      ".insn r 0x0B, 0, 0, %0, %0, %0\n"
      ".insn r 0x0B, 2, 1, %0, %0, %0\n"
      ".insn r 0x0B, 1, 2, %0, %0, %0\n"
      ".insn r 0x0B, 3, 3, %0, %0, %0\n"
      : "+r"(acc) : "r"(x), "r"(y));
  /* The same chain as a dependent op followed at once by an ALU use of its result. */
  uint32_t alu = 0;
  __asm__ volatile(
      ".insn r 0x0B, 1, 0, %0, %1, %2\n"
      "add %0, %0, %0\n"
      : "=&r"(alu) : "r"(x), "r"(y));
  aesoc_rec_begin("aes_cfu_chain");
  aesoc_rec_u64("acc", acc);
  aesoc_rec_u64("alu", alu);
  aesoc_rec_end();
}

static void differential(void) {
  uint32_t seed = 0x2545F491u;
  uint32_t key[8], blocks[4 * DIFF_BLOCKS], out[4 * DIFF_BLOCKS];
  for (unsigned k = 0; k < 3; ++k) {
    size_t key_len = 16u + 8u * k;
    for (unsigned i = 0; i < 8; ++i) key[i] = aesoc_xorshift32(&seed);
    for (unsigned i = 0; i < 4 * DIFF_BLOCKS; ++i) blocks[i] = aesoc_xorshift32(&seed);
    for (unsigned dir = 0; dir < 2; ++dir) {
      aes_cfu_t cfu;
      aes_cfu_init(&cfu);
      AESOC_CHECK(aes_cfu_set_key(&cfu, key, key_len, AES_CFU_ECB, (aes_cfu_dir_t)dir) == AES_CFU_OK);
      AESOC_CHECK(aes_cfu_crypt(&cfu, blocks, out, DIFF_BLOCKS) == AES_CFU_OK);
      aesoc_rec_begin("aes_cfu_diff");
      aesoc_rec_str("style", "coarse");
      aesoc_rec_u64("key_len", key_len);
      aesoc_rec_u64("decrypt", dir);
      aesoc_rec_hex("out", out, sizeof out);
      aesoc_rec_end();

      aes_zkn_key_t ks;
      AESOC_CHECK(aes_zkn_expand_key(&ks, key, key_len, (aes_cfu_dir_t)dir) == AES_CFU_OK);
      for (unsigned b = 0; b < DIFF_BLOCKS; ++b) {
        if (dir) aes_zkn_decrypt_block(&ks, &blocks[4 * b], &out[4 * b]);
        else aes_zkn_encrypt_block(&ks, &blocks[4 * b], &out[4 * b]);
      }
      aesoc_rec_begin("aes_cfu_diff");
      aesoc_rec_str("style", "zkn");
      aesoc_rec_u64("key_len", key_len);
      aesoc_rec_u64("decrypt", dir);
      aesoc_rec_hex("out", out, sizeof out);
      aesoc_rec_end();
    }
  }
  /* CBC encrypt of the last key's blocks, IV = first block. */
  aes_cfu_t cfu;
  aes_cfu_init(&cfu);
  AESOC_CHECK(aes_cfu_set_key(&cfu, key, 32, AES_CFU_CBC, AES_CFU_ENCRYPT) == AES_CFU_OK);
  AESOC_CHECK(aes_cfu_set_iv(&cfu, blocks) == AES_CFU_OK);
  AESOC_CHECK(aes_cfu_crypt(&cfu, blocks, out, DIFF_BLOCKS) == AES_CFU_OK);
  aesoc_rec_begin("aes_cfu_cbc");
  aesoc_rec_hex("out", out, sizeof out);
  aesoc_rec_end();
}

static void bad_input(void) {
  aes_cfu_t cfu;
  uint32_t buf[8] = {0};
  aes_cfu_init(&cfu);
  AESOC_CHECK(aes_cfu_set_key(&cfu, buf, 20, AES_CFU_ECB, AES_CFU_ENCRYPT) == AES_CFU_BAD_ARG);
  AESOC_CHECK(aes_cfu_set_key(&cfu, (const uint8_t *)buf + 1, 16, AES_CFU_ECB, AES_CFU_ENCRYPT) == AES_CFU_BAD_ARG);
  AESOC_CHECK(aes_cfu_crypt(&cfu, buf, buf, 1) == AES_CFU_BAD_ARG); /* no key yet */
  aes_cfu_clear(&cfu);
  AESOC_CHECK((aes_cfu_status() & AES_CFU_STATUS_KEY_READY) == 0);
}

int main(void) {
  fips_vectors();
  back_to_back();
  differential();
  bad_input();
  aesoc_rec_begin("aes_cfu");
  aesoc_rec_u64("failures", aesoc_check_failures);
  aesoc_rec_end();
  return aesoc_check_failures ? 1 : 0;
}
