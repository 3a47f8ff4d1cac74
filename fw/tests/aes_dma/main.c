/* SPDX-License-Identifier: Apache-2.0 */
/* DMA-fed AES requests through the aes_dma driver: pseudo-random requests over every mode, key
 * size, direction and DMA knob, printed for a differential check against `cryptography` in
 * pytest (queued requests, key reuse, chaining, interrupts and polling), plus the error paths. */
#include <string.h>

#include "aes_dma.h"
#include "aesoc_dma.h"
#include "aesoc.h"
#include "aesoc_vectors.h"
#include "swcrypto.h"

#define CASES 24
#define MAX_BLOCKS 24

static uint8_t src[3][MAX_BLOCKS * 16] __attribute__((aligned(16), section(".sram1")));
static uint8_t dst[3][MAX_BLOCKS * 16] __attribute__((aligned(16)));

static aes_dev_t aes;
static dma_t dma;
static aes_dma_t eng;
static aes_dma_key_t keys[CASES];
static volatile unsigned completions;

void aesoc_external_irq(uint32_t pending) {
  if (pending & (1u << AESOC_IRQ_DMA)) aes_dma_irq(&eng);
}

static void on_complete(aes_dma_req_t *req) {
  (void)req;
  ++completions;
}

/* Software fallback through fw/crypto (its key schedule is made per call: requests are short). */
static int sw_aes(aes_dma_req_t *req) {
  swc_aes_ctx ctx;
  uint8_t key[32];
  memcpy(key, req->key->words, req->key->len);
  unsigned bits = req->key->len * 8u;
  bool dec = req->dir == AES_DEV_DECRYPT && req->mode != AES_DEV_CTR;
  if ((dec ? swc_aes_setkey_dec(&ctx, key, bits) : swc_aes_setkey_enc(&ctx, key, bits)) != SWC_OK) return -1;
  memset(key, 0, sizeof key);
  swc_result r;
  uint8_t *iv = (uint8_t *)req->iv;
  if (req->mode == AES_DEV_ECB) {
    r = dec ? swc_aes_ecb_decrypt(&ctx, req->src, req->dst, req->len) : swc_aes_ecb_encrypt(&ctx, req->src, req->dst, req->len);
  } else if (req->mode == AES_DEV_CBC) {
    r = dec ? swc_aes_cbc_decrypt(&ctx, iv, req->src, req->dst, req->len) : swc_aes_cbc_encrypt(&ctx, iv, req->src, req->dst, req->len);
  } else {
    r = swc_aes_ctr(&ctx, iv, req->src, req->dst, req->len);
  }
  swc_aes_wipe(&ctx);
  return r == SWC_OK ? 0 : -1;
}

static void fill(uint32_t *state, void *buf, size_t words) {
  uint32_t *w = buf;
  for (size_t i = 0; i < words; ++i) w[i] = aesoc_xorshift32(state);
}

static void print_req(const char *tag, const aes_dma_req_t *req) {
  aesoc_rec_str("part", tag);
  aesoc_rec_hex("out", req->dst, req->len);
  aesoc_rec_hex("iv_out", req->iv, 16);
}

static aes_dma_result_t run_one(aes_dma_req_t *req) {
  aes_dma_result_t r = aes_dma_submit(&eng, req);
  if (r == AES_DMA_PENDING) r = aes_dma_wait(&eng, req, AES_DMA_WAIT_BOUND);
  return r;
}

/* One case: requests A and B queued back to back with one key (B reuses the key A loaded, or
 * an earlier case's key), then C continuing A's chain with A's output IV. */
