/* SPDX-License-Identifier: Apache-2.0 */
/* AES-GCM with the payload's whole blocks moved by two DMA channels. Part 1: aes_dma_gcm_blocks
 * (synchronous) between aes_dev's AAD and finish calls. Part 2: GCM as queued aes_dma requests,
 * several in the queue at once (mixed with a CTR request), completion by polling and by
 * interrupt, a forged tag (TAG_MISMATCH, destination zeroed), and the argument checks. Part 3:
 * one request path for every length, 0 (GMAC) included: text below opts.gcm_dma_min by the CPU
 * within the request, longer text by the channels, a short request queued behind a long one.
 * Every ciphertext and tag is recorded for an AESGCM check in pytest; every message is decrypted
 * back with its tag verified. */
#include <string.h>

#include "aes_dma.h"
#include "aesoc.h"
#include "aesoc_dma.h"

#define MESSAGES 4
#define MAX_LEN 1040
#define QUEUED 4 /* GCM requests in the queue at once */
#define Q_MAX 300

static uint8_t src[MAX_LEN] __attribute__((aligned(16), section(".sram1")));
static uint8_t dst[MAX_LEN] __attribute__((aligned(16)));
static uint8_t back[MAX_LEN] __attribute__((aligned(16)));

static aes_dev_t aes;
static dma_t dma;
static aes_dma_t eng;

/* Part 2's buffers: each queued request has its own. */
static uint8_t q_pt[QUEUED][Q_MAX] __attribute__((aligned(16)));
static uint8_t q_ct[QUEUED][Q_MAX] __attribute__((aligned(16), section(".sram1")));
static uint8_t q_back[QUEUED][Q_MAX] __attribute__((aligned(16)));
static uint8_t q_aad[QUEUED][48] __attribute__((aligned(4)));
static uint8_t ctr_buf[64] __attribute__((aligned(16)));
static aes_dma_req_t q_req[QUEUED + 1];
static aes_dma_key_t q_key[2];
static volatile unsigned completions;

void aesoc_external_irq(uint32_t pending) {
  if (pending & (1u << AESOC_IRQ_DMA)) aes_dma_irq(&eng);
}

static void done_cb(aes_dma_req_t *req) {
  (void)req;
  ++completions;
}

static void fill(uint8_t *p, size_t n, uint32_t *seed) {
  for (size_t i = 0; i < n; ++i) p[i] = (uint8_t)aesoc_xorshift32(seed);
}

/* One message: whole blocks by DMA, the rest by the CPU. */
static int run(aes_dev_dir_t dir, const uint8_t *key, unsigned key_len, const uint8_t *iv, const uint8_t *aad,
               size_t aad_len, const uint8_t *in, uint8_t *out, size_t len, uint8_t *tag) {
  size_t whole = len / 16u * 16u;
  if (aes_dev_gcm_begin(&aes, dir, key, key_len, iv, 12) != AES_DEV_OK) return -1;
  if (aes_dev_gcm_aad(&aes, aad, aad_len) != AES_DEV_OK) return -2;
  if (whole && aes_dma_gcm_blocks(&eng, in, out, whole, DMA_WAIT_BOUND) != AES_DMA_OK) return -3;
  if (aes_dev_gcm_update(&aes, in + whole, out + whole, len - whole) != AES_DEV_OK) return -4;
  if (dir == AES_DEV_ENCRYPT) return aes_dev_gcm_finish(&aes, tag, 16) == AES_DEV_OK ? 0 : -5;
  return aes_dev_gcm_verify(&aes, tag, 16) == AES_DEV_OK ? 0 : -6;
}

/* A GCM request on buffer set i (key object i % 2, IV from the seed). */
static void gcm_req(unsigned i, aes_dev_dir_t dir, const void *in, void *out, size_t len, size_t aad_len,
                    uint32_t *seed) {
  aes_dma_req_t *r = &q_req[i];
  *r = (aes_dma_req_t){.key = &q_key[i % 2u], .mode = AES_DEV_GCM, .dir = dir, .src = in, .dst = out, .len = len,
                       .complete = done_cb, .gcm = {.aad = q_aad[i], .aad_len = aad_len, .tag_len = 16}};
  for (unsigned w = 0; w < 3; ++w) r->iv[w] = aesoc_xorshift32(seed);
}

