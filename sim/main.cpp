// SPDX-License-Identifier: Apache-2.0
// aesoc simulation harness: loads an ELF into the SoC memories, runs it, reports what happened.
//
// The last line on stderr is always one machine-readable summary:
//   AESOC_SIM {"status":"exit","code":0,"cycles":123,"seconds":0.5,"khz":246.0}
// status is "exit" (firmware wrote SIM_EXIT), "timeout" (--max-cycles reached) or "error". The
// process exits with the code; the harness's own codes (timeout, error, flash protocol error) lie
// in a range no firmware status uses (aesoc/common/outcome.py, docs/ARCHITECTURE.md "Exit status").

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "Vaesoc_sim.h"
#include "Vaesoc_sim__Dpi.h"
#include "aesoc_exit.h"     // generated: exit statuses (aesoc/common/outcome.py)
#include "aesoc_sim_map.h"  // generated from the SoC description: kMemoryScopes
#include "svdpi.h"
#include "verilated.h"
#include "verilated_syms.h"
#if VM_TRACE
#include "verilated_fst_c.h"
#endif
#if VM_COVERAGE
#include "verilated_cov.h"
#endif

namespace {

// Exit statuses of the harness's own outcomes, apart from every firmware status (aesoc/common/outcome.py).
constexpr int EXIT_HARNESS_ERROR = AESOC_EXIT_HARNESS_ERROR;
constexpr int EXIT_TIMEOUT = AESOC_EXIT_HARNESS_TIMEOUT;
constexpr int EXIT_FLASH_PROTOCOL = AESOC_EXIT_HARNESS_FLASH_PROTOCOL;

// Default OTP key-encryption key of the simulated part (RFC 3394's example KEK); a real part
// would have its own, and --kek sets another.
constexpr char DEFAULT_KEK[] = "000102030405060708090A0B0C0D0E0F";

// Console control characters that open and close an activity window (aesoc_activity_begin/end in
// fw/lib). Never echoed, so a program's console reads the same on every model; only the activity
// model counts toggles between them.
constexpr uint8_t ACTIVITY_BEGIN = AESOC_ACTIVITY_BEGIN;
constexpr uint8_t ACTIVITY_END = AESOC_ACTIVITY_END;

struct Options {
  std::string elf;
  std::string flash_image;
  std::string kek = DEFAULT_KEK;
  // OTP policy fuses: their defaults are the SoC description's [otp] table (aesoc_sim_map.h).
  uint64_t otp_integ_req = AESOC_OTP_INTEG_REQ;
  uint64_t otp_min_version = AESOC_OTP_MIN_VERSION;
  uint64_t max_cycles = AESOC_MAX_CYCLES;
  std::string trace;
  uint64_t trace_from = 0;
  uint64_t trace_to = UINT64_MAX;
  std::string power;       // power traces out (binary), see PowerCapture
  std::string power_regs;  // the registers summed: one "SCOPE VARIABLE" per line
  uint64_t power_samples = 0;
};

struct MemBank {
  std::string scope;
  svScope handle;
  uint32_t base;
  uint32_t bytes;
};

void summary(const char *status, int code, uint64_t cycles, double seconds) {
  const double khz = seconds > 0 ? static_cast<double>(cycles) / seconds / 1000.0 : 0.0;
  std::fflush(stdout);
  std::fprintf(stderr,
               "AESOC_SIM {\"status\":\"%s\",\"code\":%d,\"cycles\":%llu,\"seconds\":%.3f,"
               "\"khz\":%.1f}\n",
               status, code, static_cast<unsigned long long>(cycles), seconds, khz);
}

[[noreturn]] void fail(const std::string &msg) {
  std::fprintf(stderr, "aesoc-sim: error: %s\n", msg.c_str());
  summary("error", EXIT_HARNESS_ERROR, 0, 0.0);
  std::exit(EXIT_HARNESS_ERROR);
}

uint64_t parse_number(const char *flag, const char *text) {
  char *end = nullptr;
  errno = 0;
  const unsigned long long value = std::strtoull(text, &end, 0);
  if (errno != 0 || end == text || *end != '\0') {
    fail(std::string("bad number for ") + flag + ": '" + text + "'");
  }
  return value;
}

void usage() {
  std::fprintf(stderr,
               "usage: aesoc-sim [--max-cycles N] [--flash-image FILE.bin] [--kek HEX32] "
               "[--otp-integ-req 0|1] [--otp-min-version N] [--trace FILE.fst [--trace-from C] [--trace-to C]] "
               "[--power FILE.bin --power-regs LIST --power-samples N] FIRMWARE.elf\n");
}

Options parse_args(int argc, char **argv) {
  Options opt;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](const char *flag) -> const char * {
      if (i + 1 >= argc) {
        usage();
        fail(std::string(flag) + " needs a value");
      }
      return argv[++i];
    };
    if (arg == "--max-cycles") {
      opt.max_cycles = parse_number("--max-cycles", value("--max-cycles"));
    } else if (arg == "--flash-image") {
      opt.flash_image = value("--flash-image");
    } else if (arg == "--kek") {
      opt.kek = value("--kek");
    } else if (arg == "--otp-integ-req") {
      opt.otp_integ_req = parse_number("--otp-integ-req", value("--otp-integ-req"));
      if (opt.otp_integ_req > 1) fail("--otp-integ-req is a fuse: 0 or 1");
    } else if (arg == "--otp-min-version") {
      opt.otp_min_version = parse_number("--otp-min-version", value("--otp-min-version"));
      if (opt.otp_min_version > UINT32_MAX) fail("--otp-min-version needs a 32-bit value");
    } else if (arg == "--trace") {
      opt.trace = value("--trace");
    } else if (arg == "--trace-from") {
      opt.trace_from = parse_number("--trace-from", value("--trace-from"));
    } else if (arg == "--trace-to") {
      opt.trace_to = parse_number("--trace-to", value("--trace-to"));
    } else if (arg == "--power") {
      opt.power = value("--power");
    } else if (arg == "--power-regs") {
      opt.power_regs = value("--power-regs");
    } else if (arg == "--power-samples") {
      opt.power_samples = parse_number("--power-samples", value("--power-samples"));
    } else if (arg == "-h" || arg == "--help") {
      usage();
      std::exit(0);
    } else if (!arg.empty() && arg[0] == '-') {
      usage();
      fail("unknown option '" + arg + "'");
    } else if (opt.elf.empty()) {
      opt.elf = arg;
    } else {
      usage();
      fail("more than one firmware file given");
    }
  }
  if (opt.elf.empty()) {
    usage();
    fail("no firmware ELF given");
  }
  if (opt.trace_to < opt.trace_from) {
    fail("--trace-to is before --trace-from");
  }
  if (!opt.power.empty() && (opt.power_regs.empty() || opt.power_samples == 0 || opt.power_samples > 65536)) {
    fail("--power needs --power-regs and --power-samples in 1..65536");
  }
  if (opt.power.empty() && (!opt.power_regs.empty() || opt.power_samples != 0)) {
    fail("--power-regs and --power-samples only go with --power");
  }
  return opt;
}

