/* SPDX-License-Identifier: Apache-2.0 */
/*
 * swcrypto internals shared by the bitsliced, constant-time variants (swc_aes_fixslice.c,
 * swc_aes_barrel.c): SWAPMOVE, the 8 x 8 bit transposition inside byte lanes, the Boyar-Peralta
 * S-box circuit on eight slice words, its inverse, and a constant-time SubWord for the key
 * schedule. Slice word b holds bit b of every byte it carries.
 */
#ifndef SWC_BITSLICE_H
#define SWC_BITSLICE_H

#include "swc_internal.h"

/* The round functions must melt into their callers so the state stays in registers. */
#define SWC_FS_INLINE static inline __attribute__((always_inline))

/* Exchange the bits of a at positions p + n with the bits of b at positions p, p in m. */
#define SWC_SWAPMOVE(a, b, m, n)                  \
  do {                                            \
    uint32_t t_ = ((b) ^ ((a) >> (n))) & (m);     \
    (b) ^= t_;                                    \
    (a) ^= t_ << (n);                             \
  } while (0)

/* Transpose, inside every byte lane, the 8 x 8 bit matrix (word j, bit b) -> (word b, bit j).
 * Fed eight words of input bytes, it leaves bit slice b in word b; its own inverse, so it also
 * unpacks. */
SWC_FS_INLINE void swc_fs_transpose(uint32_t s[8]) {
  SWC_SWAPMOVE(s[0], s[1], 0x55555555u, 1);
  SWC_SWAPMOVE(s[2], s[3], 0x55555555u, 1);
  SWC_SWAPMOVE(s[4], s[5], 0x55555555u, 1);
  SWC_SWAPMOVE(s[6], s[7], 0x55555555u, 1);
  SWC_SWAPMOVE(s[0], s[2], 0x33333333u, 2);
  SWC_SWAPMOVE(s[1], s[3], 0x33333333u, 2);
  SWC_SWAPMOVE(s[4], s[6], 0x33333333u, 2);
  SWC_SWAPMOVE(s[5], s[7], 0x33333333u, 2);
  SWC_SWAPMOVE(s[0], s[4], 0x0f0f0f0fu, 4);
  SWC_SWAPMOVE(s[1], s[5], 0x0f0f0f0fu, 4);
  SWC_SWAPMOVE(s[2], s[6], 0x0f0f0f0fu, 4);
  SWC_SWAPMOVE(s[3], s[7], 0x0f0f0f0fu, 4);
}

/* S-box + 0x63 on every byte (Boyar-Peralta, output NOTs dropped). U0 is the most significant
 * bit, i.e. slice 7. */
