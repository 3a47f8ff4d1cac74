/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SWC_AES_ASM_TTABLE: hand-written RV32IM kernels of the T-table AES (swc_aes_ttable.c keeps the
 * key schedule, the tables, the CTR round-1/2 cache and the mode glue; this file does every
 * block). Same algorithm as the C variants: 4 encryption and 4 decryption T-tables of 1 KB,
 * equivalent inverse cipher for decryption.
 *
 * What the hand-written code does that GCC does not:
 *   - the whole state (8 words: input and output of a round), both table bases and the round-key
 *     pointer stay in registers; nothing is spilled, not even in the CTR loop, which also keeps
 *     its round-1/2 cache in registers;
 *   - two table-base registers serve all four tables through the load's 12-bit offset
 *     (B1 = Te1, Te0 at -1024; B3 = Te3, Te2 at -1024);
 *   - each look-up is 2 instructions to extract the pre-scaled byte index (srli/slli + andi
 *     0x3fc), 1 add, 1 load; the four loads of a column and its round-key load are issued back to
 *     back and their XORs come after, so no load result is used by the next instruction;
 *   - the last encryption round takes the S-box byte with lbu out of Te3 (no extra table), the
 *     last decryption round out of the 256-byte inverse S-box;
 *   - rounds run two per loop iteration with the loop branch at the bottom; the encryption rounds
 *     are one local subroutine shared by ECB, CBC and CTR (one copy in the I-cache).
 *
 * Register use in the kernels (the ABI's callee-saved s0-s11 are saved on the stack):
 *   S0-S3 = s0-s3   state after an even number of rounds (and the output)
 *   T0-T3 = s4-s7   state after an odd number of rounds
 *   B1, B3 = s8, s9 table bases      K = s10 round-key pointer   KL = s11 last round key
 *   t0-t4           look-up temporaries; a0-a7, t5, t6 and ra: the mode loops
 */
#if defined(SWC_AES_ASM_TTABLE)

#define S0 s0
#define S1 s1
#define S2 s2
#define S3 s3
#define T0 s4
#define T1 s5
#define T2 s6
#define T3 s7
#define B1 s8
#define B3 s9
#define K s10
#define KL s11

/* ---- the steps the column macros share ------------------------------------------------------ */
/* Table offsets of byte 0 of a, 1 of b, 2 of c, 3 of d (times 4) into t0..t3. */
.macro IDX4 a, b, c, d
  slli t0, \a, 2
  srli t1, \b, 6
  srli t2, \c, 14
  srli t3, \d, 24
  andi t0, t0, 0x3fc
  andi t1, t1, 0x3fc
  andi t2, t2, 0x3fc
  slli t3, t3, 2
.endm

/* t0..t3 each plus a base register. */
.macro BASE4 r0, r1, r2, r3
  add t0, t0, \r0
  add t1, t1, \r1
  add t2, t2, \r2
  add t3, t3, \r3
.endm

/* o = t0 ^ t1 ^ t2 ^ t3 ^ t4. */
.macro FOLD o
  xor t0, t0, t1
  xor t2, t2, t3
  xor t0, t0, t2
  xor \o, t0, t4
.endm

/* Last round: the S-box bytes at off(t0..t3) into lanes 0..3, plus the key word K[koff]. */
.macro LASTFOLD o, off, koff
  lbu t0, \off(t0)
  lbu t1, \off(t1)
  lbu t2, \off(t2)
  lbu t3, \off(t3)
  lw t4, \koff(K)
  slli t1, t1, 8
  slli t2, t2, 16
  slli t3, t3, 24
  FOLD \o
.endm

/* ---- one column of a full round: o = K[off] ^ X0[a.b0] ^ X1[b.b1] ^ X2[c.b2] ^ X3[d.b3] ------ */
.macro COL o, a, b, c, d, off
  IDX4 \a, \b, \c, \d
  BASE4 B1, B1, B3, B3
  lw t0, -1024(t0)
  lw t1, 0(t1)
  lw t2, -1024(t2)
  lw t3, 0(t3)
  lw t4, \off(K)
  FOLD \o
.endm

#if defined(SWC_TT_TWO_TABLES)
/* Two encryption tables (2 KB of D-cache instead of 4): Te2 = ror16(Te0), Te3 = ror16(Te1), so
 * o = K[off] ^ Te0[a.b0] ^ Te1[b.b1] ^ ror16(Te0[c.b2] ^ Te1[d.b3]): one rotation, 3 more
 * instructions per column, scheduled so that no load or shift result is used by the next
 * instruction. */
.macro ECOL o, a, b, c, d, off
  IDX4 \a, \b, \c, \d
  BASE4 B1, B1, B1, B1
  lw t2, -1024(t2)
  lw t3, 0(t3)
  lw t0, -1024(t0)
  lw t1, 0(t1)
  lw t4, \off(K)
  xor t2, t2, t3
  slli t3, t2, 16
  srli t2, t2, 16
  xor t0, t0, t1
  xor t0, t0, t4
  xor t0, t0, t3
  xor \o, t0, t2
.endm
#else
#define ECOL COL
#endif

/* Encryption round: column j takes row k from column j + k. */
.macro EROUND o0, o1, o2, o3, i0, i1, i2, i3, off
  ECOL \o0, \i0, \i1, \i2, \i3, (\off)
  ECOL \o1, \i1, \i2, \i3, \i0, (\off + 4)
  ECOL \o2, \i2, \i3, \i0, \i1, (\off + 8)
  ECOL \o3, \i3, \i0, \i1, \i2, (\off + 12)
.endm

/* Where the last encryption round reads S-box bytes: byte 0 of Te3, or (two tables) byte 1 of
 * Te0. */
#if defined(SWC_TT_TWO_TABLES)
#define SBOX_BASE B1
#define SBOX_OFF -1023
#else
#define SBOX_BASE B3
#define SBOX_OFF 0
#endif

/* Decryption round (equivalent inverse cipher): row k comes from column j - k. */
.macro DROUND o0, o1, o2, o3, i0, i1, i2, i3, off
  COL \o0, \i0, \i3, \i2, \i1, (\off)
  COL \o1, \i1, \i0, \i3, \i2, (\off + 4)
  COL \o2, \i2, \i1, \i0, \i3, (\off + 8)
  COL \o3, \i3, \i2, \i1, \i0, (\off + 12)
.endm

/* Last encryption round, one column: S-box bytes are byte 0 of Te3 entries (B3). */
.macro ELCOL o, a, b, c, d, off
  IDX4 \a, \b, \c, \d
  BASE4 SBOX_BASE, SBOX_BASE, SBOX_BASE, SBOX_BASE
  LASTFOLD \o, SBOX_OFF, \off
.endm

/* Last decryption round, one column: inverse S-box bytes (base in register \isb). */
.macro DLCOL o, a, b, c, d, off, isb
  andi t0, \a, 0xff
  srli t1, \b, 8
  srli t2, \c, 16
  srli t3, \d, 24
  andi t1, t1, 0xff
  andi t2, t2, 0xff
  BASE4 \isb, \isb, \isb, \isb
  LASTFOLD \o, 0, \off
.endm

.macro SAVE_S
  addi sp, sp, -64
  sw s0, 0(sp)
  sw s1, 4(sp)
  sw s2, 8(sp)
  sw s3, 12(sp)
  sw s4, 16(sp)
  sw s5, 20(sp)
  sw s6, 24(sp)
  sw s7, 28(sp)
  sw s8, 32(sp)
  sw s9, 36(sp)
  sw s10, 40(sp)
  sw s11, 44(sp)
  sw ra, 48(sp)
.endm

.macro RESTORE_S
  lw s0, 0(sp)
  lw s1, 4(sp)
  lw s2, 8(sp)
  lw s3, 12(sp)
  lw s4, 16(sp)
  lw s5, 20(sp)
  lw s6, 24(sp)
  lw s7, 28(sp)
  lw s8, 32(sp)
  lw s9, 36(sp)
  lw s10, 40(sp)
  lw s11, 44(sp)
  lw ra, 48(sp)
  addi sp, sp, 64
.endm

  .section .text.swc_tt_asm, "ax"

/* Encryption rounds m+1 .. nr for an even m: state in S0-S3, K at round key m+1, KL at round key
 * nr, an odd number (>= 3) of full rounds left. Output in S0-S3. Local: called with jal ra. */
  .balign 32
swc_tt_etail:
  EROUND T0, T1, T2, T3, S0, S1, S2, S3, 0
  addi K, K, 16
1:
  EROUND S0, S1, S2, S3, T0, T1, T2, T3, 0
  EROUND T0, T1, T2, T3, S0, S1, S2, S3, 16
  addi K, K, 32
  bne K, KL, 1b
  ELCOL S0, T0, T1, T2, T3, 0
  ELCOL S1, T1, T2, T3, T0, 4
  ELCOL S2, T2, T3, T0, T1, 8
  ELCOL S3, T3, T0, T1, T2, 12
  ret

/* void swc_tt_asm_encrypt(const uint32_t *rk, unsigned nr, uint32_t *chain, const uint32_t *in,
 *                         uint32_t *out, size_t nblocks)
 * ECB when chain is NULL, CBC otherwise (chain: IV in, last ciphertext block out). */
  .globl swc_tt_asm_encrypt
  .type swc_tt_asm_encrypt, @function
  .balign 4
swc_tt_asm_encrypt:
  SAVE_S
  la B1, swc_tt_te + 1024
  la B3, swc_tt_te + 3072
  slli a1, a1, 4
  add KL, a0, a1            /* last round key */
  slli a5, a5, 4
  add a5, a3, a5            /* end of input */
  li a6, 0
  li a7, 0
  li t5, 0
  li t6, 0
  beqz a2, 2f
  lw a6, 0(a2)
  lw a7, 4(a2)
  lw t5, 8(a2)
  lw t6, 12(a2)
2:
  lw S0, 0(a3)
  lw S1, 4(a3)
  lw S2, 8(a3)
  lw S3, 12(a3)
  lw t0, 0(a0)
  lw t1, 4(a0)
  lw t2, 8(a0)
  lw t3, 12(a0)
  xor S0, S0, a6
  xor S1, S1, a7
  xor S2, S2, t5
  xor S3, S3, t6
  xor S0, S0, t0
  xor S1, S1, t1
  xor S2, S2, t2
  xor S3, S3, t3
  addi K, a0, 16
  jal ra, swc_tt_etail
  sw S0, 0(a4)
  sw S1, 4(a4)
  sw S2, 8(a4)
  sw S3, 12(a4)
  addi a3, a3, 16
  addi a4, a4, 16
  beqz a2, 3f
  mv a6, S0                 /* CBC: the ciphertext chains into the next block */
  mv a7, S1
  mv t5, S2
  mv t6, S3
3:
  bne a3, a5, 2b
  beqz a2, 4f
  sw a6, 0(a2)
  sw a7, 4(a2)
  sw t5, 8(a2)
  sw t6, 12(a2)
4:
  RESTORE_S
  ret
  .size swc_tt_asm_encrypt, . - swc_tt_asm_encrypt

/* void swc_tt_asm_ctr(const uint32_t *rk, unsigned nr, const uint32_t cache[6], unsigned c15,
 *                     const uint32_t *in, uint32_t *out, size_t nblocks)
 * CTR blocks whose counters differ only in byte 15, which runs from c15 to c15 + nblocks - 1
 * (<= 255). cache = {round-1 column 0 without its byte-15 look-up, the four round-2 columns
 * without their look-up of round-1 column 0, byte 15 of round key 0} (swc_aes_ttable.c). */
  .globl swc_tt_asm_ctr
  .type swc_tt_asm_ctr, @function
  .balign 4
swc_tt_asm_ctr:
  SAVE_S
  la B1, swc_tt_te + 1024
  la B3, swc_tt_te + 3072
  slli a1, a1, 4
  add KL, a0, a1
  addi a0, a0, 48           /* round key 3 */
  lw t0, 20(a2)             /* byte 15 of round key 0, kept in bits 16..23 of the counter */
  slli t0, t0, 16
  or a3, a3, t0
  lw a1, 0(a2)              /* round-1 column 0 */
  lw a7, 4(a2)              /* round-2 columns */
  lw t5, 8(a2)
  lw t6, 12(a2)
  lw a2, 16(a2)
  slli a6, a6, 4
  add a6, a4, a6            /* end of input */
  .balign 32
1:
  srli t0, a3, 14
  slli t1, a3, 2
  xor t0, t0, t1
  andi t0, t0, 0x3fc
#if defined(SWC_TT_TWO_TABLES)
  add t0, t0, B1
  lw t0, 0(t0)              /* Te1[c15 ^ k15]; Te3 = ror16(Te1) */
  addi a3, a3, 1
  mv K, a0
  slli t1, t0, 16
  srli t0, t0, 16
  xor t1, t1, a1
  xor t0, t0, t1            /* round-1 column 0 */
#else
  add t0, t0, B3
  lw t0, 0(t0)              /* Te3[c15 ^ k15] */
  addi a3, a3, 1            /* c15 ends at 256 at most: bits 16..23 stay k15 */
  mv K, a0
  xor t0, t0, a1            /* round-1 column 0 */
#endif
  slli t1, t0, 2
  srli t2, t0, 22
  srli t3, t0, 14
  srli t4, t0, 6
  andi t1, t1, 0x3fc
  andi t2, t2, 0x3fc
  andi t3, t3, 0x3fc
  andi t4, t4, 0x3fc
#if defined(SWC_TT_TWO_TABLES)
  add t1, t1, B1
  add t2, t2, B1
  add t3, t3, B1
  add t4, t4, B1
  lw t1, -1024(t1)          /* Te0[b0] -> column 0 */
  lw t2, 0(t2)              /* Te1[b3], rotated: Te3[b3] -> column 1 */
  lw t3, -1024(t3)          /* Te0[b2], rotated: Te2[b2] -> column 2 */
  lw t4, 0(t4)              /* Te1[b1] -> column 3 */
  xor S0, a7, t1
  xor S3, a2, t4
  slli t0, t2, 16
  srli t2, t2, 16
  slli t1, t3, 16
  srli t3, t3, 16
  xor S1, t5, t0
  xor S2, t6, t1
  xor S1, S1, t2
  xor S2, S2, t3
#else
  add t1, t1, B1
  add t2, t2, B3
  add t3, t3, B3
  add t4, t4, B1
  lw t1, -1024(t1)          /* Te0[b0] -> column 0 */
  lw t2, 0(t2)              /* Te3[b3] -> column 1 */
  lw t3, -1024(t3)          /* Te2[b2] -> column 2 */
  lw t4, 0(t4)              /* Te1[b1] -> column 3 */
  xor S0, a7, t1
  xor S1, t5, t2
  xor S2, t6, t3
  xor S3, a2, t4
#endif
  jal ra, swc_tt_etail
  lw t0, 0(a4)
  lw t1, 4(a4)
  lw t2, 8(a4)
  lw t3, 12(a4)
  xor S0, S0, t0
  xor S1, S1, t1
  xor S2, S2, t2
  xor S3, S3, t3
  sw S0, 0(a5)
  sw S1, 4(a5)
  sw S2, 8(a5)
  sw S3, 12(a5)
  addi a4, a4, 16
  addi a5, a5, 16
  bne a4, a6, 1b
  RESTORE_S
  ret
  .size swc_tt_asm_ctr, . - swc_tt_asm_ctr

/* Own section: a program that never decrypts drops it (and the decryption tables) at link time. */
  .section .text.swc_tt_asm_decrypt, "ax"

/* void swc_tt_asm_decrypt(const uint32_t *rk, unsigned nr, uint32_t *chain, const uint32_t *in,
 *                         uint32_t *out, size_t nblocks)
 * Decryption key schedule (equivalent inverse cipher); ECB when chain is NULL, else CBC. */
  .globl swc_tt_asm_decrypt
  .type swc_tt_asm_decrypt, @function
  .balign 32
swc_tt_asm_decrypt:
  SAVE_S
  la B1, swc_tt_td + 1024
  la B3, swc_tt_td + 3072
  la t6, swc_tt_isbox
  slli a1, a1, 4
  add KL, a0, a1
  slli a5, a5, 4
  add a5, a3, a5
1:
  lw a6, 0(a3)
  lw a7, 4(a3)
  lw t5, 8(a3)
  lw a1, 12(a3)
  lw t0, 0(a0)
  lw t1, 4(a0)
  lw t2, 8(a0)
  lw t3, 12(a0)
  xor S0, a6, t0
  xor S1, a7, t1
  xor S2, t5, t2
  xor S3, a1, t3
  addi K, a0, 16
  DROUND T0, T1, T2, T3, S0, S1, S2, S3, 0
  addi K, K, 16
2:
  DROUND S0, S1, S2, S3, T0, T1, T2, T3, 0
  DROUND T0, T1, T2, T3, S0, S1, S2, S3, 16
  addi K, K, 32
  bne K, KL, 2b
  DLCOL S0, T0, T3, T2, T1, 0, t6
  DLCOL S1, T1, T0, T3, T2, 4, t6
  DLCOL S2, T2, T1, T0, T3, 8, t6
  DLCOL S3, T3, T2, T1, T0, 12, t6
  beqz a2, 3f
  lw t0, 0(a2)              /* CBC: previous ciphertext, then this one becomes the chain */
  lw t1, 4(a2)
  lw t2, 8(a2)
  lw t3, 12(a2)
  sw a6, 0(a2)
  sw a7, 4(a2)
  sw t5, 8(a2)
  sw a1, 12(a2)
  xor S0, S0, t0
  xor S1, S1, t1
  xor S2, S2, t2
  xor S3, S3, t3
3:
  sw S0, 0(a4)
  sw S1, 4(a4)
  sw S2, 8(a4)
  sw S3, 12(a4)
  addi a3, a3, 16
  addi a4, a4, 16
  bne a3, a5, 1b
  RESTORE_S
  ret
  .size swc_tt_asm_decrypt, . - swc_tt_asm_decrypt

#endif /* SWC_AES_ASM_TTABLE */
