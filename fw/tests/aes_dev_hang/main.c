/* SPDX-License-Identifier: Apache-2.0 */
/* Reading a result when no block was ever queued would wait forever: the crossbar's slave
 * timeout ends the held access with ERR, which the platform reports as a bus error. */
#include <stdio.h>

#include "aes_regs.h"
#include "aesoc.h"

int main(void) {
  printf("reading DATA_OUT[0] with nothing queued\n");
  uint32_t v = AESOC_REG(AESOC_AES_BASE, aes_periph_t, DATA_OUT[0]);
  printf("no bus error, read 0x%08lx\n", (unsigned long)v);
  return 0;
}