static void random_case(unsigned c) {
  uint32_t s = 0x2545F491u * (c + 1u);
  static const unsigned bursts[3] = {1, 4, 8};
  static const unsigned fifos[4] = {0, 16, 32, 64};
  aes_dma_opts_t o = aes_dma_default_opts();
  o.burst = bursts[aesoc_xorshift32(&s) % 3];
  o.prefetch = aesoc_xorshift32(&s) & 1u;
  o.fifo_words = fifos[aesoc_xorshift32(&s) % 4];
  o.early_start = aesoc_xorshift32(&s) & 1u;
  o.use_irq = aesoc_xorshift32(&s) & 1u;
  o.bus_prio = aesoc_xorshift32(&s) & 1u;
  o.prio = aesoc_xorshift32(&s) % 4;
  /* Every request on the channels, the CPU feeding short ones, or all of them. */
  static const size_t dma_mins[4] = {0, 64, 160, 1u << 20};
  o.dma_min = dma_mins[aesoc_xorshift32(&s) % 4];
  o.counters = true;
  o.platform = &aesoc_aes_dma_platform;
  unsigned key_case = (c > 0 && (aesoc_xorshift32(&s) & 1u)) ? aesoc_xorshift32(&s) % c : c;
  if (keys[key_case].serial == 0) key_case = c; /* that case used another's key: set none */
  unsigned key_len = 16u + 8u * (aesoc_xorshift32(&s) % 3);
  aes_dev_mode_t mode = (aes_dev_mode_t)(aesoc_xorshift32(&s) % 3);
  aes_dev_dir_t dir = (aes_dev_dir_t)(aesoc_xorshift32(&s) & 1u);
  unsigned blocks[3];
  for (unsigned i = 0; i < 3; ++i) blocks[i] = 1u + aesoc_xorshift32(&s) % MAX_BLOCKS;
  bool in_place = (aesoc_xorshift32(&s) % 4) == 0;
  uint8_t key[32] __attribute__((aligned(4)));
  fill(&s, key, 8);
  if (key_case == c) AESOC_CHECK(aes_dma_key_set(&keys[c], key, key_len) == AES_DMA_OK);
  AESOC_CHECK(aes_dma_set_opts(&eng, &o) == AES_DMA_OK);

  aes_dma_req_t req[3];
  for (unsigned i = 0; i < 3; ++i) {
    req[i] = (aes_dma_req_t){.key = &keys[key_case], .mode = mode, .dir = dir, .ctr_width = AES_DEV_CTR128,
                             .src = src[i], .dst = in_place ? src[i] : dst[i], .len = blocks[i] * 16u,
                             .flags = AES_DMA_CHAIN, .complete = on_complete};
    fill(&s, req[i].iv, 4);
    fill(&s, src[i], blocks[i] * 4u);
  }
  if (o.use_irq) aesoc_irq_enable_global();
  unsigned before = completions;
  /* A request fed by the CPU on an idle queue is done when submit returns; one submitted behind
   * a request on the channels waits for it (unless an interrupt completed that one first). */
  bool cpu[3];
  for (unsigned i = 0; i < 3; ++i) cpu[i] = req[i].len < o.dma_min;
  AESOC_CHECK(aes_dma_submit(&eng, &req[0]) == (cpu[0] ? AES_DMA_OK : AES_DMA_PENDING));
  aes_dma_result_t r1 = aes_dma_submit(&eng, &req[1]);
  AESOC_CHECK(cpu[0] && cpu[1] ? r1 == AES_DMA_OK : (r1 == AES_DMA_PENDING || (r1 == AES_DMA_OK && cpu[1])));
  AESOC_CHECK(aes_dma_wait(&eng, &req[1], AES_DMA_WAIT_BOUND) == AES_DMA_OK);
  AESOC_CHECK(req[0].result == AES_DMA_OK);
  memcpy(req[2].iv, req[0].iv, 16);
  AESOC_CHECK(run_one(&req[2]) == AES_DMA_OK);
  AESOC_CHECK(completions == before + 3);
  for (unsigned i = 0; i < 3; ++i) {
    const aes_dma_hw_t *hw = &req[i].hw;
    AESOC_CHECK(cpu[i] ? (hw->beats == 0 && hw->engine_busy == 0 && hw->dma_cycles == 0)
                       : (hw->beats == 4u * blocks[i] * 4u && hw->engine_busy > 0 && hw->dma_cycles > 0));
  }
  aesoc_irq_disable_global();

  aesoc_rec_begin("aes_dma_case");
  aesoc_rec_u64("case", c);
  aesoc_rec_u64("key_case", key_case);
  aesoc_rec_u64("key_len", keys[key_case].len);
  aesoc_rec_u64("mode", mode);
  aesoc_rec_u64("dir", dir);
  aesoc_rec_u64("in_place", in_place);
  aesoc_rec_u64("burst", o.burst);
  aesoc_rec_u64("irq", o.use_irq);
  aesoc_rec_u64("dma_min", o.dma_min);
  aesoc_rec_end();
  for (unsigned i = 0; i < 3; ++i) {
    aesoc_rec_begin("aes_dma_out");
    aesoc_rec_u64("case", c);
    print_req(i == 0 ? "a" : i == 1 ? "b" : "c", &req[i]);
    aesoc_rec_u64("hw_cycles", req[i].hw.dma_cycles);
    aesoc_rec_u64("engine_busy", req[i].hw.engine_busy);
    aesoc_rec_end();
  }
}

