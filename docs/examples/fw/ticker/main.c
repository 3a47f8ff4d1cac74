/* SPDX-License-Identifier: Apache-2.0 */
/* The example ticker on the SoC of docs/examples/ticker-soc.toml: a DMA channel paced by the
 * ticker's request line copies tick numbers 1..N into a buffer, and the tick IRQ arrives on the
 * line the SoC description assigned. Every number comes from the generated aesoc_map.h. */
#include <stdio.h>

#include "aesoc.h"
#include "dma.h"
#include "ticker.h"

#define TICKS 16u
#define PERIOD 200u /* cycles per tick: long enough for the DMA to read each one */

static volatile uint32_t tick_irqs;
static ticker_dev_t ticker;
static uint32_t samples[TICKS];

void aesoc_external_irq(uint32_t pending) {
  if (pending & (1u << AESOC_IRQ_TICKER)) {
    if (ticker_irq_ack(&ticker)) tick_irqs++;
  }
}

int main(void) {
  dma_t dma;
  dma_init(&dma, AESOC_DMA_BASE);
  AESOC_CHECK(dma_probe(&dma) == DMA_OK);
  AESOC_CHECK(dma.num_req == AESOC_DMA_NUM_REQ);
  ticker_init(&ticker, AESOC_TICKER_BASE);

  dma_chan_config_t cfg = dma_default_config();
  cfg.src_mode = DMA_ADDR_FIXED;
  cfg.burst = 1;
  cfg.block_words = 1;
  cfg.src_req = (int)AESOC_DMA_REQ_TICKER_TICK;
  AESOC_CHECK(dma_config(&dma, 0, &cfg) == DMA_OK);
  AESOC_CHECK(dma_set_transfer(&dma, 0, ticker_ticks_addr(&ticker), (uintptr_t)samples, sizeof samples, NULL) ==
              DMA_OK);
  AESOC_CHECK(dma_start(&dma, DMA_CH(0)) == DMA_OK);

  aesoc_irq_unmask_line(AESOC_IRQ_TICKER);
  uint64_t start = aesoc_cycles();
  AESOC_CHECK(ticker_start(&ticker, PERIOD, true) == TICKER_OK);
  AESOC_CHECK(dma_wait(&dma, 0, DMA_WAIT_BOUND) == DMA_OK);
  uint64_t cycles = aesoc_cycles() - start;
  ticker_stop(&ticker);
  aesoc_irq_mask_line(AESOC_IRQ_TICKER);

  aesoc_dcache_invalidate();
  for (uint32_t i = 0; i < TICKS; i++) {
    AESOC_CHECK(samples[i] == i + 1u); /* every tick read once, in order */
  }
  AESOC_CHECK(cycles >= (uint64_t)TICKS * PERIOD);
  AESOC_CHECK(tick_irqs >= TICKS);
  printf("@@AESOC {\"kind\":\"ticker\",\"irq_line\":%u,\"dma_req\":%u,\"base\":%lu,\"ticks\":%u,\"irqs\":%lu,"
         "\"cycles\":%lu}\n",
         (unsigned)AESOC_IRQ_TICKER, (unsigned)AESOC_DMA_REQ_TICKER_TICK, (unsigned long)AESOC_TICKER_BASE,
         (unsigned)TICKS, (unsigned long)tick_irqs, (unsigned long)cycles);
  return aesoc_check_failures == 0 ? 0 : 1;
}
