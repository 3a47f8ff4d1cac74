/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gcm: AES-128-GCM messages through the memory-mapped AES peripheral, timed phase by phase.
 * Paths: "mmio" (aes_dev_gcm_*: the CPU moves every block), "dma" (aes_dma_gcm_blocks: the
 * payload's whole blocks moved by two DMA channels, synchronous, between aes_dev_gcm_aad and
 * aes_dev_gcm_finish) and "dma-queued" (one aes_dma_submit request per message, completion by
 * polling). Operations: encrypt, decrypt with the tag check, and GMAC (the message as AAD).
 * Each measurement is the second of two identical runs (warm caches).
 *
 * Checks: one reference encryption of the largest message is recorded whole (plaintext,
 * ciphertext, tag) for an AESGCM check in pytest/the benchmark; every timed encryption's output
 * is compared with that reference here, and its tag recorded for the same check; every
 * decryption must verify and give back the plaintext; a forged tag must be refused.
 */
#include <string.h>

#include "aes_dma.h"
#include "aes_regs.h"
#include "aesoc.h"
#include "aesoc_dma.h"

#ifdef GCM_SMOKE /* the test suite's short run */
static const unsigned SIZES[] = {16, 1024};
#define MAX_BYTES 1024u
#else
static const unsigned SIZES[] = {16, 64, 256, 1024, 16384};
#define MAX_BYTES 16384u
#endif
#define NUM_SIZES (sizeof SIZES / sizeof SIZES[0])
#define AAD_BYTES 16u /* one AAD block per message (a TLS record header, padded) */
#define KEY_BYTES 16u
#define CH_IN 0u
#define CH_OUT 1u
#define WAIT_POLLS 1000000u

/* Source and reference in bank 0, destination in bank 1: the DMA's two masters on different banks. */
static uint8_t src[MAX_BYTES] __attribute__((aligned(32)));
static uint8_t ref_ct[MAX_BYTES] __attribute__((aligned(32)));
static uint8_t dst[MAX_BYTES] __attribute__((aligned(32), section(".sram1")));
static uint8_t key[KEY_BYTES] __attribute__((aligned(4)));
static uint8_t iv[12] __attribute__((aligned(4)));
static uint8_t aad[AAD_BYTES] __attribute__((aligned(4)));

static aes_dev_t aes;
static dma_t dma;
static aes_dma_t eng;
static aes_dma_key_t dkey;

typedef enum { PATH_MMIO, PATH_DMA, PATH_QUEUED } path_t;
static const char *const PATH_NAMES[] = {"mmio", "dma", "dma-queued"};
typedef enum { OP_ENC, OP_DEC, OP_GMAC } op_t;
static const char *const OP_NAMES[] = {"encrypt", "decrypt", "gmac"};

/* Cycle stamps of one message: begin (clear, key load, IV, start), AAD, text, final (length
 * block, tag or its check). The queued path has only the total. */
typedef struct {
  uint32_t begin, aad, text, final, total;
  int result; /* 0, or the step that failed */
  uint8_t tag[16];
} timing_t;

