/* SPDX-License-Identifier: Apache-2.0 */
/* interfaces: AES-128 through each way the CPU can reach it, measured like Hodjat & Verbauwhede's
 * Table 1: one complete ECB block (key and data loaded from memory, result stored), one block
 * with the key already loaded, and 1 KB ECB and CBC streams. Every measurement runs twice and
 * the second (warm caches) is reported; every way's output is checked against the software one.
 * The warm 1 KB ECB stream of each way is marked as an activity window, in way order. */
#include <string.h>

#include "aes_cfu.h"
#include "aes_dev.h"
#include "aesoc.h"
#include "swcrypto.h"

#ifndef STREAM_BYTES /* the test suite's short run sets a shorter stream */
#define STREAM_BYTES 1024u
#endif
#define STREAM_BLOCKS (STREAM_BYTES / 16u)

static uint8_t key[16] __attribute__((aligned(4)));
static uint8_t iv[16] __attribute__((aligned(4)));
static uint8_t msg[STREAM_BYTES] __attribute__((aligned(32)));
static uint8_t out[STREAM_BYTES] __attribute__((aligned(32)));
static uint8_t ref_ecb[STREAM_BYTES] __attribute__((aligned(32)));
static uint8_t ref_cbc[STREAM_BYTES] __attribute__((aligned(32)));

static swc_aes_ctx swc;
static aes_dev_t dev;
static aes_cfu_t cfu;
static aes_zkn_key_t zkn;

typedef enum { WAY_SW, WAY_MMIO, WAY_CFU, WAY_ZKN, WAYS } way_t;
static const char *const WAY_NAME[WAYS] = {"software", "mmio", "cfu", "zkn"};

/* ---- one routine per way: set the key, encrypt n ECB blocks, encrypt n CBC blocks ---- */

static int set_key(way_t way, int cbc) {
  switch (way) {
    case WAY_SW:
      return swc_aes_setkey_enc(&swc, key, 128) == SWC_OK;
    case WAY_MMIO: {
      aes_dev_config_t cfg = {.mode = cbc ? AES_DEV_CBC : AES_DEV_ECB, .dir = AES_DEV_ENCRYPT, .key_len = 16};
      return aes_dev_setup(&dev, &cfg, key, cbc ? iv : NULL) == AES_DEV_OK;
    }
    case WAY_CFU:
      return aes_cfu_set_key(&cfu, key, 16, cbc ? AES_CFU_CBC : AES_CFU_ECB, AES_CFU_ENCRYPT) == AES_CFU_OK;
    default:
      return aes_zkn_expand_key(&zkn, key, 16, AES_CFU_ENCRYPT) == AES_CFU_OK;
  }
}

static int ecb(way_t way, const uint8_t *in, uint8_t *dst, size_t nblocks) {
  switch (way) {
    case WAY_SW:
      return swc_aes_ecb_encrypt(&swc, in, dst, 16 * nblocks) == SWC_OK;
    case WAY_MMIO:
      return aes_dev_crypt(&dev, in, dst, nblocks) == AES_DEV_OK;
    case WAY_CFU:
      return aes_cfu_crypt(&cfu, in, dst, nblocks) == AES_CFU_OK;
    default:
      for (size_t b = 0; b < nblocks; ++b) aes_zkn_encrypt_block(&zkn, in + 16 * b, dst + 16 * b);
      return 1;
  }
}

static int cbc(way_t way, const uint8_t *in, uint8_t *dst, size_t nblocks) {
  switch (way) {
    case WAY_SW: {
      uint8_t chain[16];
      memcpy(chain, iv, 16);
      return swc_aes_cbc_encrypt(&swc, chain, in, dst, 16 * nblocks) == SWC_OK;
    }
    case WAY_MMIO:
      return aes_dev_set_iv(&dev, iv) == AES_DEV_OK && aes_dev_crypt(&dev, in, dst, nblocks) == AES_DEV_OK;
    case WAY_CFU:
      return aes_cfu_set_iv(&cfu, iv) == AES_CFU_OK && aes_cfu_crypt(&cfu, in, dst, nblocks) == AES_CFU_OK;
    default: {
      uint32_t x[4] __attribute__((aligned(4)));
      memcpy(x, iv, 16);
      for (size_t b = 0; b < nblocks; ++b) {
        const uint32_t *p = (const uint32_t *)(in + 16 * b);
        x[0] ^= p[0];
        x[1] ^= p[1];
        x[2] ^= p[2];
        x[3] ^= p[3];
        aes_zkn_encrypt_block(&zkn, x, x);
        memcpy(dst + 16 * b, x, 16);
      }
      return 1;
    }
  }
}

