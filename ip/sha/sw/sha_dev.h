/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sha_dev: driver for the memory-mapped SHA-1 / SHA-2 peripheral (ip/sha, registers in sha.rdl).
 *
 * Usage, one message:
 *   sha_dev_t sha;
 *   sha_dev_init(&sha, AESOC_SHA_BASE);                           // touches no hardware
 *   uint8_t md[SHA_DEV_MAX_DIGEST] __attribute__((aligned(4)));
 *   if (sha_dev_hash(&sha, SHA_DEV_SHA256, msg, len, md) != SHA_DEV_OK) ...   // blocking
 *
 * Streaming (the hardware pads, so it needs the total length first):
 *   sha_dev_begin(&sha, SHA_DEV_SHA256, total_len);
 *   sha_dev_update(&sha, part, n);       // n a multiple of 4, except in the call that ends the message
 *   sha_dev_finish(&sha, md);            // waits (bounded) for the digest
 *
 * Context switch between messages, at a block boundary (bytes fed so far a multiple of the block
 * size): sha_dev_save(&sha, &ctx) (which then zeroises the engine) ... another message ...
 * sha_dev_restore(&sha, &ctx), then sha_dev_update / sha_dev_finish as before.
 *
 * HMAC (FIPS 198-1) over the engine, any built algorithm; the message length is needed first:
 *   sha_dev_hmac_t mac;
 *   sha_dev_hmac_begin(&sha, &mac, SHA_DEV_SHA256, key, key_len, msg_len);  // keys > block hashed first
 *   sha_dev_hmac_update(&sha, part, n);  // as sha_dev_update
 *   sha_dev_hmac_finish(&sha, &mac, tag);  // digest-length tag; wipes the key material in `mac`
 * or sha_dev_hmac(&sha, SHA_DEV_SHA256, key, key_len, msg, len, tag) in one call. The padded key
 * lives only in `mac` between begin and finish (every failure wipes it too) and the engine is
 * cleared after the tag is read, so neither holds key-derived state afterwards.
 *
 * Errors: any bad use of the hardware (data after the last byte, an early digest read, an
 * algorithm change mid-message, an abort) makes calls return SHA_DEV_ERROR; sha_dev_error()
 * tells which, sha_dev_clear() zeroises and recovers. Interrupts: sha_dev_irq_enable(); the
 * handler reads and acknowledges sha_dev_irq_ack().
 *
 * Buffers are 4-byte aligned. Every call checks its arguments first and returns one
 * sha_dev_result_t; every wait is bounded. A DATA_IN write while the input FIFO is full is held on
 * the bus until there is room, which costs no polling loop.
 */
#ifndef SHA_DEV_H
#define SHA_DEV_H

#include <stddef.h>
#include <stdint.h>

#include "sha_enums.h"
#include "sha_regs.h"

typedef enum {
  SHA_DEV_OK = 0,
  SHA_DEV_BAD_ARG, /* NULL, misaligned, length or algorithm out of range; nothing was done */
  SHA_DEV_ERROR,   /* the peripheral raised STATUS.ERR (sha_dev_error); call sha_dev_clear */
  SHA_DEV_TIMEOUT, /* a bounded wait ran out */
  SHA_DEV_UNSUPPORTED, /* the algorithm is not built in this instance (HWCFG.SHA512) */
} sha_dev_result_t;

/* The CTRL.ALG encodings of the register map (sha_enums.h, generated from sha.rdl). */
typedef enum {
  SHA_DEV_SHA1 = SHA_PERIPH__SHA_ALG__SHA1,
  SHA_DEV_SHA224 = SHA_PERIPH__SHA_ALG__SHA224,
  SHA_DEV_SHA256 = SHA_PERIPH__SHA_ALG__SHA256,
  SHA_DEV_SHA384 = SHA_PERIPH__SHA_ALG__SHA384,
  SHA_DEV_SHA512 = SHA_PERIPH__SHA_ALG__SHA512,
  SHA_DEV_SHA512_256 = SHA_PERIPH__SHA_ALG__SHA512_256,
} sha_dev_alg_t;

