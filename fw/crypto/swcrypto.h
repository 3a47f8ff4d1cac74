/* SPDX-License-Identifier: Apache-2.0 */
/*
 * swcrypto: software AES (FIPS-197) in ECB, CBC and CTR modes (SP 800-38A) and SHA-1, SHA-256,
 * SHA-512 (FIPS 180-4) for 32-bit little-endian cores without crypto hardware. C99 with GCC/Clang
 * attributes; no heap, no global state except the run-time tables of the *_RT variants, no
 * dependency on the aesoc platform.
 *
 * Usage
 * -----
 *   #include "swcrypto.h"
 *
 *   swc_aes_ctx enc;
 *   uint8_t ctr[16] = {...};                     // initial counter block, advanced by the call
 *   if (swc_aes_setkey_enc(&enc, key, 128) != SWC_OK) ...;
 *   swc_aes_ctr(&enc, ctr, plaintext, ciphertext, len);     // any length
 *
 *   swc_aes_ctx dec;                             // CBC/ECB decryption needs a decryption key
 *   swc_aes_setkey_dec(&dec, key, 256);
 *   swc_aes_cbc_decrypt(&dec, iv, ciphertext, plaintext, len);  // len a multiple of 16
 *
 *   uint8_t digest[SWC_SHA256_BYTES];
 *   swc_sha256_ctx h;
 *   swc_sha256_init(&h);
 *   swc_sha256_update(&h, part1, n1);            // stream in pieces of any size
 *   swc_sha256_update(&h, part2, n2);
 *   swc_sha256_final(&h, digest);                // or swc_sha256(data, len, digest) in one go
 *
 * Every function but swc_aes_variant() and swc_aes_wipe() returns an swc_result; SWC_OK is 0 and
 * every error is negative. Functions check
 * their arguments (NULL pointers, key sizes, lengths, a context of the wrong direction) and leave
 * their outputs untouched when they return an error. In-place operation (in == out) is allowed
 * for every AES mode; partially overlapping buffers are not. Buffers need no alignment.
 *
 * AES variants (choose one at build time, for every file that includes this header)
 * ---------------------------------------------------------------------------------
 *   SWC_AES_COMPACT      byte-oriented, the 256-byte S-box only (each decryption call derives
 *                        the inverse S-box on its stack), its own lean public layer.
 *   SWC_AES_TTABLE       4 encryption + 4 decryption T-tables as const data (8 KB + 256-byte
 *                        inverse S-box), rounds in a loop: the RIOT default.
 *   SWC_AES_TTABLE_RT    the same tables computed at run time into RAM by swc_aes_init()
 *                        (RIOT's AES_CALCULATE_TABLES).
 *   SWC_AES_UNROLLED     fully unrolled rounds, const tables.
 *   SWC_AES_UNROLLED_RT  fully unrolled rounds, run-time tables.
 *   SWC_AES_FIXSLICE     constant time: fixsliced AES on two blocks at once, no table, no
 *                        secret-dependent branch or address (the default if none is chosen).
 *   SWC_AES_BARREL       constant time: barrel-shiftrows bitsliced AES on eight blocks at once
 *                        (faster for ECB, CTR and CBC decryption; CBC encryption and single
 *                        blocks pay for eight blocks; 1.9 KB of round keys for AES-256).
 *   SWC_AES_ASM_TTABLE   SWC_AES_TTABLE with every block in hand-written RV32IM assembly
 *                        (swc_aes_asm_ttable.S; RV32 only): the fastest variant.
 * swc_aes_variant() names the variant a binary was built with. The context layout depends on
 * the variant, so every object of one program must be compiled with the same choice.
 * SWC_TT_TWO_TABLES (with a T-table variant) keeps two encryption tables instead of four and
 * rotates (2 KB of data cache instead of 4; see docs/swcrypto.md before choosing it).
 *
 * A program that calls no decryption function (setkey_dec, decrypt_block, ecb_decrypt,
 * cbc_decrypt) links no decryption code or table: the build needs -ffunction-sections,
 * -fdata-sections and --gc-sections, nothing else.
 *
 * Table variants are not constant time: their memory addresses depend on key and data, which
 * caches turn into timing. Use SWC_AES_FIXSLICE or SWC_AES_BARREL wherever an attacker can time
 * or share the core.
 *
 * CTR mode: the 16-byte counter block is one 128-bit big-endian integer incremented once per
 * block (SP 800-38A B.1 with m = 128). A call of any length advances it by ceil(len / 16); the
 * keystream left over from a partial last block is discarded, so a stream split across calls
 * must use multiples of 16 bytes in every call but the last.
 */
