/* SPDX-License-Identifier: Apache-2.0 */
/* aes_dma: asynchronous AES requests, AES peripheral fed by two DMA channels (see aes_dma.h). */
#include "aes_dma.h"

#include "aes_regs.h"
#include "dma_regs.h"

#define AES_REG(eng, member) (*(volatile uint32_t *)((eng)->aes->base + offsetof(aes_periph_t, member)))
#define AES_FIELD(value, name) (((uint32_t)(value) << AES_PERIPH__##name##_bp) & AES_PERIPH__##name##_bm)
#define DMA_REG(eng, member) (*(volatile uint32_t *)((eng)->dma->base + offsetof(dma_regs_t, member)))

#define AES_BLOCK_WORDS 4u
#define IDLE_BOUND 100000u

static uint32_t next_serial = 1;

/* Interrupts off while the queue changes: the completion path runs in the interrupt handler. */
static inline uint32_t irq_save(void) {
#if defined(__riscv)
  uint32_t mstatus;
  __asm__ volatile("csrrci %0, mstatus, 8" : "=r"(mstatus)::"memory");
  return mstatus & 8u;
#else
  return 0;
#endif
}

static inline void irq_restore(uint32_t state) {
#if defined(__riscv)
  if (state) __asm__ volatile("csrsi mstatus, 8" ::: "memory");
#else
  (void)state;
#endif
}

static bool aligned4(const void *p) { return ((uintptr_t)p & 3u) == 0; }

static inline uint32_t bus_addr(const aes_dma_t *eng, const void *p) { return (uint32_t)(uintptr_t)p & eng->bus_mask; }

aes_dma_opts_t aes_dma_default_opts(void) {
  /* Single-beat bursts, no prefetch, normal priority; the request lines of the SoC's wiring
   * (AES_DMA_REQ_IN / _OUT, aes_dma.h). */
  return (aes_dma_opts_t){.burst = 1, .fifo_words = 0, .prio = 0, .req_in = AES_DMA_REQ_IN, .req_out = AES_DMA_REQ_OUT,
                          .dma_min = AES_DMA_DMA_MIN, .gcm_dma_min = AES_DMA_GCM_DMA_MIN};
}

static bool opts_ok(const aes_dma_opts_t *o) {
  if (o->burst != 1 && o->burst != 4 && o->burst != 8) return false;
  if (o->prio > 3 || o->req_in > 7 || o->req_out > 7 || o->req_in == o->req_out) return false;
  if (o->fifo_words != 0 && o->fifo_words < 2 * o->burst) return false;
  return o->sw_threshold == 0 || o->sw != NULL;
}