static void emit(way_t way, const char *what, uint32_t cycles, unsigned blocks, int ok) {
  aesoc_rec_begin("interfaces");
  aesoc_rec_str("way", WAY_NAME[way]);
  aesoc_rec_str("measure", what);
  aesoc_rec_u64("cycles", cycles);
  aesoc_rec_u64("blocks", blocks);
  aesoc_rec_u64("ok", (uint64_t)ok);
  aesoc_rec_end();
  AESOC_CHECK(ok);
}

static void measure(way_t way) {
  uint32_t t0, t1 = 0;
  int ok = 1;
  /* Complete: key and one block from memory, result to memory. Twice, the second is warm. */
  for (int pass = 0; pass < 2; ++pass) {
    t0 = aesoc_cycles32();
    ok = set_key(way, 0);
    if (way == WAY_MMIO) aes_dev_block(&dev, msg, out);
    else if (way == WAY_CFU) aes_cfu_block(msg, out);
    else ok = ok && ecb(way, msg, out, 1);
    t1 = aesoc_cycles32() - t0;
  }
  emit(way, "complete", t1, 1, ok && memcmp(out, ref_ecb, 16) == 0);

  /* Key loaded: one block from memory to memory, through each driver's single-block path (the
   * inline fast paths for the two coprocessor drivers, timed without any call around them). */
  for (int pass = 0; pass < 2; ++pass) {
    if (way == WAY_MMIO) {
      t0 = aesoc_cycles32();
      aes_dev_block(&dev, msg, out);
      t1 = aesoc_cycles32() - t0;
    } else if (way == WAY_CFU) {
      t0 = aesoc_cycles32();
      aes_cfu_block(msg, out);
      t1 = aesoc_cycles32() - t0;
    } else {
      t0 = aesoc_cycles32();
      ok = ecb(way, msg, out, 1);
      t1 = aesoc_cycles32() - t0;
    }
  }
  emit(way, "key_loaded", t1, 1, ok && memcmp(out, ref_ecb, 16) == 0);

  /* The warm pass is also an activity window: the activity model counts the toggles of these
   * STREAM_BLOCKS blocks (the marks sit outside the timed section). */
  for (int pass = 0; pass < 2; ++pass) {
    if (pass) aesoc_activity_begin();
    t0 = aesoc_cycles32();
    ok = ecb(way, msg, out, STREAM_BLOCKS);
    t1 = aesoc_cycles32() - t0;
    if (pass) aesoc_activity_end();
  }
  emit(way, "ecb_1k", t1, STREAM_BLOCKS, ok && memcmp(out, ref_ecb, STREAM_BYTES) == 0);

  ok = set_key(way, 1);
  for (int pass = 0; pass < 2; ++pass) {
    t0 = aesoc_cycles32();
    ok = cbc(way, msg, out, STREAM_BLOCKS) && ok;
    t1 = aesoc_cycles32() - t0;
  }
  emit(way, "cbc_1k", t1, STREAM_BLOCKS, ok && memcmp(out, ref_cbc, STREAM_BYTES) == 0);
}

int main(void) {
  uint32_t seed = 0x600DF00Du;
  for (unsigned i = 0; i < 16; ++i) key[i] = (uint8_t)aesoc_xorshift32(&seed);
  for (unsigned i = 0; i < 16; ++i) iv[i] = (uint8_t)aesoc_xorshift32(&seed);
  for (unsigned i = 0; i < STREAM_BYTES; ++i) msg[i] = (uint8_t)aesoc_xorshift32(&seed);
  aes_dev_init(&dev, AESOC_AES_BASE);
  aes_cfu_init(&cfu);
  AESOC_CHECK(swc_aes_init() == SWC_OK);

  /* The software result is the reference every other way must match; pytest checks it
   * against the cryptography package. */
  AESOC_CHECK(set_key(WAY_SW, 0) && ecb(WAY_SW, msg, ref_ecb, STREAM_BLOCKS));
  AESOC_CHECK(cbc(WAY_SW, msg, ref_cbc, STREAM_BLOCKS));
  aesoc_rec_begin("interfaces_ref");
  aesoc_rec_str("variant", swc_aes_variant());
  aesoc_rec_hex("ecb_first", ref_ecb, 16);
  aesoc_rec_hex("cbc_last", ref_cbc + STREAM_BYTES - 16, 16);
  aesoc_rec_end();

  for (way_t way = WAY_SW; way < WAYS; ++way) measure(way);
  return aesoc_check_failures ? 1 : 0;
}