#ifndef SWCRYPTO_H
#define SWCRYPTO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Exactly one variant; default: the constant-time one. */
#if !defined(SWC_AES_COMPACT) && !defined(SWC_AES_TTABLE) && !defined(SWC_AES_TTABLE_RT) && \
    !defined(SWC_AES_UNROLLED) && !defined(SWC_AES_UNROLLED_RT) && !defined(SWC_AES_FIXSLICE) && \
    !defined(SWC_AES_ASM_TTABLE) && !defined(SWC_AES_BARREL)
#define SWC_AES_FIXSLICE 1
#endif
#if defined(SWC_AES_COMPACT) + defined(SWC_AES_TTABLE) + defined(SWC_AES_TTABLE_RT) + \
        defined(SWC_AES_UNROLLED) + defined(SWC_AES_UNROLLED_RT) + defined(SWC_AES_FIXSLICE) + \
        defined(SWC_AES_ASM_TTABLE) + defined(SWC_AES_BARREL) != 1
#error "swcrypto: define exactly one SWC_AES_<variant>"
#endif

typedef enum {
  SWC_OK = 0,
  SWC_ERR_NULL = -1,      /* a required pointer argument is NULL */
  SWC_ERR_KEY_BITS = -2,  /* AES key size other than 128, 192 or 256 bits */
  SWC_ERR_LENGTH = -3,    /* ECB/CBC length not a multiple of 16 bytes */
  SWC_ERR_DIRECTION = -4, /* context keyed for the other direction, or not keyed at all */
  SWC_ERR_STATE = -5,     /* hash context already finalised (call init again) */
  SWC_ERR_TOO_LONG = -6   /* hash input beyond the FIPS 180-4 length limit */
} swc_result;

/* ------------------------------------------------------------------------------------------ */
/* AES                                                                                         */

#define SWC_AES_BLOCK_BYTES 16u

#if defined(SWC_AES_FIXSLICE)
/* Fixsliced round keys: 8 words per round key, up to 15 round keys. */
#define SWC_AES_RK_WORDS 120u
#elif defined(SWC_AES_BARREL)
/* Barrel-shiftrows round keys: 32 words per round key, up to 15 round keys. */
#define SWC_AES_RK_WORDS 480u
#else
/* Round keys as 32-bit words: 4 per round key, up to 15 round keys. */
#define SWC_AES_RK_WORDS 60u
#endif

/* Key schedule of one direction. Treat as opaque; it holds key material: wipe it with
 * swc_aes_wipe() when done. */
typedef struct {
  uint32_t rk[SWC_AES_RK_WORDS];
  uint32_t rounds;    /* 10, 12 or 14 */
  uint32_t direction; /* internal marker: encryption, decryption or not keyed */
} swc_aes_ctx;

/* Name of the AES variant compiled in, e.g. "ttable-unrolled-rt". */
const char *swc_aes_variant(void);

/* One-time set-up of global tables: computes the encryption T-tables of the *_RT variants (and
 * is a no-op for the others); their decryption tables are computed by the first
 * swc_aes_setkey_dec, so encrypt-only programs carry neither the tables nor their code. Key
 * set-up calls it when needed, so calling it is optional; call it first to keep its cost out of
 * a timed section. */
swc_result swc_aes_init(void);

/* Key schedule for encryption (ECB/CBC encryption, CTR in both directions, single blocks). */
swc_result swc_aes_setkey_enc(swc_aes_ctx *ctx, const uint8_t *key, unsigned key_bits);
/* Key schedule for decryption (ECB/CBC decryption, swc_aes_decrypt_block). */
swc_result swc_aes_setkey_dec(swc_aes_ctx *ctx, const uint8_t *key, unsigned key_bits);
/* Overwrite the key schedule with zeros; the context must be keyed again before use. */
void swc_aes_wipe(swc_aes_ctx *ctx);

