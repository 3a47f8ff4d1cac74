// SPDX-License-Identifier: Apache-2.0
// Back-door check for qspi_flash: an image written before or after the first eval() survives
// the model's erase, and every byte not written reads as erased (0xFF).
#include <cstdio>
#include <memory>
#include <string>

#include "Vqspi_flash.h"
#include "Vqspi_flash__Dpi.h"
#include "svdpi.h"
#include "verilated.h"

int main(int argc, char **argv) {
  auto ctx = std::make_unique<VerilatedContext>();
  auto top = std::make_unique<Vqspi_flash>(ctx.get());
  const bool before = argc > 1 && std::string(argv[1]) == "before";
  top->rst_ni = 0;
  top->cs_ni = 1;
  if (!before) {
    top->eval();
  }
  svSetScope(svGetScopeFromName("TOP.qspi_flash"));
  const unsigned size = qspi_flash_backdoor_bytes();
  for (unsigned i = 0; i < 64; i++) {
    qspi_flash_backdoor_write(i + 8, static_cast<unsigned char>(i * 7 + 1));
  }
  top->eval();
  int bad = 0;
  for (unsigned a = 0; a < size; a++) {
    const unsigned want = (a >= 8 && a < 72) ? ((a - 8) * 7 + 1) & 0xFF : 0xFF;
    if (qspi_flash_backdoor_read(a) != want) {
      if (bad++ < 4) {
        std::fprintf(stderr, "byte %u: got 0x%02x, want 0x%02x\n", a, qspi_flash_backdoor_read(a), want);
      }
    }
  }
  top->final();
  std::printf("%s: %u bytes, %d wrong\n", before ? "before" : "after", size, bad);
  return bad == 0 ? 0 : 1;
}
