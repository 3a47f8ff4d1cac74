/* SPDX-License-Identifier: Apache-2.0 */
/* Host check of the DMA driver against a register file in memory: argument checks, bounded
 * waits, descriptor links, and the register words it writes (printed for test_dma_sw.py, which
 * compares them with fields packed from dma.rdl). */
#include <stdio.h>
#include <string.h>

#include "dma.h"
#include "dma_regs.h"

static union {
  dma_regs_t regs;
  uint32_t words[sizeof(dma_regs_t) / 4];
} hw;

#define CHECK(cond)                                            \
  do {                                                         \
    if (!(cond)) {                                             \
      printf("FAIL line %d: %s\n", __LINE__, #cond);           \
      return 1;                                                \
    }                                                          \
  } while (0)

int main(void) {
  dma_t dma;
  memset(&hw, 0, sizeof(hw));
  dma_init(&dma, (uintptr_t)&hw.regs);
  CHECK(dma_probe(&dma) == DMA_NO_DEV);
  hw.regs.ID = 0x444D4143u;
  hw.regs.HWCFG = 4u | (4u << 4) | (32u << 8) | (3u << 16);
  CHECK(dma_probe(&dma) == DMA_OK && dma.fifo_depth == 32 && dma.num_req == 4);
  CHECK(dma_probe(NULL) == DMA_BAD_ARG);

  dma_chan_config_t cfg = dma_default_config();
  cfg.dst_mode = DMA_ADDR_WRAP;
  cfg.burst = 4;
  cfg.dst_req = 0;
  cfg.src_req = 3;
  cfg.prio = 2;
  cfg.bus_prio = true;
  cfg.prefetch = true;
  cfg.fifo_limit = 8;
  cfg.block_words = 4;
  CHECK(dma_config(&dma, 1, &cfg) == DMA_OK);
  printf("CH1_CTRL=0x%08x\n", (unsigned)hw.regs.CH[1].CTRL);
  printf("CH1_FLOW=0x%08x\n", (unsigned)hw.regs.CH[1].FLOW);

  /* Argument checks: nothing is written. */
  uint32_t before = hw.regs.CH[2].CTRL;
  dma_chan_config_t bad = cfg;
  CHECK(dma_config(&dma, 4, &cfg) == DMA_BAD_ARG);
  CHECK(dma_config(&dma, 2, NULL) == DMA_BAD_ARG);
  bad.burst = 3;
  CHECK(dma_config(&dma, 2, &bad) == DMA_BAD_ARG);
  bad = cfg;
  bad.block_words = 0;
  CHECK(dma_config(&dma, 2, &bad) == DMA_BAD_ARG);
  bad = cfg;
  bad.fifo_limit = 6; /* < 2 * burst */
  CHECK(dma_config(&dma, 2, &bad) == DMA_BAD_ARG);
  bad = cfg;
  bad.dst_req = 4; /* only 4 lines */
  CHECK(dma_config(&dma, 2, &bad) == DMA_BAD_ARG);
  bad = cfg;
  bad.prio = 4;
  CHECK(dma_config(&dma, 2, &bad) == DMA_BAD_ARG);
  CHECK(hw.regs.CH[2].CTRL == before);
  CHECK(dma_set_transfer(&dma, 2, 0x1002, 0x2000, 64, NULL) == DMA_BAD_ARG);
  CHECK(dma_set_transfer(&dma, 2, 0x1000, 0x2000, 0, NULL) == DMA_BAD_ARG);
  CHECK(dma_set_transfer(&dma, 2, 0x1000, 0x2000, 66, NULL) == DMA_BAD_ARG);
  CHECK(dma_set_transfer(&dma, 2, 0x1000, 0x2000, DMA_MAX_LEN + 4, NULL) == DMA_BAD_ARG);

  /* A busy channel is left alone. */
  hw.regs.STATUS = 1u << 2;
  CHECK(dma_set_transfer(&dma, 2, 0x1000, 0x2000, 64, NULL) == DMA_BUSY);
  CHECK(dma_config(&dma, 2, &cfg) == DMA_BUSY);
  CHECK(dma_start(&dma, DMA_CH(2)) == DMA_BUSY);
  CHECK(dma_wait(&dma, 2, 1000) == DMA_TIMEOUT);
  hw.regs.STATUS = 0;

  CHECK(dma_set_transfer(&dma, 2, 0x1000, 0x2000, 64, NULL) == DMA_OK);
  CHECK(hw.regs.CH[2].SRC == 0x1000 && hw.regs.CH[2].DST == 0x2000 && hw.regs.CH[2].LEN == 64 && hw.regs.CH[2].NEXT == 0);

  /* Descriptors. */
  static dma_desc_t descs[3];
  CHECK(dma_desc_fill(&descs[0], 0x100, 0x200, 16) == DMA_OK);
  CHECK(dma_desc_fill(&descs[1], 0x300, 0x400, 32) == DMA_OK);
  CHECK(dma_desc_fill(&descs[2], 0x500, 0x600, 8) == DMA_OK);
  CHECK(dma_desc_fill(&descs[2], 0x501, 0x600, 8) == DMA_BAD_ARG);
  CHECK(dma_desc_link(descs, 3) == DMA_OK);
  CHECK(descs[0].next == (uint32_t)(uintptr_t)&descs[1] && descs[1].next == (uint32_t)(uintptr_t)&descs[2]);
  CHECK(descs[2].next == 0);
  CHECK(dma_set_chain(&dma, 3, &descs[0]) == DMA_OK);
  CHECK(hw.regs.CH[3].NEXT == (uint32_t)(uintptr_t)&descs[0]);
  printf("CH3_CTRL_CHAIN=0x%08x\n", (unsigned)(hw.regs.CH[3].CTRL & DMA_REGS__DMA_CHAN__CTRL__CHAIN_bm));

  /* Start, abort, interrupts, errors. */
  CHECK(dma_start(&dma, 0) == DMA_BAD_ARG);
  CHECK(dma_start(&dma, 1u << 4) == DMA_BAD_ARG);
  CHECK(dma_start(&dma, DMA_CH(0) | DMA_CH(2)) == DMA_OK);
  printf("CMD_START=0x%08x\n", (unsigned)hw.regs.CMD);
  printf("IRQ_STATUS_CLEARED=0x%08x\n", (unsigned)hw.regs.IRQ_STATUS);
  CHECK(dma_abort(&dma, DMA_CH(3)) == DMA_OK);
  printf("CMD_ABORT=0x%08x\n", (unsigned)hw.regs.CMD);
  dma_irq_enable(&dma, 0x5, 0xA);
  printf("IRQ_ENABLE=0x%08x\n", (unsigned)hw.regs.IRQ_ENABLE);
  hw.regs.CH[1].STATUS = 6u << 4;
  CHECK(dma_wait(&dma, 1, 10) == DMA_ERROR);
  CHECK(dma_error(&dma, 1) == DMA_ERR_RD_BUS);
  CHECK(strcmp(dma_err_name(DMA_ERR_RD_BUS), "read bus error") == 0);
  CHECK(strcmp(dma_err_name((dma_err_t)99), "unknown") == 0);
  hw.regs.CH[1].STATUS = 0;
  CHECK(dma_wait(&dma, 1, 10) == DMA_OK);
  hw.regs.CH[3].CYCLES = 11;
  hw.regs.CH[3].WAIT = 12;
  hw.regs.CH[3].RD_BEATS = 13;
  hw.regs.CH[3].WR_BEATS = 14;
  dma_counters_t cnt;
  CHECK(dma_counters(&dma, 3, &cnt) == DMA_OK);
  CHECK(cnt.cycles == 11 && cnt.wait == 12 && cnt.rd_beats == 13 && cnt.wr_beats == 14);
  CHECK(dma_counters(&dma, 3, NULL) == DMA_BAD_ARG);
  printf("PASS\n");
  return 0;
}
