/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Output for the swcrypto test and benchmark programs, on the SoC (aesoc records, cycle counter)
 * or on the host (-DSWC_HOST: the same "@@AESOC {json}" lines on stdout, no cycle counter), so
 * one program source runs in both places.
 */
#ifndef SWC_IO_H
#define SWC_IO_H

#include <stddef.h>
#include <stdint.h>

#ifdef SWC_HOST
#include <stdio.h>

static unsigned swc_io_failures;
#define SWC_CHECK(cond)                                                              \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      ++swc_io_failures;                                                             \
      printf("CHECK FAILED %s:%d: %s\n", __FILE__, __LINE__, #cond);                \
    }                                                                                \
  } while (0)
static inline unsigned swc_failures(void) { return swc_io_failures; }
static inline uint32_t swc_cycles(void) { return 0; }
static inline void swc_rec_begin(const char *kind) { printf("@@AESOC {\"kind\":\"%s\"", kind); }
static inline void swc_rec_str(const char *key, const char *value) { printf(",\"%s\":\"%s\"", key, value); }
static inline void swc_rec_u64(const char *key, uint64_t value) {
  printf(",\"%s\":%llu", key, (unsigned long long)value);
}
static inline void swc_rec_hex(const char *key, const void *data, size_t len) {
  const uint8_t *p = data;
  printf(",\"%s\":\"", key);
  for (size_t i = 0; i < len; ++i) printf("%02x", p[i]);
  printf("\"");
}
static inline void swc_rec_end(void) { printf("}\n"); }

#else
#include "aesoc.h"

#define SWC_CHECK(cond) AESOC_CHECK(cond)
static inline unsigned swc_failures(void) { return aesoc_check_failures; }
static inline uint32_t swc_cycles(void) { return aesoc_cycles32(); }
#define swc_rec_begin aesoc_rec_begin
#define swc_rec_str aesoc_rec_str
#define swc_rec_u64 aesoc_rec_u64
#define swc_rec_hex aesoc_rec_hex
#define swc_rec_end aesoc_rec_end
#endif

#endif /* SWC_IO_H */
