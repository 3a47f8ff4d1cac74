/* SPDX-License-Identifier: Apache-2.0 */
/* Issue 47 item 1b: one DMA channel that would hold SRAM0 for ever. A fixed source word in SRAM0
 * (the CPU's code and data bank), a wrapping destination in SRAM1, 16 MB - 4 per descriptor, the
 * descriptor's NEXT pointing to itself, 8-beat bursts. With CTRL.BUS_PRIO = 1 the channel's reads
 * are in the crossbar's high class; the crossbar's grant budget (ip/wb_xbar, PrioBudget) still
 * lets the CPU in, so the program times its own SRAM0 loads while the channel runs, aborts the
 * channel, checks that it reports the abort, and exits 0. The same with BUS_PRIO = 0 first. */
#include "aesoc.h"
#include "dma.h"

#define CH 0u
#define WRAP_WORDS 16u
#define SAMPLES 64u
#define ABORT_POLLS 100000u

static volatile uint32_t src_word __attribute__((aligned(4)));
static uint32_t dst_ring[WRAP_WORDS] __attribute__((aligned(64), section(".sram1")));
static dma_desc_t desc __attribute__((aligned(16)));
/* Timed loads go through the uncached alias, so every one of them is a bus access to SRAM0. */
static volatile uint32_t probe_word;
static dma_t dma;

typedef struct {
  uint32_t min, max, sum;
} lat_t;

/* Cycles of one uncached SRAM0 load, bracketed by two reads of sysctrl's counter (another slave). */
static lat_t time_loads(void) {
  volatile uint32_t *p = AESOC_UNCACHED(&probe_word);
  lat_t lat = {UINT32_MAX, 0, 0};
  for (unsigned i = 0; i < SAMPLES; ++i) {
    uint32_t t0 = aesoc_cycles32();
    (void)*p;
    uint32_t t = aesoc_cycles32() - t0;
    lat.min = t < lat.min ? t : lat.min;
    lat.max = t > lat.max ? t : lat.max;
    lat.sum += t;
  }
  return lat;
}

static void rec_lat(const char *kind, unsigned bus_prio, const lat_t *lat) {
  aesoc_rec_begin(kind);
  aesoc_rec_u64("bus_prio", bus_prio);
  aesoc_rec_u64("samples", SAMPLES);
  aesoc_rec_u64("min", lat->min);
  aesoc_rec_u64("max", lat->max);
  aesoc_rec_u64("sum", lat->sum);
  aesoc_rec_end();
}

static void starve(unsigned bus_prio) {
  dma_chan_config_t cfg = dma_default_config();
  cfg.src_mode = DMA_ADDR_FIXED;
  cfg.dst_mode = DMA_ADDR_WRAP;
  cfg.block_words = WRAP_WORDS;
  cfg.burst = 8;
  cfg.bus_prio = bus_prio != 0;
  AESOC_CHECK(dma_config(&dma, CH, &cfg) == DMA_OK);
  uintptr_t src = (uintptr_t)&src_word, dst = (uintptr_t)dst_ring;
  /* The descriptor goes out through the write-through cache: the DMA reads it from SRAM0. */
  AESOC_CHECK(dma_desc_fill(&desc, src, dst, DMA_MAX_LEN) == DMA_OK);
  desc.next = (uint32_t)(uintptr_t)&desc;
  AESOC_CHECK(dma_set_transfer(&dma, CH, src, dst, DMA_MAX_LEN, &desc) == DMA_OK);

  AESOC_CHECK(dma_start(&dma, DMA_CH(CH)) == DMA_OK);
  lat_t lat = time_loads();
  AESOC_CHECK(dma_busy(&dma, CH)); /* 16 MB per descriptor: far from done */
  dma_counters_t before;
  AESOC_CHECK(dma_counters(&dma, CH, &before) == DMA_OK);

  uint32_t t0 = aesoc_cycles32();
  AESOC_CHECK(dma_abort(&dma, DMA_CH(CH)) == DMA_OK);
  AESOC_CHECK(dma_wait(&dma, CH, ABORT_POLLS) == DMA_ERROR);
  uint32_t abort_cycles = aesoc_cycles32() - t0;
  AESOC_CHECK(dma_error(&dma, CH) == DMA_ERR_ABORT);
  dma_counters_t after;
  AESOC_CHECK(dma_counters(&dma, CH, &after) == DMA_OK);
  AESOC_CHECK(after.rd_beats > 0 && after.rd_beats >= before.rd_beats);

  rec_lat("starve_load", bus_prio, &lat);
  aesoc_rec_begin("starve_abort");
  aesoc_rec_u64("bus_prio", bus_prio);
  aesoc_rec_u64("abort_cycles", abort_cycles);
  aesoc_rec_u64("dma_cycles", after.cycles);
  aesoc_rec_u64("rd_beats", after.rd_beats);
  aesoc_rec_u64("wr_beats", after.wr_beats);
  aesoc_rec_end();
}

int main(void) {
  dma_init(&dma, AESOC_DMA_BASE);
  AESOC_CHECK(dma_probe(&dma) == DMA_OK);
  src_word = 0x5EED0047u;
  lat_t idle = time_loads();
  rec_lat("starve_load_idle", 0, &idle);
  starve(0);
  starve(1);
  return aesoc_check_failures ? 1 : 0;
}