static aes_dma_result_t configure_channels(aes_dma_t *eng) {
  const aes_dma_opts_t *o = &eng->opts;
  dma_chan_config_t in = {
      .src_mode = DMA_ADDR_INC, .dst_mode = DMA_ADDR_WRAP, .burst = o->burst, .block_words = AES_BLOCK_WORDS,
      .src_req = DMA_REQ_NONE, .dst_req = (int)o->req_in, .prio = o->prio, .bus_prio = o->bus_prio,
      .prefetch = o->prefetch, .fifo_limit = o->fifo_words};
  dma_chan_config_t out = in;
  out.src_mode = DMA_ADDR_WRAP;
  out.dst_mode = DMA_ADDR_INC;
  out.src_req = (int)o->req_out;
  out.dst_req = DMA_REQ_NONE;
  out.prefetch = false;
  /* The AES side of each channel never changes: written here once, a request writes the rest. */
  uintptr_t aes_base = eng->aes->base;
  if (dma_config(eng->dma, eng->ch_in, &in) != DMA_OK || dma_config(eng->dma, eng->ch_out, &out) != DMA_OK ||
      dma_set_transfer(eng->dma, eng->ch_in, 0, aes_base + offsetof(aes_periph_t, DATA_IN[0]),
                       AES_BLOCK_WORDS * 4u, NULL) != DMA_OK ||
      dma_set_transfer(eng->dma, eng->ch_out, aes_base + offsetof(aes_periph_t, DATA_OUT[0]), 0,
                       AES_BLOCK_WORDS * 4u, NULL) != DMA_OK) {
    return AES_DMA_BAD_ARG;
  }
  uintptr_t dma_base = eng->dma->base;
  eng->aes_base = aes_base;
  eng->in_regs = (volatile uint32_t *)(dma_base + offsetof(dma_regs_t, CH) + eng->ch_in * sizeof(dma_chan_regs_t));
  eng->out_regs = (volatile uint32_t *)(dma_base + offsetof(dma_regs_t, CH) + eng->ch_out * sizeof(dma_chan_regs_t));
  eng->dma_cmd = (volatile uint32_t *)(dma_base + offsetof(dma_regs_t, CMD));
  eng->dma_irq_status = (volatile uint32_t *)(dma_base + offsetof(dma_regs_t, IRQ_STATUS));
  eng->start_cmd = (DMA_CH(eng->ch_in) | DMA_CH(eng->ch_out)) << DMA_REGS__CMD__START0_bp;
  eng->irq_done = DMA_IRQ_DONE(eng->ch_out);
  eng->irq_done_in = DMA_IRQ_DONE(eng->ch_in);
  eng->irq_err = DMA_IRQ_ERR(eng->ch_in) | DMA_IRQ_ERR(eng->ch_out);
  const aes_dma_platform_t *pf = o->platform;
  eng->bus_mask = (pf && pf->bus_addr_mask) ? pf->bus_addr_mask : ~0u;
  eng->dcache_invalidate = pf ? pf->dcache_invalidate : NULL;
  /* Interrupt bits of our channels only: the controller may be shared. */
  uint32_t ours = (DMA_REGS__IRQ_ENABLE__DONE_bm & (DMA_IRQ_DONE(eng->ch_out) << DMA_REGS__IRQ_ENABLE__DONE_bp)) |
                  (DMA_REGS__IRQ_ENABLE__ERR_bm &
                   ((DMA_CH(eng->ch_in) | DMA_CH(eng->ch_out)) << DMA_REGS__IRQ_ENABLE__ERR_bp));
  uint32_t en = DMA_REG(eng, IRQ_ENABLE);
  DMA_REG(eng, IRQ_ENABLE) = o->use_irq ? (en | ours) : (en & ~ours);
  return AES_DMA_OK;
}

aes_dma_result_t aes_dma_init(aes_dma_t *eng, aes_dev_t *aes, dma_t *dma, unsigned ch_in, unsigned ch_out,
                              const aes_dma_opts_t *opts) {
  if (!eng || !aes || !dma || !opts || ch_in >= DMA_NUM_CHANNELS || ch_out >= DMA_NUM_CHANNELS || ch_in == ch_out ||
      !opts_ok(opts)) {
    return AES_DMA_BAD_ARG;
  }
  if (dma_probe(dma) != DMA_OK || dma->num_req <= opts->req_in || dma->num_req <= opts->req_out) {
    return AES_DMA_NO_DEV;
  }
  eng->aes = aes;
  eng->dma = dma;
  eng->ch_in = ch_in;
  eng->ch_out = ch_out;
  eng->opts = *opts;
  eng->loaded_serial = 0;
  eng->head = eng->tail = NULL;
  return configure_channels(eng);
}

aes_dma_result_t aes_dma_set_opts(aes_dma_t *eng, const aes_dma_opts_t *opts) {
  if (!eng || !opts || !opts_ok(opts)) return AES_DMA_BAD_ARG;
  if (eng->head) return AES_DMA_PENDING;
  eng->opts = *opts;
  return configure_channels(eng);
}

aes_dma_result_t aes_dma_key_set(aes_dma_key_t *key, const void *bytes, unsigned len) {
  if (!key || !bytes || (len != 16 && len != 24 && len != 32)) return AES_DMA_BAD_ARG;
  const uint8_t *b = bytes;
  for (unsigned i = 0; i < 8; ++i) {
    uint32_t w = 0;
    if (4 * i < len) w = b[4 * i] | (uint32_t)b[4 * i + 1] << 8 | (uint32_t)b[4 * i + 2] << 16 | (uint32_t)b[4 * i + 3] << 24;
    key->words[i] = w;
  }
  key->len = len;
  key->serial = next_serial++;
  if (next_serial == 0) next_serial = 1; /* 0 means "no key loaded" */
  return AES_DMA_OK;
}

