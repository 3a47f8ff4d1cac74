/* SPDX-License-Identifier: Apache-2.0 */
#include "ticker.h"

#include <stddef.h>

#define REG(t, member) (*(volatile uint32_t *)((t)->base + offsetof(ticker_t, member)))

void ticker_init(ticker_dev_t *t, uintptr_t base) { t->base = base; }

ticker_result_t ticker_start(ticker_dev_t *t, uint32_t period, bool irq) {
  if (t == NULL || period == 0u) return TICKER_BAD_ARG;
  REG(t, CTRL) = 0u;
  REG(t, PERIOD) = period;
  REG(t, IRQ_STATUS) = TICKER__IRQ_STATUS__TICK_bm;
  REG(t, IRQ_ENABLE) = irq ? TICKER__IRQ_ENABLE__TICK_bm : 0u;
  REG(t, CTRL) = TICKER__CTRL__EN_bm;
  return TICKER_OK;
}

void ticker_stop(ticker_dev_t *t) { REG(t, CTRL) = 0u; }

uint32_t ticker_ticks(const ticker_dev_t *t) { return REG(t, TICKS); }

uintptr_t ticker_ticks_addr(const ticker_dev_t *t) { return t->base + offsetof(ticker_t, TICKS); }

bool ticker_irq_ack(ticker_dev_t *t) {
  bool pending = (REG(t, IRQ_STATUS) & TICKER__IRQ_STATUS__TICK_bm) != 0u;
  REG(t, IRQ_STATUS) = TICKER__IRQ_STATUS__TICK_bm;
  return pending;
}
