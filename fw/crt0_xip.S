/* SPDX-License-Identifier: Apache-2.0 */
/* aesoc start-up for firmware executing in place from the flash (fw/link_xip.ld). Runs from SRAM
 * until main: XIP boot (controller and OTFAD contexts), then the .data/.ramfunc copy from the
 * flash, which needs the decryption set up, .bss clear and the jump into the flash. Shared steps:
 * fw/lib/aesoc_crt.h. */
#include "aesoc_crt.h"

  .section .text.start, "ax"
  .globl _start
_start:
  AESOC_CRT_CPU_SETUP

  /* Until the flash is readable the trap handler must be in SRAM too. */
  la t0, xip_boot_trap
  csrw mtvec, t0

  /* Returns only when the flash decrypts as the key table says (else it exits). */
  call xip_boot

  AESOC_CRT_DATA_BSS
  /* .ramfunc code was just written through the data bus. */
  fence.i
  nop
  nop
  nop
  nop
  la t0, aesoc_trap_entry
  csrw mtvec, t0
  AESOC_CRT_RUN_MAIN
