/* SPDX-License-Identifier: Apache-2.0 */
/* dma-aes: DMA-fed AES requests through the aes_dma driver, a tcrypt-like sweep re-running the OMAP
 * sDMA study (BayLibre) knob by knob: 16 B..16 KB, AES-128/192/256, CBC encrypt and decrypt, CTR,
 * for each DMA configuration of the study. Each request runs twice: with the driver reading the
 * hardware counters (DMA channel, engine busy, bus beats) and without (total as a user sees it;
 * fixed cost = total - hardware). Then software (crossover), and 1 KB / 16 KB with concurrent
 * traffic (CPU loop, second DMA channel) with and without priority. Outputs checked by software. */
#include <string.h>

#include "aes_dma.h"
#include "aesoc_dma.h"
#include "aesoc.h"
#include "swcrypto.h"

#define MAX_BYTES 16384u
#if defined(DMA_AES_SMOKE) && !defined(DMA_AES_PLACEMENT) /* a short run: its references cost less */
#define REF_BYTES 1024u
#else
#define REF_BYTES 4096u /* outputs are checked against software over this prefix */
#endif
#define COPY_BYTES 16384u
#define CH_IN 0u
#define CH_OUT 1u
#define CH_COPY 2u
#define WAIT_POLLS 1000000u /* a 16 KB request needs about 1000 */

/* Source in bank 0, destination in bank 1: the read and write masters work on different banks. */
static uint8_t src[MAX_BYTES] __attribute__((aligned(32)));
static uint8_t dst[MAX_BYTES] __attribute__((aligned(32), section(".sram1")));
static uint8_t ref[3][3][REF_BYTES] __attribute__((aligned(32)));
static uint8_t copy_src[COPY_BYTES] __attribute__((aligned(32)));
static uint8_t copy_dst[COPY_BYTES] __attribute__((aligned(32), section(".sram1")));
static uint8_t key_bytes[32] __attribute__((aligned(4)));
static uint8_t iv0[16] __attribute__((aligned(4)));

static aes_dev_t aes;
static dma_t dma;
static aes_dma_t eng;
static aes_dma_key_t keys[3];
static swc_aes_ctx swc_enc[3], swc_dec[3];

static const unsigned SIZES[] = {16, 64, 256, 512, 1024, 4096, 16384};
#define NUM_SIZES (sizeof SIZES / sizeof SIZES[0])

typedef struct {
  const char *name;
  unsigned burst, fifo_words, prio;
  bool prefetch, bus_prio, early_start;
} dma_cfg_t;

/* The study's sequence: default sDMA set-up, then prefetch, FIFO size, priority, early start
 * (its end result), and our 8-beat memory bursts on top. */
static const dma_cfg_t CONFIGS[] = {
    {"default", 4, 16, 0, false, false, false},
    {"prefetch", 4, 16, 0, true, false, false},
    {"fifo32", 4, 32, 0, true, false, false},
    {"fifo64", 4, 64, 0, true, false, false},
    {"high-priority", 4, 64, 3, true, true, false},
    {"early-start", 4, 64, 3, true, true, true},
    {"burst8", 8, 64, 3, true, true, true},
};
/* DMA_AES_PLACEMENT=N: the placement sweep's run. The default configuration's AES-128 requests
 * and the short ones only, with N bytes of code and of data placed ahead of this file's own, so
 * that its functions and buffers sit elsewhere against the driver's in the direct-mapped caches. */
#ifdef DMA_AES_PLACEMENT
#define DMA_AES_SMOKE
#define PLACEMENT_RUN 1
#if DMA_AES_PLACEMENT > 0
#define PAD_STR(n) #n
#define PAD_SKIP(n) ".skip " PAD_STR(n)
__attribute__((used, noinline)) void dma_aes_code_pad(void) { __asm__ volatile(PAD_SKIP(DMA_AES_PLACEMENT)); }
__attribute__((used)) volatile uint8_t dma_aes_data_pad[DMA_AES_PLACEMENT];
#endif
#else
#define PLACEMENT_RUN 0
#endif
#ifdef DMA_AES_SMOKE /* the test suite's short run: default configuration, AES-128 */
#define NUM_CONFIGS 1u
#define NUM_SWEEP_KEYS 1u
#define SW_MAX_BYTES 1024u /* software AES is most of a short run's cycles */
#define SMOKE_RUN 1
#else
#define SMOKE_RUN 0
#define NUM_CONFIGS (sizeof CONFIGS / sizeof CONFIGS[0])
#define NUM_SWEEP_KEYS 3u
#define SW_MAX_BYTES REF_BYTES
#endif