void aes_dma_key_wipe(aes_dma_key_t *key) {
  if (!key) return;
  volatile uint32_t *w = key->words;
  for (unsigned i = 0; i < 8; ++i) w[i] = 0;
  key->len = 0;
  key->serial = 0;
}

/* Register pointers are taken once into locals: the compiler must otherwise reload eng->aes->base
 * after every volatile store (a uint32_t store may alias it), which doubled the set-up time. */
/* Inlined at both call sites: a call here costs more than the seven register writes. */
/* The channels' AES-side addresses stay as configure_channels wrote them (the registers change
 * only when written): four writes and the start. */
static inline __attribute__((always_inline)) void start_transfer(const aes_dma_t *eng, const void *src, void *dst,
                                                                  size_t len) {
  volatile uint32_t *in = eng->in_regs, *out = eng->out_regs;
  uint32_t s = bus_addr(eng, src), d = bus_addr(eng, dst), cmd = eng->start_cmd;
  in[offsetof(dma_chan_regs_t, SRC) / 4u] = s;
  in[offsetof(dma_chan_regs_t, LEN) / 4u] = (uint32_t)len;
  out[offsetof(dma_chan_regs_t, DST) / 4u] = d;
  out[offsetof(dma_chan_regs_t, LEN) / 4u] = (uint32_t)len;
  *eng->dma_cmd = cmd;
}

static inline __attribute__((always_inline)) void start_channels(const aes_dma_t *eng, const aes_dma_req_t *req) {
  start_transfer(eng, req->src, req->dst, req->len);
}

/* Bytes around the destination whose cache lines the driver does not fetch (the longest D-cache
 * line it allows for). */
#define LINE_GUARD 64u

/* After an invalidate-all the lines the completion reads (engine, request, key) are fetched
 * again while the DMA runs, instead of one miss each on the completion path; not an object
 * that may share a line with the destination, which would then hold stale data. */
static inline void refetch(const void *p, size_t bytes, uintptr_t d0, uintptr_t d1) {
  uintptr_t a = (uintptr_t)p;
  if (a < d1 + LINE_GUARD && a + bytes + LINE_GUARD > d0) return;
  const volatile uint32_t *w = p;
  for (size_t i = 0; i < bytes / 4u; i += 4u) (void)w[i];
}

static inline __attribute__((always_inline)) void invalidate_dst(const aes_dma_t *eng, const aes_dma_req_t *req,
                                                                  void *dst, size_t len) {
  if (!eng->dcache_invalidate) return;
  eng->dcache_invalidate(dst, len);
  uintptr_t d0 = (uintptr_t)dst, d1 = d0 + len;
  refetch(eng, sizeof *eng, d0, d1);
  refetch(req, sizeof *req, d0, d1);
  refetch(req->key, sizeof *req->key, d0, d1);
}

static void finish(aes_dma_t *eng, aes_dma_result_t result);

/* A request that completes while it starts (fed by the CPU, or refused by the engine) hands its
 * result back instead of finishing itself, so that a queue of them is a loop, not a recursion. */
typedef enum { STARTED, DONE_NOW } start_t;

/* Aborts both channels, waits (bounded) until they are idle, zeroises the engine. Returns false
 * if something did not stop: the caller reports the request failed either way. */
static bool stop_all(aes_dma_t *eng) {
  AES_REG(eng, DMA_CTRL) = 0;
  bool ok = dma_abort(eng->dma, DMA_CH(eng->ch_in) | DMA_CH(eng->ch_out)) == DMA_OK;
  unsigned i = 0;
  while (i < IDLE_BOUND && (dma_busy(eng->dma, eng->ch_in) || dma_busy(eng->dma, eng->ch_out))) ++i;
  ok = ok && i < IDLE_BOUND;
  (void)dma_irq_ack_mask(eng->dma, DMA_IRQ_DONE(eng->ch_in) | DMA_IRQ_ERR(eng->ch_in) | DMA_IRQ_DONE(eng->ch_out) |
                                       DMA_IRQ_ERR(eng->ch_out));
  ok = aes_dev_clear(eng->aes) == AES_DEV_OK && ok;
  eng->loaded_serial = 0;
  return ok;
}

