/* SPDX-License-Identifier: Apache-2.0 */
/* Memory-mapped AES peripheral self-test: FIPS-197 vectors, every register behaviour the
 * driver relies on, and pseudo-random messages printed for a differential check in pytest. */
#include <string.h>

#include "aes_dev.h"
#include "aes_dev_fips197.h"
#include "aes_regs.h"
#include "aesoc.h"
#include "aesoc_vectors.h"

#define AES(member) AESOC_REG(AESOC_AES_BASE, aes_periph_t, member)
#define DIFF_BLOCKS 6


static aes_dev_t dev;
static volatile unsigned irq_done_count, irq_err_count;

void aesoc_external_irq(uint32_t pending) {
  if (pending & (1u << AESOC_IRQ_AES)) {
    uint32_t st = aes_dev_irq_ack(&dev);
    if (st & AES_PERIPH__IRQ_STATUS__DONE_bm) ++irq_done_count;
    if (st & AES_PERIPH__IRQ_STATUS__ERR_bm) ++irq_err_count;
  }
}

static void identity_and_keys(void) {
  AESOC_CHECK(AES(ID) == AES_PERIPH__ID__ID_reset);
  uint32_t hw = AES(HWCFG);
  AESOC_CHECK(((hw & AES_PERIPH__HWCFG__IN_DEPTH_bm) >> AES_PERIPH__HWCFG__IN_DEPTH_bp) >= 1);
  AESOC_CHECK(hw & AES_PERIPH__HWCFG__DEC_ENABLE_bm);
  /* The host checks the parameter readback against the SoC configuration. */
  aesoc_rec_begin("aes_hwcfg");
  aesoc_rec_u64("rounds_per_cycle", (hw & AES_PERIPH__HWCFG__ROUNDS_PER_CYCLE_bm) >> AES_PERIPH__HWCFG__ROUNDS_PER_CYCLE_bp);
  aesoc_rec_u64("in_depth", (hw & AES_PERIPH__HWCFG__IN_DEPTH_bm) >> AES_PERIPH__HWCFG__IN_DEPTH_bp);
  aesoc_rec_u64("out_depth", (hw & AES_PERIPH__HWCFG__OUT_DEPTH_bm) >> AES_PERIPH__HWCFG__OUT_DEPTH_bp);
  aesoc_rec_end();
  /* Key words are write-only: they read as zero before and after the load. */
  AES(KEY[0]) = 0xDEADBEEFu;
  AES(KEY[5]) = 0x12345678u;
  AESOC_CHECK(AES(KEY[0]) == 0 && AES(KEY[5]) == 0);
  AES(CMD) = AES_PERIPH__CMD__KEY_LOAD_bm;
  AESOC_CHECK(AES(KEY[0]) == 0);
  AESOC_CHECK(aes_dev_clear(&dev) == AES_DEV_OK);
  AESOC_CHECK((AES(STATUS) & AES_PERIPH__STATUS__KEY_READY_bm) == 0);
}

/* Random messages in every mode, direction and key size, for the pytest differential check. */
static void differential(void) {
  static uint32_t msg[4 * DIFF_BLOCKS], out[4 * DIFF_BLOCKS];
  uint32_t key[8], iv[4], iv_after[4];
  uint32_t seed = 0x1D872B41u;
  for (unsigned mode = 0; mode < 3; ++mode) {
    for (unsigned k = 0; k < 3; ++k) {
      for (unsigned dir = 0; dir < (mode == AES_DEV_CTR ? 1u : 2u); ++dir) {
        for (unsigned i = 0; i < 8; ++i) key[i] = aesoc_xorshift32(&seed);
        for (unsigned i = 0; i < 4; ++i) iv[i] = aesoc_xorshift32(&seed);
        for (unsigned i = 0; i < 4 * DIFF_BLOCKS; ++i) msg[i] = aesoc_xorshift32(&seed);
        aes_dev_config_t cfg = {.mode = (aes_dev_mode_t)mode, .dir = (aes_dev_dir_t)dir,
                                .key_len = 16u + 8u * k, .ctr_width = AES_DEV_CTR128};
        AESOC_CHECK(aes_dev_setup(&dev, &cfg, key, mode == AES_DEV_ECB ? NULL : iv) == AES_DEV_OK);
        AESOC_CHECK(aes_dev_crypt(&dev, msg, out, DIFF_BLOCKS) == AES_DEV_OK);
        AESOC_CHECK(aes_dev_get_iv(&dev, iv_after) == AES_DEV_OK);
        aesoc_rec_begin("aes_dev_diff");
        aesoc_rec_u64("mode", mode);
        aesoc_rec_u64("key_len", cfg.key_len);
        aesoc_rec_u64("decrypt", dir);
        aesoc_rec_hex("out", out, sizeof out);
        aesoc_rec_hex("iv_after", iv_after, sizeof iv_after);
        aesoc_rec_end();
      }
    }
  }
}

