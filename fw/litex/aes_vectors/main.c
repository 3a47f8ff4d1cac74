/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The aesoc AES (and SHA) peripheral in a LiteX SoC, through the aesoc drivers: FIPS-197 appendix C
 * and SP 800-38A appendix F vectors, each encrypted and decrypted again, the AES interrupt seen on
 * LiteX's interrupt controller, one FIPS 180-4 SHA-256 example, and one instruction of aesoc's AES CFU
 * in VexRiscv's CFU slot. Built like LiteX's bare-metal demo (fw/litex/Makefile) and booted by the
 * LiteX BIOS from main_ram; prints with LiteX's console. Every result is printed
 * (tests/test_litex.py checks it against Python's cryptography and hashlib); the peripherals'
 * bases and interrupt numbers come from LiteX's generated mem.h and soc.h.
 *
 * Output: "BOOT cycles=..", "aesoc on LiteX: main at ..", "AES <case> <mode> key=.. iv=.. pt=.. ct=.. rt=..", "IRQ ..",
 * "SHA ..", "CFU ..", "CYCLES ..", "EXIT <failures>".
 */
#include <generated/mem.h>
#include <generated/soc.h>
#include <irq.h>
#include <stdint.h>
#include <stdio.h>

#include "aes_dev.h"
#include "litex_fw.h"
#include "sha_dev.h"

#define MAX_BLOCKS 4
#define BLOCK 16
#define IRQ_POLL_BOUND 64u

typedef struct {
  const char *name;
  aes_dev_mode_t mode;
  unsigned key_len;
  uint8_t key[32];
  uint8_t iv[BLOCK];
  unsigned nblocks;
  uint8_t pt[MAX_BLOCKS * BLOCK];
} aes_case_t;

#define FIPS197_PT                                                                                 \
  {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff}
#define FIPS197_KEY                                                                                \
  {0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, \
   0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f}
/* SP 800-38A F.1-F.5: the four plaintext blocks shared by every example. */
#define SP800_38A_PT                                                                               \
  {0x6b, 0xc1, 0xbe, 0xe2, 0x2e, 0x40, 0x9f, 0x96, 0xe9, 0x3d, 0x7e, 0x11, 0x73, 0x93, 0x17, 0x2a, \
   0xae, 0x2d, 0x8a, 0x57, 0x1e, 0x03, 0xac, 0x9c, 0x9e, 0xb7, 0x6f, 0xac, 0x45, 0xaf, 0x8e, 0x51, \
   0x30, 0xc8, 0x1c, 0x46, 0xa3, 0x5c, 0xe4, 0x11, 0xe5, 0xfb, 0xc1, 0x19, 0x1a, 0x0a, 0x52, 0xef, \
   0xf6, 0x9f, 0x24, 0x45, 0xdf, 0x4f, 0x9b, 0x17, 0xad, 0x2b, 0x41, 0x7b, 0xe6, 0x6c, 0x37, 0x10}
#define SP800_38A_KEY128                                                                           \
  {0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c}
#define SP800_38A_KEY192                                                                           \
  {0x8e, 0x73, 0xb0, 0xf7, 0xda, 0x0e, 0x64, 0x52, 0xc8, 0x10, 0xf3, 0x2b, 0x80, 0x90, 0x79, 0xe5, \
   0x62, 0xf8, 0xea, 0xd2, 0x52, 0x2c, 0x6b, 0x7b}
#define SP800_38A_KEY256                                                                           \
  {0x60, 0x3d, 0xeb, 0x10, 0x15, 0xca, 0x71, 0xbe, 0x2b, 0x73, 0xae, 0xf0, 0x85, 0x7d, 0x77, 0x81, \
   0x1f, 0x35, 0x2c, 0x07, 0x3b, 0x61, 0x08, 0xd7, 0x2d, 0x98, 0x10, 0xa3, 0x09, 0x14, 0xdf, 0xf4}
#define SP800_38A_IV                                                                               \
  {0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f}
#define SP800_38A_CTR                                                                              \
  {0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff}

static const aes_case_t cases[] __attribute__((aligned(4))) = {
    {"fips197-c1", AES_DEV_ECB, 16, FIPS197_KEY, {0}, 1, FIPS197_PT},
    {"fips197-c2", AES_DEV_ECB, 24, FIPS197_KEY, {0}, 1, FIPS197_PT},
    {"fips197-c3", AES_DEV_ECB, 32, FIPS197_KEY, {0}, 1, FIPS197_PT},
    {"sp800-38a-f1.1", AES_DEV_ECB, 16, SP800_38A_KEY128, {0}, 4, SP800_38A_PT},
    {"sp800-38a-f1.3", AES_DEV_ECB, 24, SP800_38A_KEY192, {0}, 4, SP800_38A_PT},
    {"sp800-38a-f1.5", AES_DEV_ECB, 32, SP800_38A_KEY256, {0}, 4, SP800_38A_PT},
    {"sp800-38a-f2.1", AES_DEV_CBC, 16, SP800_38A_KEY128, SP800_38A_IV, 4, SP800_38A_PT},
    {"sp800-38a-f2.3", AES_DEV_CBC, 24, SP800_38A_KEY192, SP800_38A_IV, 4, SP800_38A_PT},
    {"sp800-38a-f2.5", AES_DEV_CBC, 32, SP800_38A_KEY256, SP800_38A_IV, 4, SP800_38A_PT},
    {"sp800-38a-f5.1", AES_DEV_CTR, 16, SP800_38A_KEY128, SP800_38A_CTR, 4, SP800_38A_PT},
    {"sp800-38a-f5.3", AES_DEV_CTR, 24, SP800_38A_KEY192, SP800_38A_CTR, 4, SP800_38A_PT},
    {"sp800-38a-f5.5", AES_DEV_CTR, 32, SP800_38A_KEY256, SP800_38A_CTR, 4, SP800_38A_PT},
};

static const char *mode_name(aes_dev_mode_t mode) {
  return mode == AES_DEV_ECB ? "ecb" : mode == AES_DEV_CBC ? "cbc" : "ctr";
}

/* One pass of a case through the peripheral; the key is cleared from it afterwards. */
static aes_dev_result_t crypt(aes_dev_t *aes, const aes_case_t *c, aes_dev_dir_t dir, const uint8_t *in,
                              uint8_t *out) {
  const aes_dev_config_t cfg = {.mode = c->mode, .dir = dir, .key_len = c->key_len, .ctr_width = AES_DEV_CTR128};
  aes_dev_result_t r = aes_dev_setup(aes, &cfg, c->key, c->mode == AES_DEV_ECB ? NULL : c->iv);
  if (r == AES_DEV_OK) r = aes_dev_crypt(aes, in, out, c->nblocks);
  aes_dev_result_t cleared = aes_dev_clear(aes);
  return r != AES_DEV_OK ? r : cleared;
}

static int run_case(aes_dev_t *aes, const aes_case_t *c) {
  static uint8_t ct[MAX_BLOCKS * BLOCK] __attribute__((aligned(4)));
  static uint8_t rt[MAX_BLOCKS * BLOCK] __attribute__((aligned(4)));
  const size_t len = c->nblocks * BLOCK;
  aes_dev_result_t r = crypt(aes, c, AES_DEV_ENCRYPT, c->pt, ct);
  if (r == AES_DEV_OK) r = crypt(aes, c, AES_DEV_DECRYPT, ct, rt);
  printf("AES %s %s", c->name, mode_name(c->mode));
  if (r != AES_DEV_OK) {
    printf(" error=%d\n", (int)r);
    return 1;
  }
  printf(" key=");
  litex_fw_hex(c->key, c->key_len);
  printf(" iv=");
  litex_fw_hex(c->iv, c->mode == AES_DEV_ECB ? 0 : BLOCK);
  printf(" pt=");
  litex_fw_hex(c->pt, len);
  printf(" ct=");
  litex_fw_hex(ct, len);
  printf(" rt=");
  litex_fw_hex(rt, len);
  printf("\n");
  return 0;
}

/* The AES "done" interrupt, taken through LiteX's interrupt map: irq_attach puts the handler in
 * libbase's table at AES_INTERRUPT, LiteX's isr() calls it. */
static aes_dev_t *irq_aes;
static volatile unsigned irq_taken;

static void aes_isr(void) {
  irq_taken++;
  (void)aes_dev_irq_ack(irq_aes);
}

/* The handler's count settles a few cycles after the event (the line and VexRiscv's pending
 * register are registered); a bounded wait. */
static unsigned wait_taken(unsigned want) {
  for (unsigned i = 0; i < IRQ_POLL_BOUND && irq_taken < want; i++) {
  }
  return irq_taken;
}

/* The mask CSR (0xBC0) also holds the VexRiscv CFU enable in bit 31: only our bit is changed. */
static int check_irq(aes_dev_t *aes) {
  static uint8_t out[BLOCK] __attribute__((aligned(4)));
  const uint32_t line = 1u << AES_INTERRUPT;
  irq_aes = aes;
  if (irq_attach(AES_INTERRUPT, aes_isr) != AES_INTERRUPT) return 1;
  (void)aes_dev_irq_ack(aes); /* DONE is sticky: the cases before left it set */
  irq_setmask(irq_getmask() | line);
  aes_dev_irq_enable(aes, 1, 0);
  const unsigned before = irq_taken;
  const aes_dev_result_t r = crypt(aes, &cases[0], AES_DEV_ENCRYPT, cases[0].pt, out);
  const unsigned done = wait_taken(1);
  aes_dev_irq_enable(aes, 0, 0);
  irq_setmask(irq_getmask() & ~line);
  const int pending = (irq_pending() & line) != 0;
  printf("IRQ aes line=%d before=%u done=%u acked=%d\n", AES_INTERRUPT, before, done, pending);
  return r != AES_DEV_OK || before != 0 || done != 1 || pending;
}

/* LiteX's VexRiscv keeps the CFU enable in bit 31 of the interrupt-mask CSR 0xBC0; with it clear a
 * custom-0 instruction traps as illegal. */
#define CFU_ENABLE (1u << 31)

/* aesoc's AES CFU in VexRiscv's CFU slot: aes32esi (custom-0, funct3 0, bs 0) of byte 0x53 gives
 * S-box(0x53) in byte 0 (the S-box example of FIPS-197 5.1.1); printed, judged by the test. */
static void report_cfu(void) {
  const uint32_t in = 0x53u;
  uint32_t rd;
  irq_setmask(irq_getmask() | CFU_ENABLE);
  __asm__ volatile(".insn r 0x0B, 0, 0, %0, %1, %2" : "=r"(rd) : "r"(0u), "r"(in));
  printf("CFU aes32esi rs2=%08lx rd=%08lx\n", (unsigned long)in, (unsigned long)rd);
}

/* FIPS 180-4 example "abc" on the SHA peripheral. */
static int check_sha(void) {
  static const uint8_t msg[4] __attribute__((aligned(4))) = {'a', 'b', 'c', 0};
  static uint8_t md[SHA_DEV_MAX_DIGEST] __attribute__((aligned(4)));
  sha_dev_t sha;
  sha_dev_init(&sha, SHA_BASE);
  const sha_dev_result_t r = sha_dev_hash(&sha, SHA_DEV_SHA256, msg, 3, md);
  printf("SHA sha256 msg=");
  litex_fw_hex(msg, 3);
  if (r != SHA_DEV_OK) {
    printf(" error=%d\n", (int)r);
    return 1;
  }
  printf(" md=");
  litex_fw_hex(md, sha_dev_digest_len(SHA_DEV_SHA256));
  printf("\n");
  return 0;
}

int main(void) {
  const uint64_t booted = litex_fw_cycles(); /* the BIOS's share of the run */
  litex_fw_init();
  printf("BOOT cycles=%llu\n", (unsigned long long)booted);
  aes_dev_t aes;
  aes_dev_init(&aes, AES_BASE);
  printf("aesoc on LiteX: main at 0x%08lx, AES at 0x%08lx, SHA at 0x%08lx\n", (unsigned long)(uintptr_t)&main,
         (unsigned long)AES_BASE, (unsigned long)SHA_BASE);
  int failures = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) failures += run_case(&aes, &cases[i]);
  failures += check_irq(&aes);
  failures += check_sha();
  report_cfu(); /* judged by the test */
  litex_fw_exit(failures);
}