svScope scope_of(const char *name) {
  svScope scope = svGetScopeFromName(name);
  if (scope == nullptr) {
    fail(std::string("scope not found in the model: ") + name);
  }
  return scope;
}

std::vector<MemBank> discover_banks() {
  std::vector<MemBank> banks;
  for (const char *name : kMemoryScopes) {
    svScope scope = scope_of(name);
    svSetScope(scope);
    banks.push_back({name, scope, wb_sram_backdoor_base(), wb_sram_backdoor_words() * 4U});
  }
  // The flash is written byte by byte through its own back door; base from the SoC package.
  svSetScope(scope_of("TOP.aesoc_sim"));
  if (aesoc_flash_mapped() == 0U) {
    return banks;  // this SoC has no XIP controller: no flash in the memory map
  }
  const uint32_t flash_base = aesoc_flash_base();
  svScope flash = scope_of("TOP.aesoc_sim.u_flash");
  svSetScope(flash);
  banks.push_back({"TOP.aesoc_sim.u_flash", flash, flash_base, qspi_flash_backdoor_bytes()});
  return banks;
}

bool is_flash(const MemBank &bank) { return bank.scope == "TOP.aesoc_sim.u_flash"; }

// Writes `len` bytes at `addr`; every byte must fall inside one bank.
void write_bytes(const std::vector<MemBank> &banks, uint32_t addr, const uint8_t *data, size_t len,
                 const std::string &what) {
  const MemBank *bank = nullptr;
  for (const auto &b : banks) {
    if (addr >= b.base && static_cast<uint64_t>(addr) + len <= static_cast<uint64_t>(b.base) + b.bytes) {
      bank = &b;
    }
  }
  if (bank == nullptr) {
    char msg[160];
    std::snprintf(msg, sizeof msg, "%s [0x%08x, +0x%zx) is outside every memory bank", what.c_str(),
                  addr, len);
    fail(msg);
  }
  svSetScope(bank->handle);
  if (is_flash(*bank)) {
    for (size_t i = 0; i < len; ++i) {
      qspi_flash_backdoor_write(addr + static_cast<uint32_t>(i) - bank->base, data ? data[i] : 0xFF);
    }
    return;
  }
  for (size_t i = 0; i < len; ++i) {
    const uint32_t a = addr + static_cast<uint32_t>(i) - bank->base;
    const uint32_t word = a >> 2;
    const uint32_t shift = (a & 3U) * 8U;
    uint32_t v = wb_sram_backdoor_read(word);
    v = (v & ~(0xFFU << shift)) | (static_cast<uint32_t>(data ? data[i] : 0) << shift);
    wb_sram_backdoor_write(word, v);
  }
}

