/* SPDX-License-Identifier: Apache-2.0 */
/* NIST CAVP SHA vectors through the SoC: every message of the case list hashed over MMIO (sha_dev)
 * and over DMA (sha_dma), and the SHAVS Monte Carlo chain from each algorithm's seed (the chaining
 * here, every hash on the engine). Digests are printed; pytest compares them with the CAVP files
 * (ip/sha/tests/test_sha_cavp_soc.py).
 *
 * Build options: SHA_CAVP_CASES_FILE names a generated case list (default: the committed
 * sha_cavp_cases.h); SHA_CAVP_PATHS selects the paths, 1 MMIO, 2 DMA, 3 both (default);
 * SHA_CAVP_MONTE_CHECKPOINTS how many of the 100 Monte Carlo checkpoints to run (default 1).
 * Algorithms the instance does not build (HWCFG.SHA512) are skipped. */
#include <string.h>

#include "aesoc.h"
#include "sha_dma.h"

typedef struct {
  sha_dev_alg_t alg;
  uint32_t offset; /* into sha_cavp_data, 4-byte aligned */
  uint32_t len;    /* bytes */
} sha_cavp_msg_t;

typedef struct {
  sha_dev_alg_t alg;
  uint32_t offset; /* the seed, digest-length bytes */
} sha_cavp_seed_t;

#ifdef SHA_CAVP_CASES_FILE
#include SHA_CAVP_CASES_FILE
#else
#include "sha_cavp_cases.h"
#endif

#ifndef SHA_CAVP_PATHS
#define SHA_CAVP_PATHS 3u
#endif
#ifndef SHA_CAVP_MONTE_CHECKPOINTS
#define SHA_CAVP_MONTE_CHECKPOINTS 1u
#endif
#define PATH_MMIO 1u
#define PATH_DMA 2u
#define MONTE_ITERATIONS 1000u /* SHAVS: hashes per checkpoint */
#define WAIT_BOUND 200000u
#define NUM_OF(a) (sizeof(a) / sizeof((a)[0]))

static sha_dev_t sha;
static dma_t dma;
static sha_dma_t eng;
static int sha512_built;
static uint8_t md[SHA_DEV_MAX_DIGEST] __attribute__((aligned(4)));
/* Monte Carlo digests side by side: the message MD[i-3] || MD[i-2] || MD[i-1] is a window that
 * slides one digest per hash, the engine's digest lands right after it, and only when the window
 * reaches the end are its three digests moved back to the front (no copy per hash). */
#define CHAIN_SLOTS 64u
static uint8_t chain[CHAIN_SLOTS * SHA_DEV_MAX_DIGEST] __attribute__((aligned(4)));

static const char *path_name(unsigned path) { return path == PATH_MMIO ? "mmio" : "dma"; }

static int built(sha_dev_alg_t alg) { return sha512_built || sha_dev_block_len(alg) == 64u; }

/* One message on the engine over `path`; on failure the peripheral's error code (0 when the
 * driver itself refused or timed out), with the engine cleared for the next message. */
static int hash(unsigned path, sha_dev_alg_t alg, const void *msg, size_t len, void *digest, uint32_t *err) {
  int ok;
  if (path == PATH_MMIO) {
    ok = sha_dev_hash(&sha, alg, msg, len, digest) == SHA_DEV_OK;
  } else {
    ok = sha_dma_submit(&eng, alg, msg, len) == SHA_DMA_PENDING && sha_dma_wait(&eng, WAIT_BOUND) == SHA_DMA_OK &&
         sha_dma_digest(&eng, digest) == SHA_DMA_OK;
  }
  *err = ok ? 0u : sha_dev_error(&sha);
  if (!ok) AESOC_CHECK(sha_dev_clear(&sha) == SHA_DEV_OK);
  return ok;
}

static void messages(unsigned path) {
  for (unsigned i = 0; i < NUM_OF(sha_cavp_msgs); ++i) {
    const sha_cavp_msg_t *c = &sha_cavp_msgs[i];
    if (!built(c->alg)) continue;
    uint32_t err;
    memset(md, 0, sizeof md);
    int ok = hash(path, c->alg, sha_cavp_data + c->offset, c->len, md, &err);
    AESOC_CHECK(ok);
    aesoc_rec_begin("sha_cavp_md");
    aesoc_rec_str("path", path_name(path));
    aesoc_rec_u64("i", i);
    aesoc_rec_u64("alg", c->alg);
    aesoc_rec_u64("len", c->len);
    aesoc_rec_u64("ok", (uint64_t)ok);
    aesoc_rec_u64("err", err);
    aesoc_rec_hex("md", md, sha_dev_digest_len(c->alg));
    aesoc_rec_end();
  }
}

