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
#include "aesoc_vectors.h"
#include "swcrypto.h"
#include "xip.h"

#define AES_BLOCKS 16u
#define WARM_RUNS 2


static uint8_t aes_in[16 * AES_BLOCKS], aes_out[16 * AES_BLOCKS];
static uint8_t digest[32];

/* Key expansion and ECB over AES_BLOCKS copies of the FIPS-197 block. */
static __attribute__((noinline)) int kernel_aes(void) {
  swc_aes_ctx ctx;
  if (swc_aes_setkey_enc(&ctx, AESOC_FIPS197_KEY, 128) != SWC_OK) return 0;
  return swc_aes_ecb_encrypt(&ctx, aes_in, aes_out, sizeof aes_in) == SWC_OK;
}

static __attribute__((noinline)) int kernel_sha256(void) {
  return swc_sha256((const uint8_t *)AESOC_SHA256_MSG, sizeof AESOC_SHA256_MSG - 1, digest) == SWC_OK;
}

static int aes_ok(void) {
  for (unsigned b = 0; b < AES_BLOCKS; b++) {
    if (memcmp(aes_out + 16 * b, AESOC_FIPS197_CT[0], 16) != 0) return 0;
  }
  return 1;
}

static int sha_ok(void) { return memcmp(digest, AESOC_SHA256_DIGEST, 32) == 0; }

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
  for (unsigned b = 0; b < AES_BLOCKS; b++) memcpy(aes_in + 16 * b, AESOC_FIPS197_PT, 16);
  measure("aes128-ecb", sizeof aes_in, kernel_aes, aes_ok);
  measure("sha256", sizeof AESOC_SHA256_MSG - 1, kernel_sha256, sha_ok);
  aesoc_rec_begin("xip_exec_where");
  aesoc_rec_u64("code", (uintptr_t)&kernel_aes);
  aesoc_rec_str("aes_variant", swc_aes_variant());
  aesoc_rec_end();
  return 0;
}
