/* SPDX-License-Identifier: Apache-2.0 */
/* Uncached alias and D-cache invalidate: the write-through, allocate-on-read D-cache keeps a
 * stale line when another path writes memory, until it is invalidated. */
#include "aesoc.h"

static volatile uint32_t word __attribute__((aligned(32))) = 0x11111111u;
static uint32_t bank1_word __attribute__((section(".sram1"), aligned(32)));

int main(void) {
  volatile uint32_t *cached = &word;
  volatile uint32_t *uncached = AESOC_UNCACHED(&word);
  AESOC_CHECK(*cached == 0x11111111u);   /* line now allocated */
  AESOC_CHECK(*uncached == 0x11111111u); /* same memory through the alias */
  *uncached = 0x22222222u;               /* bypasses the cache */
  AESOC_CHECK(*uncached == 0x22222222u);
  AESOC_CHECK(*cached == 0x11111111u);   /* stale: proves the alias really bypasses */
  aesoc_dcache_invalidate();
  AESOC_CHECK(*cached == 0x22222222u);
  /* Cached stores are written through: the alias sees them at once. */
  *cached = 0x33333333u;
  AESOC_CHECK(*uncached == 0x33333333u);
  /* Bank 1 and its alias. */
  volatile uint32_t *b1 = &bank1_word;
  *b1 = 0xCAFEF00Du;
  AESOC_CHECK(*AESOC_UNCACHED(b1) == 0xCAFEF00Du);
  AESOC_CHECK(((uintptr_t)b1 & ~(uintptr_t)(AESOC_SRAM1_BYTES - 1u)) == AESOC_SRAM1_BASE);
  /* Byte and halfword stores merge with byte enables. */
  *uncached = 0xAABBCCDDu;
  ((volatile uint8_t *)uncached)[1] = 0x00;
  ((volatile uint16_t *)uncached)[1] = 0x1234;
  AESOC_CHECK(*uncached == 0x123400DDu);
  aesoc_rec_begin("cache");
  aesoc_rec_u64("failures", aesoc_check_failures);
  aesoc_rec_end();
  return aesoc_check_failures ? 1 : 0;
}