/* One message by the CPU (path mmio) or with the text blocks by the DMA (path dma). */
static timing_t run_dev(path_t path, op_t op, const uint8_t *in, uint8_t *out, size_t len, const uint8_t *tag) {
  timing_t t = {0};
  aes_dev_dir_t dir = op == OP_DEC ? AES_DEV_DECRYPT : AES_DEV_ENCRYPT;
  const uint8_t *a = op == OP_GMAC ? in : aad;
  size_t a_len = op == OP_GMAC ? len : AAD_BYTES, t_len = op == OP_GMAC ? 0 : len;
  uint32_t c0 = aesoc_cycles32();
  if (aes_dev_gcm_begin(&aes, dir, key, KEY_BYTES, iv, sizeof iv) != AES_DEV_OK) t.result = 1;
  uint32_t c1 = aesoc_cycles32();
  if (!t.result && aes_dev_gcm_aad(&aes, a, a_len) != AES_DEV_OK) t.result = 2;
  uint32_t c2 = aesoc_cycles32();
  if (!t.result && t_len) {
    if (path == PATH_DMA) {
      if (aes_dma_gcm_blocks(&eng, in, out, t_len, WAIT_POLLS) != AES_DMA_OK) t.result = 3;
    } else if (aes_dev_gcm_update(&aes, in, out, t_len) != AES_DEV_OK) {
      t.result = 3;
    }
  }
  uint32_t c3 = aesoc_cycles32();
  if (!t.result) {
    if (op == OP_DEC) {
      if (aes_dev_gcm_verify(&aes, tag, 16) != AES_DEV_OK) t.result = 4;
    } else if (aes_dev_gcm_finish(&aes, t.tag, 16) != AES_DEV_OK) {
      t.result = 4;
    }
  }
  uint32_t c4 = aesoc_cycles32();
  t.begin = c1 - c0;
  t.aad = c2 - c1;
  t.text = c3 - c2;
  t.final = c4 - c3;
  t.total = c4 - c0;
  return t;
}

/* One message as a queued request, submit to completion (polling). */
static timing_t run_queued(op_t op, const uint8_t *in, uint8_t *out, size_t len, const uint8_t *tag) {
  timing_t t = {0};
  aes_dma_req_t req = {.key = &dkey, .mode = AES_DEV_GCM, .dir = op == OP_DEC ? AES_DEV_DECRYPT : AES_DEV_ENCRYPT,
                       .src = in, .dst = out, .len = len,
                       .gcm = {.aad = aad, .aad_len = AAD_BYTES, .tag_len = 16}};
  memcpy(req.iv, iv, sizeof iv);
  if (op == OP_DEC) memcpy(req.gcm.tag, tag, 16);
  uint32_t c0 = aesoc_cycles32();
  aes_dma_result_t r = aes_dma_submit(&eng, &req);
  if (r == AES_DMA_PENDING) r = aes_dma_wait(&eng, &req, WAIT_POLLS);
  t.total = aesoc_cycles32() - c0;
  t.result = r == AES_DMA_OK ? 0 : 10 + (int)r;
  memcpy(t.tag, req.gcm.tag, 16);
  return t;
}

static timing_t run_once(path_t path, op_t op, const uint8_t *in, uint8_t *out, size_t len, const uint8_t *tag) {
  return path == PATH_QUEUED ? run_queued(op, in, out, len, tag) : run_dev(path, op, in, out, len, tag);
}

static void record(path_t path, op_t op, size_t len, const timing_t *t) {
  aesoc_rec_begin("gcm");
  aesoc_rec_str("path", PATH_NAMES[path]);
  aesoc_rec_str("op", OP_NAMES[op]);
  aesoc_rec_u64("bytes", len);
  aesoc_rec_u64("aad_bytes", op == OP_GMAC ? len : AAD_BYTES);
  aesoc_rec_u64("total", t->total);
  if (path != PATH_QUEUED) {
    aesoc_rec_u64("begin", t->begin);
    aesoc_rec_u64("aad", t->aad);
    aesoc_rec_u64("text", t->text);
    aesoc_rec_u64("final", t->final);
  }
  if (op != OP_DEC) aesoc_rec_hex("tag", t->tag, 16);
  aesoc_rec_u64("ok", t->result == 0);
  aesoc_rec_end();
}

/* The reference message, encrypted by the CPU path and recorded whole. */
static void reference(void) {
  timing_t t = run_dev(PATH_MMIO, OP_ENC, src, ref_ct, MAX_BYTES, NULL);
  AESOC_CHECK(t.result == 0);
  aesoc_rec_begin("gcm_reference");
  aesoc_rec_hex("key", key, KEY_BYTES);
  aesoc_rec_hex("iv", iv, sizeof iv);
  aesoc_rec_hex("aad", aad, AAD_BYTES);
  aesoc_rec_hex("pt", src, MAX_BYTES);
  aesoc_rec_hex("ct", ref_ct, MAX_BYTES);
  aesoc_rec_hex("tag", t.tag, 16);
  aesoc_rec_end();
}

