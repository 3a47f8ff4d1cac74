/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SWC_AES_COMPACT on RV32IM: the whole public AES layer in hand-written assembly, for size (other
 * targets build the same design in C, swc_aes_compact.c, which also holds the S-box and the
 * variant's name). Same algorithm as the C: FIPS-197 KeyExpansion on little-endian words, one
 * pass of S-box look-ups for SubBytes and ShiftRows, MixColumns on a column word, the straight
 * inverse cipher on the encryption key schedule with the inverse S-box derived on the stack by
 * each decryption call. Same argument checks, in the same order, as swc_aes.c.
 *
 * What saves bytes over GCC -Os: the public entry points are two or three instructions that load a
 * mode code and fall through (or jump) into one routine; that routine is a leaf that keeps
 * everything in registers but three saved ones, its helpers are reached with jal through t0, and
 * the caller's chain block is copied in once and out once per call.
 *
 * Sections: the decryption-only entry points have their own, so a program that never decrypts
 * drops them; the common routine keeps its few decryption instructions (the inverse S-box loop
 * and the InvMixColumns pre-step).
 */
#include "swc_aes_compact.h"

#if defined(SWC_AES_COMPACT) && SWC_CA_ASM

/* Frame of swc_crypt. CH must be at 0: the counter increment stops at sp. */
#define F_CH 0     /* chain block: IV or counter */
#define F_S 16     /* cipher state, then the output block */
#define F_X 32     /* input block */
#define F_T 48     /* SubBytes and ShiftRows output */
#define F_N 64     /* bytes in this block */
#define F_SAVE 68  /* s0-s2 */
#define F_INV 80   /* the inverse S-box (decryption) */
#define FRAME 336

/* ---- key set-up ----------------------------------------------------------------------------- */

  .section .text.swc_aes_setkey_dec, "ax"
  .globl swc_aes_setkey_dec
  .type swc_aes_setkey_dec, @function
swc_aes_setkey_dec:
  li a3, SWC_CA_DIR_DEC
  j swc_setkey
  .size swc_aes_setkey_dec, . - swc_aes_setkey_dec

  .section .text.swc_setkey, "ax"
  .globl swc_aes_setkey_enc
  .type swc_aes_setkey_enc, @function
swc_aes_setkey_enc:
  li a3, SWC_CA_DIR_ENC
  .size swc_aes_setkey_enc, . - swc_aes_setkey_enc

/* swc_result swc_setkey(swc_aes_ctx *ctx, const uint8_t *key, unsigned key_bits, uint32_t dir):
 * both directions expand the key the same way. FIPS-197 5.2 on little-endian words: Rcon lands
 * in the low byte and RotWord is a rotation right by 8, applied after SubWord (they commute). */
  .type swc_setkey, @function
swc_setkey:
  li t0, SWC_CA_ERR_NULL
  beqz a0, 9f
  beqz a1, 9f
  li t0, SWC_CA_ERR_KEY_BITS
  andi t1, a2, 63            /* 128, 192 or 256: a multiple of 64 in [128, 256] */
  bnez t1, 9f
  addi t1, a2, -128
  li t2, 129
  bgeu t1, t2, 9f
  srli a4, a2, 5             /* nk */
  addi t1, a4, 6
  sw t1, SWC_CA_ROUNDS(a0)
  sw a3, SWC_CA_DIRECTION(a0)
  mv t4, a0
  mv t5, a1
  srli t6, a2, 3
  jal t0, swc_copy           /* the key's words; leaves t4 = &w[nk] */
  addi t1, a4, 7
  slli t1, t1, 4
  add a5, a0, t1             /* end: 4 (nk + 7) words */
  slli a6, a4, 2             /* nk words back */
  li a7, 1                   /* Rcon */
  li a2, 0                   /* j = i mod nk, counted */
  la a3, swc_compact_sbox
1:
  lw t3, -4(t4)
  beqz a2, 2f
  xori t1, a2, 4             /* AES-256 also substitutes at j == 4 */
  bnez t1, 4f
  andi t1, a4, 8
  beqz t1, 4f
2:
  li t2, 4                   /* SubWord: substitute the low byte and rotate it to the top, 4 times */
3:
  andi t1, t3, 255
  add t1, t1, a3
  lbu t1, 0(t1)
  srli t3, t3, 8
  slli t1, t1, 24
  or t3, t3, t1
  addi t2, t2, -1
  bnez t2, 3b
  bnez a2, 4f
  srli t1, t3, 8             /* RotWord, Rcon, and Rcon times x */
  slli t3, t3, 24
  or t3, t3, t1
  xor t3, t3, a7
  slli a7, a7, 1
  andi t1, a7, 0x100
  beqz t1, 4f
  xori a7, a7, 0x11b
4:
  sub t1, t4, a6
  lw t1, 0(t1)
  xor t3, t3, t1
  sw t3, 0(t4)
  addi t4, t4, 4
  addi a2, a2, 1
  bne a2, a4, 5f
  li a2, 0
5:
  bne t4, a5, 1b
  li t0, 0
9:
  mv a0, t0
  ret
  .size swc_setkey, . - swc_setkey

/* Copy t6 bytes from t5 to t4, advancing both (t6 = 0 on return); link t0, clobbers t1. */
  .section .text.swc_copy, "ax"
  .type swc_copy, @function
swc_copy:
  beqz t6, 2f
1:
  lbu t1, 0(t5)
  sb t1, 0(t4)
  addi t5, t5, 1
  addi t4, t4, 1
  addi t6, t6, -1
  bnez t6, 1b
2:
  jr t0
  .size swc_copy, . - swc_copy

  .section .text.swc_aes_wipe, "ax"
  .globl swc_aes_wipe
  .type swc_aes_wipe, @function
swc_aes_wipe:
  beqz a0, 2f
  addi t1, a0, SWC_CA_CTX_BYTES
1:
  sw zero, 0(a0)
  addi a0, a0, 4
  bne a0, t1, 1b
2:
  ret
  .size swc_aes_wipe, . - swc_aes_wipe

/* ---- entry points: a mode code in a5, then swc_crypt(ctx, chain, in, out, len, flags) -------- */

  .section .text.swc_aes_cbc_encrypt, "ax"
  .globl swc_aes_cbc_encrypt
  .type swc_aes_cbc_encrypt, @function
swc_aes_cbc_encrypt:
  li a5, SWC_CA_CBC
  j swc_crypt
  .size swc_aes_cbc_encrypt, . - swc_aes_cbc_encrypt

  .section .text.swc_aes_cbc_decrypt, "ax"
  .globl swc_aes_cbc_decrypt
  .type swc_aes_cbc_decrypt, @function
swc_aes_cbc_decrypt:
  li a5, SWC_CA_CBC | SWC_CA_DEC
  j swc_crypt
  .size swc_aes_cbc_decrypt, . - swc_aes_cbc_decrypt

  .section .text.swc_aes_ecb_decrypt, "ax"
  .globl swc_aes_decrypt_block
  .type swc_aes_decrypt_block, @function
swc_aes_decrypt_block:
  li a3, 16
  .size swc_aes_decrypt_block, . - swc_aes_decrypt_block
  .globl swc_aes_ecb_decrypt
  .type swc_aes_ecb_decrypt, @function
swc_aes_ecb_decrypt:
  li a5, SWC_CA_DEC
  j swc_ecb
  .size swc_aes_ecb_decrypt, . - swc_aes_ecb_decrypt

  .section .text.swc_crypt, "ax"
  .globl swc_aes_ctr
  .type swc_aes_ctr, @function
swc_aes_ctr:
  li a5, SWC_CA_CTR
  j swc_crypt
  .size swc_aes_ctr, . - swc_aes_ctr
  .globl swc_aes_encrypt_block
  .type swc_aes_encrypt_block, @function
swc_aes_encrypt_block:
  li a3, 16
  .size swc_aes_encrypt_block, . - swc_aes_encrypt_block
  .globl swc_aes_ecb_encrypt
  .type swc_aes_ecb_encrypt, @function
swc_aes_ecb_encrypt:
  li a5, 0
  .size swc_aes_ecb_encrypt, . - swc_aes_ecb_encrypt
/* ECB (ctx, in, out, len) to the common argument order, no chain block. */
  .type swc_ecb, @function
swc_ecb:
  mv a4, a3
  mv a3, a2
  mv a2, a1
  li a1, 0
  .size swc_ecb, . - swc_ecb

/* swc_result swc_crypt(const swc_aes_ctx *ctx, uint8_t *chain, const uint8_t *in, uint8_t *out,
 *                      size_t len, unsigned flags): every mode, block by block through the frame
 * (no alignment needed; a partial last CTR block is a shorter copy).
 * Registers: a0 ctx, a1 chain, a2 in, a3 out, a4 bytes left, a5 flags, a6 S-box or inverse,
 * a7 +4 (encryption) or -4 (decryption): the ShiftRows step in bytes per row, and its sign the
 * direction; s0 column offset (0, 4, 8, 12), s1 round-key pointer, s2 rounds left. */
  .type swc_crypt, @function
swc_crypt:
  li t0, SWC_CA_ERR_NULL
  beqz a0, 9f
  beqz a2, 9f
  beqz a3, 9f
  lw t1, SWC_CA_DIRECTION(a0)
  li t2, SWC_CA_DIR_ENC
  andi t3, a5, SWC_CA_DEC
  beqz t3, 1f
  li t2, SWC_CA_DIR_DEC
1:
  li t0, SWC_CA_ERR_DIRECTION
  bne t1, t2, 9f
  li t0, SWC_CA_ERR_NULL
  andi t3, a5, SWC_CA_CBC | SWC_CA_CTR
  beqz t3, 1f
  beqz a1, 9f
1:
  li t0, SWC_CA_ERR_LENGTH
  andi t3, a5, SWC_CA_CTR
  bnez t3, 1f
  andi t3, a4, 15
  bnez t3, 9f
1:
  addi sp, sp, -FRAME
  sw s0, F_SAVE(sp)
  sw s1, F_SAVE + 4(sp)
  sw s2, F_SAVE + 8(sp)
  li s0, 0
  la a6, swc_compact_sbox
  li a7, 4
  andi t3, a5, SWC_CA_DEC
  beqz t3, 2f
  li a7, -4
  li t1, 0                   /* inv[sbox[i]] = i */
1:
  add t2, a6, t1
  lbu t2, 0(t2)
  add t2, t2, sp
  sb t1, F_INV(t2)
  addi t1, t1, 1
  andi t3, t1, 255
  bnez t3, 1b
  addi a6, sp, F_INV
2:
  snez t6, a1                /* the chain block in: 16 bytes, none for ECB */
  slli t6, t6, 4
  mv t5, a1
  addi t4, sp, F_CH
  jal t0, swc_copy
.Lblock:
  beqz a4, .Ldone
  li t6, 16
  bgeu a4, t6, 1f
  mv t6, a4
1:
  sw t6, F_N(sp)
  mv t5, a2
  addi t4, sp, F_X
  jal t0, swc_copy
  mv a2, t5
  lw s2, SWC_CA_ROUNDS(a0)
  mv s1, a0
  bgez a7, .Lpre
  slli t1, s2, 4             /* the inverse cipher starts from the last round key */
  add s1, a0, t1
.Lpre:                       /* state = (counter, or input, ^ IV for CBC encryption) ^ key */
  add t2, sp, s0
  lw t4, F_X(t2)
  lw t5, F_CH(t2)
  andi t6, a5, SWC_CA_CTR
  beqz t6, 1f
  mv t4, t5
1:
  li t6, SWC_CA_CBC
  bne a5, t6, 1f
  xor t4, t4, t5
1:
  lw t5, 0(s1)
  addi s1, s1, 4
  xor t4, t4, t5
  sw t4, F_S(t2)
  addi s0, s0, 4
  andi s0, s0, 15
  bnez s0, .Lpre
.Lround:
  addi s2, s2, -1
  bgez a7, 1f
  addi s1, s1, -32           /* decryption walks the key schedule backwards */
1:
  li t1, 0                   /* SubBytes and ShiftRows: byte i = 4c + r from column c +- r */
2:
  andi t2, t1, 3
  mul t2, t2, a7
  add t2, t2, t1
  andi t2, t2, 15
  add t2, t2, sp
  lbu t2, F_S(t2)
  add t3, sp, t1             /* (independent work between each load and its use) */
  addi t1, t1, 1
  add t2, t2, a6
  lbu t2, 0(t2)
  andi t4, t1, 15
  sb t2, F_T(t3)
  bnez t4, 2b
.Lcol:
  add t2, sp, s0
  lw t4, F_T(t2)
  lw t3, 0(s1)
  addi s1, s1, 4
  bgez a7, 1f
  xor t4, t4, t3             /* decryption adds the round key before InvMixColumns */
  li t3, 0
1:
  beqz s2, 3f                /* the last round has no MixColumns */
  bgez a7, 2f
  mv t1, t4                  /* InvMixColumns = MixColumns o (w ^= {04}(w ^ ror16(w))) */
  srli t5, t4, 16
  slli t6, t4, 16
  or t5, t5, t6
  xor t4, t4, t5
  jal t0, .Lxtime
  jal t0, .Lxtime
  xor t4, t4, t1
2:
  srli t1, t4, 8             /* MixColumns: xtime(w ^ r1) ^ r1 ^ ror16(w ^ r1), r1 = ror8(w) */
  slli t5, t4, 24
  or t1, t1, t5
  xor t4, t4, t1
  srli t5, t4, 16
  slli t6, t4, 16
  or t5, t5, t6
  xor t1, t1, t5
  jal t0, .Lxtime
  xor t4, t4, t1
3:
  xor t4, t4, t3
  sw t4, F_S(t2)
  addi s0, s0, 4
  andi s0, s0, 15
  bnez s0, .Lcol
  bnez s2, .Lround
.Lpost:                      /* CTR: ^ input; CBC decryption: ^ IV, next IV = input;
                              * CBC encryption: next IV = output */
  add t2, sp, s0
  lw t4, F_S(t2)
  lw t5, F_X(t2)
  lw t6, F_CH(t2)
  andi t1, a5, SWC_CA_CTR
  beqz t1, 1f
  xor t4, t4, t5
1:
  li t1, SWC_CA_CBC | SWC_CA_DEC
  bne a5, t1, 1f
  xor t4, t4, t6
  sw t5, F_CH(t2)
1:
  li t1, SWC_CA_CBC
  bne a5, t1, 1f
  sw t4, F_CH(t2)
1:
  sw t4, F_S(t2)
  addi s0, s0, 4
  andi s0, s0, 15
  bnez s0, .Lpost
  andi t1, a5, SWC_CA_CTR    /* CTR: the counter block + 1, big-endian */
  beqz t1, 2f
  addi t2, sp, F_CH + 16
1:
  addi t2, t2, -1
  lbu t1, 0(t2)
  addi t1, t1, 1
  sb t1, 0(t2)
  andi t1, t1, 255
  bnez t1, 2f
  bne t2, sp, 1b
2:
  lw t6, F_N(sp)
  sub a4, a4, t6
  addi t5, sp, F_S
  mv t4, a3
  jal t0, swc_copy
  mv a3, t4
  j .Lblock
.Ldone:
  snez t6, a1                /* the chain block out */
  slli t6, t6, 4
  mv t4, a1
  addi t5, sp, F_CH
  jal t0, swc_copy
  lw s0, F_SAVE(sp)
  lw s1, F_SAVE + 4(sp)
  lw s2, F_SAVE + 8(sp)
  addi sp, sp, FRAME
  li t0, 0
9:
  mv a0, t0
  ret
/* t4 = xtime of each byte of t4 (FIPS-197 5.1.3); link t0, clobbers t5, t6. */
.Lxtime:
  li t5, 0x80808080
  and t5, t4, t5
  srli t6, t5, 7
  xor t4, t4, t5
  li t5, 0x1b
  mul t6, t6, t5
  slli t4, t4, 1
  xor t4, t4, t6
  jr t0
  .size swc_crypt, . - swc_crypt

#endif /* SWC_AES_COMPACT && SWC_CA_ASM */
