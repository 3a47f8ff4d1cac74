/* SPDX-License-Identifier: Apache-2.0 */
/*
 * litex_fw: start and end of a program the LiteX BIOS boots in the simulation SoC
 * (python3 -m aesoc.integrate.litex sim FW_DIR; fw/litex/Makefile builds it).
 *
 * Usage:
 *   int main(void) { litex_fw_init(); printf("hello\n"); litex_fw_exit(0); }
 * Output goes through LiteX's libbase console (printf) to its UART. litex_fw_exit prints
 * "CYCLES <n>" (cycles since reset, LiteX's timer0 uptime) and "EXIT <status>", and ends the
 * simulation (LiteX's sim_finish CSR); LiteX's crt0 would only spin after main returns.
 */
#ifndef LITEX_FW_H
#define LITEX_FW_H

#include <stddef.h>
#include <stdint.h>

/* What LiteX's demo does first: interrupts on, the interrupt-driven UART. Keeps the VexRiscv CFU
 * enable (bit 31 of the interrupt mask CSR), which irq_setmask(0) would clear. */
void litex_fw_init(void);
uint64_t litex_fw_cycles(void); /* since reset (LiteX's timer0 uptime) */
void litex_fw_hex(const void *data, size_t len); /* bytes as lower-case hex, in memory order */
__attribute__((noreturn)) void litex_fw_exit(int status);

#endif /* LITEX_FW_H */