static aes_dma_result_t of_dev(aes_dev_result_t r) {
  return r == AES_DEV_OK ? AES_DMA_OK : r == AES_DEV_BAD_ARG ? AES_DMA_BAD_ARG
                                      : r == AES_DEV_TAG_MISMATCH ? AES_DMA_TAG_MISMATCH : AES_DMA_AES_ERROR;
}

/* A GCM request starts: key, IV and AAD by the CPU, then the whole TEXT blocks by the channels.
 * The engine then holds the GCM key in GCM mode: the next request of another mode reloads. */
static start_t start_gcm(aes_dma_t *eng, aes_dma_req_t *req, aes_dma_result_t *result) {
  eng->loaded_serial = 0;
  size_t whole = req->len >= eng->opts.gcm_dma_min ? req->len & ~(size_t)15u : 0;
  eng->gcm_dma_bytes = whole;
  aes_dev_result_t r = aes_dev_gcm_begin(eng->aes, req->dir, req->key->words, req->key->len, req->iv, 12);
  if (r == AES_DEV_OK) r = aes_dev_gcm_aad(eng->aes, req->gcm.aad, req->gcm.aad_len);
  if (r == AES_DEV_OK && whole) r = aes_dev_gcm_text_ctrl(eng->aes);
  if (r != AES_DEV_OK || whole == 0) { /* no whole block for the channels: all of the text by the CPU */
    *result = r == AES_DEV_OK ? AES_DMA_OK : AES_DMA_AES_ERROR;
    return DONE_NOW;
  }
  if (eng->opts.counters) AES_REG(eng, PERF_BUSY) = 0;
  start_transfer(eng, req->src, req->dst, whole);
  AES_REG(eng, DMA_CTRL) = AES_PERIPH__DMA_CTRL__IN_EN_bm | AES_PERIPH__DMA_CTRL__OUT_EN_bm;
  invalidate_dst(eng, req, req->dst, whole);
  return STARTED;
}

/* The channels are done with a GCM request's whole blocks: the rest of the text (the partial last
 * block, or all of a short text), the length block and the tag (encryption) or its check
 * (decryption) by the CPU. A decryption whose tag fails leaves a zeroed destination. */
static aes_dma_result_t complete_gcm(aes_dma_t *eng, aes_dma_req_t *req, aes_dma_result_t result) {
  if (result != AES_DMA_OK) return result;
  size_t whole = eng->gcm_dma_bytes, rest = req->len - whole;
  aes_dev_result_t r = rest ? aes_dev_gcm_update(eng->aes, (const uint8_t *)req->src + whole,
                                                 (uint8_t *)req->dst + whole, rest)
                            : AES_DEV_OK;
  if (r == AES_DEV_OK) {
    r = req->dir == AES_DEV_ENCRYPT ? aes_dev_gcm_finish(eng->aes, req->gcm.tag, req->gcm.tag_len)
                                    : aes_dev_gcm_verify(eng->aes, req->gcm.tag, req->gcm.tag_len);
  }
  if (r != AES_DEV_OK && req->dir == AES_DEV_DECRYPT) {
    volatile uint8_t *d = req->dst;
    for (size_t i = 0; i < req->len; ++i) d[i] = 0;
  }
  return of_dev(r);
}

static inline uint32_t ctrl_of(const aes_dma_req_t *req) {
  uint32_t key_code = (req->key->len >> 3) - 2u; /* 16, 24, 32 bytes: 0, 1, 2 */
  return AES_FIELD(req->mode, CTRL__MODE) | AES_FIELD(req->dir, CTRL__DIR) | AES_FIELD(key_code, CTRL__KEY_LEN) |
         AES_FIELD(req->ctr_width, CTRL__CTR_WIDTH);
}

static inline __attribute__((always_inline)) void write_iv(volatile uint32_t *aes, const aes_dma_req_t *req) {
  uint32_t iv0 = req->iv[0], iv1 = req->iv[1], iv2 = req->iv[2], iv3 = req->iv[3];
  aes[offsetof(aes_periph_t, IV[0]) / 4u] = iv0;
  aes[offsetof(aes_periph_t, IV[1]) / 4u] = iv1;
  aes[offsetof(aes_periph_t, IV[2]) / 4u] = iv2;
  aes[offsetof(aes_periph_t, IV[3]) / 4u] = iv3;
}

/* A CBC, CTR or ECB request shorter than opts.dma_min: the CPU moves its blocks through the
 * peripheral's registers (no channels, so no cache maintenance either). */
