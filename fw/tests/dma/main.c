/* SPDX-License-Identifier: Apache-2.0 */
/* The DMA controller in the SoC: four channels at once (a copy across banks, a three-buffer
 * descriptor chain, a source outside every window, a bus error from an unmapped peripheral
 * register), interrupts per channel, the other channels finishing untouched by the failures,
 * and the hardware's own argument checks (reached by writing the registers directly). */
#include <string.h>

#include "aesoc.h"
#include "dma.h"
#include "dma_regs.h"

#define COPY_BYTES 4096u
#define CHAIN_BYTES 256u

static uint8_t copy_src[COPY_BYTES] __attribute__((aligned(32)));
static uint8_t copy_dst[COPY_BYTES] __attribute__((aligned(32), section(".sram1")));
static uint8_t chain_src[3][CHAIN_BYTES] __attribute__((aligned(32)));
static uint8_t chain_dst[3 * CHAIN_BYTES] __attribute__((aligned(32), section(".sram1")));
static uint8_t err_dst[64] __attribute__((aligned(32), section(".sram1")));
static dma_desc_t descs[3] __attribute__((aligned(16)));
static dma_t dma;
static volatile uint32_t irq_bits;
static volatile unsigned irq_count;

void aesoc_external_irq(uint32_t pending) {
  if (pending & (1u << AESOC_IRQ_DMA)) {
    irq_bits |= dma_irq_ack(&dma);
    ++irq_count;
  }
}

static void fill(void *buf, size_t bytes, uint32_t seed) {
  uint32_t *w = buf;
  for (size_t i = 0; i < bytes / 4; ++i) w[i] = aesoc_xorshift32(&seed);
}

static void four_channels(void) {
  fill(copy_src, COPY_BYTES, 11);
  for (unsigned i = 0; i < 3; ++i) fill(chain_src[i], CHAIN_BYTES, 100 + i);
  memset(copy_dst, 0, COPY_BYTES);
  memset(chain_dst, 0, sizeof chain_dst);

  dma_chan_config_t cfg = dma_default_config();
  for (unsigned c = 0; c < 4; ++c) AESOC_CHECK(dma_config(&dma, c, &cfg) == DMA_OK);
  AESOC_CHECK(dma_set_transfer(&dma, 0, (uintptr_t)copy_src, (uintptr_t)copy_dst, COPY_BYTES, NULL) == DMA_OK);
  /* Chain, in reverse order, so the destination shows the descriptors were followed. */
  for (unsigned i = 0; i < 3; ++i) {
    AESOC_CHECK(dma_desc_fill(&descs[i], (uintptr_t)chain_src[2 - i], (uintptr_t)&chain_dst[i * CHAIN_BYTES],
                              CHAIN_BYTES) == DMA_OK);
  }
  AESOC_CHECK(dma_desc_link(descs, 3) == DMA_OK);
  AESOC_CHECK(dma_set_chain(&dma, 1, &descs[0]) == DMA_OK);
  AESOC_CHECK(dma_set_transfer(&dma, 2, 0x30000000u, (uintptr_t)err_dst, 64, NULL) == DMA_OK);
  /* Inside the AES peripheral's window but at an offset with no register: the slave answers ERR. */
  dma_chan_config_t fixed = cfg;
  fixed.src_mode = DMA_ADDR_FIXED;
  fixed.burst = 1;
  AESOC_CHECK(dma_config(&dma, 3, &fixed) == DMA_OK);
  AESOC_CHECK(dma_set_transfer(&dma, 3, AESOC_AES_BASE + 0xF00u, (uintptr_t)err_dst, 64, NULL) == DMA_OK);

  irq_bits = 0;
  irq_count = 0;
  dma_irq_enable(&dma, 0xFu, 0xFu);
  aesoc_irq_enable_global();
  AESOC_CHECK(dma_start(&dma, DMA_CH(0) | DMA_CH(1) | DMA_CH(2) | DMA_CH(3)) == DMA_OK);
  for (unsigned c = 0; c < 4; ++c) {
    dma_result_t r = dma_wait(&dma, c, DMA_WAIT_BOUND);
    AESOC_CHECK(c < 2 ? r == DMA_OK : r == DMA_ERROR);
  }
  for (unsigned i = 0; i < 1000 && (irq_bits & 0xF0Fu) != 0x0C03u; ++i) {
  }
  aesoc_irq_disable_global();
  AESOC_CHECK(irq_bits == (DMA_IRQ_DONE(0) | DMA_IRQ_DONE(1) | DMA_IRQ_ERR(2) | DMA_IRQ_ERR(3)));
  AESOC_CHECK(irq_count >= 1);
  AESOC_CHECK(dma_error(&dma, 2) == DMA_ERR_SRC_RANGE);
  AESOC_CHECK(dma_error(&dma, 3) == DMA_ERR_RD_BUS);
  dma_counters_t cnt;
  AESOC_CHECK(dma_counters(&dma, 2, &cnt) == DMA_OK && cnt.rd_beats == 0 && cnt.wr_beats == 0);
  AESOC_CHECK(dma_counters(&dma, 0, &cnt) == DMA_OK && cnt.rd_beats == COPY_BYTES / 4 && cnt.wr_beats == COPY_BYTES / 4);
  aesoc_rec_begin("dma_copy");
  aesoc_rec_u64("bytes", COPY_BYTES);
  aesoc_rec_u64("cycles", cnt.cycles);
  aesoc_rec_end();
  aesoc_dcache_invalidate(); /* the DMA wrote behind the write-through cache */
  AESOC_CHECK(memcmp(copy_src, copy_dst, COPY_BYTES) == 0);
  for (unsigned i = 0; i < 3; ++i) AESOC_CHECK(memcmp(chain_src[2 - i], &chain_dst[i * CHAIN_BYTES], CHAIN_BYTES) == 0);
  dma_irq_enable(&dma, 0, 0);
}

