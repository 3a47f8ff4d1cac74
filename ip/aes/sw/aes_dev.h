/* SPDX-License-Identifier: Apache-2.0 */
/*
 * aes_dev: driver for the memory-mapped AES peripheral (ip/aes, registers in aes.rdl).
 *
 * Usage:
 *   aes_dev_t aes;
 *   aes_dev_init(&aes, AESOC_AES_BASE);                      // touches no hardware
 *   aes_dev_config_t cfg = {.mode = AES_DEV_CBC, .dir = AES_DEV_ENCRYPT, .key_len = 16};
 *   if (aes_dev_setup(&aes, &cfg, key, iv) != AES_DEV_OK) ...  // key goes in write-only registers
 *   aes_dev_crypt(&aes, in, out, nblocks);                   // blocking, streams through the FIFOs
 *   aes_dev_clear(&aes);                                     // zeroise before handing over
 *
 * Streaming without blocking: aes_dev_push() queues one block if the input FIFO has room,
 * aes_dev_pull() takes one result if there is one (both return AES_DEV_AGAIN otherwise).
 * Interrupts: aes_dev_irq_enable(); the handler reads and acknowledges aes_dev_irq_ack().
 *
 * GCM and GMAC (SP 800-38D; HWCFG.GHASH_BITS != 0), one message at a time:
 *   aes_dev_gcm_begin(&aes, AES_DEV_ENCRYPT, key, 16, iv, 12);   // any IV length from 1 byte
 *   aes_dev_gcm_aad(&aes, aad, aad_len);           // 0..n calls; all but the last a multiple of 16
 *   aes_dev_gcm_update(&aes, pt, ct, len);         // likewise (none at all: GMAC)
 *   aes_dev_gcm_finish(&aes, tag, 16);             // encryption: the tag (16, 15..12, 8, 4 bytes)
 * Decryption ends with aes_dev_gcm_verify(&aes, tag, tag_len), which returns
 * AES_DEV_TAG_MISMATCH when the tag is wrong: the plaintext already returned by update must then
 * be discarded. aes_dev_gcm_decrypt() does the whole message and wipes the plaintext on a
 * mismatch, so a forged message never leaves it.
 *
 * Masked engine (HWCFG.MASKING != 0): after every reset, before the first key load, feed the
 * masking PRNG from an entropy source: aes_dev_reseed(&aes, entropy, 128) replaces all eight of its
 * lanes (16 bytes a lane, docs/masking.md); results never depend on the seed.
 *
 * Buffers are byte arrays, 4-byte aligned; keys are 16, 24 or 32 bytes. Every call checks its
 * arguments first and returns one aes_dev_result_t; every wait is bounded. Blocking transfers
 * rely on the peripheral holding a bus access until it can complete (DATA_IN[3] with a full
 * input FIFO, DATA_OUT with no result), which costs no polling loop at all.
 */
#ifndef AES_DEV_H
#define AES_DEV_H

#include <stddef.h>
#include <stdint.h>

#include "aes_enums.h"
#include "aes_regs.h"

typedef enum {
  AES_DEV_OK = 0,
  AES_DEV_BAD_ARG, /* NULL, misaligned, bad length or mode; nothing was done */
  AES_DEV_ERROR,   /* the engine refused the configuration (STATUS.ERR); call aes_dev_clear */
  AES_DEV_TIMEOUT, /* a bounded wait ran out */
  AES_DEV_AGAIN,   /* streaming call: no room / no result yet */
  AES_DEV_TAG_MISMATCH, /* GCM decryption: the tag does not authenticate the message; discard it */
  AES_DEV_UNSUPPORTED,  /* the instance lacks the feature (HWCFG); nothing was done */
} aes_dev_result_t;

/* The CTRL encodings of the register map (aes_enums.h, generated from aes.rdl). */
typedef enum {
  AES_DEV_ECB = AES_PERIPH__AES_MODE__ECB,
  AES_DEV_CBC = AES_PERIPH__AES_MODE__CBC,
  AES_DEV_CTR = AES_PERIPH__AES_MODE__CTR,
  AES_DEV_GCM = AES_PERIPH__AES_MODE__GCM, /* aes_dma requests only; aes_dev_setup refuses it (use aes_dev_gcm_*) */
} aes_dev_mode_t;
typedef enum { AES_DEV_ENCRYPT = AES_PERIPH__AES_DIR__ENC, AES_DEV_DECRYPT = AES_PERIPH__AES_DIR__DEC } aes_dev_dir_t;
/* Incrementing part of the CTR counter block. */
typedef enum {
  AES_DEV_CTR32 = AES_PERIPH__AES_CTR_WIDTH__CTR_32,
  AES_DEV_CTR64 = AES_PERIPH__AES_CTR_WIDTH__CTR_64,
  AES_DEV_CTR128 = AES_PERIPH__AES_CTR_WIDTH__CTR_128,
} aes_dev_ctr_width_t;

typedef struct {
  aes_dev_mode_t mode;
  aes_dev_dir_t dir;
  unsigned key_len; /* bytes: 16, 24, 32 */
  aes_dev_ctr_width_t ctr_width;
} aes_dev_config_t;