static inline bool by_cpu(const aes_dma_t *eng, const aes_dma_req_t *req) {
  return req->mode != AES_DEV_GCM && req->len < eng->opts.dma_min;
}

/* One block in, one out, so the input FIFO always has room (no write is held on the bus): a short
 * request does not gain from keeping more in flight. */
static inline __attribute__((always_inline)) aes_dma_result_t cpu_blocks(const aes_dma_t *eng,
                                                                          const aes_dma_req_t *req) {
  const uint32_t *s = req->src;
  uint32_t *d = req->dst;
  for (size_t n = req->len / 16u; n; --n, s += 4, d += 4) aes_dev_block(eng->aes, s, d);
  const volatile uint32_t *aes = (const volatile uint32_t *)eng->aes_base;
  return (aes[offsetof(aes_periph_t, STATUS) / 4u] & AES_PERIPH__STATUS__ERR_bm) ? AES_DMA_AES_ERROR : AES_DMA_OK;
}

/* A CBC, CTR or ECB request whose key the engine holds: only CTRL (when it changed) and the IV
 * to write. */
static inline bool key_ready(const aes_dma_t *eng, const aes_dma_req_t *req) {
  return req->mode != AES_DEV_GCM && req->key->serial == eng->loaded_serial;
}

/* The common case: such a request on the channels, started after the engine is set. */
static inline bool start_is_fast(const aes_dma_t *eng, const aes_dma_req_t *req) {
  return key_ready(eng, req) && !eng->opts.early_start && req->len >= eng->opts.dma_min;
}

/* CTRL only when the mode, direction or width changed (it is a plain register), the IV, the
 * engine's busy counter if asked. */
static inline __attribute__((always_inline)) void set_engine(aes_dma_t *eng, const aes_dma_req_t *req) {
  volatile uint32_t *aes = (volatile uint32_t *)eng->aes_base;
  uint32_t ctrl = ctrl_of(req);
  if (ctrl != eng->ctrl_image) {
    aes[offsetof(aes_periph_t, CTRL) / 4u] = ctrl;
    eng->ctrl_image = ctrl;
  }
  if (req->mode != AES_DEV_ECB) write_iv(aes, req);
  if (eng->opts.counters) aes[offsetof(aes_periph_t, PERF_BUSY) / 4u] = 0;
}

/* Program the engine and the channels for the request at the head of the queue, or run it on
 * the CPU: every case. */
static __attribute__((noinline)) start_t start_hw_any(aes_dma_t *eng, aes_dma_result_t *result) {
  aes_dma_req_t *req = eng->head;
  if (req->mode == AES_DEV_GCM) return start_gcm(eng, req, result);
  bool cpu = by_cpu(eng, req);
  if (eng->opts.early_start && !cpu) start_channels(eng, req);
  const aes_dma_key_t *key = req->key;
  volatile uint32_t *aes = (volatile uint32_t *)eng->aes_base;
  if (key->serial != eng->loaded_serial || eng->loaded_serial == 0) {
    aes_dev_config_t cfg = {.mode = req->mode, .dir = req->dir, .key_len = key->len, .ctr_width = req->ctr_width};
    eng->loaded_serial = 0;
    if (aes_dev_setup(eng->aes, &cfg, key->words, req->mode == AES_DEV_ECB ? NULL : req->iv) != AES_DEV_OK) {
      *result = AES_DMA_AES_ERROR;
      return DONE_NOW;
    }
    eng->loaded_serial = key->serial;
    eng->ctrl_image = ctrl_of(req); /* aes_dev_setup wrote the same fields */
    if (eng->opts.counters) aes[offsetof(aes_periph_t, PERF_BUSY) / 4u] = 0;
  } else {
    set_engine(eng, req);
  }
  if (cpu) {
    *result = cpu_blocks(eng, req);
    return DONE_NOW;
  }
  if (!eng->opts.early_start) start_channels(eng, req);
  aes[offsetof(aes_periph_t, DMA_CTRL) / 4u] = AES_PERIPH__DMA_CTRL__IN_EN_bm | AES_PERIPH__DMA_CTRL__OUT_EN_bm;
  invalidate_dst(eng, req, req->dst, req->len);
  return STARTED;
}