static void measure(path_t path, size_t len) {
  timing_t enc = {0}, dec = {0};
  for (unsigned rep = 0; rep < 2; ++rep) {
    memset(dst, 0, len);
    enc = run_once(path, OP_ENC, src, dst, len, NULL);
  }
  AESOC_CHECK(enc.result == 0 && memcmp(dst, ref_ct, len) == 0);
  record(path, OP_ENC, len, &enc);
  for (unsigned rep = 0; rep < 2; ++rep) {
    memset(dst, 0, len);
    dec = run_once(path, OP_DEC, ref_ct, dst, len, enc.tag);
  }
  AESOC_CHECK(dec.result == 0 && memcmp(dst, src, len) == 0);
  record(path, OP_DEC, len, &dec);
  /* A forged tag: refused, whatever the path. */
  uint8_t forged[16] __attribute__((aligned(4)));
  memcpy(forged, enc.tag, 16);
  forged[len % 16u] ^= 0x01u;
  timing_t bad = run_once(path, OP_DEC, ref_ct, dst, len, forged);
  AESOC_CHECK(bad.result != 0);
}

int main(void) {
  uint32_t s = 0x510E527Fu;
  for (unsigned i = 0; i < MAX_BYTES / 4; ++i) ((uint32_t *)src)[i] = aesoc_xorshift32(&s);
  for (unsigned i = 0; i < KEY_BYTES; ++i) key[i] = (uint8_t)aesoc_xorshift32(&s);
  for (unsigned i = 0; i < sizeof iv; ++i) iv[i] = (uint8_t)aesoc_xorshift32(&s);
  for (unsigned i = 0; i < AAD_BYTES; ++i) aad[i] = (uint8_t)aesoc_xorshift32(&s);
  aes_dev_init(&aes, AESOC_AES_BASE);
  dma_init(&dma, AESOC_DMA_BASE);
  aes_dma_opts_t o = aes_dma_default_opts();
  o.burst = 4; /* the dma-aes benchmark's default configuration */
  o.fifo_words = 16;
  o.platform = &aesoc_aes_dma_platform;
  AESOC_CHECK(aes_dma_init(&eng, &aes, &dma, CH_IN, CH_OUT, &o) == AES_DMA_OK);
  AESOC_CHECK(aes_dma_key_set(&dkey, key, KEY_BYTES) == AES_DMA_OK);
  uint32_t hwcfg = *(volatile uint32_t *)(AESOC_AES_BASE + offsetof(aes_periph_t, HWCFG));
  aesoc_rec_begin("gcm_engine");
  aesoc_rec_u64("rounds_per_cycle",
                (hwcfg & AES_PERIPH__HWCFG__ROUNDS_PER_CYCLE_bm) >> AES_PERIPH__HWCFG__ROUNDS_PER_CYCLE_bp);
  aesoc_rec_u64("pipelined", (hwcfg & AES_PERIPH__HWCFG__PIPELINED_bm) != 0);
  aesoc_rec_u64("ghash_bits", (hwcfg & AES_PERIPH__HWCFG__GHASH_BITS_bm) >> AES_PERIPH__HWCFG__GHASH_BITS_bp);
  aesoc_rec_end();
  reference();
  for (unsigned si = 0; si < NUM_SIZES; ++si) {
    for (unsigned p = PATH_MMIO; p <= PATH_QUEUED; ++p) measure((path_t)p, SIZES[si]);
    timing_t mac = {0};
    for (unsigned rep = 0; rep < 2; ++rep) mac = run_dev(PATH_MMIO, OP_GMAC, src, NULL, SIZES[si], NULL);
    AESOC_CHECK(mac.result == 0);
    record(PATH_MMIO, OP_GMAC, SIZES[si], &mac);
  }
  AESOC_CHECK(aes_dev_clear(&aes) == AES_DEV_OK);
  aes_dma_key_wipe(&dkey);
  return aesoc_check_failures ? 1 : 0;
}
