/* SPDX-License-Identifier: Apache-2.0 */
/* aesoc start-up: stack, CFU enable, .data copy, .bss clear, trap vector, main, exit.
 * The trap entry is fw/trap.S (shared with crt0_xip.S). */

  .section .text.start, "ax"
  .globl _start
_start:
  .option push
  .option norelax
  la gp, __global_pointer$
  .option pop
  la sp, __stack_top

  /* Bit 31 of CSR 0xBC0 enables the CFU; the other bits mask external interrupt lines. Line 0,
   * the bus error, is unmasked so a bus error stops the program with a message (aesoc_trap). */
  li t0, 0x80000001
  csrw 0xBC0, t0

  la t0, aesoc_trap_entry
  csrw mtvec, t0

  /* .data may be loaded elsewhere (flash); copy it when it is. */
  la a0, __data_start
  la a1, __data_end
  la a2, __data_load
  beq a0, a2, 2f
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
  li t0, 0x800          /* MEIE */
  csrs mie, t0
  csrsi mstatus, 8      /* MIE */
  li a0, 0
  li a1, 0
  call main
  call exit
5:
  j 5b
