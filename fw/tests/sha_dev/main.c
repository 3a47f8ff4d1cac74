/* SPDX-License-Identifier: Apache-2.0 */
/* Memory-mapped SHA peripheral self-test through its driver: FIPS 180-4 example messages and
 * pseudo-random messages of every built algorithm (printed for a hashlib check in pytest),
 * streaming, context save/restore between two messages, and every error case (self-checked). */
#include <string.h>

#include "aesoc.h"
#include "sha_dev.h"
#include "sha_regs.h"

#define SHA(member) AESOC_REG(AESOC_SHA_BASE, sha_periph_t, member)
#define RANDOM_MSGS 12
#define BIG_MSG 4096u

static sha_dev_t dev;
static volatile unsigned irq_done_count, irq_err_count;
static uint8_t buf[BIG_MSG] __attribute__((aligned(4)));
static uint8_t md[SHA_DEV_MAX_DIGEST] __attribute__((aligned(4)));

static const sha_dev_alg_t ALGS[] = {SHA_DEV_SHA1,   SHA_DEV_SHA224, SHA_DEV_SHA256,
                                     SHA_DEV_SHA384, SHA_DEV_SHA512, SHA_DEV_SHA512_256};
static unsigned num_algs;

/* FIPS 180-4 example messages (the one- and two-block examples of the SHA-1/256 and SHA-512 families). */
static const char *const FIPS_MSGS[] = {
    "abc",
    "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
};

void aesoc_external_irq(uint32_t pending) {
  if (pending & (1u << AESOC_IRQ_SHA)) {
    uint32_t st = sha_dev_irq_ack(&dev);
    if (st & SHA_PERIPH__IRQ_STATUS__DONE_bm) ++irq_done_count;
    if (st & SHA_PERIPH__IRQ_STATUS__ERR_bm) ++irq_err_count;
  }
}

static void record(const char *kind, sha_dev_alg_t alg, const void *msg, size_t len) {
  aesoc_rec_begin(kind);
  aesoc_rec_u64("alg", alg);
  aesoc_rec_hex("msg", msg, len);
  aesoc_rec_hex("md", md, sha_dev_digest_len(alg));
  aesoc_rec_end();
}

static void identity(void) {
  AESOC_CHECK(SHA(ID) == SHA_PERIPH__ID__ID_reset);
  uint32_t hw = SHA(HWCFG);
  num_algs = (hw & SHA_PERIPH__HWCFG__SHA512_bm) ? 6u : 3u;
  aesoc_rec_begin("sha_hwcfg");
  aesoc_rec_u64("sha512", (hw & SHA_PERIPH__HWCFG__SHA512_bm) >> SHA_PERIPH__HWCFG__SHA512_bp);
  aesoc_rec_u64("in_depth", (hw & SHA_PERIPH__HWCFG__IN_DEPTH_bm) >> SHA_PERIPH__HWCFG__IN_DEPTH_bp);
  aesoc_rec_u64("dma_words", (hw & SHA_PERIPH__HWCFG__DMA_WORDS_bm) >> SHA_PERIPH__HWCFG__DMA_WORDS_bp);
  aesoc_rec_end();
}

static void fips_and_random(void) {
  for (unsigned m = 0; m < 3; ++m) {
    size_t len = strlen(FIPS_MSGS[m]);
    memcpy(buf, FIPS_MSGS[m], len);
    for (unsigned a = 0; a < num_algs; ++a) {
      AESOC_CHECK(sha_dev_hash(&dev, ALGS[a], buf, len, md) == SHA_DEV_OK);
      record("sha_md", ALGS[a], buf, len);
    }
  }
  uint32_t seed = 0x5EED5A11u;
  for (unsigned i = 0; i <= RANDOM_MSGS; ++i) {
    size_t len = i == RANDOM_MSGS ? BIG_MSG : aesoc_xorshift32(&seed) % 1500u;
    sha_dev_alg_t alg = ALGS[aesoc_xorshift32(&seed) % num_algs];
    for (size_t j = 0; j < len; ++j) buf[j] = (uint8_t)aesoc_xorshift32(&seed);
    AESOC_CHECK(sha_dev_hash(&dev, alg, buf, len, md) == SHA_DEV_OK);
    record("sha_md", alg, buf, len);
  }
}

