/* SPDX-License-Identifier: Apache-2.0 */
/* Platform benchmark: load/store latency cached and uncached, line refill cost, 1 KB memcpy. */
#include <stdint.h>
#include <string.h>

#include "aesoc.h"

#define CHAIN 64 /* dependent loads per measurement */
#define REPEAT_16(x) x x x x x x x x x x x x x x x x
#define REPEAT_64(x) REPEAT_16(x) REPEAT_16(x) REPEAT_16(x) REPEAT_16(x)

/* One pointer per 32-byte line, so a cold chain misses on every load. */
static uint32_t chain_mem[CHAIN * 8] __attribute__((aligned(32)));
static uint8_t copy_src[1024] __attribute__((aligned(32)));
static uint8_t copy_dst[1024] __attribute__((aligned(32)));
static uint32_t store_buf[64] __attribute__((aligned(32)));

/* Cycles to read the counter twice back to back: subtracted from every window. */
static uint32_t overhead;

static void emit(const char *metric, uint32_t cycles, uint32_t ops) {
  aesoc_rec_begin("platform");
  aesoc_rec_str("metric", metric);
  aesoc_rec_u64("cycles", cycles);
  aesoc_rec_u64("ops", ops);
  aesoc_rec_end();
}

static void build_chain(uintptr_t alias) {
  for (int i = 0; i < CHAIN; ++i) {
    uintptr_t next = (uintptr_t)&chain_mem[((i + 1) % CHAIN) * 8];
    chain_mem[i * 8] = (uint32_t)(next | alias);
  }
}

static uint32_t time_chain(uintptr_t alias) {
  uintptr_t p = (uintptr_t)&chain_mem[0] | alias;
  uint32_t t0 = aesoc_cycles32();
  __asm__ volatile(REPEAT_64("lw %0, 0(%0)\n") : "+r"(p) : : "memory");
  uint32_t t1 = aesoc_cycles32();
  return t1 - t0 - overhead;
}

static uint32_t time_stores(volatile uint32_t *buf) {
  uint32_t t0 = aesoc_cycles32();
  __asm__ volatile(REPEAT_64("sw zero, 0(%0)\n") : : "r"(buf) : "memory");
  uint32_t t1 = aesoc_cycles32();
  return t1 - t0 - overhead;
}

static uint32_t time_memcpy(void *dst, const void *src) {
  uint32_t t0 = aesoc_cycles32();
  memcpy(dst, src, sizeof copy_src);
  __asm__ volatile("" ::: "memory");
  uint32_t t1 = aesoc_cycles32();
  return t1 - t0 - overhead;
}

int main(void) {
  uint32_t a = aesoc_cycles32();
  uint32_t b = aesoc_cycles32();
  overhead = b - a;
  emit("counter_read_pair", overhead, 1);

  /* Cached chain: first pass is cold (every load refills a line), second pass hits. */
  build_chain(0);
  aesoc_dcache_invalidate();
  emit("load_chain_cold", time_chain(0), CHAIN);
  emit("load_chain_hit", time_chain(0), CHAIN);

  /* Uncached alias: every load is a single bus read. */
  build_chain(AESOC_UNCACHED_BIT);
  emit("load_chain_uncached", time_chain(AESOC_UNCACHED_BIT), CHAIN);

  emit("store_cached", time_stores(store_buf), 64);
  emit("store_uncached", time_stores(AESOC_UNCACHED(store_buf)), 64);

  for (unsigned i = 0; i < sizeof copy_src; ++i) copy_src[i] = (uint8_t)(i * 7u + 1u);
  aesoc_dcache_invalidate();
  emit("memcpy_1k_cold", time_memcpy(copy_dst, copy_src), sizeof copy_src);
  emit("memcpy_1k_warm", time_memcpy(copy_dst, copy_src), sizeof copy_src);
  emit("memcpy_1k_uncached", time_memcpy(AESOC_UNCACHED(copy_dst), AESOC_UNCACHED(copy_src)),
       sizeof copy_src);
  int ok = memcmp(copy_dst, copy_src, sizeof copy_src) == 0;

  /* A few million cycles of mixed work so the harness can measure simulation speed. */
  uint32_t start = aesoc_cycles32();
  uint32_t sum = 0;
  while (aesoc_cycles32() - start < 3000000u) {
    memcpy(copy_dst, copy_src, sizeof copy_src);
    for (unsigned i = 0; i < sizeof copy_dst; ++i) sum = sum * 31u + copy_dst[i];
  }
  __asm__ volatile("" ::"r"(sum)); /* keep the work */
  return ok ? 0 : 1;
}