/* The fast case inline: the engine, the channels' four changing registers and the start. */
static inline __attribute__((always_inline)) void start_hw_fast(aes_dma_t *eng, aes_dma_req_t *req) {
  volatile uint32_t *aes = (volatile uint32_t *)eng->aes_base;
  set_engine(eng, req);
  start_channels(eng, req);
  aes[offsetof(aes_periph_t, DMA_CTRL) / 4u] = AES_PERIPH__DMA_CTRL__IN_EN_bm | AES_PERIPH__DMA_CTRL__OUT_EN_bm;
  /* The caller does not read the destination while the request is pending, so no line of it can
   * enter the write-through, allocate-on-read D-cache from now on: invalidating here, while the
   * DMA already runs, is as good as after completion and keeps it off the critical path. */
  invalidate_dst(eng, req, req->dst, req->len);
}

static inline start_t start_hw(aes_dma_t *eng, aes_dma_result_t *result) {
  aes_dma_req_t *req = eng->head;
  if (start_is_fast(eng, req)) {
    start_hw_fast(eng, req);
    return STARTED;
  }
  return start_hw_any(eng, result);
}

/* What the common completion does not need: errors, GCM, the chaining value, the counters. */
static __attribute__((noinline)) aes_dma_result_t finish_more(aes_dma_t *eng, aes_dma_req_t *req,
                                                             aes_dma_result_t result) {
  bool gcm = req->mode == AES_DEV_GCM;
  if (gcm) result = complete_gcm(eng, req, result);
  if (result != AES_DMA_OK) {
    /* The channel that failed first names the error; the other one then shows ABORT. */
    dma_err_t in_err = dma_error(eng->dma, eng->ch_in), out_err = dma_error(eng->dma, eng->ch_out);
    (void)stop_all(eng); /* the request has failed whether or not everything stopped */
    req->dma_err = in_err != DMA_ERR_NONE ? in_err : out_err;
    return result;
  }
  if ((req->flags & AES_DMA_CHAIN) && req->mode != AES_DEV_ECB && !gcm) {
    volatile const uint32_t *aes = (volatile const uint32_t *)eng->aes_base;
    uint32_t iv0 = aes[offsetof(aes_periph_t, IV[0]) / 4u], iv1 = aes[offsetof(aes_periph_t, IV[1]) / 4u];
    uint32_t iv2 = aes[offsetof(aes_periph_t, IV[2]) / 4u], iv3 = aes[offsetof(aes_periph_t, IV[3]) / 4u];
    req->iv[0] = iv0;
    req->iv[1] = iv1;
    req->iv[2] = iv2;
    req->iv[3] = iv3;
  }
  bool channels = gcm ? eng->gcm_dma_bytes != 0 : !by_cpu(eng, req);
  if (eng->opts.counters && channels) {
    dma_counters_t in = {0}, out = {0};
    if (dma_counters(eng->dma, eng->ch_in, &in) != DMA_OK || dma_counters(eng->dma, eng->ch_out, &out) != DMA_OK) {
      result = AES_DMA_BAD_ARG;
    }
    req->hw = (aes_dma_hw_t){.dma_cycles = out.cycles > in.cycles ? out.cycles : in.cycles,
                             .engine_busy = AES_REG(eng, PERF_BUSY),
                             .in_wait = in.wait,
                             .out_wait = out.wait,
                             .beats = in.rd_beats + in.wr_beats + out.rd_beats + out.wr_beats};
  }
  return result;
}

/* Ends the running request: stops what still runs on error, reads the chaining value and the
 * counters if asked, calls back and takes it off the queue. */
static inline __attribute__((always_inline)) void complete_head(aes_dma_t *eng, aes_dma_result_t result) {
  aes_dma_req_t *req = eng->head;
  volatile uint32_t *aes = (volatile uint32_t *)eng->aes_base;
  if (!by_cpu(eng, req)) { /* a CPU-fed request checked STATUS itself and never enabled the channels */
    aes[offsetof(aes_periph_t, DMA_CTRL) / 4u] = 0;
    if (result == AES_DMA_OK && (aes[offsetof(aes_periph_t, STATUS) / 4u] & AES_PERIPH__STATUS__ERR_bm)) {
      result = AES_DMA_AES_ERROR;
    }
  }
  if (result != AES_DMA_OK || req->mode == AES_DEV_GCM || (req->flags & AES_DMA_CHAIN) || eng->opts.counters) {
    result = finish_more(eng, req, result);
  }
  aes_dma_req_t *next = req->next;
  eng->head = next;
  if (!next) eng->tail = NULL;
  req->next = NULL;
  req->result = result;
  if (req->complete) req->complete(req);
}

