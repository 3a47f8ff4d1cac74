/* SPDX-License-Identifier: Apache-2.0 */
/* A load from an unmapped address ends in a bus ERR, which the core takes as a load access
 * fault (mcause 5); the platform trap handler reports it and exits with 0x80 | mcause. */
#include <stdio.h>

#include "aesoc.h"

int main(void) {
  printf("reading unmapped 0xE0000000\n");
  volatile uint32_t *hole = (volatile uint32_t *)0xE0000000u;
  uint32_t v = *hole;
  printf("no trap, read 0x%08lx\n", (unsigned long)v);
  return 0;
}
