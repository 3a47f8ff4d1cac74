/* SPDX-License-Identifier: Apache-2.0 */
/* Timed read loops of the xip-read benchmark (AN13198's LDRB/LDRH/LDR/LDM loops on RV32). They
 * run from SRAM (.ramfunc) so that only their data reads reach the flash, and discard what they
 * load, as the app note's loops do. 32 loads per iteration keep the loop overhead small.
 *   linear:    a0 = first byte, a1 = end (exclusive)
 *   ping-pong: a0, a1 = the two buffers, a2 = bytes of each; loads alternate between them
 * Lengths are multiples of 128 bytes. */

  .section .ramfunc, "ax"

.macro LINEAR name, op, step
  .globl \name
  .balign 4
\name:
1:
  .set off, 0
  .rept 32
  \op t0, off(a0)
  .set off, off + \step
  .endr
  addi a0, a0, 32 * \step
  bltu a0, a1, 1b
  ret
.endm

.macro PINGPONG name, op, step
  .globl \name
  .balign 4
\name:
  add a2, a0, a2
1:
  .set off, 0
  .rept 16
  \op t0, off(a0)
  \op t0, off(a1)
  .set off, off + \step
  .endr
  addi a0, a0, 16 * \step
  addi a1, a1, 16 * \step
  bltu a0, a2, 1b
  ret
.endm

LINEAR read_linear8, lbu, 1
LINEAR read_linear16, lhu, 2
LINEAR read_linear32, lw, 4
PINGPONG read_pingpong8, lbu, 1
PINGPONG read_pingpong16, lhu, 2
PINGPONG read_pingpong32, lw, 4

/* Eight 32-bit loads into eight registers back to back (the closest RV32 has to LDM r4-r11),
 * four bursts per iteration. */
  .globl read_burst8
  .balign 4
read_burst8:
1:
  .set off, 0
  .rept 4
  lw a2, off(a0)
  lw a3, off + 4(a0)
  lw a4, off + 8(a0)
  lw a5, off + 12(a0)
  lw a6, off + 16(a0)
  lw a7, off + 20(a0)
  lw t0, off + 24(a0)
  lw t1, off + 28(a0)
  .set off, off + 32
  .endr
  addi a0, a0, 128
  bltu a0, a1, 1b
  ret
