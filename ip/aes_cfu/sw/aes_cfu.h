/* SPDX-License-Identifier: Apache-2.0 */
/*
 * aes_cfu driver: the AES coprocessor on the VexRiscv CFU port (custom-0 opcode 0x0B).
 *
 * Two ways to use it.
 *
 * 1. Coarse operations: the coprocessor holds the key and runs whole blocks on its AES engine.
 *      aes_cfu_t cfu;
 *      aes_cfu_init(&cfu);                                      // touches no hardware
 *      if (aes_cfu_set_key(&cfu, key, 16, AES_CFU_ECB, AES_CFU_ENCRYPT) != AES_CFU_OK) ...
 *      aes_cfu_crypt(&cfu, in, out, nblocks);                   // ECB, or CBC after aes_cfu_set_iv
 *      aes_cfu_clear(&cfu);                                     // zeroise key and data
 *
 * 2. Round instructions with the semantics of the RISC-V scalar crypto extension (aes32esi,
 *    aes32esmi, aes32dsi, aes32dsmi): software AES whose round keys live in memory.
 *      aes_zkn_key_t rk;
 *      aes_zkn_expand_key(&rk, key, 32, AES_CFU_DECRYPT);
 *      aes_zkn_decrypt_block(&rk, in, out);
 *
 * Words move in memory byte order: blocks and keys are plain byte arrays, 4-byte aligned.
 * Every call that talks to the coprocessor returns an aes_cfu_result_t; waits are bounded.
 * The CFU is enabled by crt0 (bit 31 of CSR 0xBC0).
 */
#ifndef AES_CFU_H
#define AES_CFU_H

#include <stddef.h>
#include <stdint.h>

#include "aes_enums.h"

typedef enum {
  AES_CFU_OK = 0,
  AES_CFU_BAD_ARG,   /* NULL pointer, misaligned buffer, bad key length or mode */
  AES_CFU_ERROR,     /* the coprocessor flagged an error (cleared with aes_cfu_clear) */
  AES_CFU_TIMEOUT,   /* the key was not ready within the poll bound */
} aes_cfu_result_t;

/* The engine's encodings (aes_enums.h, generated from ip/aes/data/aes.rdl). */
typedef enum { AES_CFU_ECB = AES_PERIPH__AES_MODE__ECB, AES_CFU_CBC = AES_PERIPH__AES_MODE__CBC } aes_cfu_mode_t;
typedef enum { AES_CFU_ENCRYPT = AES_PERIPH__AES_DIR__ENC, AES_CFU_DECRYPT = AES_PERIPH__AES_DIR__DEC } aes_cfu_dir_t;

/* ---- raw instructions: function_id = {funct7, funct3} ---- */
#define AES_CFU_F3_ESI 0
#define AES_CFU_F3_ESMI 1
#define AES_CFU_F3_DSI 2
#define AES_CFU_F3_DSMI 3
#define AES_CFU_F3_KEY 4
#define AES_CFU_F3_BLOCK 5
#define AES_CFU_F3_CTRL 6
#define AES_CFU_F3_RESULT 7
#define AES_CFU_CTRL_CONFIG 0
#define AES_CFU_CTRL_IV 1
#define AES_CFU_CTRL_CLEAR 2
#define AES_CFU_CTRL_STATUS 3
#define AES_CFU_CTRL_START 4
#define AES_CFU_STATUS_KEY_READY 0x1u
#define AES_CFU_STATUS_RESULT 0x2u
#define AES_CFU_STATUS_BUSY 0x4u
#define AES_CFU_STATUS_ERR 0x8u

#define AES_CFU_STR_(x) #x
#define AES_CFU_STR(x) AES_CFU_STR_(x)

/* A pure op: the compiler may schedule it like any ALU instruction. */
#define AES_CFU_PURE(f3, f7, a, b)                                                        \
  ({                                                                                      \
    uint32_t r_;                                                                          \
    __asm__(".insn r 0x0B, " AES_CFU_STR(f3) ", " AES_CFU_STR(f7) ", %0, %1, %2"         \
            : "=r"(r_) : "r"(a), "r"(b));                                                 \
    r_;                                                                                   \
  })