typedef struct {
  const char *name;
  aes_dev_mode_t mode;
  aes_dev_dir_t dir;
} op_t;
static const op_t OPS[] = {{"cbc-enc", AES_DEV_CBC, AES_DEV_ENCRYPT},
                           {"cbc-dec", AES_DEV_CBC, AES_DEV_DECRYPT},
                           {"ctr", AES_DEV_CTR, AES_DEV_ENCRYPT}};
#define NUM_OPS (sizeof OPS / sizeof OPS[0])

void aesoc_external_irq(uint32_t pending) {
  if (pending & (1u << AESOC_IRQ_DMA)) aes_dma_irq(&eng);
}

static aes_dma_opts_t opts_of(const dma_cfg_t *c, bool counters, bool irq) {
  aes_dma_opts_t o = aes_dma_default_opts();
  o.burst = c->burst;
  o.fifo_words = c->fifo_words;
  o.prio = c->prio;
  o.prefetch = c->prefetch;
  o.bus_prio = c->bus_prio;
  o.early_start = c->early_start;
  o.counters = counters;
  o.use_irq = irq;
  o.platform = &aesoc_aes_dma_platform;
  o.dma_min = 0; /* the study's requests all go through the channels; short() compares the CPU path */
  return o;
}

/* Software reference with the fastest library variant (also the software side of the crossover). */
static uint32_t sw_run(unsigned k, const op_t *op, const uint8_t *in, uint8_t *out, size_t len) {
  uint8_t iv[16] __attribute__((aligned(4)));
  memcpy(iv, iv0, 16);
  uint32_t t0 = aesoc_cycles32();
  swc_result r;
  if (op->mode == AES_DEV_CTR) {
    r = swc_aes_ctr(&swc_enc[k], iv, in, out, len);
  } else if (op->dir == AES_DEV_ENCRYPT) {
    r = swc_aes_cbc_encrypt(&swc_enc[k], iv, in, out, len);
  } else {
    r = swc_aes_cbc_decrypt(&swc_dec[k], iv, in, out, len);
  }
  uint32_t t = aesoc_cycles32() - t0;
  AESOC_CHECK(r == SWC_OK);
  return t;
}

/* A request that did not complete: what the hardware says, then a reset so the sweep goes on. */
static void report_failure(const aes_dma_req_t *req, aes_dma_result_t r) {
  dma_counters_t in, out;
  AESOC_CHECK(dma_counters(&dma, CH_IN, &in) == DMA_OK && dma_counters(&dma, CH_OUT, &out) == DMA_OK);
  aesoc_rec_begin("dma_aes_failure");
  aesoc_rec_u64("result", r);
  aesoc_rec_u64("bytes", req->len);
  aesoc_rec_u64("in_busy", dma_busy(&dma, CH_IN));
  aesoc_rec_u64("out_busy", dma_busy(&dma, CH_OUT));
  aesoc_rec_u64("in_err", dma_error(&dma, CH_IN));
  aesoc_rec_u64("out_err", dma_error(&dma, CH_OUT));
  aesoc_rec_u64("in_rd", in.rd_beats);
  aesoc_rec_u64("in_wr", in.wr_beats);
  aesoc_rec_u64("out_rd", out.rd_beats);
  aesoc_rec_u64("out_wr", out.wr_beats);
  aesoc_rec_u64("aes_status", aes_dev_status(&aes));
  aesoc_rec_end();
  aes_dma_reset(&eng);
}

/* One hardware request from submit to the completion seen by the caller (polling), run three
 * times back to back like tcrypt's loop; the last (warm caches) is reported. */