#define SHA_DEV_MAX_DIGEST 64u
#define SHA_DEV_STATE_WORDS 16u
/* Poll bound for STATUS waits: the longest wait is the last two blocks and their padding. */
#define SHA_DEV_POLL_BOUND 10000u

typedef struct {
  uintptr_t base;
  sha_dev_alg_t alg;
  uint64_t len;  /* bytes of the current message */
  uint64_t fed;  /* bytes written so far */
} sha_dev_t;

#define SHA_DEV_MAX_BLOCK 128u

/* An HMAC in progress: the padded key XOR opad, kept for the outer hash. */
typedef struct {
  sha_dev_alg_t alg;
  uint32_t okey[SHA_DEV_MAX_BLOCK / 4u];
} sha_dev_hmac_t;

/* A saved message: algorithm, total length, bytes hashed and the chaining value. */
typedef struct {
  sha_dev_alg_t alg;
  uint64_t len;
  uint64_t count;
  uint32_t state[SHA_DEV_STATE_WORDS];
} sha_dev_ctx_t;

void sha_dev_init(sha_dev_t *dev, uintptr_t base);
unsigned sha_dev_digest_len(sha_dev_alg_t alg); /* bytes; 0 for an unknown algorithm */
unsigned sha_dev_block_len(sha_dev_alg_t alg);  /* bytes; 0 for an unknown algorithm */
__attribute__((warn_unused_result)) sha_dev_result_t sha_dev_begin(sha_dev_t *dev, sha_dev_alg_t alg, uint64_t len);
/* sha_dev_begin in two halves, for a caller that sets up a data source (a DMA channel) between
 * writing the configuration and starting the message. */
__attribute__((warn_unused_result)) sha_dev_result_t sha_dev_prepare(sha_dev_t *dev, sha_dev_alg_t alg, uint64_t len);
void sha_dev_start(sha_dev_t *dev);
__attribute__((warn_unused_result)) sha_dev_result_t sha_dev_update(sha_dev_t *dev, const void *data, size_t n);
__attribute__((warn_unused_result)) sha_dev_result_t sha_dev_finish(sha_dev_t *dev, void *digest);
__attribute__((warn_unused_result)) sha_dev_result_t sha_dev_hash(sha_dev_t *dev, sha_dev_alg_t alg, const void *msg,
                                                                  size_t len, void *digest);
__attribute__((warn_unused_result)) sha_dev_result_t sha_dev_save(sha_dev_t *dev, sha_dev_ctx_t *ctx);
__attribute__((warn_unused_result)) sha_dev_result_t sha_dev_restore(sha_dev_t *dev, const sha_dev_ctx_t *ctx);
__attribute__((warn_unused_result)) sha_dev_result_t sha_dev_wait_done(const sha_dev_t *dev);
__attribute__((warn_unused_result)) sha_dev_result_t sha_dev_clear(sha_dev_t *dev);
__attribute__((warn_unused_result)) sha_dev_result_t sha_dev_hmac_begin(sha_dev_t *dev, sha_dev_hmac_t *mac,
                                                                        sha_dev_alg_t alg, const void *key,
                                                                        size_t key_len, uint64_t msg_len);
__attribute__((warn_unused_result)) sha_dev_result_t sha_dev_hmac_update(sha_dev_t *dev, const void *data, size_t n);
__attribute__((warn_unused_result)) sha_dev_result_t sha_dev_hmac_finish(sha_dev_t *dev, sha_dev_hmac_t *mac,
                                                                         void *tag);
__attribute__((warn_unused_result)) sha_dev_result_t sha_dev_hmac(sha_dev_t *dev, sha_dev_alg_t alg, const void *key,
                                                                  size_t key_len, const void *msg, size_t len,
                                                                  void *tag);
/* Abandon the message with error ABORT (for example after the DMA feeding it failed). */
void sha_dev_abort(sha_dev_t *dev);
uint32_t sha_dev_status(const sha_dev_t *dev);
uint32_t sha_dev_error(const sha_dev_t *dev); /* ERR_CODE: a SHA_PERIPH__SHA_ERR__* value */
void sha_dev_irq_enable(sha_dev_t *dev, int done, int err);
uint32_t sha_dev_irq_ack(sha_dev_t *dev); /* returns and clears IRQ_STATUS */

#endif /* SHA_DEV_H */