/* One message in uneven pieces (multiples of 4, the last one odd). */
static void streaming(void) {
  const size_t len = 1001;
  for (size_t j = 0; j < len; ++j) buf[j] = (uint8_t)(j * 7u);
  AESOC_CHECK(sha_dev_begin(&dev, SHA_DEV_SHA256, len) == SHA_DEV_OK);
  size_t pos = 0;
  for (size_t piece = 4; pos < len; piece += 36) {
    size_t n = pos + piece > len ? len - pos : piece;
    AESOC_CHECK(sha_dev_update(&dev, buf + pos, n) == SHA_DEV_OK);
    pos += n;
  }
  AESOC_CHECK(sha_dev_finish(&dev, md) == SHA_DEV_OK);
  record("sha_md", SHA_DEV_SHA256, buf, len);
}

/* Two messages through one engine, switched at block boundaries. */
static void context_switch(void) {
  static uint8_t a[700] __attribute__((aligned(4))), b[900] __attribute__((aligned(4)));
  for (unsigned i = 0; i < sizeof a; ++i) a[i] = (uint8_t)(i ^ 0x5Au);
  for (unsigned i = 0; i < sizeof b; ++i) b[i] = (uint8_t)(i * 13u);
  sha_dev_alg_t alg_b = num_algs > 3 ? SHA_DEV_SHA512 : SHA_DEV_SHA1;
  sha_dev_ctx_t ca, cb;
  AESOC_CHECK(sha_dev_begin(&dev, SHA_DEV_SHA256, sizeof a) == SHA_DEV_OK);
  AESOC_CHECK(sha_dev_update(&dev, a, 256) == SHA_DEV_OK);
  AESOC_CHECK(sha_dev_save(&dev, &ca) == SHA_DEV_OK);
  AESOC_CHECK(sha_dev_begin(&dev, alg_b, sizeof b) == SHA_DEV_OK);
  AESOC_CHECK(sha_dev_update(&dev, b, 256) == SHA_DEV_OK);
  AESOC_CHECK(sha_dev_save(&dev, &cb) == SHA_DEV_OK);
  AESOC_CHECK(sha_dev_restore(&dev, &ca) == SHA_DEV_OK);
  AESOC_CHECK(sha_dev_update(&dev, a + 256, sizeof a - 256) == SHA_DEV_OK);
  AESOC_CHECK(sha_dev_finish(&dev, md) == SHA_DEV_OK);
  record("sha_md", SHA_DEV_SHA256, a, sizeof a);
  AESOC_CHECK(sha_dev_restore(&dev, &cb) == SHA_DEV_OK);
  AESOC_CHECK(sha_dev_update(&dev, b + 256, sizeof b - 256) == SHA_DEV_OK);
  AESOC_CHECK(sha_dev_finish(&dev, md) == SHA_DEV_OK);
  record("sha_md", alg_b, b, sizeof b);
}

static void expect_error(uint32_t code) {
  AESOC_CHECK(sha_dev_status(&dev) & SHA_PERIPH__STATUS__ERR_bm);
  AESOC_CHECK(sha_dev_error(&dev) == code);
  AESOC_CHECK((sha_dev_status(&dev) & SHA_PERIPH__STATUS__DONE_bm) == 0);
  for (unsigned i = 0; i < SHA_DEV_STATE_WORDS; ++i) AESOC_CHECK(SHA(DIGEST[i]) == 0);
  AESOC_CHECK(sha_dev_finish(&dev, md) != SHA_DEV_OK);
  for (unsigned i = 0; i < 3u * AESOC_SHA_IN_DEPTH; ++i) SHA(DATA_IN) = i; /* drained: no hang */
  AESOC_CHECK(sha_dev_clear(&dev) == SHA_DEV_OK);
  AESOC_CHECK(sha_dev_error(&dev) == SHA_PERIPH__SHA_ERR__NONE);
}

