/* SPDX-License-Identifier: Apache-2.0 */
/*
 * aes_dma: asynchronous AES requests on the memory-mapped AES peripheral fed by two DMA channels
 * (ip/aes + ip/dma; docs/dma_aes.md), in the style of a kernel crypto request.
 *
 * Usage:
 *   static aes_dev_t aes;  static dma_t dma;  static aes_dma_t eng;
 *   aes_dev_init(&aes, AESOC_AES_BASE);
 *   dma_init(&dma, AESOC_DMA_BASE);
 *   aes_dma_opts_t opts = aes_dma_default_opts();            // DMA knobs, IRQ or polling, fallback
 *   opts.platform = &my_platform;                             // cache maintenance, bus addresses
 *   if (aes_dma_init(&eng, &aes, &dma, 0, 1, &opts) != AES_DMA_OK) ...   // channels 0 (in), 1 (out)
 *
 *   static aes_dma_key_t key;                                 // one key object per key
 *   aes_dma_key_set(&key, key_bytes, 16);                     // 16, 24 or 32 bytes
 *   aes_dma_req_t req = {.key = &key, .mode = AES_DEV_CBC, .dir = AES_DEV_ENCRYPT,
 *                        .src = in, .dst = out, .len = n, .complete = my_done};
 *   memcpy(req.iv, iv, 16);
 *   aes_dma_result_t r = aes_dma_submit(&eng, &req);         // PENDING: queued; otherwise done
 *                                                             // already (software fallback, a
 *                                                             // short request): its result
 *   ... the completion callback runs from aes_dma_irq() (call it from the DMA interrupt) or from
 *   aes_dma_poll(); aes_dma_wait(&eng, &req, bound) polls until one request is done.
 *
 * Requests are queued (a singly linked list through the request) and run one after the other.
 * On completion req.result is set and, with opts.counters, req.hw holds the hardware counters of
 * the run. To continue a stream, set req.flags = AES_DMA_CHAIN: req.iv then holds the chaining
 * value for a following request (the last ciphertext block for CBC, the next counter for CTR);
 * without it the driver does not read the value back (four register reads less per request).
 * A key stays loaded in the engine between requests that use the same key object: only the IV,
 * and CTRL when the mode, direction or counter width changed, are written (key reuse without
 * reloading). aes_dma_key_set() on a key object makes the next request reload it;
 * aes_dma_key_wipe() zeroises the copy. The engine's channels belong to it: their AES-side
 * addresses are written once (aes_dma_init, aes_dma_set_opts), a request writes the rest.
 *
 * Cache maintenance: the DMA does not see the CPU's data cache. With a write-through D-cache
 * (this SoC) sources need nothing; the destination is invalidated (platform->dcache_invalidate)
 * right after the channels start, so the callback and everything after it read fresh data. The
 * caller must not read the destination while a request is pending, and the request, its key
 * and the aes_dma_t must not share a cache line with it (keep 64 bytes apart): the driver reads
 * them while the request runs. After the invalidation it fetches them again (this core can only
 * invalidate all of its D-cache), so that the completion does not wait for those refills.
 *
 * Below opts.sw_threshold bytes a request runs in software (opts.sw, synchronously) because the
 * fixed cost of a hardware request exceeds the software time; the dma-aes benchmark measures the
 * crossover for each configuration. A CBC, CTR or ECB request shorter than opts.dma_min bytes
 * (default AES_DMA_DMA_MIN) runs on the same engine with the CPU moving its blocks through the
 * peripheral's registers, within the request: no channel set-up and no cache invalidation,
 * which cost more than such a request's blocks. On an idle queue it completes within
 * aes_dma_submit; its req->hw counters stay zero. Its buffers are read and written by the CPU's
 * own loads and stores, so an address no memory answers is the CPU's bus-error trap, as for any
 * pointer, where the channels would stop with DMA_ERR_SRC_RANGE / DST_RANGE.
 *
 * GCM (SP 800-38D) as a queued request like the others: .mode = AES_DEV_GCM, a 96-bit IV in the
 * first 12 bytes of req.iv, and req.gcm:
 *   aes_dma_req_t req = {.key = &key, .mode = AES_DEV_GCM, .dir = AES_DEV_ENCRYPT, .src = pt,
 *                        .dst = ct, .len = n, .gcm = {.aad = aad, .aad_len = a, .tag_len = 16}};
 *   memcpy(req.iv, iv, 12);
 *   aes_dma_submit(&eng, &req);   // completion: req.gcm.tag holds the tag
 * Decryption: put the expected tag in req.gcm.tag; a wrong tag completes the request with
 * AES_DMA_TAG_MISMATCH and the driver zeroes req.dst (and invalidates it) before the callback,
 * so a forged plaintext never reaches the caller. When the request starts, the CPU loads the key
 * (H is derived again: each GCM request reloads it), writes the IV and feeds the AAD (the
 * aad_len / 16 AAD blocks, one GHASH multiply each); the channels move the whole TEXT blocks; at
 * completion the CPU does a partial last block (len % 16 bytes), the length block and the tag.
 * len may be any value, 0 included (GMAC: AAD only; src and dst may then be NULL). Text shorter
 * than opts.gcm_dma_min bytes is fed by the CPU through the peripheral within the same request,
 * where setting up the channels would cost more than it saves (default AES_DMA_GCM_DMA_MIN, 320
 * bytes, from the gcm benchmark: the channels add about 950 cycles to a request and save about
 * 3 cycles a byte); such a request on an idle queue completes within aes_dma_submit. GCM
 * requests always run in hardware (no software fallback). The
 * per-request CPU work at start and completion runs in aes_dma_irq() when interrupts are used:
 * keep the AAD short there (it costs about 20 cycles per block).
 * A message begun by hand on the same aes_dev_t (aes_dev_gcm_begin, aes_dev_gcm_aad) can still
 * have its whole TEXT blocks moved with aes_dma_gcm_blocks() (synchronous; the queue must be
 * empty).
 *
 * Every call checks its arguments first and returns one aes_dma_result_t; every wait is bounded.
 */
