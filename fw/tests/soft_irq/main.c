/* SPDX-License-Identifier: Apache-2.0 */
/* External interrupt lines: a software-raised line reaches the handler only when unmasked. */
#include "aesoc.h"

static volatile uint32_t seen_pending;
static volatile unsigned calls;

void aesoc_external_irq(uint32_t pending) {
  seen_pending = pending;
  ++calls;
  SYSCTRL(IRQ_SOFT) = 0; /* the source is level-triggered: clear it */
}

int main(void) {
  aesoc_irq_enable_external();
  aesoc_irq_enable_global();
  /* Masked: raising line 5 must not interrupt, but IRQ_LINES shows it. */
  SYSCTRL(IRQ_SOFT) = 1u << 5;
  for (volatile int i = 0; i < 50; ++i) {
  }
  AESOC_CHECK(calls == 0);
  AESOC_CHECK(SYSCTRL(IRQ_LINES) == (1u << 5));
  aesoc_irq_unmask_line(5);
  for (volatile int i = 0; i < 50 && calls == 0; ++i) {
  }
  AESOC_CHECK(calls == 1);
  AESOC_CHECK(seen_pending == (1u << 5));
  AESOC_CHECK(SYSCTRL(IRQ_LINES) == 0);
  /* The CFU enable bit (31 of CSR 0xBC0) survives mask updates. */
  uint32_t mask;
  __asm__ volatile("csrr %0, 0xBC0" : "=r"(mask));
  AESOC_CHECK(mask == (0x80000001u | (1u << 5))); /* bit 0: bus error, from crt0 */
  aesoc_irq_mask_line(5);
  __asm__ volatile("csrr %0, 0xBC0" : "=r"(mask));
  AESOC_CHECK(mask == 0x80000001u);
  aesoc_rec_begin("soft_irq");
  aesoc_rec_u64("calls", calls);
  aesoc_rec_end();
  return aesoc_check_failures ? 1 : 0;
}