/* FIPS-197 C.1 through the DMA: the engine works after whatever happened before. */
static void fips_check(aes_dma_key_t *key) {
  memcpy(src[0], AESOC_FIPS197_PT, 16);
  aes_dma_req_t req = {.key = key, .mode = AES_DEV_ECB, .dir = AES_DEV_ENCRYPT, .src = src[0], .dst = dst[0], .len = 16};
  AESOC_CHECK(run_one(&req) == AES_DMA_OK);
  AESOC_CHECK(memcmp(dst[0], AESOC_FIPS197_CT[0], 16) == 0);
}

static void error_cases(void) {
  aes_dma_opts_t o = aes_dma_default_opts();
  o.platform = &aesoc_aes_dma_platform;
  AESOC_CHECK(aes_dma_set_opts(&eng, &o) == AES_DMA_OK);
  aes_dma_key_t key;
  AESOC_CHECK(aes_dma_key_set(&key, AESOC_FIPS197_KEY, 16) == AES_DMA_OK);
  AESOC_CHECK(aes_dma_key_set(&key, AESOC_FIPS197_KEY, 20) == AES_DMA_BAD_ARG);
  fips_check(&key);

  /* Arguments the driver refuses before touching hardware. */
  aes_dma_req_t bad = {.key = &key, .mode = AES_DEV_ECB, .src = src[0], .dst = dst[0], .len = 8};
  AESOC_CHECK(aes_dma_submit(&eng, &bad) == AES_DMA_BAD_ARG);
  bad.len = 0;
  AESOC_CHECK(aes_dma_submit(&eng, &bad) == AES_DMA_BAD_ARG);
  bad.len = 16;
  bad.src = src[0] + 2;
  AESOC_CHECK(aes_dma_submit(&eng, &bad) == AES_DMA_BAD_ARG);
  bad.src = src[0];
  bad.mode = (aes_dev_mode_t)3;
  AESOC_CHECK(aes_dma_submit(&eng, &bad) == AES_DMA_BAD_ARG);
  aes_dma_opts_t bad_opts = o;
  bad_opts.burst = 2;
  AESOC_CHECK(aes_dma_set_opts(&eng, &bad_opts) == AES_DMA_BAD_ARG);
  bad_opts = o;
  bad_opts.burst = 8;
  bad_opts.fifo_words = 8;
  AESOC_CHECK(aes_dma_set_opts(&eng, &bad_opts) == AES_DMA_BAD_ARG);

  /* Addresses outside every DMA window: the channel stops before any access, the request
   * fails with the channel's error code, and the next request works. The channels take every
   * request from here on (a request fed by the CPU would reach such an address with a load). */
  o.dma_min = 0;
  AESOC_CHECK(aes_dma_set_opts(&eng, &o) == AES_DMA_OK);
  aes_dma_req_t req = {.key = &key, .mode = AES_DEV_ECB, .src = (const void *)0x30000000u, .dst = dst[0], .len = 64};
  AESOC_CHECK(run_one(&req) == AES_DMA_BUS_ERROR);
  AESOC_CHECK(req.dma_err == DMA_ERR_SRC_RANGE);
  fips_check(&key);
  req.src = src[0];
  req.dst = (void *)AESOC_SYSCTRL_BASE;
  AESOC_CHECK(run_one(&req) == AES_DMA_BUS_ERROR);
  AESOC_CHECK(req.dma_err == DMA_ERR_DST_RANGE);
  fips_check(&key);

  /* A wait that runs out leaves the request pending; waiting again completes it. The request is
   * long enough (72 blocks) to outlast the rest of aes_dma_submit. */
  req.dst = dst[0];
  req.len = sizeof dst;
  AESOC_CHECK(aes_dma_submit(&eng, &req) == AES_DMA_PENDING);
  AESOC_CHECK(aes_dma_wait(&eng, &req, 1) == AES_DMA_TIMEOUT);
  AESOC_CHECK(aes_dma_wait(&eng, &req, AES_DMA_WAIT_BOUND) == AES_DMA_OK);

  /* The chaining value comes back only when asked for (CBC: the last ciphertext block); the
   * output is the same either way. */
  static const uint32_t iv_in[4] = {0x03020100u, 0x07060504u, 0x0B0A0908u, 0x0F0E0D0Cu};
  aes_dma_req_t cbc = {.key = &key, .mode = AES_DEV_CBC, .dir = AES_DEV_ENCRYPT, .src = src[0], .dst = dst[0], .len = 32};
  memcpy(cbc.iv, iv_in, 16);
  AESOC_CHECK(run_one(&cbc) == AES_DMA_OK);
  AESOC_CHECK(memcmp(cbc.iv, iv_in, 16) == 0);
  uint8_t ct[32];
  memcpy(ct, dst[0], 32);
  memset(dst[0], 0, 32);
  cbc.flags = AES_DMA_CHAIN;
  AESOC_CHECK(run_one(&cbc) == AES_DMA_OK);
  AESOC_CHECK(memcmp(dst[0], ct, 32) == 0 && memcmp(cbc.iv, ct + 16, 16) == 0);

  /* Reset with requests queued: both are failed with ABORT, the key is gone from the engine. */
  aes_dma_req_t q[2] = {req, req};
  q[0].complete = q[1].complete = on_complete;
  unsigned before = completions;
  AESOC_CHECK(aes_dma_submit(&eng, &q[0]) == AES_DMA_PENDING);
  AESOC_CHECK(aes_dma_submit(&eng, &q[1]) == AES_DMA_PENDING);
  aes_dma_reset(&eng);
  AESOC_CHECK(q[0].result == AES_DMA_BUS_ERROR && q[0].dma_err == DMA_ERR_ABORT);
  AESOC_CHECK(q[1].result == AES_DMA_BUS_ERROR && q[1].dma_err == DMA_ERR_ABORT);
  AESOC_CHECK(completions == before + 2);
  AESOC_CHECK((aes_dev_status(&aes) & AES_PERIPH__STATUS__KEY_READY_bm) == 0);
  fips_check(&key);

  /* Below the threshold the software fallback runs, synchronously, with the same result. */
  o.sw_threshold = 64;
  o.sw = sw_aes;
  AESOC_CHECK(aes_dma_set_opts(&eng, &o) == AES_DMA_OK);
  memcpy(src[0], AESOC_FIPS197_PT, 16);
  aes_dma_req_t small = {.key = &key, .mode = AES_DEV_ECB, .src = src[0], .dst = dst[2], .len = 16};
  AESOC_CHECK(aes_dma_submit(&eng, &small) == AES_DMA_OK);
  AESOC_CHECK(small.in_software && memcmp(dst[2], AESOC_FIPS197_CT[0], 16) == 0);
  o.sw_threshold = 0;
  o.sw = NULL;
  AESOC_CHECK(aes_dma_set_opts(&eng, &o) == AES_DMA_OK);
  aes_dma_key_wipe(&key);
  AESOC_CHECK(aes_dma_submit(&eng, &small) == AES_DMA_BAD_ARG);
}

int main(void) {
  aes_dev_init(&aes, AESOC_AES_BASE);
  dma_init(&dma, AESOC_DMA_BASE);
  aes_dma_opts_t o = aes_dma_default_opts();
  o.platform = &aesoc_aes_dma_platform;
  AESOC_CHECK(aes_dma_init(&eng, &aes, &dma, 0, 1, &o) == AES_DMA_OK);
  aesoc_irq_unmask_line(AESOC_IRQ_DMA);
  AESOC_CHECK(swc_aes_init() == SWC_OK);
  error_cases();
  for (unsigned c = 0; c < CASES; ++c) random_case(c);
  aesoc_rec_begin("aes_dma_done");
  aesoc_rec_u64("failures", aesoc_check_failures);
  aesoc_rec_end();
  return aesoc_check_failures ? 1 : 0;
}
