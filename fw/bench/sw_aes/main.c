/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sw-aes benchmark: cycles of the swcrypto AES variant this program is built with (-DSWC_AES_*)
 * for each key size: table set-up, key expansion, one block, 1 KB in ECB/CBC/CTR. "warm" figures
 * repeat the identical call and keep the last; "cold" ones invalidate the D-cache and flush the
 * I-cache first. The counter-read overhead is subtracted from every window.
 * -DSW_AES_ENC_ONLY leaves out every decryption call: the program a user who only encrypts (CTR,
 * CBC/ECB encryption) would link, to measure what the linker drops.
 */
#include <string.h>

#include "swcrypto.h"
#include "aesoc.h"

#define BUF_BYTES 1024u
#define WARM_REPEATS 3
/* Key sizes measured, from 128 bits up: -DSW_AES_KEY_SIZES=1 keeps slow runs (XIP) to AES-128. */
#ifndef SW_AES_KEY_SIZES
#define SW_AES_KEY_SIZES 3
#endif

static uint8_t buf_in[BUF_BYTES] __attribute__((aligned(32)));
static uint8_t buf_out[BUF_BYTES] __attribute__((aligned(32)));
static swc_aes_ctx enc;
#ifndef SW_AES_ENC_ONLY
static swc_aes_ctx dec;
#endif
static uint32_t overhead;

static void emit(unsigned bits, const char *metric, uint32_t cycles, uint32_t bytes) {
  aesoc_rec_begin("sw_aes");
  aesoc_rec_str("variant", swc_aes_variant());
  aesoc_rec_u64("bits", bits);
  aesoc_rec_str("metric", metric);
  aesoc_rec_u64("cycles", cycles);
  aesoc_rec_u64("bytes", bytes);
  aesoc_rec_end();
}

static void cold(void) {
  aesoc_dcache_invalidate();
  aesoc_icache_flush();
}

typedef swc_result (*bulk_fn)(const swc_aes_ctx *ctx, uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len);

static swc_result ecb_enc(const swc_aes_ctx *ctx, uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len) {
  (void)iv;
  return swc_aes_ecb_encrypt(ctx, in, out, len);
}
#ifndef SW_AES_ENC_ONLY
static swc_result ecb_dec(const swc_aes_ctx *ctx, uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len) {
  (void)iv;
  return swc_aes_ecb_decrypt(ctx, in, out, len);
}
#endif

/* Time one bulk call on 1 KB; the IV/counter restarts from the same value every time. */
static uint32_t time_bulk(bulk_fn fn, const swc_aes_ctx *ctx, int is_cold) {
  uint8_t iv[16];
  uint32_t cycles = 0;
  for (int i = 0; i < (is_cold ? 1 : WARM_REPEATS); ++i) {
    memset(iv, 0xa5, sizeof iv);
    if (is_cold) cold();
    uint32_t t0 = aesoc_cycles32();
    swc_result r = fn(ctx, iv, buf_in, buf_out, BUF_BYTES);
    uint32_t t1 = aesoc_cycles32();
    AESOC_CHECK(r == SWC_OK);
    cycles = t1 - t0 - overhead;
  }
  return cycles;
}

int main(void) {
  static const uint8_t key[32] = {0x60, 0x3d, 0xeb, 0x10, 0x15, 0xca, 0x71, 0xbe, 0x2b, 0x73, 0xae,
                                  0xf0, 0x85, 0x7d, 0x77, 0x81, 0x1f, 0x35, 0x2c, 0x07, 0x3b, 0x61,
                                  0x08, 0xd7, 0x2d, 0x98, 0x10, 0xa3, 0x09, 0x14, 0xdf, 0xf4};
  uint32_t a = aesoc_cycles32();
  uint32_t b = aesoc_cycles32();
  overhead = b - a;
  for (unsigned i = 0; i < BUF_BYTES; ++i) buf_in[i] = (uint8_t)(i * 13u + 7u);

  /* Global table set-up (the run-time T-tables; nothing for the other variants), first call. */
  cold();
  uint32_t t0 = aesoc_cycles32();
  AESOC_CHECK(swc_aes_init() == SWC_OK);
  emit(0, "init", aesoc_cycles32() - t0 - overhead, 0);

  aesoc_rec_begin("sw_aes_ctx");
  aesoc_rec_u64("ctx_bytes", sizeof(swc_aes_ctx));
  aesoc_rec_end();

  static const unsigned sizes[3] = {128, 192, 256};
  for (int s = 0; s < SW_AES_KEY_SIZES; ++s) {
    unsigned bits = sizes[s];
    uint32_t c = 0;
    for (int i = 0; i < WARM_REPEATS; ++i) {
      t0 = aesoc_cycles32();
      AESOC_CHECK(swc_aes_setkey_enc(&enc, key, bits) == SWC_OK);
      c = aesoc_cycles32() - t0 - overhead;
    }
    emit(bits, "key_enc", c, 0);
#ifndef SW_AES_ENC_ONLY
    for (int i = 0; i < WARM_REPEATS; ++i) {
      t0 = aesoc_cycles32();
      AESOC_CHECK(swc_aes_setkey_dec(&dec, key, bits) == SWC_OK);
      c = aesoc_cycles32() - t0 - overhead;
    }
    emit(bits, "key_dec", c, 0);
#endif

    for (int i = 0; i < WARM_REPEATS; ++i) {
      t0 = aesoc_cycles32();
      AESOC_CHECK(swc_aes_encrypt_block(&enc, buf_in, buf_out) == SWC_OK);
      c = aesoc_cycles32() - t0 - overhead;
    }
    emit(bits, "enc_block", c, 16);
#ifndef SW_AES_ENC_ONLY
    for (int i = 0; i < WARM_REPEATS; ++i) {
      t0 = aesoc_cycles32();
      AESOC_CHECK(swc_aes_decrypt_block(&dec, buf_out, buf_out + 16) == SWC_OK);
      c = aesoc_cycles32() - t0 - overhead;
    }
    emit(bits, "dec_block", c, 16);
    AESOC_CHECK(memcmp(buf_out + 16, buf_in, 16) == 0);
#endif

    emit(bits, "ctr", time_bulk(swc_aes_ctr, &enc, 0), BUF_BYTES);
    emit(bits, "ctr_cold", time_bulk(swc_aes_ctr, &enc, 1), BUF_BYTES);
    emit(bits, "cbc_enc", time_bulk(swc_aes_cbc_encrypt, &enc, 0), BUF_BYTES);
    emit(bits, "ecb_enc", time_bulk(ecb_enc, &enc, 0), BUF_BYTES);
#ifndef SW_AES_ENC_ONLY
    emit(bits, "cbc_dec", time_bulk(swc_aes_cbc_decrypt, &dec, 0), BUF_BYTES);
    emit(bits, "ecb_dec", time_bulk(ecb_dec, &dec, 0), BUF_BYTES);
#endif
  }
  return aesoc_check_failures != 0;
}
