/* SPDX-License-Identifier: Apache-2.0 */
/*
 * xip-exec benchmark: software AES-128 (swcrypto, T-tables in .rodata) and SHA-256 run where the
 * program is linked: from SRAM, or executing in place from the flash (code and tables in the
 * flash, data and stack in SRAM), plaintext or OTFAD-encrypted (aesoc/bench/xip_exec.py).
 *   cold: I-cache flushed, D-cache invalidated, XIP prefetch buffer flushed, then the timed call
 *   warm: the same call again right after (what the caches kept of the previous one)
 * Results are checked against FIPS-197 C.1 and the FIPS 180-4 two-block SHA-256 example.
 */
#include <string.h>

#include "aesoc.h"
#include "swcrypto.h"
#include "xip.h"

#define AES_BLOCKS 16u
#define WARM_RUNS 2

static const uint8_t aes_key[16] = {0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
                                    0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f};
static const uint8_t aes_pt[16] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                                   0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};
static const uint8_t aes_ct[16] = {0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30,
                                   0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a};
static const char sha_msg[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
static const uint8_t sha_digest[32] = {
    0x24, 0x8d, 0x6a, 0x61, 0xd2, 0x06, 0x38, 0xb8, 0xe5, 0xc0, 0x26, 0x93, 0x0c, 0x3e, 0x60, 0x39,
    0xa3, 0x3c, 0xe4, 0x59, 0x64, 0xff, 0x21, 0x67, 0xf6, 0xec, 0xed, 0xd4, 0x19, 0xdb, 0x06, 0xc1};

static uint8_t aes_in[16 * AES_BLOCKS], aes_out[16 * AES_BLOCKS];
static uint8_t digest[32];

/* Key expansion and ECB over AES_BLOCKS copies of the FIPS-197 block. */
static __attribute__((noinline)) int kernel_aes(void) {
  swc_aes_ctx ctx;
  if (swc_aes_setkey_enc(&ctx, aes_key, 128) != SWC_OK) return 0;
  return swc_aes_ecb_encrypt(&ctx, aes_in, aes_out, sizeof aes_in) == SWC_OK;
}

static __attribute__((noinline)) int kernel_sha256(void) {
  return swc_sha256((const uint8_t *)sha_msg, sizeof sha_msg - 1, digest) == SWC_OK;
}

static int aes_ok(void) {
  for (unsigned b = 0; b < AES_BLOCKS; b++) {
    if (memcmp(aes_out + 16 * b, aes_ct, 16) != 0) return 0;
  }
  return 1;
}

static int sha_ok(void) { return memcmp(digest, sha_digest, 32) == 0; }

static void record(const char *kernel, uint32_t bytes, const char *cache, uint32_t cycles, int ok) {
  aesoc_rec_begin("xip_exec");
  aesoc_rec_str("kernel", kernel);
  aesoc_rec_u64("bytes", bytes);
  aesoc_rec_str("cache", cache);
  aesoc_rec_u64("cycles", cycles);
  aesoc_rec_u64("ok", (uint64_t)ok);
  aesoc_rec_end();
}

static void measure(const char *name, uint32_t bytes, int (*kernel)(void), int (*check)(void)) {
  aesoc_icache_flush();
  aesoc_dcache_invalidate();
  xip_flush(AESOC_XIP_BASE);
  uint32_t t0 = aesoc_cycles32();
  int ok = kernel();
  uint32_t cold = aesoc_cycles32() - t0;
  record(name, bytes, "cold", cold, ok && check());
  uint32_t warm = 0;
  for (int i = 0; i < WARM_RUNS; i++) {
    memset(aes_out, 0, sizeof aes_out);
    memset(digest, 0, sizeof digest);
    t0 = aesoc_cycles32();
    ok = kernel();
    warm = aesoc_cycles32() - t0;
  }
  record(name, bytes, "warm", warm, ok && check());
}

int main(void) {
  for (unsigned b = 0; b < AES_BLOCKS; b++) memcpy(aes_in + 16 * b, aes_pt, 16);
  measure("aes128-ecb", sizeof aes_in, kernel_aes, aes_ok);
  measure("sha256", sizeof sha_msg - 1, kernel_sha256, sha_ok);
  aesoc_rec_begin("xip_exec_where");
  aesoc_rec_u64("code", (uintptr_t)&kernel_aes);
  aesoc_rec_str("aes_variant", swc_aes_variant());
  aesoc_rec_end();
  return 0;
}