static uint32_t hw_run(unsigned k, const op_t *op, size_t len, aes_dma_req_t *req) {
  uint32_t t = 0;
  for (unsigned rep = 0; rep < 3; ++rep) {
    *req = (aes_dma_req_t){.key = &keys[k], .mode = op->mode, .dir = op->dir, .ctr_width = AES_DEV_CTR128,
                           .src = src, .dst = dst, .len = len};
    memcpy(req->iv, iv0, 16);
    uint32_t t0 = aesoc_cycles32();
    aes_dma_result_t r = aes_dma_submit(&eng, req);
    if (r == AES_DMA_PENDING) r = aes_dma_wait(&eng, req, WAIT_POLLS);
    t = aesoc_cycles32() - t0;
    AESOC_CHECK(r == AES_DMA_OK);
    if (r != AES_DMA_OK) {
      report_failure(req, r);
      return t;
    }
  }
  return t;
}

static void sweep(void) {
  for (unsigned ci = 0; ci < NUM_CONFIGS; ++ci) {
    const dma_cfg_t *cfg = &CONFIGS[ci];
    aes_dma_opts_t with = opts_of(cfg, true, false), without = opts_of(cfg, false, false);
    for (unsigned k = 0; k < NUM_SWEEP_KEYS; ++k) {
      for (unsigned oi = 0; oi < NUM_OPS; ++oi) {
        const op_t *op = &OPS[oi];
        for (unsigned si = 0; si < NUM_SIZES; ++si) {
          size_t len = SIZES[si];
          aes_dma_req_t req;
          AESOC_CHECK(aes_dma_set_opts(&eng, &with) == AES_DMA_OK);
          uint32_t t_cnt = hw_run(k, op, len, &req);
          aes_dma_hw_t hw = req.hw;
          AESOC_CHECK(memcmp(dst, ref[k][oi], len < REF_BYTES ? len : REF_BYTES) == 0);
          memset(dst, 0, 16);
          AESOC_CHECK(aes_dma_set_opts(&eng, &without) == AES_DMA_OK);
          uint32_t total = hw_run(k, op, len, &req);
          AESOC_CHECK(memcmp(dst, ref[k][oi], 16) == 0);
          aesoc_rec_begin("dma_aes");
          aesoc_rec_str("config", cfg->name);
          aesoc_rec_u64("key_bits", 128u + 64u * k);
          aesoc_rec_str("op", op->name);
          aesoc_rec_u64("bytes", len);
          aesoc_rec_u64("total", total);
          aesoc_rec_u64("total_with_counters", t_cnt);
          aesoc_rec_u64("hw", hw.dma_cycles);
          aesoc_rec_u64("engine_busy", hw.engine_busy);
          aesoc_rec_u64("beats", hw.beats);
          aesoc_rec_u64("in_wait", hw.in_wait);
          aesoc_rec_u64("out_wait", hw.out_wait);
          aesoc_rec_end();
        }
      }
    }
  }
}

/* Short requests, default DMA configuration, AES-128: each fed by the CPU through the registers
 * (dma_min above it), through the channels (dma_min 0) and with the driver's default dma_min,
 * warm caches (hw_run), the output checked. The crossover sets AES_DMA_DMA_MIN. */
static const unsigned SHORT_SIZES[] = {16, 32, 48, 64, 96, 128, 144, 160, 192, 256, 384, 512};
#define NUM_SHORT (sizeof SHORT_SIZES / sizeof SHORT_SIZES[0])

static void short_requests(void) {
  static const size_t MINS[3] = {(size_t)-1, 0, AES_DMA_DMA_MIN};
  static const char *const PATHS[3] = {"cpu", "dma", "default"};
  for (unsigned oi = 0; oi < NUM_OPS; ++oi) {
    for (unsigned si = 0; si < NUM_SHORT; ++si) {
      size_t len = SHORT_SIZES[si];
      aesoc_rec_begin("dma_aes_short");
      aesoc_rec_str("op", OPS[oi].name);
      aesoc_rec_u64("bytes", len);
      for (unsigned p = 0; p < 3; ++p) {
        aes_dma_opts_t o = opts_of(&CONFIGS[0], false, false);
        o.dma_min = MINS[p];
        AESOC_CHECK(aes_dma_set_opts(&eng, &o) == AES_DMA_OK);
        memset(dst, 0, len);
        aes_dma_req_t req;
        uint32_t t = hw_run(0, &OPS[oi], len, &req);
        AESOC_CHECK(memcmp(dst, ref[0][oi], len) == 0);
        aesoc_rec_u64(PATHS[p], t);
      }
      aesoc_rec_end();
    }
  }
}

