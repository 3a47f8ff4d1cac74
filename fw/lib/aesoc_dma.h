/* SPDX-License-Identifier: Apache-2.0 */
/* The aesoc platform services for the aes_dma driver: opts.platform = &aesoc_aes_dma_platform. */
#ifndef AESOC_DMA_H
#define AESOC_DMA_H

#include "aes_dma.h"

/* D-cache invalidation (all of it: this core has no per-line operation) and DMA bus addresses
 * (CPU addresses without the uncached-alias bit). */
extern const aes_dma_platform_t aesoc_aes_dma_platform;

#endif /* AESOC_DMA_H */