// Loads every PT_LOAD segment at its physical address; returns the entry point. With
// `skip_flash` (a flash image was given) segments in the flash are left out: the image holds them,
// built from this ELF by `aesoc image encrypt` and possibly encrypted.
uint32_t load_elf(const std::string &path, const std::vector<MemBank> &banks, bool skip_flash) {
  if (elf_version(EV_CURRENT) == EV_NONE) {
    fail("libelf initialisation failed");
  }
  const int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) {
    fail("cannot open firmware '" + path + "': " + std::strerror(errno));
  }
  Elf *elf = elf_begin(fd, ELF_C_READ, nullptr);
  if (elf == nullptr || elf_kind(elf) != ELF_K_ELF) {
    fail("'" + path + "' is not an ELF file");
  }
  GElf_Ehdr ehdr;
  if (gelf_getehdr(elf, &ehdr) == nullptr) {
    fail("'" + path + "': unreadable ELF header");
  }
  if (gelf_getclass(elf) != ELFCLASS32 || ehdr.e_machine != EM_RISCV) {
    fail("'" + path + "' is not a 32-bit RISC-V ELF");
  }
  size_t phnum = 0;
  if (elf_getphdrnum(elf, &phnum) != 0 || phnum == 0) {
    fail("'" + path + "' has no program headers");
  }
  size_t file_size = 0;
  char *image = elf_rawfile(elf, &file_size);
  for (size_t i = 0; i < phnum; ++i) {
    GElf_Phdr ph;
    if (gelf_getphdr(elf, static_cast<int>(i), &ph) == nullptr) {
      fail("'" + path + "': unreadable program header");
    }
    if (ph.p_type != PT_LOAD || ph.p_memsz == 0) {
      continue;
    }
    if (ph.p_offset + ph.p_filesz > file_size) {
      fail("'" + path + "': segment data beyond end of file");
    }
    const MemBank &flash = banks.back();
    if (skip_flash && is_flash(flash) && ph.p_paddr >= flash.base && ph.p_paddr < static_cast<uint64_t>(flash.base) + flash.bytes) {
      continue;
    }
    const auto *data = reinterpret_cast<const uint8_t *>(image + ph.p_offset);
    const std::string what = "segment " + std::to_string(i);
    write_bytes(banks, static_cast<uint32_t>(ph.p_paddr), data, ph.p_filesz, what);
    if (ph.p_memsz > ph.p_filesz) {
      write_bytes(banks, static_cast<uint32_t>(ph.p_paddr + ph.p_filesz), nullptr,
                  ph.p_memsz - ph.p_filesz, what + " (zero fill)");
    }
  }
  const uint32_t entry = static_cast<uint32_t>(ehdr.e_entry);
  elf_end(elf);
  close(fd);
  return entry;
}

void load_flash_image(const std::string &path, const std::vector<MemBank> &banks) {
  FILE *f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    fail("cannot open flash image '" + path + "': " + std::strerror(errno));
  }
  std::vector<uint8_t> bytes;
  uint8_t buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
    bytes.insert(bytes.end(), buf, buf + n);
  }
  std::fclose(f);
  const MemBank &flash = banks.back();
  if (!is_flash(flash)) {
    fail("flash image '" + path + "' given, but this SoC has no XIP flash");
  }
  if (bytes.size() > flash.bytes) {
    fail("flash image '" + path + "' is larger than the flash (" + std::to_string(flash.bytes) + " bytes)");
  }
  write_bytes(banks, flash.base, bytes.data(), bytes.size(), "flash image");
}