/* Software time for the crossover (AES-128, each operation; warm caches: second run). */
static void software(void) {
  for (unsigned oi = 0; oi < NUM_OPS; ++oi) {
    for (unsigned si = 0; si < NUM_SIZES && SIZES[si] <= SW_MAX_BYTES; ++si) {
      (void)sw_run(0, &OPS[oi], src, dst, SIZES[si]);
      uint32_t t = sw_run(0, &OPS[oi], src, dst, SIZES[si]);
      aesoc_rec_begin("dma_aes_sw");
      aesoc_rec_str("op", OPS[oi].name);
      aesoc_rec_u64("bytes", SIZES[si]);
      aesoc_rec_u64("cycles", t);
      aesoc_rec_str("variant", swc_aes_variant());
      aesoc_rec_end();
    }
  }
}

/* Concurrent traffic: while the request runs (completion by interrupt), the CPU reads the
 * source bank uncached in a loop, or a third channel copies 16 KB from bank 0 to bank 1. */
static void contention(void) {
  static const unsigned sizes[] = {1024, 16384};
  volatile uint32_t *cpu_buf = (volatile uint32_t *)AESOC_UNCACHED(copy_src);
  for (unsigned prio = 0; prio < 2; ++prio) {
    dma_cfg_t cfg = CONFIGS[3]; /* fifo64, prefetch */
    cfg.prio = prio ? 3 : 0;
    cfg.bus_prio = prio;
    aes_dma_opts_t o = opts_of(&cfg, true, true);
    AESOC_CHECK(aes_dma_set_opts(&eng, &o) == AES_DMA_OK);
    for (unsigned load = 0; load < 3; ++load) {
      for (unsigned si = 0; si < 2; ++si) {
        aes_dma_req_t req = {.key = &keys[0], .mode = AES_DEV_CBC, .dir = AES_DEV_ENCRYPT,
                             .ctr_width = AES_DEV_CTR128, .src = src, .dst = dst, .len = sizes[si]};
        memcpy(req.iv, iv0, 16);
        if (load == 2) {
          dma_chan_config_t cc = dma_default_config();
          AESOC_CHECK(dma_config(&dma, CH_COPY, &cc) == DMA_OK);
          AESOC_CHECK(dma_set_transfer(&dma, CH_COPY, (uintptr_t)copy_src & ~AESOC_UNCACHED_BIT, (uintptr_t)copy_dst & ~AESOC_UNCACHED_BIT, COPY_BYTES, NULL) ==
                      DMA_OK);
          AESOC_CHECK(dma_start(&dma, DMA_CH(CH_COPY)) == DMA_OK);
        }
        uint32_t loops = 0, sink = 0;
        aesoc_irq_enable_global();
        uint32_t t0 = aesoc_cycles32();
        aes_dma_result_t r = aes_dma_submit(&eng, &req);
        if (load == 1) {
          while (req.result == AES_DMA_PENDING && loops < AES_DMA_WAIT_BOUND) {
            sink += cpu_buf[loops & 255u] + cpu_buf[(loops + 128u) & 255u];
            ++loops;
          }
        } else {
          r = aes_dma_wait(&eng, &req, WAIT_POLLS);
        }
        uint32_t t = aesoc_cycles32() - t0;
        aesoc_irq_disable_global();
        AESOC_CHECK(r == AES_DMA_OK || r == AES_DMA_PENDING);
        AESOC_CHECK(req.result == AES_DMA_OK);
        if (load == 2) AESOC_CHECK(dma_wait(&dma, CH_COPY, DMA_WAIT_BOUND) == DMA_OK);
        aesoc_rec_begin("dma_aes_load");
        aesoc_rec_str("load", load == 0 ? "none" : load == 1 ? "cpu-loop" : "dma-copy");
        aesoc_rec_u64("priority", prio);
        aesoc_rec_u64("bytes", sizes[si]);
        aesoc_rec_u64("total", t);
        aesoc_rec_u64("hw", req.hw.dma_cycles);
        aesoc_rec_u64("cpu_loops", loops);
        aesoc_rec_u64("sink", sink & 1u);
        aesoc_rec_end();
      }
    }
  }
}