/* SHAVS Monte Carlo: MD[0] = MD[1] = MD[2] = seed; MD[i] = SHA(MD[i-3] || MD[i-2] || MD[i-1]) for
 * i = 3..1002; the checkpoint is MD[1002], which seeds the next checkpoint. */
static void monte_carlo(unsigned path, const sha_cavp_seed_t *s) {
  const unsigned d = sha_dev_digest_len(s->alg);
  unsigned w = 0; /* the window's first slot */
  for (unsigned k = 0; k < 3; ++k) memcpy(chain + k * d, sha_cavp_data + s->offset, d);
  for (unsigned cp = 0; cp < SHA_CAVP_MONTE_CHECKPOINTS; ++cp) {
    uint32_t start = aesoc_cycles32(), err = 0;
    unsigned it, failures = 0;
    for (it = 0; it < MONTE_ITERATIONS; ++it) {
      if (w + 4u > CHAIN_SLOTS) {
        memmove(chain, chain + w * d, 3u * d);
        w = 0;
      }
      if (!hash(path, s->alg, chain + w * d, 3u * d, chain + (w + 3u) * d, &err)) {
        ++failures;
        break; /* the chain is broken: every later digest would be wrong too */
      }
      ++w;
    }
    uint32_t cycles = aesoc_cycles32() - start;
    const uint8_t *last = chain + (w + 2u) * d;
    AESOC_CHECK(failures == 0);
    aesoc_rec_begin("sha_cavp_monte");
    aesoc_rec_str("path", path_name(path));
    aesoc_rec_u64("alg", s->alg);
    aesoc_rec_u64("checkpoint", cp);
    aesoc_rec_u64("iterations", it);
    aesoc_rec_u64("failures", failures);
    aesoc_rec_u64("err", err);
    aesoc_rec_u64("cycles", cycles);
    aesoc_rec_hex("md", last, d);
    aesoc_rec_end();
    if (failures) return;
    memcpy(chain, last, d);
    memcpy(chain + d, last, d);
    memcpy(chain + 2u * d, last, d);
    w = 0;
  }
}

int main(void) {
  sha_dev_init(&sha, AESOC_SHA_BASE);
  dma_init(&dma, AESOC_DMA_BASE);
  AESOC_CHECK(sha_dma_init(&eng, &sha, &dma, 0, AESOC_DMA_REQ_SHA_IN, ~AESOC_UNCACHED_BIT) == SHA_DMA_OK);
  AESOC_CHECK(sha_dev_clear(&sha) == SHA_DEV_OK);
  sha512_built = (AESOC_REG(AESOC_SHA_BASE, sha_periph_t, HWCFG) & SHA_PERIPH__HWCFG__SHA512_bm) != 0;
  aesoc_rec_begin("sha_cavp");
  aesoc_rec_str("set", SHA_CAVP_SET);
  aesoc_rec_u64("msgs", NUM_OF(sha_cavp_msgs));
  aesoc_rec_u64("seeds", NUM_OF(sha_cavp_seeds));
  aesoc_rec_u64("paths", SHA_CAVP_PATHS);
  aesoc_rec_u64("sha512", (uint64_t)sha512_built);
  aesoc_rec_end();

  for (unsigned path = PATH_MMIO; path <= PATH_DMA; path <<= 1) {
    if (!(SHA_CAVP_PATHS & path)) continue;
    messages(path);
    for (unsigned s = 0; s < NUM_OF(sha_cavp_seeds); ++s) {
      if (built(sha_cavp_seeds[s].alg)) monte_carlo(path, &sha_cavp_seeds[s]);
    }
  }

  aesoc_rec_begin("sha_cavp_done");
  aesoc_rec_u64("failures", aesoc_check_failures);
  aesoc_rec_end();
  return aesoc_check_failures ? 1 : 0;
}