/* Submit QUEUED GCM requests (and a CTR one in the middle) back to back, then wait for all. */
static void queued_round(bool irq, uint32_t *seed) {
  static const size_t lens[QUEUED] = {16, 300, 64, 129};
  aes_dma_opts_t o = aes_dma_default_opts();
  o.platform = &aesoc_aes_dma_platform;
  o.use_irq = irq;
  o.burst = 4;
  o.fifo_words = 16;
  o.gcm_dma_min = 0; /* every length through the channels: this round tests the queued DMA path */
  o.dma_min = 0;
  AESOC_CHECK(aes_dma_set_opts(&eng, &o) == AES_DMA_OK);
  size_t aad_len[QUEUED];
  for (unsigned i = 0; i < QUEUED; ++i) {
    aad_len[i] = aesoc_xorshift32(seed) % sizeof q_aad[i];
    fill(q_aad[i], aad_len[i], seed);
    fill(q_pt[i], lens[i], seed);
  }
  uint32_t ivs[QUEUED][3];
  completions = 0;
  if (irq) aesoc_irq_enable_global();
  unsigned submitted = 0;
  for (unsigned i = 0; i < QUEUED; ++i) {
    gcm_req(i, AES_DEV_ENCRYPT, q_pt[i], q_ct[i], lens[i], aad_len[i], seed);
    memcpy(ivs[i], q_req[i].iv, 12);
    AESOC_CHECK(aes_dma_submit(&eng, &q_req[i]) == AES_DMA_PENDING);
    ++submitted;
    if (i == 1) { /* another mode between GCM requests, same key object as request 1 */
      q_req[QUEUED] = (aes_dma_req_t){.key = &q_key[1], .mode = AES_DEV_CTR, .dir = AES_DEV_ENCRYPT,
                                      .ctr_width = AES_DEV_CTR128, .src = ctr_buf, .dst = ctr_buf, .len = 64,
                                      .complete = done_cb};
      AESOC_CHECK(aes_dma_submit(&eng, &q_req[QUEUED]) == AES_DMA_PENDING);
      ++submitted;
    }
  }
  for (unsigned i = 0; i < QUEUED; ++i) AESOC_CHECK(aes_dma_wait(&eng, &q_req[i], DMA_WAIT_BOUND) == AES_DMA_OK);
  AESOC_CHECK(aes_dma_wait(&eng, &q_req[QUEUED], DMA_WAIT_BOUND) == AES_DMA_OK);
  AESOC_CHECK(completions == submitted);
  for (unsigned i = 0; i < QUEUED; ++i) {
    aesoc_rec_begin("aes_gcm_dma_queued");
    aesoc_rec_u64("irq", irq);
    aesoc_rec_hex("key", q_key[i % 2u].words, q_key[i % 2u].len);
    aesoc_rec_hex("iv", ivs[i], 12);
    aesoc_rec_hex("aad", q_aad[i], aad_len[i]);
    aesoc_rec_hex("pt", q_pt[i], lens[i]);
    aesoc_rec_hex("ct", q_ct[i], lens[i]);
    aesoc_rec_hex("tag", q_req[i].gcm.tag, 16);
    aesoc_rec_end();
  }
  /* Decrypt every message back, all queued; the last one with a forged tag. */
  uint8_t tags[QUEUED][16];
  for (unsigned i = 0; i < QUEUED; ++i) memcpy(tags[i], q_req[i].gcm.tag, 16);
  completions = 0;
  for (unsigned i = 0; i < QUEUED; ++i) {
    uint32_t unused = 0;
    gcm_req(i, AES_DEV_DECRYPT, q_ct[i], q_back[i], lens[i], aad_len[i], &unused);
    memcpy(q_req[i].iv, ivs[i], 12);
    memcpy(q_req[i].gcm.tag, tags[i], 16);
    if (i == QUEUED - 1) q_req[i].gcm.tag[3] ^= 0x80u;
    AESOC_CHECK(aes_dma_submit(&eng, &q_req[i]) == AES_DMA_PENDING);
  }
  for (unsigned i = 0; i < QUEUED; ++i) {
    aes_dma_result_t r = aes_dma_wait(&eng, &q_req[i], DMA_WAIT_BOUND);
    if (i == QUEUED - 1) {
      static const uint8_t zero[Q_MAX];
      AESOC_CHECK(r == AES_DMA_TAG_MISMATCH && memcmp(q_back[i], zero, lens[i]) == 0);
    } else {
      AESOC_CHECK(r == AES_DMA_OK && memcmp(q_back[i], q_pt[i], lens[i]) == 0);
    }
  }
  AESOC_CHECK(completions == QUEUED);
  if (irq) aesoc_irq_disable_global();
}