/* The controller's own checks, behind the driver's: registers written directly. */
static void hardware_checks(void) {
  volatile dma_regs_t *regs = (volatile dma_regs_t *)AESOC_DMA_BASE;
  uint32_t base = (uint32_t)(uintptr_t)copy_src;
  uint32_t sram0_end = AESOC_SRAM0_BASE + AESOC_SRAM0_BYTES;
  const struct {
    uint32_t src, len;
    dma_err_t err;
  } cases[] = {
      {base, 0, DMA_ERR_ZERO_LEN}, {base + 2, 16, DMA_ERR_ADDR_ALIGN}, {base, 18, DMA_ERR_LEN_ALIGN},
      {sram0_end - 16, 64, DMA_ERR_SRC_RANGE}, /* runs off the end of SRAM0 */
  };
  for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    regs->CH[0].SRC = cases[i].src;
    regs->CH[0].DST = (uint32_t)(uintptr_t)copy_dst;
    regs->CH[0].LEN = cases[i].len;
    regs->CH[0].NEXT = 0;
    regs->CMD = DMA_REGS__CMD__START0_bm;
    AESOC_CHECK(dma_wait(&dma, 0, 10000) == DMA_ERROR);
    AESOC_CHECK(dma_error(&dma, 0) == cases[i].err);
  }
  /* A channel's transfer registers ignore writes while it runs. */
  AESOC_CHECK(dma_set_transfer(&dma, 0, (uintptr_t)copy_src, (uintptr_t)copy_dst, COPY_BYTES, NULL) == DMA_OK);
  AESOC_CHECK(dma_start(&dma, DMA_CH(0)) == DMA_OK);
  regs->CH[0].LEN = 4;
  AESOC_CHECK(dma_wait(&dma, 0, DMA_WAIT_BOUND) == DMA_OK);
  AESOC_CHECK(regs->CH[0].LEN == COPY_BYTES);
}

int main(void) {
  dma_init(&dma, AESOC_DMA_BASE);
  AESOC_CHECK(dma_probe(&dma) == DMA_OK);
  AESOC_CHECK(dma.num_req >= 2);
  aesoc_irq_unmask_line(AESOC_IRQ_DMA);
  four_channels();
  hardware_checks();
  return aesoc_check_failures ? 1 : 0;
}
