/* SPDX-License-Identifier: Apache-2.0 */
/* Never exits: the harness must stop it at --max-cycles with a clear message. */
#include "aesoc.h"

int main(void) {
  for (;;) {
    __asm__ volatile("nop");
  }
}