void set_kek(Vaesoc_sim &top, const std::string &hex) {
  if (hex.size() != 32 || hex.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) {
    fail("--kek needs 32 hex digits (128 bits)");
  }
  // Bits 127:96 are the first 8 hex digits (key byte 0 in the top byte, as everywhere).
  for (int w = 0; w < 4; ++w) {
    top.otp_kek_i[3 - w] = static_cast<uint32_t>(std::stoul(hex.substr(8 * w, 8), nullptr, 16));
  }
}

// Power capture (the register-transition model, docs/masking.md): for every window the program
// marks (ACTIVITY_BEGIN ... ACTIVITY_END) one trace of `samples` samples, sample i the Hamming
// distance over the listed registers between cycle BEGIN+i+1 and cycle BEGIN+i, where BEGIN is the
// cycle the window's opening store is on the bus, up to the cycle of its closing store. Traces are
// aligned on BEGIN and have a fixed length: a shorter window's trace is padded with zeros (nothing
// of the code around the window enters it), a longer one's is cropped (counted in the summary).
// The trace's class is the character the program wrote to the console last before opening the
// window, '0' or '1'. Output per window: one class byte, then `samples` little-endian uint16.
class PowerCapture {
 public:
  PowerCapture(const std::string &out, const std::string &regs, uint64_t samples) : samples_(samples) {
    std::ifstream list(regs);
    if (!list) fail("cannot open the power register list '" + regs + "'");
    std::string scope_name, var_name;
    while (list >> scope_name >> var_name) {
      const VerilatedScope *scope = Verilated::threadContextp()->scopeFind(scope_name.c_str());
      const VerilatedVar *var = scope != nullptr ? scope->varFind(var_name.c_str()) : nullptr;
      if (var == nullptr) {
        fail("power register " + scope_name + "." + var_name + " is not readable in this model (not the power model?)");
      }
      regs_.push_back({static_cast<const uint8_t *>(var->datap()), var->totalSize()});
      bytes_ += var->totalSize();
      bits_ += static_cast<uint64_t>(var->entBits()) * (var->totalSize() / var->entSize());
    }
    if (regs_.empty()) fail("the power register list '" + regs + "' is empty");
    // Whole 64-bit words, the tail zero in both snapshots.
    prev_.resize((bytes_ + 7) / 8);
    cur_.resize(prev_.size());
    trace_.reserve(samples_);
    out_ = std::fopen(out.c_str(), "wb");
    if (out_ == nullptr) fail("cannot write power traces to '" + out + "': " + std::strerror(errno));
  }

  // After each rising edge, before the cycle's console strobe is looked at.
  void edge() {
    if (!open_ || trace_.size() == samples_) return;
    snapshot(&cur_);
    unsigned d = 0;
    for (size_t i = 0; i < cur_.size(); ++i) d += popcount64(prev_[i] ^ cur_[i]);
    trace_.push_back(static_cast<uint16_t>(d > 0xFFFF ? 0xFFFF : d));
    prev_.swap(cur_);
  }

  void console(uint8_t ch, uint64_t cycle) {
    if (ch == ACTIVITY_BEGIN) {
      if (open_) fail("power window " + std::to_string(windows_) + " opened inside the previous one");
      if (next_cls_ < 0) {
        fail("power window " + std::to_string(windows_) + " opened without a class: write '0' or '1' to the " +
             "console just before opening it");
      }
      cls_ = static_cast<uint8_t>(next_cls_);
      next_cls_ = -1;
      snapshot(&prev_);
      open_ = true;
      begin_ = cycle;
      ++windows_;
    } else if (ch == ACTIVITY_END) {
      if (!open_) return;
      open_ = false;
      const uint64_t length = cycle - begin_;
      shortest_ = std::min(shortest_, length);
      longest_ = std::max(longest_, length);
      if (length > samples_) ++cropped_;
      trace_.resize(samples_, 0);
      std::fputc(cls_, out_);
      std::fwrite(trace_.data(), sizeof(uint16_t), trace_.size(), out_);
      trace_.clear();
    } else {
      next_cls_ = ch == '0' || ch == '1' ? ch - '0' : -1;
    }
  }

  // Closes the file; one line on stderr:
  // AESOC_POWER {"windows":W,"samples":N,"flip_flops":B,"shortest":C,"longest":C,"cropped":K}
  void finish() {
    std::fclose(out_);
    if (open_) fail("the program ended inside power window " + std::to_string(windows_ - 1));
    std::fprintf(stderr,
                 "AESOC_POWER {\"windows\":%u,\"samples\":%llu,\"flip_flops\":%llu,\"shortest\":%llu,"
                 "\"longest\":%llu,\"cropped\":%u}\n",
                 windows_, static_cast<unsigned long long>(samples_), static_cast<unsigned long long>(bits_),
                 static_cast<unsigned long long>(windows_ > 0 ? shortest_ : 0),
                 static_cast<unsigned long long>(longest_), cropped_);
  }

