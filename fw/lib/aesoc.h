/* SPDX-License-Identifier: Apache-2.0 */
/*
 * aesoc platform library: the pieces every aesoc program uses.
 *
 * Usage:
 *   #include "aesoc.h"
 *   int main(void) {
 *     uint64_t t0 = aesoc_cycles();
 *     ... work ...
 *     aesoc_rec_begin("my-bench");          // one JSON object on one console line,
 *     aesoc_rec_u64("cycles", aesoc_cycles() - t0);   // prefixed so tools can pick it out
 *     aesoc_rec_end();
 *     return 0;                             // exit status of the simulation
 *   }
 *
 * Register offsets come from the PeakRDL-generated headers (never by hand): AESOC_REG() takes
 * the generated struct type and member name and uses offsetof, so accesses are plain 32-bit
 * loads and stores.
 */
#ifndef AESOC_H
#define AESOC_H

#include <stddef.h>
#include <stdint.h>

#include "aesoc_exit.h" /* exit statuses: AESOC_EXIT_BUS_ERROR, ... (generated) */
#include "aesoc_map.h"
#include "sysctrl_regs.h"

#define AESOC_REG(base, type, member) \
  (*(volatile uint32_t *)((uintptr_t)(base) + offsetof(type, member)))
#define SYSCTRL(member) AESOC_REG(AESOC_SYSCTRL_BASE, sysctrl_t, member)

/* The uncached (IO) view of a memory address: bit 31 bypasses the D-cache. */
#define AESOC_UNCACHED(ptr) ((__typeof__(&(ptr)[0]))((uintptr_t)(ptr) | AESOC_UNCACHED_BIT))

/* Exit statuses: a program uses 0..AESOC_EXIT_PROGRAM_MAX; above are the platform's own
 * (AESOC_EXIT_TRAP_BASE | mcause for an exception, AESOC_EXIT_BUS_ERROR for a CPU access that
 * ended in ERR, the XIP boot stub's) and the harness's (aesoc_exit.h, docs/ARCHITECTURE.md). */

/* Prefix of a structured result line on the console. */
#define AESOC_RECORD_PREFIX "@@AESOC "

/* 64-bit cycle counter; reading LO captures HI, so the pair is consistent. */
static inline uint64_t aesoc_cycles(void) {
  uint32_t lo = SYSCTRL(CYCLE_LO);
  uint32_t hi = SYSCTRL(CYCLE_HI);
  return ((uint64_t)hi << 32) | lo;
}

/* Low 32 bits only: one load, for timing short sections. */
static inline uint32_t aesoc_cycles32(void) { return SYSCTRL(CYCLE_LO); }

static inline uint64_t aesoc_mtime(void) {
  uint32_t hi, lo;
  do {
    hi = SYSCTRL(MTIME_HI);
    lo = SYSCTRL(MTIME_LO);
  } while (hi != SYSCTRL(MTIME_HI));
  return ((uint64_t)hi << 32) | lo;
}

/* The D-cache is write-through with allocate on read: invalidate it before reading memory that
 * another master (DMA) wrote. This build's invalidate-all instruction is the custom word 0x500F. */
static inline void aesoc_dcache_invalidate(void) { __asm__ volatile(".word 0x500F" ::: "memory"); }

/* Make instruction fetches see newly written code. */
static inline void aesoc_icache_flush(void) {
  __asm__ volatile("fence.i\n nop\n nop\n nop\n nop" ::: "memory");
}

static inline void aesoc_irq_enable_global(void) { __asm__ volatile("csrsi mstatus, 8"); }
static inline void aesoc_irq_disable_global(void) { __asm__ volatile("csrci mstatus, 8"); }
/* Enable/disable machine timer (MTIE, bit 7) and external (MEIE, bit 11) interrupts. */
static inline void aesoc_irq_enable_timer(void) { __asm__ volatile("csrs mie, %0" ::"r"(1u << 7)); }
static inline void aesoc_irq_enable_external(void) { __asm__ volatile("csrs mie, %0" ::"r"(1u << 11)); }
/* Unmask external line n in the core's mask CSR 0xBC0, keeping bit 31 (CFU enable). */
void aesoc_irq_unmask_line(unsigned line);
void aesoc_irq_mask_line(unsigned line);
void aesoc_timer_set(uint64_t mtimecmp);

/* Interrupt hooks: weak defaults do nothing; a program overrides the ones it uses. */
void aesoc_timer_irq(void);
void aesoc_external_irq(uint32_t pending);

void aesoc_putc(char c);
void aesoc_puts(const char *s);

/* Open and close an activity window: one console store each, never echoed. The activity model
 * (`soc.build_model(activity=True)`) reports the toggles of each window; other models ignore it. */
static inline void aesoc_activity_begin(void) { SYSCTRL(CONSOLE) = AESOC_ACTIVITY_BEGIN; }
static inline void aesoc_activity_end(void) { SYSCTRL(CONSOLE) = AESOC_ACTIVITY_END; }
__attribute__((noreturn)) void aesoc_exit(int code);

/* Structured results: aesoc_rec_begin("kind"), then fields, then aesoc_rec_end(). */
void aesoc_rec_begin(const char *kind);
void aesoc_rec_str(const char *key, const char *value);
void aesoc_rec_u64(const char *key, uint64_t value);
void aesoc_rec_i64(const char *key, int64_t value);
void aesoc_rec_hex(const char *key, const void *data, size_t len); /* bytes as a hex string */
void aesoc_rec_end(void);

/* xorshift32: a tiny deterministic generator that tests re-create in Python to know the inputs
 * firmware used (state must start non-zero). */
static inline uint32_t aesoc_xorshift32(uint32_t *state) {
  uint32_t x = *state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *state = x;
}

/* Self-test helper: count a failed check, print where, keep going. */
extern unsigned aesoc_check_failures;
#define AESOC_CHECK(cond)                                            \
  do {                                                               \
    if (!(cond)) aesoc_check_failed(__FILE__, __LINE__, #cond);      \
  } while (0)
void aesoc_check_failed(const char *file, int line, const char *what);

#endif /* AESOC_H */
