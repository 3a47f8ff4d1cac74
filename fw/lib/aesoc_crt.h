/* SPDX-License-Identifier: Apache-2.0 */
/* Start-up steps shared by crt0.S (SRAM) and crt0_xip.S (execute in place), as assembler macros. */
#ifndef AESOC_CRT_H
#define AESOC_CRT_H

/* gp, sp, and CSR 0xBC0: bit 31 enables the CFU, bit 0 unmasks the bus-error line so a bus error
 * stops the program with a message (aesoc_trap); the other lines stay masked. */
.macro AESOC_CRT_CPU_SETUP
  .option push
  .option norelax
  la gp, __global_pointer$
  .option pop
  la sp, __stack_top
  li t0, 0x80000001
  csrw 0xBC0, t0
.endm

/* Copy .data from its load address when it has one of its own (the flash), clear .bss. */
.macro AESOC_CRT_DATA_BSS
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
.endm

/* External interrupts on (MEIE, MIE), main(0, 0), exit with its status; never returns. */
.macro AESOC_CRT_RUN_MAIN
  li t0, 0x800
  csrs mie, t0
  csrsi mstatus, 8
  li a0, 0
  li a1, 0
  call main
  call exit
5:
  j 5b
.endm

#endif /* AESOC_CRT_H */