/* Ends the running request and starts the next ones until one runs on the channels. */
static void finish(aes_dma_t *eng, aes_dma_result_t result) {
  do {
    complete_head(eng, result);
  } while (eng->head && start_hw(eng, &result) == DONE_NOW);
}

static bool gcm_req_ok(const aes_dma_req_t *req) {
  const aes_dma_gcm_t *g = &req->gcm;
  if (req->dir > AES_DEV_DECRYPT || (g->aad_len && (!g->aad || !aligned4(g->aad)))) return false;
  return g->tag_len == 4 || g->tag_len == 8 || (g->tag_len >= 12 && g->tag_len <= 16);
}

static bool req_ok(const aes_dma_req_t *req) {
  if (!req || !req->key) return false;
  const aes_dma_key_t *key = req->key;
  unsigned klen = key->len;
  if (key->serial == 0 || klen < 16 || klen > 32 || (klen & 7u)) return false; /* 16, 24, 32 */
  uintptr_t src = (uintptr_t)req->src, dst = (uintptr_t)req->dst;
  size_t len = req->len;
  if (((src | dst) & 3u) || len > DMA_MAX_LEN) return false;
  if (req->mode == AES_DEV_GCM) {
    /* Only a GCM request may be empty (GMAC), and only an empty one may name no buffers. */
    if (len != 0 && (!src || !dst)) return false;
    return gcm_req_ok(req);
  }
  return len != 0 && (len & 15u) == 0 && src && dst && (unsigned)req->mode <= AES_DEV_CTR &&
         (unsigned)req->dir <= AES_DEV_DECRYPT && (unsigned)req->ctr_width <= AES_DEV_CTR128;
}

static __attribute__((noinline)) aes_dma_result_t submit_sw(aes_dma_t *eng, aes_dma_req_t *req) {
  req->dma_err = DMA_ERR_NONE;
  req->next = NULL;
  req->in_software = true;
  req->result = eng->opts.sw(req) == 0 ? AES_DMA_OK : AES_DMA_SW_ERROR;
  if (req->complete) req->complete(req);
  return req->result;
}

/* A request joins the queue: its driver-set fields first. */
static inline __attribute__((always_inline)) void enqueue(aes_dma_t *eng, aes_dma_req_t *req) {
  req->dma_err = DMA_ERR_NONE;
  req->in_software = false;
  if (eng->opts.counters) req->hw = (aes_dma_hw_t){0};
  req->next = NULL;
  req->result = AES_DMA_PENDING;
  if (eng->head) {
    eng->tail->next = req;
  } else {
    eng->head = req;
  }
  eng->tail = req;
}

aes_dma_result_t aes_dma_submit(aes_dma_t *eng, aes_dma_req_t *req) {
  if (!eng || !eng->aes || !req_ok(req)) return AES_DMA_BAD_ARG;
  if (req->len < eng->opts.sw_threshold && req->mode != AES_DEV_GCM) return submit_sw(eng, req); /* no software GCM */
  uint32_t irq = irq_save();
  bool idle = eng->head == NULL;
  if (idle && start_is_fast(eng, req)) {
    /* Idle engine, common case: the hardware first, then the bookkeeping, which nothing reads
     * before a completion, and a completion cannot run before interrupts are restored. */
    start_hw_fast(eng, req);
    enqueue(eng, req);
    irq_restore(irq);
    return AES_DMA_PENDING;
  }
  enqueue(eng, req);
  if (idle && key_ready(eng, req) && by_cpu(eng, req)) {
    /* Idle engine, short request with its key loaded: fed by the CPU now. */
    set_engine(eng, req);
    finish(eng, cpu_blocks(eng, req));
  } else if (idle) {
    aes_dma_result_t done;
    if (start_hw_any(eng, &done) == DONE_NOW) finish(eng, done);
  }
  /* Read before interrupts return: a completion may then hand the request back to the caller. */
  aes_dma_result_t now = req->result;
  irq_restore(irq);
  return now;
}