typedef struct {
  uintptr_t base;
  unsigned in_depth, out_depth; /* FIFO depths, read from HWCFG by aes_dev_setup */
  uint32_t gcm_ctrl;            /* CTRL of the GCM message in progress (mode, direction, key) */
} aes_dev_t;

/* Poll bound for STATUS waits (key derivation takes tens of cycles). */
#define AES_DEV_POLL_BOUND 10000u


void aes_dev_init(aes_dev_t *dev, uintptr_t base);
__attribute__((warn_unused_result)) aes_dev_result_t aes_dev_setup(aes_dev_t *dev, const aes_dev_config_t *cfg,
                                                                   const void *key, const void *iv);
__attribute__((warn_unused_result)) aes_dev_result_t aes_dev_set_iv(aes_dev_t *dev, const void *iv);
__attribute__((warn_unused_result)) aes_dev_result_t aes_dev_get_iv(aes_dev_t *dev, void *iv);
__attribute__((warn_unused_result)) aes_dev_result_t aes_dev_crypt(aes_dev_t *dev, const void *in, void *out,
                                                                   size_t nblocks);
__attribute__((warn_unused_result)) aes_dev_result_t aes_dev_push(aes_dev_t *dev, const void *block);
__attribute__((warn_unused_result)) aes_dev_result_t aes_dev_pull(aes_dev_t *dev, void *block);
__attribute__((warn_unused_result)) aes_dev_result_t aes_dev_clear(aes_dev_t *dev);
uint32_t aes_dev_status(const aes_dev_t *dev);
void aes_dev_irq_enable(aes_dev_t *dev, int done, int err);

/* Queue one block (writing DATA_IN[3] starts it; held on the bus while the input FIFO is full) and
 * take one result (DATA_OUT[0] is held until a result is there; DATA_OUT[3] releases it). Inline, no
 * checks: for a device already set up by aes_dev_setup, 4-byte aligned buffers. */
static inline void aes_dev_put_block(const aes_dev_t *dev, const void *in) {
  volatile uint32_t *din = (volatile uint32_t *)(dev->base + offsetof(aes_periph_t, DATA_IN));
  const uint32_t *src = (const uint32_t *)in;
  din[0] = src[0];
  din[1] = src[1];
  din[2] = src[2];
  din[3] = src[3];
}

static inline void aes_dev_get_block(const aes_dev_t *dev, void *out) {
  volatile uint32_t *dout = (volatile uint32_t *)(dev->base + offsetof(aes_periph_t, DATA_OUT));
  uint32_t *dst = (uint32_t *)out;
  dst[0] = dout[0];
  dst[1] = dout[1];
  dst[2] = dout[2];
  dst[3] = dout[3];
}

/* One block, inline: costs little more than the eight data accesses. Check aes_dev_status()
 * for STATUS.ERR after a run of blocks. */
static inline void aes_dev_block(const aes_dev_t *dev, const void *in, void *out) {
  aes_dev_put_block(dev, in);
  aes_dev_get_block(dev, out);
}

uint32_t aes_dev_irq_ack(aes_dev_t *dev); /* returns and clears IRQ_STATUS */

/* Reseed the masking PRNG with len bytes of entropy (a multiple of 16, not 0): each 16 bytes go to
 * PRNG_SEED and CMD.RESEED shifts them into the PRNG's first lane. AES_DEV_UNSUPPORTED on an
 * unmasked instance. */
__attribute__((warn_unused_result)) aes_dev_result_t aes_dev_reseed(aes_dev_t *dev, const void *seed, size_t len);

__attribute__((warn_unused_result)) aes_dev_result_t aes_dev_gcm_begin(aes_dev_t *dev, aes_dev_dir_t dir,
                                                                       const void *key, unsigned key_len,
                                                                       const void *iv, size_t iv_len);
__attribute__((warn_unused_result)) aes_dev_result_t aes_dev_gcm_aad(aes_dev_t *dev, const void *aad, size_t len);
__attribute__((warn_unused_result)) aes_dev_result_t aes_dev_gcm_update(aes_dev_t *dev, const void *in, void *out,
                                                                        size_t len);
/* Wait for the peripheral to be idle and select whole TEXT blocks: for a DMA that moves them. */
__attribute__((warn_unused_result)) aes_dev_result_t aes_dev_gcm_text_ctrl(aes_dev_t *dev);
__attribute__((warn_unused_result)) aes_dev_result_t aes_dev_gcm_finish(aes_dev_t *dev, void *tag, unsigned tag_len);
__attribute__((warn_unused_result)) aes_dev_result_t aes_dev_gcm_verify(aes_dev_t *dev, const void *tag,
                                                                        unsigned tag_len);
__attribute__((warn_unused_result)) aes_dev_result_t aes_dev_gcm_decrypt(aes_dev_t *dev, const void *key,
                                                                         unsigned key_len, const void *iv,
                                                                         size_t iv_len, const void *aad,
                                                                         size_t aad_len, const void *ct, void *pt,
                                                                         size_t len, const void *tag,
                                                                         unsigned tag_len);

#endif /* AES_DEV_H */