static void fifo_stall_and_levels(void) {
  uint32_t key[4] = {1, 2, 3, 4}, blk[4] = {5, 6, 7, 8}, out[4];
  aes_dev_config_t cfg = {.mode = AES_DEV_ECB, .dir = AES_DEV_ENCRYPT, .key_len = 16};
  AESOC_CHECK(aes_dev_setup(&dev, &cfg, key, NULL) == AES_DEV_OK);
  unsigned depth = dev.in_depth + dev.out_depth;
  /* Fill: out FIFO, engine and in FIFO hold depth blocks (+1 in the engine for a moment). */
  unsigned pushed = 0;
  for (unsigned i = 0; i < depth + 4; ++i) {
    for (volatile int d = 0; d < 20; ++d) {
    }
    if (aes_dev_push(&dev, blk) == AES_DEV_OK) ++pushed;
  }
  uint32_t st = AES(STATUS);
  AESOC_CHECK(pushed >= depth && pushed <= depth + 1);
  AESOC_CHECK((st & AES_PERIPH__STATUS__IN_READY_bm) == 0);
  AESOC_CHECK((st & AES_PERIPH__STATUS__OUT_VALID_bm) != 0);
  AESOC_CHECK(((st & AES_PERIPH__STATUS__OUT_LEVEL_bm) >> AES_PERIPH__STATUS__OUT_LEVEL_bp) == dev.out_depth);
  AESOC_CHECK(((st & AES_PERIPH__STATUS__IN_LEVEL_bm) >> AES_PERIPH__STATUS__IN_LEVEL_bp) == dev.in_depth);
  AESOC_CHECK(aes_dev_push(&dev, blk) == AES_DEV_AGAIN);
  unsigned pulled = 0;
  while (aes_dev_pull(&dev, out) == AES_DEV_OK) {
    ++pulled;
    for (volatile int d = 0; d < 20; ++d) {
    }
  }
  AESOC_CHECK(pulled == pushed);
  AESOC_CHECK((AES(STATUS) & (AES_PERIPH__STATUS__BUSY_bm | AES_PERIPH__STATUS__OUT_VALID_bm)) == 0);
  AESOC_CHECK(aes_dev_pull(&dev, out) == AES_DEV_AGAIN);

  /* A result read right after the last input word is held on the bus until the engine is done:
   * the block arrives without any status polling. */
  uint32_t t0 = aesoc_cycles32();
  AES(DATA_IN[0]) = blk[0];
  AES(DATA_IN[1]) = blk[1];
  AES(DATA_IN[2]) = blk[2];
  AES(DATA_IN[3]) = blk[3];
  out[0] = AES(DATA_OUT[0]);
  uint32_t held = aesoc_cycles32() - t0;
  out[1] = AES(DATA_OUT[1]);
  out[2] = AES(DATA_OUT[2]);
  out[3] = AES(DATA_OUT[3]);
  aesoc_rec_begin("aes_dev_stall");
  aesoc_rec_u64("cycles_write_to_first_word", held);
  aesoc_rec_hex("out", out, sizeof out);
  aesoc_rec_end();
}

static void clear_mid_operation(void) {
  uint32_t key[8] = {9, 9, 9, 9, 9, 9, 9, 9}, iv[4] = {1, 1, 1, 1}, blk[4] = {0}, got[4];
  aes_dev_config_t cfg = {.mode = AES_DEV_CBC, .dir = AES_DEV_ENCRYPT, .key_len = 32};
  /* Clear at every point of a block's way through the engine. */
  for (unsigned delay = 0; delay < 24; ++delay) {
    AESOC_CHECK(aes_dev_setup(&dev, &cfg, key, iv) == AES_DEV_OK);
    AESOC_CHECK(aes_dev_push(&dev, blk) == AES_DEV_OK);
    AESOC_CHECK(aes_dev_push(&dev, blk) == AES_DEV_OK);
    uint32_t t0 = aesoc_cycles32();
    while (aesoc_cycles32() - t0 < delay) {
    }
    AES(CMD) = AES_PERIPH__CMD__CLEAR_bm; /* while blocks are in flight */
    /* Zeroisation takes one cycle; STATUS already shows its effect on the very next read. */
    uint32_t st = AES(STATUS);
    AESOC_CHECK((st & (AES_PERIPH__STATUS__OUT_VALID_bm | AES_PERIPH__STATUS__IN_LEVEL_bm |
                       AES_PERIPH__STATUS__OUT_LEVEL_bm | AES_PERIPH__STATUS__KEY_READY_bm |
                       AES_PERIPH__STATUS__ERR_bm)) == 0);
    AESOC_CHECK((AES(STATUS) & AES_PERIPH__STATUS__BUSY_bm) == 0);
    AESOC_CHECK(aes_dev_get_iv(&dev, got) == AES_DEV_OK);
    AESOC_CHECK((got[0] | got[1] | got[2] | got[3]) == 0); /* IV zeroised */
    AESOC_CHECK(aes_dev_pull(&dev, got) == AES_DEV_AGAIN);
  }
}

