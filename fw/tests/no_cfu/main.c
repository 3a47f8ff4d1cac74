/* SPDX-License-Identifier: Apache-2.0 */
/* Without a coprocessor on the CFU port, a CFU instruction completes with 0 (base config). */
#include "aesoc.h"

int main(void) {
  uint32_t r = 0x12345678u;
  __asm__ volatile(".insn r 0x0B, 1, 0, %0, %1, %1" : "+r"(r));
  aesoc_rec_begin("no_cfu");
  aesoc_rec_u64("value", r);
  aesoc_rec_end();
  return 0;
}