/* An op with side effects in the coprocessor: kept in program order. */
#define AES_CFU_OP(f3, f7, a, b)                                                          \
  ({                                                                                      \
    uint32_t r_;                                                                          \
    __asm__ volatile(".insn r 0x0B, " AES_CFU_STR(f3) ", " AES_CFU_STR(f7) ", %0, %1, %2" \
                     : "=r"(r_) : "r"(a), "r"(b) : "memory");                             \
    r_;                                                                                   \
  })

/* rd = rs1 ^ f(byte bs of rs2), exactly as aes32esi/esmi/dsi/dsmi; bs must be a constant. */
#define aes32esi(rs1, rs2, bs) AES_CFU_PURE(AES_CFU_F3_ESI, bs, rs1, rs2)
#define aes32esmi(rs1, rs2, bs) AES_CFU_PURE(AES_CFU_F3_ESMI, bs, rs1, rs2)
#define aes32dsi(rs1, rs2, bs) AES_CFU_PURE(AES_CFU_F3_DSI, bs, rs1, rs2)
#define aes32dsmi(rs1, rs2, bs) AES_CFU_PURE(AES_CFU_F3_DSMI, bs, rs1, rs2)

/* ---- coarse operations ---- */
typedef struct {
  unsigned key_len; /* bytes; 0 until a key is set */
  aes_cfu_mode_t mode;
  aes_cfu_dir_t dir;
} aes_cfu_t;

void aes_cfu_init(aes_cfu_t *cfu);
__attribute__((warn_unused_result)) aes_cfu_result_t aes_cfu_set_key(aes_cfu_t *cfu, const void *key,
                                                                     size_t key_len, aes_cfu_mode_t mode,
                                                                     aes_cfu_dir_t dir);
__attribute__((warn_unused_result)) aes_cfu_result_t aes_cfu_set_iv(aes_cfu_t *cfu, const void *iv);
__attribute__((warn_unused_result)) aes_cfu_result_t aes_cfu_crypt(aes_cfu_t *cfu, const void *in, void *out,
                                                                   size_t nblocks);
void aes_cfu_clear(aes_cfu_t *cfu);

/* One block, inline, key already set: two loads into the coprocessor (the second starts the
 * engine) and four result reads (the first waits for the engine). No checks: read
 * aes_cfu_status() for AES_CFU_STATUS_ERR after a run of blocks. 4-byte aligned buffers. */
static inline void aes_cfu_block(const void *in, void *out) {
  const uint32_t *src = (const uint32_t *)in;
  uint32_t *dst = (uint32_t *)out;
  AES_CFU_OP(AES_CFU_F3_BLOCK, 0, src[0], src[1]);
  AES_CFU_OP(AES_CFU_F3_BLOCK, 3, src[2], src[3]);
  dst[0] = AES_CFU_OP(AES_CFU_F3_RESULT, 0, 0, 0);
  dst[1] = AES_CFU_OP(AES_CFU_F3_RESULT, 1, 0, 0);
  dst[2] = AES_CFU_OP(AES_CFU_F3_RESULT, 2, 0, 0);
  dst[3] = AES_CFU_OP(AES_CFU_F3_RESULT, 3, 0, 0);
}
uint32_t aes_cfu_status(void);

/* ---- Zkn-style software AES on the round instructions ---- */
typedef struct {
  uint32_t rk[60]; /* round keys, 4 per round; for decryption in the equivalent-inverse form */
  unsigned rounds; /* 10, 12 or 14 */
} aes_zkn_key_t;

__attribute__((warn_unused_result)) aes_cfu_result_t aes_zkn_expand_key(aes_zkn_key_t *ks, const void *key,
                                                                        size_t key_len, aes_cfu_dir_t dir);
void aes_zkn_encrypt_block(const aes_zkn_key_t *ks, const void *in, void *out);
void aes_zkn_decrypt_block(const aes_zkn_key_t *ks, const void *in, void *out);

#endif /* AES_CFU_H */