static void errors_and_interrupts(void) {
  (void)sha_dev_irq_ack(&dev);
  aesoc_irq_unmask_line(AESOC_IRQ_SHA);
  sha_dev_irq_enable(&dev, 1, 1);
  memcpy(buf, "abc", 3);
  AESOC_CHECK(sha_dev_hash(&dev, SHA_DEV_SHA256, buf, 3, md) == SHA_DEV_OK);
  AESOC_CHECK(irq_done_count == 1);
  /* Data after the last byte. */
  AESOC_CHECK(sha_dev_begin(&dev, SHA_DEV_SHA256, 4) == SHA_DEV_OK);
  SHA(DATA_IN) = 1;
  SHA(DATA_IN) = 2;
  expect_error(SHA_PERIPH__SHA_ERR__AFTER_FINAL);
  /* The digest read mid-message. */
  AESOC_CHECK(sha_dev_begin(&dev, SHA_DEV_SHA256, 100) == SHA_DEV_OK);
  AESOC_CHECK(sha_dev_update(&dev, buf, 4) == SHA_DEV_OK);
  AESOC_CHECK(SHA(DIGEST[0]) == 0);
  expect_error(SHA_PERIPH__SHA_ERR__EARLY_READ);
  /* The algorithm changed mid-message. */
  AESOC_CHECK(sha_dev_begin(&dev, SHA_DEV_SHA256, 100) == SHA_DEV_OK);
  SHA(CTRL) = SHA_DEV_SHA1 << SHA_PERIPH__CTRL__ALG_bp;
  expect_error(SHA_PERIPH__SHA_ERR__ALG_CHANGE);
  /* Aborted (what the DMA path does when its channel fails). */
  AESOC_CHECK(sha_dev_begin(&dev, SHA_DEV_SHA256, 1000) == SHA_DEV_OK);
  AESOC_CHECK(sha_dev_update(&dev, buf, 64) == SHA_DEV_OK);
  sha_dev_abort(&dev);
  expect_error(SHA_PERIPH__SHA_ERR__ABORT);
  /* A length whose bit count overflows 64 bits (the driver refuses it, so straight to the registers). */
  SHA(CTRL) = SHA_DEV_SHA256 << SHA_PERIPH__CTRL__ALG_bp;
  SHA(MSG_LEN_LO) = 0;
  SHA(MSG_LEN_HI) = 1u << 29; /* bit length = 2^64 */
  SHA(CMD) = SHA_PERIPH__CMD__START_bm;
  expect_error(SHA_PERIPH__SHA_ERR__LEN);
  AESOC_CHECK(irq_err_count == 5);
  /* After all that, a good message. */
  AESOC_CHECK(sha_dev_hash(&dev, SHA_DEV_SHA256, buf, 3, md) == SHA_DEV_OK);
  AESOC_CHECK(irq_done_count == 2);
  aesoc_irq_mask_line(AESOC_IRQ_SHA);
  sha_dev_irq_enable(&dev, 0, 0);
  /* Driver argument checks: nothing happens on bad input. */
  AESOC_CHECK(sha_dev_hash(&dev, SHA_DEV_SHA256, buf + 1, 3, md) == SHA_DEV_BAD_ARG);
  AESOC_CHECK(sha_dev_hash(&dev, (sha_dev_alg_t)7, buf, 3, md) == SHA_DEV_BAD_ARG);
  AESOC_CHECK(sha_dev_begin(&dev, SHA_DEV_SHA256, 8) == SHA_DEV_OK);
  AESOC_CHECK(sha_dev_update(&dev, buf, 12) == SHA_DEV_BAD_ARG);  /* beyond the length */
  AESOC_CHECK(sha_dev_update(&dev, buf, 3) == SHA_DEV_BAD_ARG);   /* odd, not the end */
  AESOC_CHECK(sha_dev_finish(&dev, md) == SHA_DEV_BAD_ARG);       /* bytes missing */
  AESOC_CHECK(sha_dev_clear(&dev) == SHA_DEV_OK);
  AESOC_CHECK((sha_dev_status(&dev) & SHA_PERIPH__STATUS__ERR_bm) == 0);
}

int main(void) {
  sha_dev_init(&dev, AESOC_SHA_BASE);
  aesoc_irq_enable_external();
  identity();
  AESOC_CHECK(sha_dev_clear(&dev) == SHA_DEV_OK);
  fips_and_random();
  streaming();
  context_switch();
  errors_and_interrupts();
  aesoc_rec_begin("sha_dev");
  aesoc_rec_u64("failures", aesoc_check_failures);
  aesoc_rec_end();
  return aesoc_check_failures ? 1 : 0;
}
