/* SPDX-License-Identifier: Apache-2.0 */
/* Cycle counter: monotonic, advances by the expected amount, LO/HI pair consistent; ID/VERSION. */
#include "aesoc.h"

int main(void) {
  AESOC_CHECK(SYSCTRL(ID) == SYSCTRL__ID__ID_reset);
  AESOC_CHECK(SYSCTRL(VERSION) == SYSCTRL__VERSION__MINOR_reset);
  uint64_t prev = aesoc_cycles();
  for (int i = 0; i < 1000; ++i) {
    uint64_t now = aesoc_cycles();
    AESOC_CHECK(now > prev);
    AESOC_CHECK(now - prev < 100);
    prev = now;
  }
  /* HI is captured when LO is read: a HI read alone returns the captured value, not a live one. */
  uint32_t lo = SYSCTRL(CYCLE_LO);
  uint32_t hi_a = SYSCTRL(CYCLE_HI);
  for (volatile int i = 0; i < 10; ++i) {
  }
  uint32_t hi_b = SYSCTRL(CYCLE_HI);
  AESOC_CHECK(hi_a == hi_b);
  (void)lo;
  /* mtime advances once per cycle, like the cycle counter. */
  uint64_t m0 = aesoc_mtime(), c0 = aesoc_cycles();
  for (volatile int i = 0; i < 100; ++i) {
  }
  uint64_t m1 = aesoc_mtime(), c1 = aesoc_cycles();
  int64_t drift = (int64_t)(m1 - m0) - (int64_t)(c1 - c0);
  AESOC_CHECK(drift > -20 && drift < 20);
  /* mtime is writable. */
  SYSCTRL(MTIME_HI) = 5;
  AESOC_CHECK(SYSCTRL(MTIME_HI) == 5);
  aesoc_rec_begin("counter");
  aesoc_rec_u64("failures", aesoc_check_failures);
  aesoc_rec_end();
  return aesoc_check_failures ? 1 : 0;
}
