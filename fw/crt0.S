/* SPDX-License-Identifier: Apache-2.0 */
/* aesoc start-up: stack, CFU enable, .data copy, .bss clear, trap vector, main, exit.
 * The trap entry is fw/trap.S and the shared steps fw/lib/aesoc_crt.h (both used by crt0_xip.S). */
#include "aesoc_crt.h"

  .section .text.start, "ax"
  .globl _start
_start:
  AESOC_CRT_CPU_SETUP
  la t0, aesoc_trap_entry
  csrw mtvec, t0
  AESOC_CRT_DATA_BSS
  AESOC_CRT_RUN_MAIN
