/* SPDX-License-Identifier: Apache-2.0 */
/* Issue 47 (1), inside the SoC: a DMA channel's access that the AES peripheral holds (a DATA_OUT[0]
 * read while the AES is idle; a DATA_IN[3] write into a full input FIFO) ends at the crossbar's
 * slave timeout with the channel's RD_BUS / WR_BUS, and the crossbar drops the cycle. The AES
 * shell then has the core abandon the held access (IRQ_STATUS.BUS_ABORT), so the CPU's next
 * access, the ID read, is answered normally and the AES goes on working: the queued blocks come
 * out, nothing of the abandoned write is queued, and a FIPS-197 block encrypts. Each case prints
 * one record; the pytest side checks them. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "aes_dev.h"
#include "aes_regs.h"
#include "aesoc.h"
#include "dma.h"

#define AES(member) AESOC_REG(AESOC_AES_BASE, aes_periph_t, member)

/* FIPS-197 appendix C.1 (AES-128). */
static const uint8_t key[16] __attribute__((aligned(4))) = {0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
                                                              0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f};
static const uint8_t pt[16] __attribute__((aligned(4))) = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                                                             0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};
static const uint8_t ct[16] __attribute__((aligned(4))) = {0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30,
                                                             0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a};
static uint32_t dma_buf[4] __attribute__((aligned(32), section(".sram1")));
static aes_dev_t aes;
static dma_t dma;

static void setup_ecb(void) {
  aes_dev_config_t cfg = {.mode = AES_DEV_ECB, .dir = AES_DEV_ENCRYPT, .key_len = 16};
  AESOC_CHECK(aes_dev_setup(&aes, &cfg, key, NULL) == AES_DEV_OK);
}

/* One 4-byte DMA transfer on channel ch, single beats, the AES side at a fixed address. */
static dma_err_t dma_one_word(unsigned ch, uintptr_t src, uintptr_t dst, int src_fixed) {
  dma_chan_config_t cfg = dma_default_config();
  cfg.burst = 1;
  if (src_fixed) cfg.src_mode = DMA_ADDR_FIXED;
  else cfg.dst_mode = DMA_ADDR_FIXED;
  AESOC_CHECK(dma_config(&dma, ch, &cfg) == DMA_OK);
  AESOC_CHECK(dma_set_transfer(&dma, ch, src, dst, 4, NULL) == DMA_OK);
  AESOC_CHECK(dma_start(&dma, DMA_CH(ch)) == DMA_OK);
  dma_result_t r = dma_wait(&dma, ch, DMA_WAIT_BOUND);
  return r == DMA_ERROR ? dma_error(&dma, ch) : DMA_ERR_NONE;
}

/* What the CPU sees next: the ID (its first AES access after the timeout), the abandon recorded
 * (and acknowledged), and a FIPS-197 block through the driver. */
static void cpu_takes_over(const char *name, dma_err_t err, unsigned results, unsigned queued) {
  uint32_t id = AES(ID);
  uint32_t irq = AES(IRQ_STATUS);
  AES(IRQ_STATUS) = AES_PERIPH__IRQ_STATUS__BUS_ABORT_bm;
  uint8_t out[16] __attribute__((aligned(4)));
  memset(out, 0, sizeof out);
  setup_ecb();
  aes_dev_result_t r = aes_dev_crypt(&aes, pt, out, 1);
  printf(AESOC_RECORD_PREFIX "{\"kind\":\"aes_bus_recovery\",\"case\":\"%s\",\"dma_err\":%u,\"id\":%lu,"
                             "\"bus_abort\":%u,\"results\":%u,\"queued\":%u,\"crypt_ok\":%u,\"ct\":\"",
         name, (unsigned)err, (unsigned long)id, (unsigned)((irq & AES_PERIPH__IRQ_STATUS__BUS_ABORT_bm) != 0),
         results, queued, (unsigned)(r == AES_DEV_OK));
  for (unsigned i = 0; i < 16; ++i) printf("%02x", out[i]);
  printf("\"}\n");
  AESOC_CHECK(id == AES_PERIPH__ID__ID_reset);
  AESOC_CHECK(irq & AES_PERIPH__IRQ_STATUS__BUS_ABORT_bm);
  AESOC_CHECK(r == AES_DEV_OK && memcmp(out, ct, 16) == 0);
}

/* A channel reads DATA_OUT[0] while nothing is queued: held until the crossbar gives up. */
static void dma_reads_idle_aes(void) {
  setup_ecb();
  dma_err_t err = dma_one_word(0, AESOC_AES_BASE + offsetof(aes_periph_t, DATA_OUT[0]),
                               (uintptr_t)dma_buf, 1);
  AESOC_CHECK(err == DMA_ERR_RD_BUS);
  cpu_takes_over("read", err, 0, 0);
}

/* The AES is full (input FIFO, engine, output FIFO); a channel writes DATA_IN[3]. */
static void dma_writes_full_aes(void) {
  setup_ecb();
  unsigned capacity = aes.in_depth + 1 + aes.out_depth, queued = 0;
  for (unsigned tries = 0; queued < capacity && tries < 1000; ++tries) {
    if (aes_dev_push(&aes, pt) == AES_DEV_OK) ++queued;
  }
  for (unsigned polls = 0; (AES(STATUS) & AES_PERIPH__STATUS__IN_READY_bm) && polls < 1000; ++polls) {
  }
  AESOC_CHECK(queued == capacity && !(AES(STATUS) & AES_PERIPH__STATUS__IN_READY_bm));
  dma_buf[0] = 0x12345678u;
  dma_err_t err = dma_one_word(1, (uintptr_t)dma_buf, AESOC_AES_BASE + offsetof(aes_periph_t, DATA_IN[3]), 0);
  AESOC_CHECK(err == DMA_ERR_WR_BUS);
  /* The queued blocks come out as they went in; the abandoned write queued nothing. */
  uint32_t id = AES(ID);
  AESOC_CHECK(id == AES_PERIPH__ID__ID_reset);
  unsigned results = 0;
  uint8_t out[16] __attribute__((aligned(4)));
  for (unsigned polls = 0; polls < 2000 && results <= capacity; ++polls) {
    if (aes_dev_pull(&aes, out) == AES_DEV_OK) {
      AESOC_CHECK(memcmp(out, ct, 16) == 0);
      ++results;
    }
  }
  AESOC_CHECK(results == capacity);
  cpu_takes_over("write", err, results, queued);
}

int main(void) {
  aes_dev_init(&aes, AESOC_AES_BASE);
  dma_init(&dma, AESOC_DMA_BASE);
  AESOC_CHECK(dma_probe(&dma) == DMA_OK);
  dma_reads_idle_aes();
  dma_writes_full_aes();
  printf("aes_bus_recovery: %u failed checks\n", aesoc_check_failures);
  return aesoc_check_failures ? 1 : 0;
}