#ifndef AES_DMA_H
#define AES_DMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aes_dev.h"
#include "aesoc_map.h"
#include "dma.h"

typedef enum {
  AES_DMA_OK = 0,    /* done (result of a request, or a call that succeeded) */
  AES_DMA_PENDING,   /* queued or running; the completion callback will tell */
  AES_DMA_BAD_ARG,   /* NULL, misaligned, length not a non-zero multiple of 16, bad option */
  AES_DMA_TIMEOUT,   /* a bounded wait ran out; the request is still pending */
  AES_DMA_AES_ERROR, /* the AES engine refused the configuration (STATUS.ERR) */
  AES_DMA_BUS_ERROR, /* a DMA channel stopped with an error: req->dma_err tells which */
  AES_DMA_SW_ERROR,  /* the software fallback failed */
  AES_DMA_NO_DEV,    /* aes_dma_init: no DMA controller, or too few request lines */
  AES_DMA_TAG_MISMATCH, /* GCM decryption: the tag does not authenticate the message; dst was zeroed */
} aes_dma_result_t;

/* A key as the driver keeps it: a copy of the key bytes and a serial number that tells the
 * driver whether the engine still holds it. */
typedef struct {
  uint32_t words[8];
  unsigned len;    /* bytes: 16, 24, 32 */
  uint32_t serial; /* changes on every aes_dma_key_set */
} aes_dma_key_t;

/* The GCM part of a request (mode AES_DEV_GCM). */
typedef struct {
  const void *aad; /* word aligned; may be NULL when aad_len is 0 */
  size_t aad_len;
  unsigned tag_len; /* 16, 15..12, 8 or 4 */
  uint8_t tag[16] __attribute__((aligned(4))); /* encryption: out; decryption: the expected tag */
} aes_dma_gcm_t;

/* req.flags: read the chaining value back into req.iv at completion (CBC, CTR), for a following
 * request that continues the stream. Without it the hardware path leaves req.iv as submitted. */
#define AES_DMA_CHAIN 1u

typedef struct aes_dma_req aes_dma_req_t;
typedef void (*aes_dma_complete_fn)(aes_dma_req_t *req);

