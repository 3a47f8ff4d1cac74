/* SPDX-License-Identifier: Apache-2.0 */
/* Start of a ROM program in the LiteX simulation SoC: trap vector, stack, .data, .bss, main. */
  .section .text.start, "ax"
  .global _start
_start:
  la    t0, trap_entry
  csrw  mtvec, t0
  la    sp, _stack_top
  la    a0, _data_start
  la    a1, _data_end
  la    a2, _data_load
1:
  bgeu  a0, a1, 2f
  lw    t0, 0(a2)
  sw    t0, 0(a0)
  addi  a0, a0, 4
  addi  a2, a2, 4
  j     1b
2:
  la    a0, _bss_start
  la    a1, _bss_end
3:
  bgeu  a0, a1, 4f
  sw    zero, 0(a0)
  addi  a0, a0, 4
  j     3b
4:
  call  main
  call  litex_fw_exit

  .balign 4
trap_entry:
  csrr  a0, mcause
  csrr  a1, mepc
  call  litex_fw_trap