static void errors_and_interrupts(void) {
  uint32_t key[4] = {7, 7, 7, 7}, blk[4] = {1, 2, 3, 4}, out[4];
  aes_dev_config_t cfg = {.mode = AES_DEV_ECB, .dir = AES_DEV_ENCRYPT, .key_len = 16};
  AESOC_CHECK(aes_dev_setup(&dev, &cfg, key, NULL) == AES_DEV_OK);
  (void)aes_dev_irq_ack(&dev); /* drop completions of earlier blocks */
  aesoc_irq_unmask_line(AESOC_IRQ_AES);
  aes_dev_irq_enable(&dev, 1, 1);
  AESOC_CHECK(aes_dev_crypt(&dev, blk, out, 1) == AES_DEV_OK);
  for (volatile int d = 0; d < 20; ++d) {
  }
  AESOC_CHECK(irq_done_count == 1);
  /* Bad configuration: an unencoded mode. The engine refuses the block, raises ERR, and the
   * error interrupt fires; no output appears. */
  AES(CTRL) = 3u << AES_PERIPH__CTRL__MODE_bp;
  AESOC_CHECK(aes_dev_push(&dev, blk) == AES_DEV_OK);
  for (volatile int d = 0; d < 40; ++d) {
  }
  AESOC_CHECK(AES(STATUS) & AES_PERIPH__STATUS__ERR_bm);
  AESOC_CHECK(irq_err_count == 1);
  AESOC_CHECK(aes_dev_pull(&dev, out) == AES_DEV_AGAIN);
  /* Key length other than the loaded key's. */
  AESOC_CHECK(aes_dev_clear(&dev) == AES_DEV_OK);
  AESOC_CHECK(aes_dev_setup(&dev, &cfg, key, NULL) == AES_DEV_OK);
  AES(CTRL) = 2u << AES_PERIPH__CTRL__KEY_LEN_bp;
  AESOC_CHECK(aes_dev_push(&dev, blk) == AES_DEV_OK);
  for (volatile int d = 0; d < 40; ++d) {
  }
  AESOC_CHECK(AES(STATUS) & AES_PERIPH__STATUS__ERR_bm);
  /* CMD.START with a full input FIFO is refused with ERR, not dropped silently. */
  AESOC_CHECK(aes_dev_clear(&dev) == AES_DEV_OK);
  AESOC_CHECK(aes_dev_setup(&dev, &cfg, key, NULL) == AES_DEV_OK);
  AES(CTRL) = AES_PERIPH__CTRL__MANUAL_START_bm;
  AES(DATA_IN[0]) = 1;
  AES(DATA_IN[3]) = 2; /* manual mode: staged only */
  AESOC_CHECK((AES(STATUS) & AES_PERIPH__STATUS__IN_LEVEL_bm) == 0);
  for (unsigned i = 0; i < 2 * (dev.in_depth + dev.out_depth) + 2; ++i) AES(CMD) = AES_PERIPH__CMD__START_bm;
  AESOC_CHECK(AES(STATUS) & AES_PERIPH__STATUS__ERR_bm);
  AESOC_CHECK(aes_dev_clear(&dev) == AES_DEV_OK);
  /* Bad mode, key length change, refused STARTs (one per START the handler saw pending). */
  AESOC_CHECK(irq_err_count >= 3);
  aesoc_irq_mask_line(AESOC_IRQ_AES);
  /* Driver argument checks: nothing happens on bad input. */
  AESOC_CHECK(aes_dev_setup(&dev, &(aes_dev_config_t){.key_len = 17}, key, NULL) == AES_DEV_BAD_ARG);
  AESOC_CHECK(aes_dev_setup(&dev, &(aes_dev_config_t){.mode = AES_DEV_CBC, .key_len = 16}, key, NULL) ==
              AES_DEV_BAD_ARG);
  AESOC_CHECK(aes_dev_crypt(&dev, (const uint8_t *)blk + 2, out, 1) == AES_DEV_BAD_ARG);
}

int main(void) {
  aes_dev_init(&dev, AESOC_AES_BASE);
  aesoc_irq_enable_external();
  identity_and_keys();
  aes_dev_check_fips197(&dev);
  differential();
  fifo_stall_and_levels();
  clear_mid_operation();
  errors_and_interrupts();
  aesoc_rec_begin("aes_dev");
  aesoc_rec_u64("failures", aesoc_check_failures);
  aesoc_rec_end();
  return aesoc_check_failures ? 1 : 0;
}