SWC_FS_INLINE void swc_fs_sbox(uint32_t s[8]) {
  const uint32_t u0 = s[7], u1 = s[6], u2 = s[5], u3 = s[4], u4 = s[3], u5 = s[2], u6 = s[1], u7 = s[0];
  /* top linear layer */
  const uint32_t t1 = u0 ^ u3, t2 = u0 ^ u5, t3 = u0 ^ u6, t4 = u3 ^ u5, t5 = u4 ^ u6;
  const uint32_t t6 = t1 ^ t5, t7 = u1 ^ u2, t8 = u7 ^ t6, t9 = u7 ^ t7, t10 = t6 ^ t7;
  const uint32_t t11 = u1 ^ u5, t12 = u2 ^ u5, t13 = t3 ^ t4, t14 = t6 ^ t11, t15 = t5 ^ t11;
  const uint32_t t16 = t5 ^ t12, t17 = t9 ^ t16, t18 = u3 ^ u7, t19 = t7 ^ t18, t20 = t1 ^ t19;
  const uint32_t t21 = u6 ^ u7, t22 = t7 ^ t21, t23 = t2 ^ t22, t24 = t2 ^ t10, t25 = t20 ^ t17;
  const uint32_t t26 = t3 ^ t16, t27 = t1 ^ t12;
  /* shared non-linear middle: inversion in GF(2^8) through GF(2^4) */
  const uint32_t m1 = t13 & t6, m2 = t23 & t8, m3 = t14 ^ m1, m4 = t19 & u7, m5 = m4 ^ m1;
  const uint32_t m6 = t3 & t16, m7 = t22 & t9, m8 = t26 ^ m6, m9 = t20 & t17, m10 = m9 ^ m6;
  const uint32_t m11 = t1 & t15, m12 = t4 & t27, m13 = m12 ^ m11, m14 = t2 & t10, m15 = m14 ^ m11;
  const uint32_t m16 = m3 ^ m2, m17 = m5 ^ t24, m18 = m8 ^ m7, m19 = m10 ^ m15, m20 = m16 ^ m13;
  const uint32_t m21 = m17 ^ m15, m22 = m18 ^ m13, m23 = m19 ^ t25, m24 = m22 ^ m23;
  const uint32_t m25 = m22 & m20, m26 = m21 ^ m25, m27 = m20 ^ m21, m28 = m23 ^ m25;
  const uint32_t m29 = m28 & m27, m30 = m26 & m24, m31 = m20 & m23, m32 = m27 & m31;
  const uint32_t m33 = m27 ^ m25, m34 = m21 & m22, m35 = m24 & m34, m36 = m24 ^ m25;
  const uint32_t m37 = m21 ^ m29, m38 = m32 ^ m33, m39 = m23 ^ m30, m40 = m35 ^ m36;
  const uint32_t m41 = m38 ^ m40, m42 = m37 ^ m39, m43 = m37 ^ m38, m44 = m39 ^ m40, m45 = m42 ^ m41;
  const uint32_t m46 = m44 & t6, m47 = m40 & t8, m48 = m39 & u7, m49 = m43 & t16, m50 = m38 & t9;
  const uint32_t m51 = m37 & t17, m52 = m42 & t15, m53 = m45 & t27, m54 = m41 & t10, m55 = m44 & t13;
  const uint32_t m56 = m40 & t23, m57 = m39 & t19, m58 = m43 & t3, m59 = m38 & t22, m60 = m37 & t20;
  const uint32_t m61 = m42 & t1, m62 = m45 & t4, m63 = m41 & t2;
  /* bottom linear layer */
  const uint32_t l0 = m61 ^ m62, l1 = m50 ^ m56, l2 = m46 ^ m48, l3 = m47 ^ m55, l4 = m54 ^ m58;
  const uint32_t l5 = m49 ^ m61, l6 = m62 ^ l5, l7 = m46 ^ l3, l8 = m51 ^ m59, l9 = m52 ^ m53;
  const uint32_t l10 = m53 ^ l4, l11 = m60 ^ l2, l12 = m48 ^ m51, l13 = m50 ^ l0, l14 = m52 ^ m61;
  const uint32_t l15 = m55 ^ l1, l16 = m56 ^ l0, l17 = m57 ^ l1, l18 = m58 ^ l8, l19 = m63 ^ l4;
  const uint32_t l20 = l0 ^ l1, l21 = l1 ^ l7, l22 = l3 ^ l12, l23 = l18 ^ l2, l24 = l15 ^ l9;
  const uint32_t l25 = l6 ^ l10, l26 = l7 ^ l9, l27 = l8 ^ l10, l28 = l11 ^ l14, l29 = l11 ^ l17;
  s[7] = l6 ^ l24;
  s[6] = l16 ^ l26;
  s[5] = l19 ^ l28;
  s[4] = l6 ^ l21;
  s[3] = l20 ^ l22;
  s[2] = l25 ^ l29;
  s[1] = l13 ^ l27;
  s[0] = l6 ^ l23;
}

/* A^-1, the linear part of the inverse affine map (FIPS-197 5.3.2):
 * bit i <- bits i+2, i+5, i+7 (mod 8). */
SWC_FS_INLINE void swc_fs_inv_affine(uint32_t s[8]) {
  const uint32_t x0 = s[0], x1 = s[1], x2 = s[2], x3 = s[3], x4 = s[4], x5 = s[5], x6 = s[6], x7 = s[7];
  s[0] = x2 ^ x5 ^ x7;
  s[1] = x3 ^ x6 ^ x0;
  s[2] = x4 ^ x7 ^ x1;
  s[3] = x5 ^ x0 ^ x2;
  s[4] = x6 ^ x1 ^ x3;
  s[5] = x7 ^ x2 ^ x4;
  s[6] = x0 ^ x3 ^ x5;
  s[7] = x1 ^ x4 ^ x6;
}

/* Inverse S-box of (x + 0x63) on every byte: the 0x63 comes from the round keys. */
SWC_FS_INLINE void swc_fs_inv_sbox(uint32_t s[8]) {
  swc_fs_inv_affine(s);
  swc_fs_sbox(s);
  swc_fs_inv_affine(s);
}

/* SubWord for the key schedule: the word as column 0 of one block through the bitsliced S-box. */
static inline uint32_t swc_fs_subword(uint32_t w) {
  uint32_t s[8] = {w, 0, 0, 0, 0, 0, 0, 0};
  swc_fs_transpose(s);
  swc_fs_sbox(s);
  swc_fs_transpose(s);
  return s[0] ^ 0x63636363u;
}

#endif /* SWC_BITSLICE_H */
