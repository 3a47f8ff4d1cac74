/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The round structure SHA-256 and SHA-512 share (FIPS 180-4 6.2.2 and 6.4.2): the same round on
 * 32- or 64-bit words with their own sigma functions. Eight rounds per call with the working
 * variables renamed instead of moved, and Maj(a,b,c) as b ^ ((a ^ b) & (b ^ c)) reusing a ^ b as
 * the next round's b ^ c. Internal to swcrypto.
 */
#ifndef SWC_SHA2_H
#define SWC_SHA2_H

#include "swc_hash.h"

/* One round on words of type T; ab_in is the previous round's a ^ b (= this round's b ^ c),
 * ab_out receives a ^ b. */
#define SWC_SHA2_ROUND(T, BSIG0, BSIG1, a, b, c, d, e, f, g, h, kw, ab_in, ab_out) \
  do {                                                                            \
    T t1 = (h) + BSIG1(e) + ((g) ^ ((e) & ((f) ^ (g)))) + (kw);                   \
    ab_out = (a) ^ (b);                                                           \
    (d) += t1;                                                                    \
    (h) = t1 + BSIG0(a) + ((b) ^ (ab_out & (ab_in)));                             \
  } while (0)

/* Eight rounds over w[0..7] and k[0..7], on the caller's a..h and the a ^ b carriers x, y. */
#define SWC_SHA2_EIGHT(T, BSIG0, BSIG1, w, k)                                                \
  do {                                                                                       \
    SWC_SHA2_ROUND(T, BSIG0, BSIG1, a, b, c, d, e, f, g, h, (k)[0] + (w)[0], x, y);          \
    SWC_SHA2_ROUND(T, BSIG0, BSIG1, h, a, b, c, d, e, f, g, (k)[1] + (w)[1], y, x);          \
    SWC_SHA2_ROUND(T, BSIG0, BSIG1, g, h, a, b, c, d, e, f, (k)[2] + (w)[2], x, y);          \
    SWC_SHA2_ROUND(T, BSIG0, BSIG1, f, g, h, a, b, c, d, e, (k)[3] + (w)[3], y, x);          \
    SWC_SHA2_ROUND(T, BSIG0, BSIG1, e, f, g, h, a, b, c, d, (k)[4] + (w)[4], x, y);          \
    SWC_SHA2_ROUND(T, BSIG0, BSIG1, d, e, f, g, h, a, b, c, (k)[5] + (w)[5], y, x);          \
    SWC_SHA2_ROUND(T, BSIG0, BSIG1, c, d, e, f, g, h, a, b, (k)[6] + (w)[6], x, y);          \
    SWC_SHA2_ROUND(T, BSIG0, BSIG1, b, c, d, e, f, g, h, a, (k)[7] + (w)[7], y, x);          \
  } while (0)

/* A whole block: the rounds over the expanded schedule w[0..rounds-1], then the feed-forward into
 * the chaining state hs[0..7]. */
#define SWC_SHA2_BLOCK(T, BSIG0, BSIG1, hs, w, k, rounds)                                    \
  do {                                                                                       \
    T a = (hs)[0], b = (hs)[1], c = (hs)[2], d = (hs)[3];                                    \
    T e = (hs)[4], f = (hs)[5], g = (hs)[6], h = (hs)[7];                                    \
    T x = b ^ c, y;                                                                          \
    for (unsigned i = 0; i < (rounds); i += 8) SWC_SHA2_EIGHT(T, BSIG0, BSIG1, (w) + i, (k) + i); \
    (hs)[0] += a;                                                                            \
    (hs)[1] += b;                                                                            \
    (hs)[2] += c;                                                                            \
    (hs)[3] += d;                                                                            \
    (hs)[4] += e;                                                                            \
    (hs)[5] += f;                                                                            \
    (hs)[6] += g;                                                                            \
    (hs)[7] += h;                                                                            \
  } while (0)

#endif /* SWC_SHA2_H */