/* Hardware counters of one request, read when it completes. */
typedef struct {
  uint32_t dma_cycles;  /* input channel start to output channel idle (CHn_CYCLES) */
  uint32_t engine_busy; /* cycles the AES engine had blocks queued or in flight (PERF_BUSY) */
  uint32_t in_wait;     /* cycles the input channel waited for the AES input request */
  uint32_t out_wait;    /* cycles the output channel waited for a result block */
  uint32_t beats;       /* data words moved by both channels (reads + writes) */
} aes_dma_hw_t;

struct aes_dma_req {
  /* Set by the caller. */
  const aes_dma_key_t *key;
  aes_dev_mode_t mode;
  aes_dev_dir_t dir;
  aes_dev_ctr_width_t ctr_width;
  uint32_t iv[4];  /* in: IV / initial counter (CBC, CTR), 96-bit IV (GCM); out: the chaining value
                      (CBC, CTR; unchanged for GCM) */
  const void *src; /* word aligned */
  void *dst;       /* word aligned; may equal src */
  size_t len;      /* bytes, a non-zero multiple of 16 (GCM: any length, 0 included) */
  aes_dma_gcm_t gcm;
  uint32_t flags;  /* AES_DMA_CHAIN */
  aes_dma_complete_fn complete; /* may be NULL (poll req->result) */
  void *user;
  /* Set by the driver. */
  volatile aes_dma_result_t result; /* AES_DMA_PENDING until done */
  dma_err_t dma_err;
  bool in_software; /* ran in the software fallback */
  aes_dma_hw_t hw;
  aes_dma_req_t *next;
};

/* Platform services: a driver lifted into another SoC supplies its own. */
typedef struct {
  void (*dcache_invalidate)(void *addr, size_t len); /* after the DMA wrote [addr, addr+len) */
  uint32_t bus_addr_mask; /* DMA bus address = CPU address & mask (e.g. to drop an uncached-alias
                             bit); 0 means all ones */
} aes_dma_platform_t;

/* Software AES for requests below the threshold: processes req in place of the hardware and
 * updates req->iv like the hardware does; returns 0 on success. */
typedef int (*aes_dma_sw_fn)(aes_dma_req_t *req);

/* The DMA request lines of the AES peripheral in this SoC, the defaults of aes_dma_default_opts():
 * from the generated aesoc_map.h, or defined by the build for another SoC. Without them the
 * defaults name no line (AES_DMA_REQ_NONE) and aes_dma_init() refuses them. */
#define AES_DMA_REQ_NONE 0xFFu
#ifndef AES_DMA_REQ_IN
#ifdef AESOC_DMA_REQ_AES_IN
#define AES_DMA_REQ_IN AESOC_DMA_REQ_AES_IN
#define AES_DMA_REQ_OUT AESOC_DMA_REQ_AES_OUT
#else
#define AES_DMA_REQ_IN AES_DMA_REQ_NONE
#define AES_DMA_REQ_OUT AES_DMA_REQ_NONE
#endif
#endif

typedef struct {
  /* DMA knobs (the OMAP sDMA study's, docs/dma_aes.md). */
  unsigned burst;      /* memory-side beats per burst: 1, 4 or 8 (the AES side moves 4-word blocks) */
  bool prefetch;       /* the input channel reads ahead before the AES asks */
  unsigned fifo_words; /* FIFO words each channel may fill: 0 (all), 16, 32 or 64 */
  unsigned prio;       /* channel priority 0..3 */
  bool bus_prio;       /* the channels' bursts use the crossbar's high-priority class */
  bool early_start;    /* start the channels before the AES engine is configured */
  bool use_irq;        /* completion by interrupt (call aes_dma_irq from the handler), else polling */
  bool counters;       /* read the hardware counters into req->hw (costs about 10 register reads) */
  unsigned req_in, req_out; /* DMA request lines wired to the AES peripheral's input / output requests */
  size_t sw_threshold; /* requests shorter than this many bytes run in software (needs sw) */
  size_t dma_min;      /* CBC, CTR and ECB requests shorter than this many bytes are fed by the CPU
                          through the peripheral's registers (0: always the channels) */
  size_t gcm_dma_min;  /* GCM text shorter than this many bytes is fed by the CPU (0: always DMA) */
  aes_dma_sw_fn sw;
  const aes_dma_platform_t *platform; /* NULL: identity addresses, no cache maintenance */
} aes_dma_opts_t;

