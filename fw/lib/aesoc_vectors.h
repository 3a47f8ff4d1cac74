/* SPDX-License-Identifier: Apache-2.0 */
/* Published answers firmware self-tests check against: FIPS-197 appendix C (key 00 01 .. 1f, its
 * first 16/24/32 bytes for AES-128/192/256) and the two-block SHA-256 example of FIPS 180-4 /
 * NIST ("abcdbcde...nopq"). Header-only; unused arrays cost nothing. */
#ifndef AESOC_VECTORS_H
#define AESOC_VECTORS_H

#include <stdint.h>

#define AESOC_UNUSED_OK __attribute__((unused, aligned(4)))

static const uint8_t AESOC_FIPS197_KEY[32] AESOC_UNUSED_OK = {
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
    0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f};
static const uint8_t AESOC_FIPS197_PT[16] AESOC_UNUSED_OK = {
    0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};
/* Ciphertext for AES-128, AES-192, AES-256 (C.1, C.2, C.3). */
static const uint8_t AESOC_FIPS197_CT[3][16] AESOC_UNUSED_OK = {
    {0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30, 0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a},
    {0xdd, 0xa9, 0x7c, 0xa4, 0x86, 0x4c, 0xdf, 0xe0, 0x6e, 0xaf, 0x70, 0xa0, 0xec, 0x0d, 0x71, 0x91},
    {0x8e, 0xa2, 0xb7, 0xca, 0x51, 0x67, 0x45, 0xbf, 0xea, 0xfc, 0x49, 0x90, 0x4b, 0x49, 0x60, 0x89}};

static const char AESOC_SHA256_MSG[] AESOC_UNUSED_OK = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
static const uint8_t AESOC_SHA256_DIGEST[32] AESOC_UNUSED_OK = {
    0x24, 0x8d, 0x6a, 0x61, 0xd2, 0x06, 0x38, 0xb8, 0xe5, 0xc0, 0x26, 0x93, 0x0c, 0x3e, 0x60, 0x39,
    0xa3, 0x3c, 0xe4, 0x59, 0x64, 0xff, 0x21, 0x67, 0xf6, 0xec, 0xed, 0xd4, 0x19, 0xdb, 0x06, 0xc1};

/* AESOC_RAMP_n(x): n comma-separated words x, x+1, ..., x+n-1 (n a power of two up to 4096), to
 * fill a const table with 0..N-1 at compile time. */
#define AESOC_RAMP_1(n) (n)
#define AESOC_RAMP_2(n) AESOC_RAMP_1(n), AESOC_RAMP_1((n) + 1u)
#define AESOC_RAMP_4(n) AESOC_RAMP_2(n), AESOC_RAMP_2((n) + 2u)
#define AESOC_RAMP_8(n) AESOC_RAMP_4(n), AESOC_RAMP_4((n) + 4u)
#define AESOC_RAMP_16(n) AESOC_RAMP_8(n), AESOC_RAMP_8((n) + 8u)
#define AESOC_RAMP_32(n) AESOC_RAMP_16(n), AESOC_RAMP_16((n) + 16u)
#define AESOC_RAMP_64(n) AESOC_RAMP_32(n), AESOC_RAMP_32((n) + 32u)
#define AESOC_RAMP_128(n) AESOC_RAMP_64(n), AESOC_RAMP_64((n) + 64u)
#define AESOC_RAMP_256(n) AESOC_RAMP_128(n), AESOC_RAMP_128((n) + 128u)
#define AESOC_RAMP_512(n) AESOC_RAMP_256(n), AESOC_RAMP_256((n) + 256u)
#define AESOC_RAMP_1024(n) AESOC_RAMP_512(n), AESOC_RAMP_512((n) + 512u)
#define AESOC_RAMP_2048(n) AESOC_RAMP_1024(n), AESOC_RAMP_1024((n) + 1024u)
#define AESOC_RAMP_4096(n) AESOC_RAMP_2048(n), AESOC_RAMP_2048((n) + 2048u)

#endif /* AESOC_VECTORS_H */
