/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ticker: driver of the example peripheral (docs/examples/ip/ticker, registers in ticker.rdl).
 *
 * Usage:
 *   ticker_dev_t t;
 *   ticker_init(&t, AESOC_TICKER_BASE);          // touches no hardware
 *   ticker_start(&t, 100, true);                 // a tick every 100 cycles, IRQ on
 *   ... each tick raises the DMA request line AESOC_DMA_REQ_TICKER_TICK and the IRQ line
 *   ... AESOC_IRQ_TICKER; ticker_irq_ack() clears the interrupt.
 *   ticker_stop(&t);
 */
#ifndef TICKER_H
#define TICKER_H

#include <stdbool.h>
#include <stdint.h>

#include "ticker_regs.h"

typedef enum { TICKER_OK = 0, TICKER_BAD_ARG } ticker_result_t;

typedef struct {
  uintptr_t base;
} ticker_dev_t;

void ticker_init(ticker_dev_t *t, uintptr_t base);
__attribute__((warn_unused_result)) ticker_result_t ticker_start(ticker_dev_t *t, uint32_t period, bool irq);
void ticker_stop(ticker_dev_t *t);
uint32_t ticker_ticks(const ticker_dev_t *t);
/* The address of TICKS, for a DMA channel paced by the tick request. */
uintptr_t ticker_ticks_addr(const ticker_dev_t *t);
/* Returns whether a tick interrupt was pending, and clears it. */
bool ticker_irq_ack(ticker_dev_t *t);

#endif /* TICKER_H */