 private:
  struct Reg {
    const uint8_t *data;
    size_t bytes;
  };

  void snapshot(std::vector<uint64_t> *into) const {
    auto *bytes = reinterpret_cast<uint8_t *>(into->data());
    for (const Reg &r : regs_) {
      std::memcpy(bytes, r.data, r.bytes);
      bytes += r.bytes;
    }
  }

  // Inline: the model is built without -mpopcnt, where __builtin_popcount is a library call,
  // which made the capture five times slower than the model.
  static unsigned popcount64(uint64_t x) {
    x -= (x >> 1) & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return static_cast<unsigned>((x * 0x0101010101010101ULL) >> 56);
  }

  std::vector<Reg> regs_;
  size_t bytes_ = 0;
  uint64_t bits_ = 0;
  uint64_t samples_;
  std::vector<uint64_t> prev_, cur_;
  std::vector<uint16_t> trace_;
  FILE *out_ = nullptr;
  bool open_ = false;
  int next_cls_ = -1;
  uint8_t cls_ = 0;
  uint64_t begin_ = 0, shortest_ = UINT64_MAX, longest_ = 0;
  unsigned windows_ = 0, cropped_ = 0;
};

#if VM_COVERAGE
// One coverage point's field (key \x01 ... \x02 value) from a line of Verilator's coverage file.
std::string cov_field(const std::string &keys, const char *key) {
  const std::string tag = std::string("\x01") + key + "\x02";
  const size_t at = keys.find(tag);
  if (at == std::string::npos) return "";
  const size_t from = at + tag.size();
  return keys.substr(from, keys.find('\x01', from) - from);
}

// A clock signal's base name: the clock toggles twice a cycle in every block, busy or idle, and on
// an FPGA it is a global net whose power follows the cycle count, so activity leaves it out.
bool is_clock(const std::string &point) {
  const std::string name = point.substr(0, point.find_first_of("[:"));
  return name == "clk_i" || name == "clk";
}

// Toggles since the window opened, summed per hierarchy scope (its own signals, not its
// children's). The per-bit counts go through a private temporary file that is removed at once:
// a bit's count can show a key bit, so only the sums leave the harness.
std::map<std::string, uint64_t> window_toggles(VerilatedContext &ctx) {
  const char *tmpdir = std::getenv("TMPDIR");
  std::string path = std::string(tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp") + "/aesoc-cov-XXXXXX";
  const int fd = mkstemp(path.data());
  if (fd < 0) fail("cannot create a temporary file for the activity counts");
  close(fd);
  ctx.coveragep()->write(path);
  std::ifstream in(path);
  std::map<std::string, uint64_t> toggles;
  std::string line;
  while (std::getline(in, line)) {
    const size_t close_quote = line.rfind("' ");
    if (line.rfind("C '", 0) != 0 || close_quote == std::string::npos) continue;
    const std::string keys = line.substr(3, close_quote - 3);
    if (cov_field(keys, "t") != "toggle" || is_clock(cov_field(keys, "o"))) continue;
    toggles[cov_field(keys, "h")] += std::strtoull(line.c_str() + close_quote + 2, nullptr, 10);
  }
  in.close();
  std::remove(path.c_str());
  return toggles;
}

// One line on stderr per window: AESOC_ACTIVITY {"window":0,"from":C,"to":C,"toggles":{scope:N,...}}
void report_window(unsigned window, uint64_t from, uint64_t to, const std::map<std::string, uint64_t> &toggles) {
  std::string json = "{\"window\":" + std::to_string(window) + ",\"from\":" + std::to_string(from) +
                     ",\"to\":" + std::to_string(to) + ",\"toggles\":{";
  const char *sep = "";
  for (const auto &[scope, count] : toggles) {
    json += sep;
    json += "\"";
    for (const char c : scope) {
      if (c == '"' || c == '\\') json += '\\';
      json += c;
    }
    json += "\":" + std::to_string(count);
    sep = ",";
  }
  std::fprintf(stderr, "AESOC_ACTIVITY %s}}\n", json.c_str());
}
#endif

}  // namespace

