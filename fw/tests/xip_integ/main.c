/* SPDX-License-Identifier: Apache-2.0 */
/*
 * An integrity failure as software sees it (placement "xip"; tests/test_xip_soc.py builds an
 * integrity image and damages the line `target` in it). With the platform's bus-error line
 * masked, a failing read returns zeros instead of stopping the program, so this program can look
 * at everything the failure leaves behind:
 *  - the intact neighbour line reads back;
 *  - an uncached load from the damaged line returns 0 (never its bytes), sysctrl records the bus
 *    error, the XIP controller sets INTEG_STATUS.FAIL with the context and INTEG_ADDR with the
 *    line's flash offset, and its interrupt line fires once INTEG_IE is set;
 *  - a cached load of the same line (a D-cache refill) fails too: the same line, so no OVERFLOW;
 *  - writing 1s clears the status and the interrupt.
 * One record, "xip_integ", carries what was seen; the test compares it with the ELF's symbols.
 */
#include "aesoc.h"
#include "xip.h"
#include "xip_regs.h"

#define XIP(member) AESOC_REG(AESOC_XIP_BASE, xip_t, member)
#define IRQ_WAIT_POLLS 1000u

/* Two lines of their own: `good` stays intact, `target` is damaged in the image by the test. */
static const uint32_t good[8] __attribute__((aligned(32))) = {0x600D0000u, 1u, 2u, 3u, 4u, 5u, 6u, 7u};
const uint32_t target[8] __attribute__((aligned(32))) = {0x7A26E700u, 1u, 2u, 3u, 4u, 5u, 6u, 7u};

static volatile uint32_t xip_irqs;

void aesoc_external_irq(uint32_t pending) {
  if (pending & (1u << AESOC_IRQ_XIP)) {
    xip_irqs++;
    XIP(INTEG_IE) = 0; /* the line is level: drop it until the status is looked at */
  }
}

static uint32_t wait_irqs(uint32_t want) {
  for (uint32_t i = 0; i < IRQ_WAIT_POLLS && xip_irqs < want; i++) {
  }
  return xip_irqs;
}

int main(void) {
  unsigned good_errors = 0;
  for (unsigned i = 0; i < 8; i++) good_errors += AESOC_UNCACHED(good)[i] != (i ? i : 0x600D0000u);

  aesoc_irq_mask_line(0); /* bus errors: see them here instead of stopping */
  XIP(INTEG_IE) = XIP__INTEG_IE__FAIL_bm;
  aesoc_irq_unmask_line(AESOC_IRQ_XIP);
  aesoc_irq_enable_external();
  aesoc_irq_enable_global();

  uint32_t uncached = AESOC_UNCACHED(target)[3];
  uint32_t irqs = wait_irqs(1);
  uint32_t status = XIP(INTEG_STATUS), addr = XIP(INTEG_ADDR);
  uint32_t bus_status = SYSCTRL(BUS_ERR_STATUS), bus_addr = SYSCTRL(BUS_ERR_ADDR);
  SYSCTRL(BUS_ERR_STATUS) = SYSCTRL__BUS_ERR_STATUS__PENDING_bm;

  aesoc_dcache_invalidate();
  uint32_t cached = ((const volatile uint32_t *)target)[5];
  uint32_t status2 = XIP(INTEG_STATUS), addr2 = XIP(INTEG_ADDR);
  uint32_t bus_status2 = SYSCTRL(BUS_ERR_STATUS);
  SYSCTRL(BUS_ERR_STATUS) = SYSCTRL__BUS_ERR_STATUS__PENDING_bm;

  XIP(INTEG_STATUS) = XIP__INTEG_STATUS__FAIL_bm | XIP__INTEG_STATUS__OVERFLOW_bm;
  uint32_t cleared = XIP(INTEG_STATUS) & (XIP__INTEG_STATUS__FAIL_bm | XIP__INTEG_STATUS__OVERFLOW_bm);
  XIP(INTEG_IE) = XIP__INTEG_IE__FAIL_bm;
  uint32_t irqs_after_clear = wait_irqs(irqs + 1);
  aesoc_irq_unmask_line(0);

  aesoc_rec_begin("xip_integ");
  aesoc_rec_u64("good_errors", good_errors);
  aesoc_rec_u64("target", (uintptr_t)target);
  aesoc_rec_u64("uncached", uncached);
  aesoc_rec_u64("cached", cached);
  aesoc_rec_u64("fail", (status & XIP__INTEG_STATUS__FAIL_bm) != 0);
  aesoc_rec_u64("overflow", (status & XIP__INTEG_STATUS__OVERFLOW_bm) != 0);
  aesoc_rec_u64("ctx", (status & XIP__INTEG_STATUS__CTX_bm) >> XIP__INTEG_STATUS__CTX_bp);
  aesoc_rec_u64("addr", addr);
  aesoc_rec_u64("irqs", irqs);
  aesoc_rec_u64("bus_pending", bus_status & SYSCTRL__BUS_ERR_STATUS__PENDING_bm);
  aesoc_rec_u64("bus_addr", bus_addr);
  aesoc_rec_u64("fail2", (status2 & XIP__INTEG_STATUS__FAIL_bm) != 0);
  aesoc_rec_u64("overflow2", (status2 & XIP__INTEG_STATUS__OVERFLOW_bm) != 0);
  aesoc_rec_u64("addr2", addr2);
  aesoc_rec_u64("bus_pending2", bus_status2 & SYSCTRL__BUS_ERR_STATUS__PENDING_bm);
  aesoc_rec_u64("cleared", cleared);
  aesoc_rec_u64("irqs_after_clear", irqs_after_clear);
  aesoc_rec_end();
  return 0;
}
