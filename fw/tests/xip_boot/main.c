/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Self test of a program executing in place from the flash (placement "xip"), run by
 * tests/test_xip_soc.py from a plaintext image and from images whose OTFAD contexts (random keys
 * and nonces, 1 KB-granular bounds) cover the code and the read-only data:
 *  - the code runs from the flash window, .data was copied from it, .bss is zero, .ramfunc code
 *    runs from SRAM;
 *  - software AES-128 (T-tables in flash .rodata) gives FIPS-197 C.1, SHA-256 gives FIPS 180-4's
 *    two-block example;
 *  - a ramp table in flash (word i holds i) reads back through the cached and the uncached view
 *    with 8-, 16- and 32-bit loads, across every 1 KB context boundary it spans;
 *  - after the boot's LOCK, every armed context ignores writes to its registers and refuses
 *    its own blob again, and still decrypts afterwards; locked ones read back their LOCK.
 */
#include <string.h>

#include "aesoc.h"
#include "aesoc_vectors.h"
#include "swcrypto.h"
#include "xip.h"
#include "xip_regs.h"

#define RAMP_WORDS 2048u /* 8 KB: spans several 1 KB context boundaries */
#define XIP(member) AESOC_REG(AESOC_XIP_BASE, xip_t, member)
typedef __typeof__(((xip_t *)0)->CTX[0]) xip_ctx_regs_t;
#define XIP_CTX(ctx, member) \
  (*(volatile uint32_t *)(AESOC_XIP_BASE + offsetof(xip_t, CTX) + (ctx) * sizeof(xip_ctx_regs_t) + \
                          offsetof(xip_ctx_regs_t, member)))


static const uint32_t ramp[RAMP_WORDS] __attribute__((aligned(1024))) = {AESOC_RAMP_2048(0u)};

static volatile uint32_t data_word = 0x5EED1234u;
static volatile uint32_t bss_words[16];

extern const uint32_t __xip_key_table[];


__attribute__((section(".ramfunc"), noinline)) static uint32_t from_sram(uint32_t x) {
  return x * 3u + 1u;
}

static int in_flash(uintptr_t a) { return (a & ~AESOC_UNCACHED_BIT) - AESOC_FLASH_BASE < 0x1000000u; }

/* Mismatching words of the ramp read through `view` with loads of `width` bytes. */
static unsigned ramp_errors(const volatile uint8_t *view, unsigned width) {
  unsigned errors = 0;
  for (uint32_t i = 0; i < RAMP_WORDS; i++) {
    const volatile uint8_t *w = view + 4u * i;
    uint32_t v;
    if (width == 1) {
      v = w[0] | (uint32_t)w[1] << 8 | (uint32_t)w[2] << 16 | (uint32_t)w[3] << 24;
    } else if (width == 2) {
      const volatile uint16_t *h = (const volatile uint16_t *)w;
      v = h[0] | (uint32_t)h[1] << 16;
    } else {
      v = *(const volatile uint32_t *)w;
    }
    errors += v != i;
  }
  return errors;
}

static unsigned ramp_all_errors(void) {
  unsigned errors = 0;
  for (unsigned width = 1; width <= 4; width *= 2) {
    errors += ramp_errors((const volatile uint8_t *)ramp, width);
    errors += ramp_errors((const volatile uint8_t *)AESOC_UNCACHED(ramp), width);
  }
  return errors;
}

#define PROBE_WORDS 8u

/* First and last PROBE_WORDS words of the flash range [start, end), read uncached from the flash. */
static void probe(uint32_t start, uint32_t end, uint32_t out[2 * PROBE_WORDS]) {
  const volatile uint32_t *lo = (const volatile uint32_t *)(AESOC_FLASH_BASE + AESOC_UNCACHED_BIT + start);
  const volatile uint32_t *hi = (const volatile uint32_t *)(AESOC_FLASH_BASE + AESOC_UNCACHED_BIT + end) - PROBE_WORDS;
  xip_flush(AESOC_XIP_BASE);
  for (unsigned i = 0; i < PROBE_WORDS; i++) {
    out[i] = lo[i];
    out[PROBE_WORDS + i] = hi[i];
  }
}

