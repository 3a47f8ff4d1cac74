/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mbedtls-style benchmark: like mbedtls_benchmark's SHA and AES-CBC lines, each algorithm over a
 * 1 KB buffer (hashes one-shot, padding included; AES-CBC encryption with the key set once),
 * timed with warm caches (the identical call repeated, the last one kept). The AES variant is
 * the one this program is built with (-DSWC_AES_*); the counter-read overhead is subtracted.
 */
#include "swcrypto.h"
#include "aesoc.h"

#define BUF_BYTES 1024u
#define REPEATS 3

static uint8_t buf[BUF_BYTES] __attribute__((aligned(32)));
static uint8_t out[BUF_BYTES] __attribute__((aligned(32)));
static uint32_t overhead;

static void emit(const char *alg, uint32_t cycles) {
  aesoc_rec_begin("mbedtls_style");
  aesoc_rec_str("alg", alg);
  aesoc_rec_str("variant", swc_aes_variant());
  aesoc_rec_u64("bytes", BUF_BYTES);
  aesoc_rec_u64("cycles", cycles);
  aesoc_rec_end();
}

#define TIME(alg, call)                              \
  do {                                               \
    uint32_t c_ = 0;                                 \
    for (int i_ = 0; i_ < REPEATS; ++i_) {           \
      uint32_t t0_ = aesoc_cycles32();               \
      swc_result r_ = (call);                        \
      uint32_t t1_ = aesoc_cycles32();               \
      AESOC_CHECK(r_ == SWC_OK);                     \
      c_ = t1_ - t0_ - overhead;                     \
    }                                                \
    emit(alg, c_);                                   \
  } while (0)

int main(void) {
  static const uint8_t key[32] = {0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15,
                                  0x88, 0x09, 0xcf, 0x4f, 0x3c, 0x76, 0x2e, 0x71, 0x60, 0xf3, 0x8b,
                                  0x4d, 0xa5, 0x6a, 0x78, 0x4d, 0x90, 0x45, 0x19, 0x0c, 0xfe};
  uint8_t digest[SWC_SHA512_BYTES], iv[16] = {0};
  swc_aes_ctx ctx;
  uint32_t a = aesoc_cycles32();
  uint32_t b = aesoc_cycles32();
  overhead = b - a;
  for (unsigned i = 0; i < BUF_BYTES; ++i) buf[i] = (uint8_t)(i * 29u + 3u);

  TIME("SHA-1", swc_sha1(buf, BUF_BYTES, digest));
  TIME("SHA-256", swc_sha256(buf, BUF_BYTES, digest));
  TIME("SHA-512", swc_sha512(buf, BUF_BYTES, digest));
  AESOC_CHECK(swc_aes_init() == SWC_OK);
  AESOC_CHECK(swc_aes_setkey_enc(&ctx, key, 128) == SWC_OK);
  TIME("AES-CBC-128", swc_aes_cbc_encrypt(&ctx, iv, buf, out, BUF_BYTES));
  AESOC_CHECK(swc_aes_setkey_enc(&ctx, key, 192) == SWC_OK);
  TIME("AES-CBC-192", swc_aes_cbc_encrypt(&ctx, iv, buf, out, BUF_BYTES));
  AESOC_CHECK(swc_aes_setkey_enc(&ctx, key, 256) == SWC_OK);
  TIME("AES-CBC-256", swc_aes_cbc_encrypt(&ctx, iv, buf, out, BUF_BYTES));
  return aesoc_check_failures != 0;
}