/* One 16-byte block. */
swc_result swc_aes_encrypt_block(const swc_aes_ctx *ctx, const uint8_t in[16], uint8_t out[16]);
swc_result swc_aes_decrypt_block(const swc_aes_ctx *ctx, const uint8_t in[16], uint8_t out[16]);

/* ECB over len bytes (a multiple of 16). */
swc_result swc_aes_ecb_encrypt(const swc_aes_ctx *ctx, const uint8_t *in, uint8_t *out, size_t len);
swc_result swc_aes_ecb_decrypt(const swc_aes_ctx *ctx, const uint8_t *in, uint8_t *out, size_t len);

/* CBC over len bytes (a multiple of 16); iv is updated to the last ciphertext block so a
 * message can be processed in several calls. */
swc_result swc_aes_cbc_encrypt(const swc_aes_ctx *ctx, uint8_t iv[16], const uint8_t *in,
                               uint8_t *out, size_t len);
swc_result swc_aes_cbc_decrypt(const swc_aes_ctx *ctx, uint8_t iv[16], const uint8_t *in,
                               uint8_t *out, size_t len);

/* CTR over len bytes (any length), encryption and decryption alike; needs an encryption key.
 * counter is advanced by ceil(len / 16) (see the notes at the top). */
swc_result swc_aes_ctr(const swc_aes_ctx *ctx, uint8_t counter[16], const uint8_t *in,
                       uint8_t *out, size_t len);

/* ------------------------------------------------------------------------------------------ */
/* SHA-1, SHA-256, SHA-512 (FIPS 180-4), streaming                                              */

#define SWC_SHA1_BYTES 20u
#define SWC_SHA256_BYTES 32u
#define SWC_SHA512_BYTES 64u

typedef struct {
  uint32_t h[5];
  uint64_t bytes; /* message bytes so far */
  uint32_t fill;  /* bytes waiting in buf; all ones once finalised */
  uint8_t buf[64];
} swc_sha1_ctx;

typedef struct {
  uint32_t h[8];
  uint64_t bytes;
  uint32_t fill;
  uint8_t buf[64];
} swc_sha256_ctx;

typedef struct {
  uint64_t h[8];
  uint64_t bytes; /* the 2^125-byte limit of FIPS 180-4 is cut to 2^61 bytes here */
  uint32_t fill;
  uint8_t buf[128];
} swc_sha512_ctx;

/* init starts a message; update adds len bytes (data may be NULL when len is 0); final writes
 * the digest and ends the message (update or final after it return SWC_ERR_STATE until the
 * next init). The one-call forms hash a whole buffer. */
swc_result swc_sha1_init(swc_sha1_ctx *ctx);
swc_result swc_sha1_update(swc_sha1_ctx *ctx, const uint8_t *data, size_t len);
swc_result swc_sha1_final(swc_sha1_ctx *ctx, uint8_t digest[SWC_SHA1_BYTES]);
swc_result swc_sha1(const uint8_t *data, size_t len, uint8_t digest[SWC_SHA1_BYTES]);

swc_result swc_sha256_init(swc_sha256_ctx *ctx);
swc_result swc_sha256_update(swc_sha256_ctx *ctx, const uint8_t *data, size_t len);
swc_result swc_sha256_final(swc_sha256_ctx *ctx, uint8_t digest[SWC_SHA256_BYTES]);
swc_result swc_sha256(const uint8_t *data, size_t len, uint8_t digest[SWC_SHA256_BYTES]);

swc_result swc_sha512_init(swc_sha512_ctx *ctx);
swc_result swc_sha512_update(swc_sha512_ctx *ctx, const uint8_t *data, size_t len);
swc_result swc_sha512_final(swc_sha512_ctx *ctx, uint8_t digest[SWC_SHA512_BYTES]);
swc_result swc_sha512(const uint8_t *data, size_t len, uint8_t digest[SWC_SHA512_BYTES]);

#ifdef __cplusplus
}
#endif

#endif /* SWCRYPTO_H */