/* Requests the queue must refuse, before anything is queued. */
static void queued_bad_args(void) {
  uint32_t seed = 1;
  gcm_req(0, AES_DEV_ENCRYPT, NULL, q_ct[0], 5, 0, &seed); /* text without a source */
  AESOC_CHECK(aes_dma_submit(&eng, &q_req[0]) == AES_DMA_BAD_ARG);
  gcm_req(0, AES_DEV_ENCRYPT, q_pt[0], q_ct[0], 0, 0, &seed);
  q_req[0].mode = AES_DEV_CTR; /* only GCM may be empty */
  AESOC_CHECK(aes_dma_submit(&eng, &q_req[0]) == AES_DMA_BAD_ARG);
  gcm_req(0, AES_DEV_ENCRYPT, q_pt[0], q_ct[0], 32, 0, &seed);
  q_req[0].gcm.tag_len = 10;
  AESOC_CHECK(aes_dma_submit(&eng, &q_req[0]) == AES_DMA_BAD_ARG);
  gcm_req(0, AES_DEV_ENCRYPT, q_pt[0], q_ct[0], 32, 8, &seed);
  q_req[0].gcm.aad = q_aad[0] + 1; /* misaligned AAD */
  AESOC_CHECK(aes_dma_submit(&eng, &q_req[0]) == AES_DMA_BAD_ARG);
  gcm_req(0, AES_DEV_ENCRYPT, q_pt[0], q_ct[0], 32, 0, &seed);
  q_req[0].dir = (aes_dev_dir_t)2;
  AESOC_CHECK(aes_dma_submit(&eng, &q_req[0]) == AES_DMA_BAD_ARG);
}

/* Part 3: every length through one call, default options (text below AES_DMA_GCM_DMA_MIN by the
 * CPU). On an idle queue a CPU-fed request is done when aes_dma_submit returns; a channel-fed one
 * is pending. Each message is recorded, then decrypted back through the same path. */
static void any_length_round(uint32_t *seed) {
  static const size_t lens[] = {0, 1, 15, 16, 17, 64, 319, AES_DMA_GCM_DMA_MIN, 333};
  aes_dma_opts_t o = aes_dma_default_opts();
  o.platform = &aesoc_aes_dma_platform;
  AESOC_CHECK(o.gcm_dma_min == AES_DMA_GCM_DMA_MIN);
  AESOC_CHECK(aes_dma_set_opts(&eng, &o) == AES_DMA_OK);
  for (unsigned m = 0; m < sizeof lens / sizeof lens[0]; ++m) {
    size_t len = lens[m], aad_len = m % 3u == 0 ? 0 : aesoc_xorshift32(seed) % sizeof q_aad[0];
    const void *in = len ? src : NULL; /* an empty message names no buffers */
    void *out = len ? dst : NULL;
    fill(q_aad[0], aad_len, seed);
    fill(src, len, seed);
    gcm_req(0, AES_DEV_ENCRYPT, in, out, len, aad_len, seed);
    uint32_t iv[3];
    memcpy(iv, q_req[0].iv, 12);
    aes_dma_result_t r = aes_dma_submit(&eng, &q_req[0]);
    AESOC_CHECK(r == (len < AES_DMA_GCM_DMA_MIN ? AES_DMA_OK : AES_DMA_PENDING));
    AESOC_CHECK(aes_dma_wait(&eng, &q_req[0], DMA_WAIT_BOUND) == AES_DMA_OK);
    aesoc_rec_begin("aes_gcm_dma_any");
    aesoc_rec_hex("key", q_key[0].words, q_key[0].len);
    aesoc_rec_hex("iv", iv, 12);
    aesoc_rec_hex("aad", q_aad[0], aad_len);
    aesoc_rec_hex("pt", src, len);
    aesoc_rec_hex("ct", dst, len);
    aesoc_rec_hex("tag", q_req[0].gcm.tag, 16);
    aesoc_rec_end();
    uint8_t tag[16];
    memcpy(tag, q_req[0].gcm.tag, 16);
    memcpy(back, dst, len);
    gcm_req(0, AES_DEV_DECRYPT, len ? back : NULL, len ? back : NULL, len, aad_len, seed);
    memcpy(q_req[0].iv, iv, 12);
    memcpy(q_req[0].gcm.tag, tag, 16);
    r = aes_dma_submit(&eng, &q_req[0]);
    AESOC_CHECK(r == (len < AES_DMA_GCM_DMA_MIN ? AES_DMA_OK : AES_DMA_PENDING));
    AESOC_CHECK(aes_dma_wait(&eng, &q_req[0], DMA_WAIT_BOUND) == AES_DMA_OK && memcmp(back, src, len) == 0);
  }
  /* A short request behind a long one waits its turn and completes second. */
  fill(src, 333, seed);
  completions = 0;
  gcm_req(0, AES_DEV_ENCRYPT, src, dst, 333, 0, seed);
  gcm_req(1, AES_DEV_ENCRYPT, q_pt[1], q_ct[1], 7, 0, seed);
  fill(q_pt[1], 7, seed);
  AESOC_CHECK(aes_dma_submit(&eng, &q_req[0]) == AES_DMA_PENDING);
  AESOC_CHECK(aes_dma_submit(&eng, &q_req[1]) == AES_DMA_PENDING);
  AESOC_CHECK(q_req[1].result == AES_DMA_PENDING);
  AESOC_CHECK(aes_dma_wait(&eng, &q_req[1], DMA_WAIT_BOUND) == AES_DMA_OK);
  AESOC_CHECK(q_req[0].result == AES_DMA_OK && completions == 2);
}

