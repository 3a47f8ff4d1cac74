/* SPDX-License-Identifier: Apache-2.0 */
/*
 * xip-read benchmark: AN13198's flash read measurement on aesoc. Two read-only buffers of each
 * size (4 KB, 16 KB) in the flash, word i holding i; timed loops in SRAM (loops.S) read them with
 * 8-, 16-, 32-bit loads and bursts of eight 32-bit loads, linearly over one buffer or alternating
 * between the two (ping-pong, both read in full), with
 *   disabled:    loads through the uncached alias (0xA000_0000 view), the D-cache bypassed;
 *   invalidated: cached view, D-cache invalidated before the pass;
 *   filled:      the next pass right after the invalidated one (the app note's second pass).
 * The XIP prefetch buffer is flushed before every pass, so each starts on an idle controller, and
 * the three passes of a cell run back to back from SRAM.
 * Then single-access latencies (line refill, uncached read) and a check that every buffer reads
 * back as written through both views and all widths. Built once, run from a plaintext and from
 * an OTFAD-encrypted image (aesoc/bench/xip_read.py).
 */
#include "aesoc.h"
#include "aesoc_vectors.h"
#include "xip.h"


/* Aligned to 1 KB as in the app note. */
static const uint32_t buf4_a[1024] __attribute__((aligned(1024))) = {AESOC_RAMP_1024(0u)};
static const uint32_t buf4_b[1024] __attribute__((aligned(1024))) = {AESOC_RAMP_1024(0u)};
static const uint32_t buf16_a[4096] __attribute__((aligned(1024))) = {AESOC_RAMP_4096(0u)};
static const uint32_t buf16_b[4096] __attribute__((aligned(1024))) = {AESOC_RAMP_4096(0u)};

typedef void (*linear_fn)(uintptr_t start, uintptr_t end);
typedef void (*pingpong_fn)(uintptr_t a, uintptr_t b, uint32_t bytes);
void read_linear8(uintptr_t start, uintptr_t end);
void read_linear16(uintptr_t start, uintptr_t end);
void read_linear32(uintptr_t start, uintptr_t end);
void read_burst8(uintptr_t start, uintptr_t end);
void read_pingpong8(uintptr_t a, uintptr_t b, uint32_t bytes);
void read_pingpong16(uintptr_t a, uintptr_t b, uint32_t bytes);
void read_pingpong32(uintptr_t a, uintptr_t b, uint32_t bytes);

#define RAMFUNC __attribute__((section(".ramfunc"), noinline))
#define WARMUP_BYTES 128u

static volatile uint32_t sink;
static volatile uint32_t sram_line[8] __attribute__((aligned(32)));

/* The three passes of one cell, with no flash code in between (it would go through the caches):
 * disabled (uncached view), invalidated, filled. A first short pass on the uncached view brings
 * the loop into the I-cache without touching the D-cache. */
RAMFUNC static void passes_linear(linear_fn fn, uintptr_t buf, uint32_t bytes, uint32_t cycles[3]) {
  uintptr_t uncached = buf | AESOC_UNCACHED_BIT;
  fn(uncached, uncached + WARMUP_BYTES);
  xip_flush(AESOC_XIP_BASE);
  uint32_t t0 = aesoc_cycles32();
  fn(uncached, uncached + bytes);
  cycles[0] = aesoc_cycles32() - t0;
  xip_flush(AESOC_XIP_BASE);
  aesoc_dcache_invalidate();
  t0 = aesoc_cycles32();
  fn(buf, buf + bytes);
  cycles[1] = aesoc_cycles32() - t0;
  xip_flush(AESOC_XIP_BASE);
  t0 = aesoc_cycles32();
  fn(buf, buf + bytes);
  cycles[2] = aesoc_cycles32() - t0;
}

RAMFUNC static void passes_pingpong(pingpong_fn fn, uintptr_t a, uintptr_t b, uint32_t bytes,
                                    uint32_t cycles[3]) {
  uintptr_t ua = a | AESOC_UNCACHED_BIT, ub = b | AESOC_UNCACHED_BIT;
  fn(ua, ub, WARMUP_BYTES);
  xip_flush(AESOC_XIP_BASE);
  uint32_t t0 = aesoc_cycles32();
  fn(ua, ub, bytes);
  cycles[0] = aesoc_cycles32() - t0;
  xip_flush(AESOC_XIP_BASE);
  aesoc_dcache_invalidate();
  t0 = aesoc_cycles32();
  fn(a, b, bytes);
  cycles[1] = aesoc_cycles32() - t0;
  xip_flush(AESOC_XIP_BASE);
  t0 = aesoc_cycles32();
  fn(a, b, bytes);
  cycles[2] = aesoc_cycles32() - t0;
}

/* Cycles around one 32-bit load (two cycle-counter reads included). */
RAMFUNC static uint32_t timed_load(uintptr_t addr, int flush, int invalidate) {
  if (flush) xip_flush(AESOC_XIP_BASE);
  if (invalidate) aesoc_dcache_invalidate();
  uint32_t t0 = aesoc_cycles32();
  uint32_t v = *(volatile uint32_t *)addr;
  uint32_t t1 = aesoc_cycles32();
  sink = v;
  return t1 - t0;
}

typedef struct {
  uint32_t refill, hit, single, sram_refill, sram_hit, sram_uncached;
} latency_t;

/* One load on an idle controller: a line refill (cached, invalidated), the same load hitting
 * the D-cache, a single uncached read; the same for an SRAM line, which gives the core's own
 * share of each (the SRAM answers a refill in 9 bus cycles, a single read in 2). */
