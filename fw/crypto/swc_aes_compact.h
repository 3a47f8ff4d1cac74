/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The compact variant's numbers, for its C and its RV32 assembly (swc_aes_compact_rv32.S), which
 * cannot read enums or structs: swc_aes_compact.c checks every one against its C definition at
 * compile time. Not part of the public API.
 */
#ifndef SWC_AES_COMPACT_H
#define SWC_AES_COMPACT_H

/* The assembly needs RV32 with M and the full register file; any other target builds the C. */
#if defined(__riscv) && defined(__riscv_xlen) && defined(__riscv_mul) && !defined(__riscv_32e)
#if __riscv_xlen == 32
#define SWC_CA_ASM 1
#endif
#endif
#ifndef SWC_CA_ASM
#define SWC_CA_ASM 0
#endif

/* swc_result codes */
#define SWC_CA_ERR_NULL (-1)
#define SWC_CA_ERR_KEY_BITS (-2)
#define SWC_CA_ERR_LENGTH (-3)
#define SWC_CA_ERR_DIRECTION (-4)
/* swc_aes_ctx: size and offsets; direction markers */
#define SWC_CA_CTX_BYTES 248
#define SWC_CA_ROUNDS 240
#define SWC_CA_DIRECTION 244
#define SWC_CA_DIR_ENC 0x454e4331
#define SWC_CA_DIR_DEC 0x44454331

/* Mode flags of the common routine. */
#define SWC_CA_CBC 1
#define SWC_CA_CTR 2
#define SWC_CA_DEC 4

#ifndef __ASSEMBLER__
#include <stdint.h>

/* FIPS-197 Figure 7, in swc_aes_compact.c. */
extern const uint8_t swc_compact_sbox[256];
#endif

#endif /* SWC_AES_COMPACT_H */
