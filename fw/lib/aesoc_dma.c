/* SPDX-License-Identifier: Apache-2.0 */
/* The aesoc platform services of the aes_dma driver (ip/aes/sw/aes_dma.h). */
#include "aesoc_dma.h"

#include "aesoc.h"

static void dcache_invalidate(void *addr, size_t len) {
  (void)addr;
  (void)len;
  aesoc_dcache_invalidate(); /* this core has only the invalidate-all operation */
}

const aes_dma_platform_t aesoc_aes_dma_platform = {.dcache_invalidate = dcache_invalidate,
                                                   .bus_addr_mask = ~AESOC_UNCACHED_BIT};
