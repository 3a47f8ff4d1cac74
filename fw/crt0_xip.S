/* SPDX-License-Identifier: Apache-2.0 */
/* aesoc start-up for firmware executing in place from the flash (fw/link_xip.ld). Runs from SRAM
 * until main: XIP boot (controller and OTFAD contexts), then the .data/.ramfunc copy from the
 * flash, which needs the decryption set up, .bss clear and the jump into the flash. */

  .section .text.start, "ax"
  .globl _start
_start:
  .option push
  .option norelax
  la gp, __global_pointer$
  .option pop
  la sp, __stack_top

  /* CSR 0xBC0: bit 31 enables the CFU, bit 0 unmasks the bus-error line (as crt0.S). */
  li t0, 0x80000001
  csrw 0xBC0, t0

  /* Until the flash is readable the trap handler must be in SRAM too. */
  la t0, xip_boot_trap
  csrw mtvec, t0

  /* Returns only when the flash decrypts as the key table says (else it exits). */
  call xip_boot

  la a0, __data_start
  la a1, __data_end
  la a2, __data_load
1:
  bgeu a0, a1, 2f
  lw t0, 0(a2)
  sw t0, 0(a0)
  addi a0, a0, 4
  addi a2, a2, 4
  j 1b
2:
  la a0, __bss_start
  la a1, __bss_end
3:
  bgeu a0, a1, 4f
  sw zero, 0(a0)
  addi a0, a0, 4
  j 3b
4:
  /* .ramfunc code was just written through the data bus. */
  fence.i
  nop
  nop
  nop
  nop
  la t0, aesoc_trap_entry
  csrw mtvec, t0
  li t0, 0x800          /* MEIE */
  csrs mie, t0
  csrsi mstatus, 8      /* MIE */
  li a0, 0
  li a1, 0
  call main
  call exit
5:
  j 5b