int main(void) {
  static uint8_t key[32] __attribute__((aligned(4))), iv[12] __attribute__((aligned(4)));
  static uint8_t aad[64] __attribute__((aligned(4))), tag[16] __attribute__((aligned(4)));
  aes_dev_init(&aes, AESOC_AES_BASE);
  dma_init(&dma, AESOC_DMA_BASE);
  aes_dma_opts_t o = aes_dma_default_opts();
  o.platform = &aesoc_aes_dma_platform;
  o.use_irq = false;
  AESOC_CHECK(aes_dma_init(&eng, &aes, &dma, 0, 1, &o) == AES_DMA_OK);
  AESOC_CHECK(aes_dma_gcm_blocks(&eng, src, dst, 20, DMA_WAIT_BOUND) == AES_DMA_BAD_ARG);
  uint32_t seed = 0x3B1D7A55u;
  static const size_t lens[MESSAGES] = {1024, 16, 1037, 333};
  for (unsigned m = 0; m < MESSAGES; ++m) {
    unsigned key_len = 16u + 8u * (m % 3u);
    size_t aad_len = aesoc_xorshift32(&seed) % sizeof aad, len = lens[m];
    fill(key, key_len, &seed);
    fill(iv, sizeof iv, &seed);
    fill(aad, aad_len, &seed);
    fill(src, len, &seed);
    AESOC_CHECK(run(AES_DEV_ENCRYPT, key, key_len, iv, aad, aad_len, src, dst, len, tag) == 0);
    aesoc_rec_begin("aes_gcm_dma");
    aesoc_rec_hex("key", key, key_len);
    aesoc_rec_hex("iv", iv, sizeof iv);
    aesoc_rec_hex("aad", aad, aad_len);
    aesoc_rec_hex("pt", src, len);
    aesoc_rec_hex("ct", dst, len);
    aesoc_rec_hex("tag", tag, 16);
    aesoc_rec_end();
    /* Decrypt back through the DMA: the ciphertext goes where the DMA reads. */
    memcpy(back, src, len);
    memcpy(src, dst, len);
    AESOC_CHECK(run(AES_DEV_DECRYPT, key, key_len, iv, aad, aad_len, src, dst, len, tag) == 0);
    AESOC_CHECK(memcmp(dst, back, len) == 0);
  }
  /* Part 2: queued GCM requests. */
  uint8_t kb[32] __attribute__((aligned(4)));
  fill(kb, 32, &seed);
  AESOC_CHECK(aes_dma_key_set(&q_key[0], kb, 16) == AES_DMA_OK);
  fill(kb, 32, &seed);
  AESOC_CHECK(aes_dma_key_set(&q_key[1], kb, 32) == AES_DMA_OK);
  aesoc_irq_unmask_line(AESOC_IRQ_DMA);
  queued_bad_args();
  queued_round(false, &seed);
  queued_round(true, &seed);
  any_length_round(&seed);
  aes_dma_key_wipe(&q_key[0]);
  aes_dma_key_wipe(&q_key[1]);
  AESOC_CHECK(aes_dev_clear(&aes) == AES_DEV_OK);
  aesoc_rec_begin("aes_gcm_dma_done");
  aesoc_rec_u64("failures", aesoc_check_failures);
  aesoc_rec_end();
  return aesoc_check_failures ? 1 : 0;
}