int main(void) {
  uint32_t s = 0x6A09E667u;
  for (unsigned i = 0; i < MAX_BYTES / 4; ++i) ((uint32_t *)src)[i] = aesoc_xorshift32(&s);
  for (unsigned i = 0; i < COPY_BYTES / 4; ++i) ((uint32_t *)copy_src)[i] = aesoc_xorshift32(&s);
  for (unsigned i = 0; i < 32; ++i) key_bytes[i] = (uint8_t)aesoc_xorshift32(&s);
  for (unsigned i = 0; i < 16; ++i) iv0[i] = (uint8_t)aesoc_xorshift32(&s);
  AESOC_CHECK(swc_aes_init() == SWC_OK);
  for (unsigned k = 0; k < 3; ++k) {
    AESOC_CHECK(aes_dma_key_set(&keys[k], key_bytes, 16u + 8u * k) == AES_DMA_OK);
    AESOC_CHECK(swc_aes_setkey_enc(&swc_enc[k], key_bytes, 128u + 64u * k) == SWC_OK);
    AESOC_CHECK(swc_aes_setkey_dec(&swc_dec[k], key_bytes, 128u + 64u * k) == SWC_OK);
  }
  for (unsigned k = 0; k < NUM_SWEEP_KEYS; ++k) { /* references for the key sizes the sweep runs */
    for (unsigned oi = 0; oi < NUM_OPS; ++oi) (void)sw_run(k, &OPS[oi], src, ref[k][oi], REF_BYTES);
  }
  aes_dev_init(&aes, AESOC_AES_BASE);
  dma_init(&dma, AESOC_DMA_BASE);
  aes_dma_opts_t o = opts_of(&CONFIGS[0], true, false);
  AESOC_CHECK(aes_dma_init(&eng, &aes, &dma, CH_IN, CH_OUT, &o) == AES_DMA_OK);
  aesoc_irq_unmask_line(AESOC_IRQ_DMA);
  uint32_t hw = *(volatile uint32_t *)(AESOC_AES_BASE + offsetof(aes_periph_t, HWCFG));
  aesoc_rec_begin("dma_aes_engine");
  aesoc_rec_u64("rounds_per_cycle", (hw & AES_PERIPH__HWCFG__ROUNDS_PER_CYCLE_bm) >> AES_PERIPH__HWCFG__ROUNDS_PER_CYCLE_bp);
  aesoc_rec_u64("pipelined", (hw & AES_PERIPH__HWCFG__PIPELINED_bm) != 0);
  aesoc_rec_u64("fifo_depth", dma.fifo_depth);
  aesoc_rec_u64("dma_min", AES_DMA_DMA_MIN);
  aesoc_rec_end();
  aesoc_rec_begin("dma_aes_layout");
  aesoc_rec_u64("main", (uintptr_t)main);
  aesoc_rec_u64("src", (uintptr_t)src);
  aesoc_rec_u64("eng", (uintptr_t)&eng);
  aesoc_rec_u64("submit", (uintptr_t)aes_dma_submit);
#if defined(DMA_AES_PLACEMENT) && DMA_AES_PLACEMENT > 0
  aesoc_rec_u64("pad", (uintptr_t)dma_aes_code_pad + dma_aes_data_pad[0]); /* referenced: kept by the linker */
#endif
  aesoc_rec_end();
  sweep();
#ifdef DMA_AES_SWEEP /* a point of `aesoc sweep` (with DMA_AES_SMOKE): it reports the sweep's records only */
  return aesoc_check_failures ? 1 : 0;
#endif
  short_requests();
  if (PLACEMENT_RUN) return aesoc_check_failures ? 1 : 0;
  /* The tables take the crossover from the iterative engine's run (the same CPU and code on either
   * SoC): a short run times software once, not again on the slower-to-simulate pipelined SoC. */
  if (!SMOKE_RUN || (hw & AES_PERIPH__HWCFG__PIPELINED_bm) == 0) software();
  contention();
  return aesoc_check_failures ? 1 : 0;
}