typedef struct {
  aes_dev_t *aes;
  dma_t *dma;
  unsigned ch_in, ch_out;
  aes_dma_opts_t opts;
  uint32_t loaded_serial; /* serial of the key in the engine, 0 = none */
  aes_dma_req_t *head, *tail; /* head is running */
  size_t gcm_dma_bytes;       /* the running GCM request's text bytes the channels move */
  /* Set by aes_dma_init / aes_dma_set_opts so that a request reads no pointer chain: */
  uintptr_t aes_base;
  volatile uint32_t *in_regs, *out_regs; /* the two channels' register blocks */
  volatile uint32_t *dma_cmd, *dma_irq_status;
  uint32_t start_cmd;   /* CMD value that starts both channels */
  uint32_t irq_done, irq_done_in, irq_err; /* IRQ_STATUS bits: each channel's DONE; either's ERR */
  uint32_t bus_mask;    /* platform->bus_addr_mask, all ones if none */
  uint32_t ctrl_image;  /* CTRL as last written for the loaded key (valid while loaded_serial != 0) */
  void (*dcache_invalidate)(void *addr, size_t len); /* platform->dcache_invalidate or NULL */
} aes_dma_t;

#define AES_DMA_WAIT_BOUND 10000000u
/* opts.dma_min's default (bytes): up to 8 blocks by the CPU. From the dma-aes benchmark on this SoC
 * (AES-128, default DMA configuration, warm caches, at each code placement it measured): fed by
 * the CPU a request costs about 340-420 cycles and 57 more per block, on the channels about
 * 780-830 up to 256 bytes, the D-cache invalidation and its refills included. */
#define AES_DMA_DMA_MIN 144u
/* opts.gcm_dma_min's default (bytes). */
#define AES_DMA_GCM_DMA_MIN 320u

aes_dma_opts_t aes_dma_default_opts(void);
__attribute__((warn_unused_result)) aes_dma_result_t aes_dma_init(aes_dma_t *eng, aes_dev_t *aes, dma_t *dma,
                                                                  unsigned ch_in, unsigned ch_out,
                                                                  const aes_dma_opts_t *opts);
/* New DMA knobs for the following requests; the queue must be empty. */
__attribute__((warn_unused_result)) aes_dma_result_t aes_dma_set_opts(aes_dma_t *eng, const aes_dma_opts_t *opts);
__attribute__((warn_unused_result)) aes_dma_result_t aes_dma_key_set(aes_dma_key_t *key, const void *bytes,
                                                                     unsigned len);
void aes_dma_key_wipe(aes_dma_key_t *key);
__attribute__((warn_unused_result)) aes_dma_result_t aes_dma_gcm_blocks(aes_dma_t *eng, const void *src, void *dst,
                                                                        size_t len, uint32_t max_polls);
__attribute__((warn_unused_result)) aes_dma_result_t aes_dma_submit(aes_dma_t *eng, aes_dma_req_t *req);
/* Interrupt handler body (DMA interrupt line): completes the running request if it is done. */
void aes_dma_irq(aes_dma_t *eng);
/* Polling: the same, for use without interrupts; returns true if a request completed. */
bool aes_dma_poll(aes_dma_t *eng);
/* Polls (or, with interrupts, waits for the handler) until req is done or max_polls ran out. */
__attribute__((warn_unused_result)) aes_dma_result_t aes_dma_wait(aes_dma_t *eng, aes_dma_req_t *req,
                                                                  uint32_t max_polls);
/* Stops everything: aborts the channels, zeroises the engine, fails queued requests with
 * AES_DMA_BUS_ERROR / DMA_ERR_ABORT. */
void aes_dma_reset(aes_dma_t *eng);

#endif /* AES_DMA_H */
