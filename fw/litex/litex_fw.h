/* SPDX-License-Identifier: Apache-2.0 */
/*
 * litex_fw: console and exit of a program in the LiteX simulation SoC (python3 -m aesoc.litex).
 *
 * Usage:
 *   int main(void) { litex_fw_puts("hello\n"); return 0; }   // fw/litex/crt0.S calls main
 * main's return value is printed as "EXIT <n>" and ends the simulation (LiteX's sim_finish CSR).
 * Output goes to LiteX's UART through its generated csr.h accessors.
 */
#ifndef LITEX_FW_H
#define LITEX_FW_H

#include <stddef.h>
#include <stdint.h>

void litex_fw_putc(char c);
void litex_fw_puts(const char *s);
void litex_fw_hex(const void *data, size_t len); /* bytes as lower-case hex, in memory order */
void litex_fw_hex32(uint32_t value);                 /* eight hex digits */
void litex_fw_dec(uint32_t value);
__attribute__((noreturn)) void litex_fw_exit(int status);
__attribute__((noreturn)) void litex_fw_trap(uint32_t mcause, uint32_t mepc);

#endif /* LITEX_FW_H */
