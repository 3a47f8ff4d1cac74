// SPDX-License-Identifier: Apache-2.0
// Leakage-assessment harness (aesoc bench tvla): drives a Verilator model of aes_engine and
// records one power sample per cycle, the register-transition model: the Hamming distance of
// every flip-flop of the design between consecutive cycles.
//
// The model is built with --public-flat-rw; the flip-flops are the variables named *_q (the
// project's register naming, docs/masking.md), found once at start in the model's scope table.
// Per trace: class 0 (fixed plaintext) or 1 (random plaintext), drawn at random; one AES-128 ECB
// encryption under a fixed key; samples from the cycle the block is taken, `window` of them.
// Output (binary): per trace one byte of class, then `window` little-endian uint16 samples.
//
// Usage: tvla_harness TRACES WINDOW SEED OUTFILE; WINDOW 0 prints the cycles of one block (taken
// to idle) and exits, so the caller sizes the window from the design, not from a typed number.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "Vaes_engine.h"
#include "verilated.h"
#include "verilated_syms.h"

namespace {

struct Reg {
  const uint8_t* data;
  size_t bytes;
};

// Every *_q variable of every scope of the model.
std::vector<Reg> find_registers(size_t* bits) {
  std::vector<Reg> regs;
  *bits = 0;
  const VerilatedScopeNameMap* scopes = Verilated::threadContextp()->scopeNameMap();
  for (const auto& scope : *scopes) {
    VerilatedVarNameMap* vars = scope.second->varsp();
    if (!vars) continue;
    for (auto& var : *vars) {
      std::string name(var.first);
      if (name.size() < 3 || name.compare(name.size() - 2, 2, "_q") != 0) continue;
      regs.push_back({static_cast<const uint8_t*>(var.second.datap()), var.second.totalSize()});
      *bits += static_cast<size_t>(var.second.entBits()) * (var.second.totalSize() / var.second.entSize());
    }
  }
  return regs;
}

void snapshot(const std::vector<Reg>& regs, std::vector<uint8_t>* out) {
  size_t at = 0;
  for (const Reg& r : regs) {
    std::memcpy(out->data() + at, r.data, r.bytes);
    at += r.bytes;
  }
}

unsigned hamming(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  unsigned d = 0;
  for (size_t i = 0; i < a.size(); ++i) d += __builtin_popcount(a[i] ^ b[i]);
  return d;
}

void set_wide(VlWide<4>& w, const uint8_t block[16]) {
  // Byte 0 of the block in bits [127:120].
  for (int word = 0; word < 4; ++word) {
    uint32_t v = 0;
    for (int b = 0; b < 4; ++b) v |= static_cast<uint32_t>(block[15 - (4 * word + b)]) << (8 * b);
    w[word] = v;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s TRACES WINDOW SEED OUTFILE\n", argv[0]);
    return 2;
  }
  const long traces = std::atol(argv[1]);
  const int window = std::atoi(argv[2]);
  const unsigned long seed = std::strtoul(argv[3], nullptr, 0);
  if (traces <= 0 || window < 0 || window > 4096) {
    std::fprintf(stderr, "tvla_harness: TRACES must be > 0 and WINDOW in 0..4096\n");
    return 2;
  }
  FILE* out = std::fopen(argv[4], "wb");
  if (!out) {
    std::perror(argv[4]);
    return 2;
  }

  auto ctx = std::make_unique<VerilatedContext>();
  auto top = std::make_unique<Vaes_engine>(ctx.get());
  size_t bits = 0;
  std::vector<Reg> regs = find_registers(&bits);
  size_t bytes = 0;
  for (const Reg& r : regs) bytes += r.bytes;
  if (regs.empty()) {
    std::fprintf(stderr, "tvla_harness: no *_q registers found (built without --public-flat-rw?)\n");
    return 1;
  }
  std::fprintf(stderr, "tvla_harness: %zu registers, %zu flip-flops\n", regs.size(), bits);
  std::vector<uint8_t> prev(bytes), cur(bytes);

  long cycle = 0;
  const long max_cycles = traces * (static_cast<long>(window) + 2000) + 10000;
  auto tick = [&]() {
    top->clk_i = 0;
    top->eval();
    top->clk_i = 1;
    top->eval();
    ++cycle;
    if (cycle > max_cycles) {
      std::fprintf(stderr, "tvla_harness: engine stuck (cycle %ld)\n", cycle);
      std::exit(1);
    }
  };

  // TVLA's fixed key and fixed plaintext (Goodwill et al., 2011, AES-128).
  const uint8_t key[16] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
                           0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0};
  const uint8_t fixed[16] = {0xda, 0x39, 0xa3, 0xee, 0x5e, 0x6b, 0x4b, 0x0d,
                             0x32, 0x55, 0xbf, 0xef, 0x95, 0x60, 0x18, 0x90};

  top->rst_ni = 0;
  top->clk_i = 0;
  top->mode_i = 0;     // ECB
  top->dir_i = 0;      // encrypt
  top->key_len_i = 0;  // AES-128
  top->out_ready_i = 1;
  tick();
  tick();
  top->rst_ni = 1;
  tick();
  for (int w = 0; w < 8; ++w) top->key_i[w] = 0;
  for (int i = 0; i < 16; ++i) top->key_i[7 - i / 4] |= static_cast<uint32_t>(key[i]) << (24 - 8 * (i % 4));
  top->key_we_i = 1;
  tick();
  top->key_we_i = 0;
  while (!top->key_ready_o) tick();
  tick();

  if (window == 0) {
    set_wide(top->in_data_i, fixed);
    top->in_valid_i = 1;
    top->eval();
    while (!top->in_ready_o) tick();
    const long start = cycle;
    tick();
    top->in_valid_i = 0;
    while (top->busy_o || top->out_valid_o) tick();
    std::printf("%ld\n", cycle - start);
    return 0;
  }

  std::mt19937_64 rng(seed);
  std::vector<uint16_t> samples(window);
  uint8_t block[16];
  for (long t = 0; t < traces; ++t) {
    const uint8_t cls = rng() & 1;
    for (int i = 0; i < 16; ++i) block[i] = cls ? static_cast<uint8_t>(rng()) : fixed[i];
    set_wide(top->in_data_i, block);
    top->in_valid_i = 1;
    top->eval();
    while (!top->in_ready_o) tick();
    snapshot(regs, &prev);
    tick();  // the block is taken at this edge
    top->in_valid_i = 0;
    for (int s = 0; s < window; ++s) {
      snapshot(regs, &cur);
      samples[s] = static_cast<uint16_t>(hamming(prev, cur));
      prev.swap(cur);
      if (s + 1 < window) tick();
    }
    while (top->busy_o || top->out_valid_o) tick();
    if (top->err_o) {
      std::fprintf(stderr, "tvla_harness: engine raised err_o\n");
      return 1;
    }
    std::fputc(cls, out);
    std::fwrite(samples.data(), sizeof(uint16_t), samples.size(), out);
  }
  std::fclose(out);
  top->final();
  return 0;
}