int main(int argc, char **argv) {
  const Options opt = parse_args(argc, argv);

  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(1, argv);
  auto top = std::make_unique<Vaesoc_sim>(ctx.get(), "TOP");
#if VM_COVERAGE
  // Keep every instance's counts apart: by default the writer merges points of the same source
  // line across instances under a wildcard scope, which would blur which block toggled.
  ctx->coveragep()->forcePerInstance(true);
#endif

  const std::vector<MemBank> banks = discover_banks();
  set_kek(*top, opt.kek);
  top->otp_integ_req_i = static_cast<uint8_t>(opt.otp_integ_req);
  top->otp_min_version_i = static_cast<uint32_t>(opt.otp_min_version);
  if (!opt.flash_image.empty()) {
    load_flash_image(opt.flash_image, banks);
  }
  const uint32_t entry = load_elf(opt.elf, banks, !opt.flash_image.empty());
  if (entry != banks.front().base) {
    char msg[96];
    std::snprintf(msg, sizeof msg, "ELF entry 0x%08x is not the reset vector 0x%08x", entry,
                  banks.front().base);
    fail(msg);
  }

#if VM_TRACE
  std::unique_ptr<VerilatedFstC> tfp;
  if (!opt.trace.empty()) {
    ctx->traceEverOn(true);
  }
#else
  if (!opt.trace.empty()) {
    fail("this model was built without tracing; use 'aesoc run --trace'");
  }
#endif

  top->clk_i = 0;
  top->rst_ni = 0;
  top->eval();
  for (int i = 0; i < 4; ++i) {
    top->clk_i = 1;
    top->eval();
    top->clk_i = 0;
    top->eval();
  }
  top->rst_ni = 1;
  top->eval();

  std::unique_ptr<PowerCapture> power;
  if (!opt.power.empty()) {
    power = std::make_unique<PowerCapture>(opt.power, opt.power_regs, opt.power_samples);
  }

#if VM_COVERAGE
  unsigned windows = 0;
  uint64_t window_from = 0;
  bool window_open = false;
#endif

  const auto start = std::chrono::steady_clock::now();
  uint64_t cycle = 0;
  int code = 0;
  const char *status = "timeout";
  while (cycle < opt.max_cycles) {
#if VM_TRACE
    if (!opt.trace.empty() && cycle == opt.trace_from) {
      tfp = std::make_unique<VerilatedFstC>();
      top->trace(tfp.get(), 99);
      tfp->open(opt.trace.c_str());
    }
    if (tfp && cycle > opt.trace_to) {
      tfp->close();
      tfp.reset();
    }
#endif
    top->clk_i = 1;
    top->eval();
#if VM_TRACE
    if (tfp) tfp->dump(2 * cycle + 1);
#endif
    if (power) power->edge();
    // Console and exit strobes are combinational from the bus: sample them once per cycle.
    if (top->console_valid_o) {
      const uint8_t ch = top->console_char_o;
      if (power) power->console(ch, cycle);
#if VM_COVERAGE
      if (ch == ACTIVITY_BEGIN) {
        ctx->coveragep()->zero();
        window_from = cycle;
        window_open = true;
      } else if (ch == ACTIVITY_END && window_open) {
        report_window(windows++, window_from, cycle, window_toggles(*ctx));
        window_open = false;
      }
#endif
      if (ch != ACTIVITY_BEGIN && ch != ACTIVITY_END) {
        std::putchar(ch);
      }
    }
    if (top->exit_valid_o) {
      code = top->exit_code_o;
      status = "exit";
      ++cycle;
      break;
    }
    if (top->flash_err_o) {
      std::fprintf(stderr, "aesoc-sim: error: the flash model saw a protocol error at cycle %llu\n",
                   static_cast<unsigned long long>(cycle));
      status = "error";
      code = EXIT_FLASH_PROTOCOL;
      ++cycle;
      break;
    }
    top->clk_i = 0;
    top->eval();
#if VM_TRACE
    if (tfp) tfp->dump(2 * cycle + 2);
#endif
    ++cycle;
  }
#if VM_TRACE
  if (tfp) tfp->close();
#endif
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  top->final();
  if (power) power->finish();

  if (std::strcmp(status, "timeout") == 0) {
    std::fprintf(stderr, "aesoc-sim: timeout: firmware did not exit within %llu cycles\n",
                 static_cast<unsigned long long>(opt.max_cycles));
    summary(status, EXIT_TIMEOUT, cycle, seconds);
    return EXIT_TIMEOUT;
  }
  summary(status, code, cycle, seconds);
  return code;  // firmware's exit status, or EXIT_FLASH_PROTOCOL
}