/* Every armed context, after the boot's LOCK: writes ignored, any unwrap refused, and its region
 * reads (decrypts) the same before and after the attempts. The key table is not read: with the
 * OTP integrity policy nothing outside the armed contexts is served any more. Returns the number
 * of contexts whose own LOCK (the blob's flag) is set. */
static unsigned check_frozen_contexts(void) {
  AESOC_CHECK(XIP(LOCK) & XIP__LOCK__LOCK_bm);
  const uint32_t armed = (XIP(OTFAD_STATUS) & XIP__OTFAD_STATUS__KEY_VALID_bm) >> XIP__OTFAD_STATUS__KEY_VALID_bp;
  const uint32_t blob[XIP_BLOB_WORDS] = {0};
  unsigned locked = 0;
  for (uint32_t c = 0; c < 4; c++) {
    if (!(armed & (1u << c))) continue;
    uint32_t ctrl = XIP_CTX(c, CTRL), start = XIP_CTX(c, START), end = XIP_CTX(c, END);
    uint32_t nonce0 = XIP_CTX(c, NONCE[0]);
    uint32_t before[2 * PROBE_WORDS], after[2 * PROBE_WORDS];
    probe(start, end, before);
    XIP_CTX(c, CTRL) = 0;  /* would disable it */
    XIP_CTX(c, START) = 0; /* would move it */
    XIP_CTX(c, NONCE[0]) = ~nonce0;
    AESOC_CHECK(XIP_CTX(c, CTRL) == ctrl && XIP_CTX(c, START) == start && XIP_CTX(c, NONCE[0]) == nonce0);
    AESOC_CHECK(XIP(OTFAD_STATUS) & (1u << (XIP__OTFAD_STATUS__ACTIVE_bp + c)));
    AESOC_CHECK(xip_unwrap_context(AESOC_XIP_BASE, c, blob) == XIP_ERR_LOCKED);
    AESOC_CHECK(XIP(OTFAD_STATUS) & (1u << (XIP__OTFAD_STATUS__KEY_VALID_bp + c)));
    probe(start, end, after);
    AESOC_CHECK(memcmp(before, after, sizeof before) == 0);
    locked += (ctrl & XIP__CTX_RF__CTRL__LOCK_bm) != 0;
  }
  if (armed) {
    /* Read everything again from the flash, not from the caches. */
    xip_flush(AESOC_XIP_BASE);
    aesoc_dcache_invalidate();
    AESOC_CHECK(ramp_all_errors() == 0);
  }
  return locked;
}

int main(void) {
  AESOC_CHECK(in_flash((uintptr_t)&main));
  AESOC_CHECK(in_flash((uintptr_t)ramp));
  AESOC_CHECK(!in_flash((uintptr_t)&from_sram));
  AESOC_CHECK(from_sram(14u) == 43u);
  AESOC_CHECK(data_word == 0x5EED1234u);
  for (unsigned i = 0; i < 16; i++) AESOC_CHECK(bss_words[i] == 0);

  swc_aes_ctx ctx;
  uint8_t out[16];
  AESOC_CHECK(swc_aes_setkey_enc(&ctx, AESOC_FIPS197_KEY, 128) == SWC_OK);
  AESOC_CHECK(swc_aes_encrypt_block(&ctx, AESOC_FIPS197_PT, out) == SWC_OK);
  AESOC_CHECK(memcmp(out, AESOC_FIPS197_CT[0], 16) == 0);
  uint8_t digest[32];
  AESOC_CHECK(swc_sha256((const uint8_t *)AESOC_SHA256_MSG, strlen(AESOC_SHA256_MSG), digest) == SWC_OK);
  AESOC_CHECK(memcmp(digest, AESOC_SHA256_DIGEST, 32) == 0);

  unsigned ramp_bad = ramp_all_errors();
  AESOC_CHECK(ramp_bad == 0);
  unsigned locked = check_frozen_contexts();

  aesoc_rec_begin("xip_soc");
  aesoc_rec_u64("main", (uintptr_t)&main);
  aesoc_rec_u64("ramp", (uintptr_t)ramp);
  aesoc_rec_u64("ramp_errors", ramp_bad);
  aesoc_rec_u64("locked_checked", locked);
  aesoc_rec_str("aes_variant", swc_aes_variant());
  aesoc_rec_u64("failures", aesoc_check_failures);
  aesoc_rec_end();
  return aesoc_check_failures ? 1 : 0;
}