/* One look at the DMA's interrupt status, through a pointer taken at init, so that a wait notices
 * the end within a few cycles. The output channel ends last (every input word was consumed before
 * its last result): its DONE or an error ends the request; the input channel's DONE, set before,
 * is acknowledged with it. */
static inline __attribute__((always_inline)) bool poll_once(aes_dma_t *eng) {
  uint32_t err = eng->irq_err;
  uint32_t pending = *eng->dma_irq_status & (eng->irq_done | err);
  if (!pending) return false;
  *eng->dma_irq_status = pending | eng->irq_done_in;
  finish(eng, (pending & err) ? AES_DMA_BUS_ERROR : AES_DMA_OK);
  return true;
}

bool aes_dma_poll(aes_dma_t *eng) {
  if (!eng || !eng->head) return false;
  return poll_once(eng);
}

void aes_dma_irq(aes_dma_t *eng) { (void)aes_dma_poll(eng); }

aes_dma_result_t aes_dma_wait(aes_dma_t *eng, aes_dma_req_t *req, uint32_t max_polls) {
  if (!eng || !req) return AES_DMA_BAD_ARG;
  bool poll = !eng->opts.use_irq;
  for (uint32_t i = 0; i < max_polls; ++i) {
    if (req->result != AES_DMA_PENDING) return req->result;
    if (poll && eng->head) (void)poll_once(eng);
  }
  return req->result != AES_DMA_PENDING ? req->result : AES_DMA_TIMEOUT;
}

void aes_dma_reset(aes_dma_t *eng) {
  if (!eng || !eng->aes) return;
  uint32_t irq = irq_save();
  aes_dma_req_t *req = eng->head;
  eng->head = eng->tail = NULL;
  (void)stop_all(eng); /* the requests fail with ABORT whether or not everything stopped */
  irq_restore(irq);
  while (req) {
    aes_dma_req_t *next = req->next;
    req->next = NULL;
    req->dma_err = DMA_ERR_ABORT;
    req->result = AES_DMA_BUS_ERROR;
    if (req->complete) req->complete(req);
    req = next;
  }
}

/* GCM TEXT blocks through both channels, waiting (bounded) for the output channel. The key stays
 * the GCM message's: the next queued request reloads its own. */
aes_dma_result_t aes_dma_gcm_blocks(aes_dma_t *eng, const void *src, void *dst, size_t len, uint32_t max_polls) {
  if (!eng || !src || !dst || len == 0 || (len % 16u) != 0 || ((uintptr_t)src & 3u) || ((uintptr_t)dst & 3u) ||
      eng->head != NULL) {
    return AES_DMA_BAD_ARG;
  }
  eng->loaded_serial = 0;
  aes_dev_result_t r = aes_dev_gcm_text_ctrl(eng->aes);
  if (r != AES_DEV_OK) return of_dev(r);
  start_transfer(eng, src, dst, len);
  AES_REG(eng, DMA_CTRL) = AES_PERIPH__DMA_CTRL__IN_EN_bm | AES_PERIPH__DMA_CTRL__OUT_EN_bm;
  dma_result_t in = dma_wait(eng->dma, eng->ch_in, max_polls);
  dma_result_t out = dma_wait(eng->dma, eng->ch_out, max_polls);
  AES_REG(eng, DMA_CTRL) = 0;
  (void)dma_irq_ack_mask(eng->dma, DMA_IRQ_DONE(eng->ch_in) | DMA_IRQ_ERR(eng->ch_in) | DMA_IRQ_DONE(eng->ch_out) |
                                       DMA_IRQ_ERR(eng->ch_out));
  const aes_dma_platform_t *pf = eng->opts.platform;
  if (pf && pf->dcache_invalidate) pf->dcache_invalidate(dst, len);
  if (in == DMA_TIMEOUT || out == DMA_TIMEOUT) return AES_DMA_TIMEOUT;
  if (in != DMA_OK || out != DMA_OK) return AES_DMA_BUS_ERROR;
  return (aes_dev_status(eng->aes) & AES_PERIPH__STATUS__ERR_bm) ? AES_DMA_AES_ERROR : AES_DMA_OK;
}