RAMFUNC static void latencies(uintptr_t line, latency_t *out) {
  uintptr_t sram = (uintptr_t)sram_line;
  (void)timed_load(sram | AESOC_UNCACHED_BIT, 0, 0);      /* timed_load into the I-cache */
  (void)timed_load(line | AESOC_UNCACHED_BIT, 1, 0);      /* enter or leave continuous-read mode */
  out->refill = timed_load(line, 1, 1);
  out->hit = timed_load(line, 0, 0);
  out->single = timed_load(line | AESOC_UNCACHED_BIT, 1, 0);
  out->sram_refill = timed_load(sram, 0, 1);
  out->sram_hit = timed_load(sram, 0, 0);
  out->sram_uncached = timed_load(sram | AESOC_UNCACHED_BIT, 0, 0);
}

static void record(uint32_t size, const char *pattern, const char *access, uint32_t bytes,
                   const uint32_t cycles[3]) {
  static const char *const dcache[3] = {"disabled", "invalidated", "filled"};
  for (unsigned i = 0; i < 3; i++) {
    aesoc_rec_begin("xip_read");
    aesoc_rec_u64("size", size);
    aesoc_rec_str("pattern", pattern);
    aesoc_rec_str("access", access);
    aesoc_rec_str("dcache", dcache[i]);
    aesoc_rec_u64("bytes", bytes);
    aesoc_rec_u64("cycles", cycles[i]);
    aesoc_rec_end();
  }
}

static void measure_linear(uint32_t size, const uint32_t *buf, const char *access, linear_fn fn) {
  uint32_t cycles[3];
  passes_linear(fn, (uintptr_t)buf, size, cycles);
  record(size, "linear", access, size, cycles);
}

static void measure_pingpong(uint32_t size, const uint32_t *a, const uint32_t *b, const char *access,
                             pingpong_fn fn) {
  uint32_t cycles[3];
  passes_pingpong(fn, (uintptr_t)a, (uintptr_t)b, size, cycles);
  record(size, "pingpong", access, 2 * size, cycles);
}

static void measure_size(uint32_t size, const uint32_t *a, const uint32_t *b) {
  measure_linear(size, a, "8-bit", read_linear8);
  measure_linear(size, a, "16-bit", read_linear16);
  measure_linear(size, a, "32-bit", read_linear32);
  measure_linear(size, a, "burst8", read_burst8);
  measure_pingpong(size, a, b, "8-bit", read_pingpong8);
  measure_pingpong(size, a, b, "16-bit", read_pingpong16);
  measure_pingpong(size, a, b, "32-bit", read_pingpong32);
}

static void measure_latency(int cont) {
  latency_t lat;
  xip_configure(AESOC_XIP_BASE, 2, XIP_CMD_QUAD_IO, 4, cont);
  latencies((uintptr_t)&buf16_b[64], &lat);
  aesoc_rec_begin("xip_latency");
  aesoc_rec_u64("cont", (uint64_t)cont);
  aesoc_rec_u64("refill", lat.refill);
  aesoc_rec_u64("hit", lat.hit);
  aesoc_rec_u64("single", lat.single);
  aesoc_rec_u64("sram_refill", lat.sram_refill);
  aesoc_rec_u64("sram_hit", lat.sram_hit);
  aesoc_rec_u64("sram_uncached", lat.sram_uncached);
  aesoc_rec_end();
}

/* Words of `buf` that do not read back as their index through `view` with `width`-byte loads. */
static uint32_t errors_in(const uint32_t *buf, uint32_t words, uintptr_t view_bit, unsigned width) {
  const volatile uint8_t *p = (const volatile uint8_t *)((uintptr_t)buf | view_bit);
  uint32_t errors = 0;
  for (uint32_t i = 0; i < words; i++, p += 4) {
    uint32_t v;
    if (width == 1) {
      v = p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    } else if (width == 2) {
      v = ((const volatile uint16_t *)p)[0] | (uint32_t)((const volatile uint16_t *)p)[1] << 16;
    } else {
      v = *(const volatile uint32_t *)p;
    }
    errors += v != i;
  }
  return errors;
}

/* The test suite's short run measures the first 1 KB of the 4 KB buffers and checks the 4 KB
 * buffers in full (aesoc/bench/xip_read.py, SMOKE_SIZE). */
#ifdef XIP_READ_SMOKE
#define NUM_BUFS 2u
#else
#define NUM_BUFS 4u
#endif

int main(void) {
#ifdef XIP_READ_SMOKE
  measure_size(1024, buf4_a, buf4_b);
#else
  measure_size(4096, buf4_a, buf4_b);
  measure_size(16384, buf16_a, buf16_b);
#endif
  measure_latency(1);
  measure_latency(0);
  xip_configure(AESOC_XIP_BASE, 2, XIP_CMD_QUAD_IO, 4, 1);

  static const uint32_t *const bufs[] = {buf4_a, buf4_b, buf16_a, buf16_b};
  static const uint32_t words[] = {1024, 1024, 4096, 4096};
  uint32_t errors = 0, checked = 0;
  aesoc_dcache_invalidate();
  for (unsigned i = 0; i < NUM_BUFS; i++) {
    for (unsigned width = 1; width <= 4; width *= 2) {
      errors += errors_in(bufs[i], words[i], 0, width);
      errors += errors_in(bufs[i], words[i], AESOC_UNCACHED_BIT, width);
      checked += 2 * words[i];
    }
  }
  aesoc_rec_begin("xip_read_check");
  aesoc_rec_u64("words", checked);
  aesoc_rec_u64("errors", errors);
  aesoc_rec_end();
  return errors ? 1 : 0;
}
