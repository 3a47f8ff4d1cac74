"""Benchmark `sw-aes`: the swcrypto AES variants on the SoC, in the layout of the RIOT study, with
code and tables in SRAM and (AES-128) executing in place from the QSPI flash.

Also home of the swcrypto build helpers the tests share: the variant list and how a program is
built with one variant (the firmware flow's `libs=("crypto",)` compiles fw/crypto into it; the
variant is a -D flag), and an RV32IM instruction counter that shows where the cycles go.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aesoc.bench import BenchContext, BenchResult, Benchmark, Point, Table, published, run_line, side_by_side
from aesoc.common.toolchain import BUILD, REPO, ToolError, tool_slot, write_atomic
from aesoc.sim.firmware import Placement, elf_path
from aesoc.sim.harness import RunResult
from aesoc.sim.run import build_and_run
from aesoc.xip import image

CRYPTO_DIR = REPO / "fw" / "crypto"
CONFIG = "base"
XIP_CONFIG = "full"  # the configuration with the XIP controller, for placement "xip"
PLAIN_IMAGE = BUILD / "swcrypto" / "xip-plain.toml"
LIBS = ("crypto",)  # fw/crypto joins every build


@dataclass(frozen=True)
class Variant:
    key: str  # the name swc_aes_variant() reports
    define: str  # the -D that selects it
    label: str
    tables: str  # where its tables live
    constant_time: bool
    asm: bool = False  # hand-written RV32IM assembly: runs on the SoC (and the instruction counter), not on the host


VARIANTS: tuple[Variant, ...] = (
    Variant("compact", "SWC_AES_COMPACT", "Compact (S-box only)", "const S-box", False),
    Variant("ttable", "SWC_AES_TTABLE", "T-tables, rounds in a loop", "const", False),
    Variant("ttable-rt", "SWC_AES_TTABLE_RT", "T-tables computed at run time, loop", "RAM (run time)", False),
    Variant("ttable-unrolled", "SWC_AES_UNROLLED", "T-tables, full unroll", "const", False),
    Variant("ttable-unrolled-rt", "SWC_AES_UNROLLED_RT", "T-tables computed at run time, full unroll",
            "RAM (run time)", False),
    Variant("fixslice", "SWC_AES_FIXSLICE", "Fixsliced, constant time (C)", "none", True),
    Variant("barrel", "SWC_AES_BARREL", "Barrel-shiftrows, 8 blocks, constant time (C)", "none", True),
    Variant("asm-ttable", "SWC_AES_ASM_TTABLE", "T-tables, RV32IM assembly", "const", False, asm=True),
)


def variant(key: str) -> Variant:
    for v in VARIANTS:
        if v.key == key:
            return v
    raise KeyError(key)


def source_digest(*dirs: Path) -> str:
    """Digest of generated folders a build reads through -D/-I flags: the firmware cache hashes
    the program and library sources but not these, so they enter the flags as a -D."""
    h = hashlib.sha256()
    for d in dirs:
        for path in sorted(p for p in d.rglob("*") if p.is_file()):
            h.update(path.name.encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


def cflags_for(v: Variant, opt: str = "-O2", extra: tuple[str, ...] = (), dirs: tuple[Path, ...] = ()) -> tuple[str, ...]:
    digest = (f"-DSWC_INPUTS_DIGEST=0x{source_digest(*dirs)}",) if dirs else ()
    return (opt, f"-D{v.define}", *digest, *extra)


def _build_name(program: Path, v: Variant, opt: str, tag: str) -> str:
    return f"{program.name}-{v.key}{opt.replace('-', '_')}{'-' + tag if tag else ''}"


def plain_image() -> Path:
    """Description of a plaintext flash image (a key table without OTFAD context, so the KEK
    never matters) for programs executing in place."""
    PLAIN_IMAGE.parent.mkdir(parents=True, exist_ok=True)
    image.write_description(PLAIN_IMAGE, {"kek": "00" * 16, "key_table": 0})
    return PLAIN_IMAGE


def run_variant(program: Path, v: Variant, *, opt: str = "-O2", extra: tuple[str, ...] = (),
                dirs: tuple[Path, ...] = (), tag: str = "", max_cycles: int = 200_000_000,
                placement: Placement = "sram", config: str | None = None) -> tuple[RunResult, str]:
    """Build `program` with the library in variant `v` and run it on the base SoC (or `config`).
    `dirs` are generated folders the build reads (test-case headers); `tag` keeps their builds
    apart. Placement "xip" executes it in place from a plaintext flash image (code and const
    tables in the flash, RAM tables in SRAM), by default on the `full` SoC."""
    name = _build_name(program, v, opt, tag)
    config = config or (XIP_CONFIG if placement == "xip" else CONFIG)
    return build_and_run(program, config, name=name, cflags=cflags_for(v, opt, extra, dirs), libs=LIBS,
                         max_cycles=max_cycles, placement=placement,
                         image=plain_image() if placement == "xip" else None)


# ---- the benchmark --------------------------------------------------------------------------------

BENCH_PROGRAM = REPO / "fw" / "bench" / "sw_aes"
CT_PROGRAM = REPO / "fw" / "tests" / "swcrypto_ct"
RIOT_CLOCK_HZ = 32_000_000  # the RIOT study's STM32L151
KEY_SIZES = (128, 192, 256)
CT_TRIALS = 32
SMOKE_CT_TRIALS = 8  # the smoke run's timing spread: a quarter of the simulated cycles
# Targets of project issue 17 for AES-128 from SRAM, warm, -O2 unless stated.
TARGET_TABLE_CTR_CPB = 47.0
TARGET_TABLE_CBC_ENC_CPB = 58.0
TARGET_CT_CTR_CPB = 95.0
TARGET_COMPACT_BYTES = 1400  # compact variant at -Os: key schedule, cipher both ways, ECB/CBC/CTR, API
TARGET_KEY_EXPANSION_CYCLES = 550  # every T-table variant
BEARSSL_CT_KEY_SCHEDULE_CYCLES = 8296  # BearSSL aes_ct key schedule on this SoC (issue 17)
# Encrypt-only programs: the benchmark without any decryption call, AES-128 only.
ENC_ONLY_EXTRA = ("-DSW_AES_KEY_SIZES=1", "-DSW_AES_ENC_ONLY")
ENC_ONLY_TAG = "enconly"
# D-cache experiment: the C loop variant with two encryption tables (Te2, Te3 as rotations).
TWO_TABLE_EXTRA = ("-DSW_AES_KEY_SIZES=1", "-DSWC_TT_TWO_TABLES")
TWO_TABLE_TAG = "twotables"
# Symbols of decryption code and tables; none may be left in an encrypt-only program.
DECRYPT_SYMBOL_PARTS = ("decrypt", "key_dec", "_td", "isbox", "inv_sbox", "inv_mix")
# Placement runs: AES-128 only (the `full` model simulates about 4x slower than `base`).
PLACEMENTS: tuple[Placement, ...] = ("sram", "xip")
PLACEMENT_EXTRA = ("-DSW_AES_KEY_SIZES=1",)
PLACEMENT_TAG = "aes128"
# Smoke run: the variants every table needs (a T-table, the constant-time and the compact one), AES-128.
SMOKE_VARIANTS = ("compact", "ttable", "fixslice")
SMOKE_EXTRA = ("-DSW_AES_KEY_SIZES=1",)
SMOKE_TAG = "smoke"
SMOKE_PLACED = "ttable"
# The one variant a smoke run counts instructions of: the pure-Python counter took 6.5 CPU-s on the
# compact variant's program and 3.4 on fixslice's against 1.6 on this one.
SMOKE_COUNTED = "ttable"
# (variant key, RIOT row key in published sw-aes.toml): the RIOT configurations ours mirror.
RIOT_ROWS = {"ttable": "riot_default", "ttable-rt": "riot_runtime_tables", "ttable-unrolled": "riot_unroll_flash",
             "ttable-unrolled-rt": "riot_unroll_runtime"}


# Static functions of swc_aes.c, the public layer every variant shares (its public functions are
# the swc_aes_* ones that are not swc_aes_impl_*).
API_LAYER = frozenset({"swc_aligned", "swc_wipe_words", "swc_setkey", "swc_check", "swc_run", "swc_blocks"})
MODE_LOOPS = frozenset({"swc_aes_impl_encrypt", "swc_aes_impl_decrypt"})


@dataclass(frozen=True)
class Sizes:
    api: int  # code of the shared public layer (argument checks, bounce buffers, CTR tail)
    modes: int  # code of the variant's ECB/CBC/CTR loops (the table and fixsliced variants inline their rounds here)
    core: int  # other variant code: key schedule, table set-up, the compact variant's cipher
    rodata: int  # const data (tables)
    ram: int  # static RAM (.data/.bss): the run-time tables

    @property
    def total(self) -> int:
        return self.api + self.modes + self.core + self.rodata + self.ram


def library_sizes(elf: Path) -> Sizes:
    """Sum the sizes of the library's own AES symbols (swc_*, SHA excluded) in a linked ELF;
    libc's memcpy/memset, which the library calls, are not counted."""
    from elftools.elf.elffile import ELFFile
    from elftools.elf.sections import SymbolTableSection

    api = modes = core = rodata = ram = 0
    with open(elf, "rb") as handle:
        f = ELFFile(handle)
        symtab = f.get_section_by_name(".symtab")
        assert isinstance(symtab, SymbolTableSection)
        for sym in symtab.iter_symbols():
            name, size = sym.name, sym["st_size"]
            if (not name.startswith("swc_") or name.startswith(("swc_sha", "swc_hash")) or size == 0
                    or not isinstance(sym["st_shndx"], int)):
                continue
            section = f.get_section(sym["st_shndx"]).name
            if sym["st_info"]["type"] == "STT_FUNC":
                public = name.startswith("swc_aes_") and "." not in name and not name.startswith(
                    ("swc_aes_impl_", "swc_aes_expand"))
                if name in API_LAYER or public:
                    api += size
                elif name in MODE_LOOPS:
                    modes += size
                else:
                    core += size
            elif section.startswith((".rodata", ".srodata")):
                rodata += size
            elif section.startswith((".data", ".sdata", ".bss", ".sbss")):
                ram += size
    return Sizes(api, modes, core, rodata, ram)


def decryption_symbols(elf: Path) -> list[str]:
    """The library's decryption functions and tables linked into `elf`."""
    from elftools.elf.elffile import ELFFile
    from elftools.elf.sections import SymbolTableSection

    with open(elf, "rb") as handle:
        symtab = ELFFile(handle).get_section_by_name(".symtab")
        assert isinstance(symtab, SymbolTableSection)
        return sorted({sym.name for sym in symtab.iter_symbols()
                       if sym.name.startswith("swc_") and sym["st_size"] > 0
                       and any(part in sym.name for part in DECRYPT_SYMBOL_PARTS)})


def _count_main(v: Variant, extra: tuple[str, ...], tag: str) -> list[dict[str, Any]]:
    """Instruction counts of the variant's main -O2 build (the same build as its run's, built once)."""
    from aesoc.sim import firmware
    from aesoc.soc.description import load_config

    elf = firmware.build(BENCH_PROGRAM, load_config(CONFIG), name=_build_name(BENCH_PROGRAM, v, "-O2", tag),
                         cflags=cflags_for(v, "-O2", extra, ()), libs=LIBS).elf
    return count_instructions(elf)


def elf_for(program: Path, v: Variant, opt: str, tag: str = "", placement: Placement = "sram",
            config: str | None = None) -> Path:
    """The ELF run_variant(program, v, opt=opt, tag=tag, placement=placement, config=config) built."""
    name = _build_name(program, v, opt, tag) + ("-xip" if placement == "xip" else "")
    return elf_path(config or (XIP_CONFIG if placement == "xip" else CONFIG), name)


def _where(v: Variant, placement: Placement) -> tuple[str, str]:
    """Where a variant's code and tables are: XIP moves code and const data into the flash;
    run-time tables are .bss and stay in SRAM."""
    code = "XIP flash" if placement == "xip" else "SRAM"
    if v.tables == "none":
        return code, "none"
    return code, f"{v.tables}, in {code if v.tables.startswith('const') else 'SRAM'}"


def _measured(keys: Iterable[str]) -> list[Variant]:
    """The variants a run measured (all, or the smoke run's), in table order."""
    found = set(keys)
    return [v for v in VARIANTS if v.key in found]


def run(ctx: BenchContext) -> BenchResult:
    variants = _measured(SMOKE_VARIANTS) if ctx.smoke else list(VARIANTS)
    # The main runs: every key size, or AES-128 only in a smoke run.
    main_extra, main_tag = (SMOKE_EXTRA, SMOKE_TAG) if ctx.smoke else ((), "")
    builds = [(v, "-O2") for v in variants] + [(variant("compact"), "-Os")]
    # A smoke run places one variant: the full SoC simulates several times slower than 'base'.
    placements = [(v, place) for v in ([variant(SMOKE_PLACED)] if ctx.smoke else variants) for place in PLACEMENTS]
    two_table = [v for v in variants if v.key in ("ttable", "ttable-rt", "asm-ttable")]
    trials = SMOKE_CT_TRIALS if ctx.smoke else CT_TRIALS
    counted = [variant(SMOKE_COUNTED)] if ctx.smoke else variants
    # Every run is independent of the others: they go side by side, then the tables read them in
    # this order (runs and records stay in the same order whatever finishes first).
    jobs: list[tuple[str, Callable[[], tuple[RunResult, str]]]] = [
        *[(f"sw_aes {v.key} {opt}", lambda v=v, opt=opt: run_variant(BENCH_PROGRAM, v, opt=opt, extra=main_extra,
                                                                      tag=main_tag)) for v, opt in builds],
        *[(f"timing spread {v.key}", lambda v=v: run_variant(
            CT_PROGRAM, v, extra=(f"-DSWC_CT_TRIALS={trials}", "-DSWC_CT_COLD"), tag=f"t{trials}cold"))
          for v in variants],
        *[(f"sw_aes {v.key} AES-128 {place} on {XIP_CONFIG}", lambda v=v, place=place: run_variant(
            BENCH_PROGRAM, v, extra=PLACEMENT_EXTRA, tag=PLACEMENT_TAG, config=XIP_CONFIG, placement=place))
          for v, place in placements],
        *[(f"sw_aes {v.key} encrypt-only link", lambda v=v: run_variant(BENCH_PROGRAM, v, extra=ENC_ONLY_EXTRA,
                                                                          tag=ENC_ONLY_TAG)) for v in variants],
        *[(f"sw_aes {v.key} two tables", lambda v=v: run_variant(BENCH_PROGRAM, v, extra=TWO_TABLE_EXTRA,
                                                                   tag=TWO_TABLE_TAG)) for v in two_table],
        # The main build of each variant again (built once, cached) on the instruction counter.
        *[(f"instruction count {v.key}", lambda v=v: _count_main(v, main_extra, main_tag)) for v in counted],
    ]
    outcomes = iter(side_by_side(ctx, jobs))
    runs: list[str] = []
    records: list[dict[str, Any]] = []

    def take(what: str) -> RunResult:
        result, line = next(outcomes)
        if result.status != "exit" or result.code != 0:
            raise ToolError(f"sw_aes {what} failed: {line}\n{result.console[-2000:]}")
        runs.append(line)
        return result

    perf: dict[tuple[str, str], dict[tuple[int, str], int]] = {}
    sizes: dict[tuple[str, str], Sizes] = {}
    ctx_bytes: dict[str, int] = {}
    for v, opt in builds:
        result = take("benchmark")
        recs = result.records_of("sw_aes")
        records += recs
        perf[(v.key, opt)] = {(r["bits"], r["metric"]): r["cycles"] for r in recs}
        ctx_bytes[v.key] = result.records_of("sw_aes_ctx")[0]["ctx_bytes"]
        sizes[(v.key, opt)] = library_sizes(elf_for(BENCH_PROGRAM, v, opt, main_tag))
    spread: dict[str, dict[tuple[str, int], dict[str, Any]]] = {}
    for v in variants:
        recs = take("timing run").records_of("swc_ct")
        records += recs
        spread[v.key] = {(f"{r['op']}-{r['cache']}", r["bits"]): r for r in recs}
    # Placement: the same program (AES-128 only) linked for SRAM and executing in place, both on
    # the configuration with the XIP controller.
    placed: dict[tuple[str, str], dict[tuple[int, str], int]] = {}
    placed_sizes: dict[tuple[str, str], Sizes] = {}
    for v, place in placements:
        recs = take("benchmark").records_of("sw_aes")
        records += [{**r, "placement": place, "soc": XIP_CONFIG} for r in recs]
        placed[(v.key, place)] = {(r["bits"], r["metric"]): r["cycles"] for r in recs}
        placed_sizes[(v.key, place)] = library_sizes(elf_for(BENCH_PROGRAM, v, "-O2", PLACEMENT_TAG, place,
                                                                    config=XIP_CONFIG))
    enc_only: dict[str, tuple[Sizes, list[str]]] = {}
    for v in variants:
        take("encrypt-only run")
        elf = elf_for(BENCH_PROGRAM, v, "-O2", ENC_ONLY_TAG)
        enc_only[v.key] = (library_sizes(elf), decryption_symbols(elf))
    tables_exp: dict[str, dict[tuple[int, str], int]] = {}
    for v in two_table:
        recs = take("two-table run").records_of("sw_aes")
        tables_exp[v.key] = {(r["bits"], r["metric"]): r["cycles"] for r in recs}
        records += [{**r, "experiment": TWO_TABLE_TAG} for r in recs]
    counts: dict[str, dict[tuple[int, str], int]] = {}
    for v in counted:
        counts[v.key] = {(r["bits"], r["metric"]): r["cycles"] for r in next(outcomes) if r["kind"] == "sw_aes"}
    pub = published("sw-aes")
    tables = [_targets_table(perf, sizes, enc_only), _peer_table(perf, sizes, pub),
              _riot_table(placed, placed_sizes, pub), _placement_table(placed, placed_sizes), _full_table(perf),
              _size_table(perf, sizes, ctx_bytes), _enc_only_table(sizes, enc_only), _two_table_table(perf, tables_exp),
              _where_table(perf, counts),
              _spread_table(spread, trials)]
    return BenchResult(tables=tables, records=records, runs=runs,
                       config={"soc": CONFIG, "placement_soc": XIP_CONFIG,
                               "program": str(BENCH_PROGRAM.relative_to(REPO)),
                               "riot_clock_hz": RIOT_CLOCK_HZ, "buffer_bytes": 1024})


def _us(cycles: int) -> float:
    return round(cycles / RIOT_CLOCK_HZ * 1e6, 1)


def _cpb(cycles: int, nbytes: int = 1024) -> float:
    return round(cycles / nbytes, 1)


def _riot_table(placed: dict[tuple[str, str], dict[tuple[int, str], int]],
                sizes: dict[tuple[str, str], Sizes], pub: dict[str, Any]) -> Table:
    rows: list[list[Any]] = []
    for v in _measured(k for k, _ in placed):
        for place in PLACEMENTS:
            p, s = placed[(v.key, place)], sizes[(v.key, place)]
            # RIOT's code and const tables ran from the STM32's flash: their figures sit beside our XIP rows.
            riot = pub.get(RIOT_ROWS.get(v.key, ""), {}) if place == "xip" else {}
            enc, dec = p[(128, "enc_block")], p[(128, "dec_block")]
            ecb_enc, ecb_dec = p[(128, "ecb_enc")] // 64, p[(128, "ecb_dec")] // 64
            rows.append([v.label, *_where(v, place), _us(enc), _us(dec), enc, dec, ecb_enc, ecb_dec,
                         s.total - s.ram, s.ram, f"{riot['enc_us']} / {riot['dec_us']}" if riot else "—",
                         f"{riot['firmware_kb']}" if riot else "—"])
    asm = pub.get("riot_asm", {})
    rows.append(["RIOT's assembly row (Schwabe-Stoffelen, Cortex-M3, AES-128 only)", "flash", "—",
                 "see the RV32IM assembly rows above", "", "", "", "", "", "", "",
                 f"{asm.get('enc_us', '—')} / {asm.get('dec_us', '—')}", f"{asm.get('firmware_kb', '—')}"])
    return Table(
        title="AES-128 one block, RIOT study layout: µs at the study's 32 MHz and cycles (ours: SoC config "
              f"'{XIP_CONFIG}', code and tables in SRAM or in the XIP flash, warm caches)",
        columns=["variant", "code", "tables", "enc µs @32 MHz", "dec µs @32 MHz", "enc cycles", "dec cycles",
                 "enc cycles/block in 1 KB ECB", "dec cycles/block in 1 KB ECB", "library code+rodata B",
                 "library RAM B", "RIOT enc / dec µs", "RIOT firmware KB"],
        rows=rows,
        notes=[
            "Ours: one swc_aes_encrypt_block/decrypt_block call (API layers included), warm caches (the call "
            "repeated, the third kept), -O2, measured with the SoC cycle counter; µs = cycles / 32 MHz to match "
            "the RIOT post's clock. The 1 KB ECB columns divide one 64-block call by 64.",
            f"Both placements run the same benchmark built for AES-128 only ({' '.join(PLACEMENT_EXTRA)}) on "
            f"'{XIP_CONFIG}': SRAM = linked with fw/link.ld; XIP flash = linked with fw/link_xip.ld and booted from "
            "a plaintext flash image: code and const data (T-tables, S-boxes) execute and are read in place "
            "through the 4 KB I$ and D$ (32-byte line refills from QSPI quad I/O at SCK = clk/2, 153 cycles "
            "from a new address), while .data, .bss (the run-time T-tables), stack and buffers are in SRAM.",
            "Our sizes are the library's own symbols in the linked ELF; RIOT's is their whole firmware (only AES "
            "options changed between builds), so compare their differences, not the totals. RIOT's figures sit "
            "beside our XIP rows because their code and const tables ran from the STM32's flash.",
            f"RIOT figures: {pub.get('riot_default', {}).get('source', 'seed 004')} (STM32L151CCU6 Cortex-M3 at "
            "32 MHz, gcc 6.3.1 -O2, T-tables in flash with wait states).",
        ],
    )


def _placement_table(placed: dict[tuple[str, str], dict[tuple[int, str], int]],
                     sizes: dict[tuple[str, str], Sizes]) -> Table:
    rows: list[list[Any]] = []
    for v in _measured(k for k, _ in placed):
        sram, xip = placed[(v.key, "sram")], placed[(v.key, "xip")]
        s = sizes[(v.key, "xip")]
        row: list[Any] = [v.label, _where(v, "xip")[1]]
        for metric in ("ctr", "ctr_cold", "cbc_enc", "cbc_dec", "ecb_dec"):
            row += [_cpb(sram[(128, metric)]), _cpb(xip[(128, metric)])]
        row += [round(xip[(128, "ctr")] / sram[(128, "ctr")], 2),
                f"{sram[(128, 'key_enc')]} / {xip[(128, 'key_enc')]}",
                f"{sram[(0, 'init')]} / {xip[(0, 'init')]}", s.total - s.ram, s.ram]
        rows.append(row)
    return Table(
        title=f"Placement, AES-128 (-O2, SoC config '{XIP_CONFIG}'): cycles/byte over 1 KB with code and const "
              "tables in SRAM and executing in place from the flash",
        columns=["variant", "tables under XIP", "CTR c/B SRAM", "CTR c/B XIP", "CTR c/B cold SRAM",
                 "CTR c/B cold XIP", "CBC enc c/B SRAM", "CBC enc c/B XIP", "CBC dec c/B SRAM", "CBC dec c/B XIP",
                 "ECB dec c/B SRAM", "ECB dec c/B XIP", "CTR XIP / SRAM", "key exp. enc cycles SRAM / XIP",
                 "table set-up cycles SRAM / XIP", "flash B (library code+rodata)", "SRAM B (library RAM)"],
        rows=rows,
        notes=["The runs of the table above. Warm: the call repeated, the third kept. Cold: D-cache invalidated "
               "and I-cache flushed right before the call (the XIP prefetch buffer is not flushed). Table set-up: "
               "swc_aes_init() on cold caches, the run-time variants' T-table generation (code in the flash "
               "under XIP, tables written to SRAM)."],
    )


def _full_table(perf: dict[tuple[str, str], dict[tuple[int, str], int]]) -> Table:
    rows: list[list[Any]] = []
    for v in _measured(k for k, _ in perf):
        p = perf[(v.key, "-O2")]
        for bits in sorted({b for b, _ in p if b in KEY_SIZES}):
            rows.append([v.label, bits, p[(bits, "key_enc")], p[(bits, "key_dec")], p[(bits, "enc_block")],
                         p[(bits, "dec_block")], _cpb(p[(bits, "ctr")]), _cpb(p[(bits, "ctr_cold")]),
                         _cpb(p[(bits, "cbc_enc")]), _cpb(p[(bits, "cbc_dec")]), _cpb(p[(bits, "ecb_enc")]),
                         _cpb(p[(bits, "ecb_dec")])])
    return Table(
        title="Every variant and key size (-O2): key expansion and block cycles, cycles/byte over 1 KB",
        columns=["variant", "key bits", "key exp. enc", "key exp. dec", "enc block", "dec block", "CTR c/B",
                 "CTR c/B cold", "CBC enc c/B", "CBC dec c/B", "ECB enc c/B", "ECB dec c/B"],
        rows=rows,
        notes=["Warm: the identical call repeated, the last one kept. Cold: D-cache invalidated and I-cache flushed "
               "before the call. 1 KB = one API call on a 1024-byte, word-aligned buffer."],
    )


def _size_table(perf: dict[tuple[str, str], dict[tuple[int, str], int]], sizes: dict[tuple[str, str], Sizes],
                ctx_bytes: dict[str, int]) -> Table:
    rows: list[list[Any]] = []
    for (key, opt), s in sizes.items():
        v = variant(key)
        p = perf[(key, opt)]
        rows.append([v.label, opt, s.api, s.modes, s.core, s.rodata, s.ram, s.total, s.core + s.rodata + s.ram,
                     ctx_bytes[key], p[(0, "init")], _cpb(p[(128, "ctr")]), "yes" if v.constant_time else "no"])
    return Table(
        title="Size (from the ELF) and table set-up",
        columns=["variant", "flags", "API layer code B", "mode loops code B", "other variant code B", "rodata B",
                 "static RAM B", "total B", "cipher core B (other code + data)", "context B (per key)",
                 "table set-up cycles", "AES-128 CTR c/B", "constant time"],
        rows=rows,
        notes=["Sums of the library's swc_* AES symbols in the linked benchmark ELF (it calls key set-up both ways, "
               "block, ECB, CBC, CTR). API layer: swc_aes.c, the same for every variant but compact. Mode loops: the variant's "
               "swc_aes_impl_encrypt/decrypt, into which the table and fixsliced variants inline their rounds. The "
               "compact variant has its own public layer (its entry points and key set-up count as API layer) and one "
               "block routine for every mode (other variant code).",
               "Table set-up is swc_aes_init() on a cold cache: the T-table generation of the run-time variants, "
               "nothing for the others."],
    )


def _where_table(perf: dict[tuple[str, str], dict[tuple[int, str], int]],
                 counts: dict[str, dict[tuple[int, str], int]]) -> Table:
    rows: list[list[Any]] = []
    metrics = (("key_enc", "key expansion (enc)", 1), ("enc_block", "one block, one call", 1),
               ("ctr", "CTR, per block of 1 KB", 64), ("cbc_enc", "CBC enc, per block of 1 KB", 64),
               ("ecb_dec", "ECB dec, per block of 1 KB", 64))
    for v in _measured(counts):
        for metric, label, div in metrics:
            cyc, ins = perf[(v.key, "-O2")][(128, metric)] / div, counts[v.key][(128, metric)] / div
            rows.append([v.label, label, round(ins), round(cyc), round(cyc - ins), round(cyc / ins, 2)])
    return Table(
        title="Where the cycles go, AES-128 (-O2): instructions executed vs cycles",
        columns=["variant", "operation", "instructions", "cycles", "cycles - instructions", "cycles per instruction"],
        rows=rows,
        notes=["Instructions: the same benchmark ELF run on an RV32IM instruction-set simulator whose cycle counter "
               "counts retired instructions (aesoc.bench.sw_aes.count_instructions), so each timed window reports its "
               "dynamic instruction count. The difference to the SoC's cycles is what the pipeline and the caches add: "
               "load-use stalls (a load's result is usable 3 instructions later), taken branches (2-3 cycles), store "
               "followed by load, 34-cycle divisions, and I-/D-cache misses (about 13 cycles per 32-byte line)."],
    )


def _spread_table(spread: dict[str, dict[tuple[str, int], dict[str, Any]]], trials: int) -> Table:
    rows: list[list[Any]] = []
    for v in _measured(spread):
        s = spread[v.key]
        row: list[Any] = [v.label]
        for name in ("setkey_enc-warm", "encrypt-warm", "decrypt-warm", "encrypt-cold", "decrypt-cold"):
            r = s[(name, 128)]
            row.append(f"{r['min']}–{r['max']} ({r['distinct']})" if r["distinct"] > 1 else f"{r['min']} (1)")
        rows.append(row)
    return Table(
        title=f"Timing against the key and the data: AES-128 cycles over {trials} random keys and blocks",
        columns=["variant", "key set-up, warm", "encrypt, warm", "decrypt, warm", "encrypt, D-cache cold",
                 "decrypt, D-cache cold"],
        rows=rows,
        notes=["min–max (number of distinct cycle counts). One count means no timing dependence on key or data in "
               "this cycle-accurate model; the test suite checks this for the constant-time variant over 100 keys "
               "and blocks per key size.",
               "The 4 KB of encryption T-tables fill the direct-mapped 4 KB D-cache, so table lines, round keys and "
               "stack evict each other in a key- and data-dependent pattern even when 'warm'."],
    )


def _verdict(ok: bool) -> str:
    return "holds" if ok else "missed"


def _targets_table(perf: dict[tuple[str, str], dict[tuple[int, str], int]], sizes: dict[tuple[str, str], Sizes],
                   enc_only: dict[str, tuple[Sizes, list[str]]]) -> Table:
    variants = _measured(k for k, _ in perf)
    table_variants = [v for v in variants if "ttable" in v.key]
    o2 = {v.key: perf[(v.key, "-O2")] for v in variants}
    best = min(table_variants, key=lambda v: o2[v.key][(128, "ctr")])
    best_cbc = min(table_variants, key=lambda v: o2[v.key][(128, "cbc_enc")])
    best_ct = min((v for v in variants if v.constant_time), key=lambda v: o2[v.key][(128, "ctr")])
    key_exp = {v.key: o2[v.key][(128, "key_enc")] for v in table_variants}
    worst_key = max(key_exp, key=lambda k: key_exp[k])
    compact = sizes[("compact", "-Os")]
    compact_bytes = compact.total - compact.ram
    table_cpb, cbc_cpb = _cpb(o2[best.key][(128, "ctr")]), _cpb(o2[best_cbc.key][(128, "cbc_enc")])
    ct_cpb = _cpb(o2[best_ct.key][(128, "ctr")])
    ct_key = o2[best_ct.key][(128, "key_enc")]
    left = {k: syms for k, (_, syms) in enc_only.items() if syms}
    saved = ", ".join(f"{k} {sizes[(k, '-O2')].total - s.total}" for k, (s, _) in enc_only.items())
    rows = [
        ["Compact variant code + rodata at -Os (key schedule, both directions, ECB/CBC/CTR, API with checks)",
         f"≤ {TARGET_COMPACT_BYTES} B", f"{compact_bytes} B (tiny-AES-c: 1,487 B, no checks)",
         _verdict(compact_bytes <= TARGET_COMPACT_BYTES)],
        ["AES-128 key expansion, every T-table variant (swc_aes_setkey_enc call)",
         f"≤ {TARGET_KEY_EXPANSION_CYCLES} cycles",
         f"{key_exp[worst_key]} cycles worst ({worst_key}); " + ", ".join(f"{k} {c}" for k, c in key_exp.items()),
         _verdict(key_exp[worst_key] <= TARGET_KEY_EXPANSION_CYCLES)],
        [f"Constant-time key schedule ({best_ct.key}) against BearSSL aes_ct", f"BearSSL {BEARSSL_CT_KEY_SCHEDULE_CYCLES}",
         f"{ct_key} cycles", _verdict(ct_key < BEARSSL_CT_KEY_SCHEDULE_CYCLES)],
        ["Fastest table AES-128 CTR", f"≤ {TARGET_TABLE_CTR_CPB:g} c/B", f"{table_cpb} c/B ({best.key})",
         _verdict(table_cpb <= TARGET_TABLE_CTR_CPB)],
        ["Fastest table AES-128 CBC encryption", f"≤ {TARGET_TABLE_CBC_ENC_CPB:g} c/B",
         f"{cbc_cpb} c/B ({best_cbc.key})", _verdict(cbc_cpb <= TARGET_TABLE_CBC_ENC_CPB)],
        ["Constant-time AES-128 CTR", f"≤ {TARGET_CT_CTR_CPB:g} c/B", f"{ct_cpb} c/B ({best_ct.key})",
         _verdict(ct_cpb <= TARGET_CT_CTR_CPB)],
        ["Encrypt-only programs link no decryption code", "no decryption symbol",
         "none in any variant" if not left else "; ".join(f"{k}: {' '.join(v)}" for k, v in left.items()),
         _verdict(not left)],
        ["Bytes an encrypt-only program saves (library code+rodata+RAM)", "measured", saved + " B", "—"],
    ]
    return Table(title="Issue 17 targets (AES-128, code and data in SRAM, warm, -O2 unless stated)",
                 columns=["target", "goal", "measured", "verdict"], rows=rows,
                 notes=["SHA-256 (≤ 55 c/B) is in the mbedtls-style section. docs/swcrypto.md explains each choice "
                        "and, from the instruction trace (aesoc.sim.swprofile), each miss."])


def _enc_only_table(sizes: dict[tuple[str, str], Sizes], enc_only: dict[str, tuple[Sizes, list[str]]]) -> Table:
    rows: list[list[Any]] = []
    for v in _measured(enc_only):
        full, (enc, syms) = sizes[(v.key, "-O2")], enc_only[v.key]
        rows.append([v.label, full.total - full.ram, full.ram, enc.total - enc.ram, enc.ram,
                     full.total - enc.total, " ".join(syms) or "none"])
    return Table(
        title="Encrypt-only programs (-O2): library bytes with and without decryption calls",
        columns=["variant", "full: code+rodata B", "full: RAM B", "encrypt-only: code+rodata B",
                 "encrypt-only: RAM B", "saved B", "decryption symbols left"],
        rows=rows,
        notes=["Full: the benchmark program (key set-up both ways, block, ECB, CBC, CTR). Encrypt-only: the same "
               f"program built with {' '.join(ENC_ONLY_EXTRA)} (no decryption call). No build option in the "
               "library: the encryption entry points never refer to decryption code, which sits in its own "
               "sections, so --gc-sections drops it together with the decryption tables."],
    )


def _two_table_table(perf: dict[tuple[str, str], dict[tuple[int, str], int]],
                     exp: dict[str, dict[tuple[int, str], int]]) -> Table:
    rows: list[list[Any]] = []
    for key, p in exp.items():
        four = perf[(key, "-O2")]
        for metric in ("ctr", "cbc_enc", "ecb_enc"):
            rows.append([variant(key).label, metric, _cpb(four[(128, metric)]), _cpb(p[(128, metric)])])
    return Table(
        title="D-cache experiment, AES-128 (-O2): four encryption T-tables (4 KB) against two (2 KB, "
              "Te2 and Te3 as rotations by 16), c/B over 1 KB",
        columns=["variant", "mode", "4 tables c/B", "2 tables c/B"], rows=rows,
        notes=[f"2 tables: {' '.join(TWO_TABLE_EXTRA)}; one rotation (3 instructions on RV32IM) per column. "
               "docs/swcrypto.md explains the result from the instruction trace."],
    )


def _peer_table(perf: dict[tuple[str, str], dict[tuple[int, str], int]], sizes: dict[tuple[str, str], Sizes],
                pub: dict[str, Any]) -> Table:
    def ours(key: str, opt: str = "-O2") -> str:
        p, s = perf[(key, opt)], sizes[(key, opt)]
        return (f"key exp. {p[(128, 'key_enc')]}; CTR {_cpb(p[(128, 'ctr')])}, CBC enc {_cpb(p[(128, 'cbc_enc')])} "
                f"c/B; {s.total - s.ram} B code+rodata")

    best = min((v for v in _measured(k for k, _ in perf) if "ttable" in v.key), key=lambda v: perf[(v.key, "-O2")][(128, "ctr")])
    rows = [[f"swcrypto {best.key} (fastest table)", "aesoc 'base'", ours(best.key), "this benchmark"],
            ["swcrypto fixslice (constant time)", "aesoc 'base'", ours("fixslice"), "this benchmark"],
            ["swcrypto compact, -Os", "aesoc 'base'", ours("compact", "-Os"), "this benchmark"]]
    rows += [[e["implementation"], e["core"], e["figure"], e["source"]] for e in pub.get("software_aes", [])]
    return Table(title="AES-128 beside the libraries users would pick instead (peer rows: shared/anchors.md)",
                 columns=["implementation", "core", "figure", "source"], rows=rows,
                 notes=["Rows on other cores are for orientation; the aesoc rows (mbedtls, BearSSL, tiny-AES-c) were "
                        "measured on this SoC with the same compiler and flags, code and data in SRAM, warm."])


def points(data: dict[str, Any]) -> list[Point]:
    """Each variant, AES-128, code and data in SRAM, warm: one block (16 B) and CTR over 1 KB; the
    fastest build of each (-O2 unless -Os wins)."""
    best: dict[tuple[str, str], dict[str, Any]] = {}
    for r in data["records"]:
        if r.get("kind") == "sw_aes" and "placement" not in r and "experiment" not in r and r["bits"] == 128 \
                and r["metric"] in ("enc_block", "ctr", "key_enc"):
            key = (r["variant"], r["metric"])
            if key not in best or r["cycles"] < best[key]["cycles"]:
                best[key] = r
    # One line per variant: a 16-byte message is one block, longer ones a CTR stream; a new key
    # costs the encryption key expansion.
    return [Point(f"Software {v}, one block / CTR", r["bytes"], r["cycles"] / r["bytes"],
                  run_line(data, f"sw_aes-{v}_O"), software=True,
                  key_cycles=best[(v, "key_enc")]["cycles"] if (v, "key_enc") in best else None)
            for (v, metric), r in best.items() if metric != "key_enc"]


BENCHMARK = Benchmark(
    name="sw-aes",
    summary="swcrypto software AES variants (compact, T-tables const/run-time, loop/unrolled, fixsliced "
            "and barrel-shiftrows constant-time, T-table assembly): cycles per block, key expansion, 1 KB CTR/CBC/ECB, sizes, timing "
            "spread, code and tables in SRAM and executing in place from the flash; RIOT's figures beside.",
    run=run,
    points=points,
)


# ---- instruction counts ---------------------------------------------------------------------------
# Where cycles go: the same firmware run on a small RV32IM instruction-set simulator whose cycle
# counter is the retired-instruction count, so every window the firmware times reports
# instructions instead of cycles. Cycles minus instructions is what the pipeline and the caches
# add (load-use stalls, taken branches, back-to-back stores, cache misses).

_SYSCTRL_HEADER = BUILD / "gen" / "sysctrl" / "sysctrl_regs.h"


def _sysctrl_offsets() -> dict[str, int]:
    import re

    text = _SYSCTRL_HEADER.read_text()
    body = text[text.index("typedef struct"):]
    names = re.findall(r"uint32_t\s+(\w+);", body[: body.index("}")])
    return {n: 4 * i for i, n in enumerate(names)}


def _sext(value: int, bits: int) -> int:
    return value - (1 << bits) if value & (1 << (bits - 1)) else value


def count_instructions(elf: Path, max_instructions: int = 200_000_000) -> list[dict[str, Any]]:
    """Run `elf` on the instruction counter; return its records (cycle fields = instructions).

    The counter is pure Python (tens of CPU-seconds a program), so it runs in a process of its own
    holding a tool slot: counts go side by side with simulations instead of serialising on one
    interpreter. Like a simulation, under `aesoc bench` (aesoc.sim.harness.set_reuse) an identical earlier
    count answers: same ELF, counter, memory map and limit."""
    from aesoc.sim.harness import reuse_on

    saved = _saved_count(elf, max_instructions) if reuse_on() else None
    if saved is not None and saved.is_file():
        records: list[dict[str, Any]] = json.loads(saved.read_text())
        return records
    with tool_slot():
        # From this checkout (cwd leads python -m's search path), whichever one is installed.
        proc = subprocess.run([sys.executable, "-m", "aesoc.bench.sw_aes", str(elf), str(max_instructions)],
                              capture_output=True, text=True, cwd=REPO)
    if proc.returncode != 0:
        raise ToolError(f"instruction counter on {elf.name} failed:\n{proc.stderr[-2000:]}")
    records = json.loads(proc.stdout)
    if saved is not None:
        saved.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(saved, proc.stdout)
    return records


def _saved_count(elf: Path, max_instructions: int) -> Path:
    from aesoc.sim.harness import REUSED_RUNS
    from aesoc.soc.description import load_config

    digest = hashlib.sha256(repr((max_instructions, load_config(CONFIG).memories)).encode())
    for path in (elf, _SYSCTRL_HEADER, Path(__file__)):
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return REUSED_RUNS / f"icount-{digest.hexdigest()[:24]}.json"


def _count(elf: Path, max_instructions: int) -> list[dict[str, Any]]:
    from elftools.elf.elffile import ELFFile

    from aesoc.sim.harness import parse_records
    from aesoc.soc.description import UNCACHED_BIT, load_config

    cfg = load_config(CONFIG)
    banks = [(s.base, bytearray(s.bytes)) for s in cfg.memories]
    sysctrl, offsets = cfg.region("sysctrl").base, _sysctrl_offsets()
    uncached = UNCACHED_BIT
    with open(elf, "rb") as handle:
        f = ELFFile(handle)
        entry = f.header["e_entry"]
        for seg in f.iter_segments():
            if seg["p_type"] == "PT_LOAD" and seg["p_filesz"]:
                for base, mem in banks:
                    if base <= seg["p_paddr"] < base + len(mem):
                        off = seg["p_paddr"] - base
                        mem[off:off + seg["p_filesz"]] = seg.data()

    def locate(addr: int) -> tuple[bytearray, int]:
        a = addr & ~uncached & 0xFFFF_FFFF
        for base, mem in banks:
            if base <= a < base + len(mem):
                return mem, a - base
        raise ToolError(f"instruction counter: access to unmapped address {addr:#x}")

    x = [0] * 32
    console: list[str] = []
    pc, count, done = entry, 0, False
    M = 0xFFFF_FFFF

    def load(addr: int, size: int, signed: bool) -> int:
        if addr & 0xFFFF_F000 == sysctrl:
            off = addr - sysctrl
            return count & M if off == offsets["CYCLE_LO"] else (count >> 32) if off == offsets["CYCLE_HI"] else 0
        mem, o = locate(addr)
        v = int.from_bytes(mem[o:o + size], "little")
        return v - (1 << (8 * size)) & M if signed and v >> (8 * size - 1) else v

    def store(addr: int, size: int, value: int) -> None:
        nonlocal done
        if addr & 0xFFFF_F000 == sysctrl:
            off = addr - sysctrl
            if off == offsets["CONSOLE"]:
                console.append(chr(value & 0xFF))
            elif off == offsets["SIM_EXIT"]:
                done = True
            return
        mem, o = locate(addr)
        mem[o:o + size] = (value & ((1 << (8 * size)) - 1)).to_bytes(size, "little")

    while not done:
        if count >= max_instructions:
            raise ToolError(f"instruction counter: {elf.name} did not exit within {max_instructions} instructions")
        mem, o = locate(pc)
        ins = int.from_bytes(mem[o:o + 4], "little")
        op, rd, f3 = ins & 0x7F, (ins >> 7) & 31, (ins >> 12) & 7
        rs1, rs2, f7 = x[(ins >> 15) & 31], x[(ins >> 20) & 31], ins >> 25
        npc = pc + 4
        val: int | None = None
        if op == 0x37:
            val = ins & 0xFFFFF000
        elif op == 0x17:
            val = (pc + (ins & 0xFFFFF000)) & M
        elif op == 0x6F:
            imm = ((ins >> 31) << 20) | (((ins >> 12) & 0xFF) << 12) | (((ins >> 20) & 1) << 11) | (((ins >> 21) & 0x3FF) << 1)
            val, npc = npc, (pc + _sext(imm, 21)) & M
        elif op == 0x67:
            val, npc = npc, (rs1 + _sext(ins >> 20, 12)) & M & ~1
        elif op == 0x63:
            imm = ((ins >> 31) << 12) | (((ins >> 7) & 1) << 11) | (((ins >> 25) & 0x3F) << 5) | (((ins >> 8) & 0xF) << 1)
            a, b = _sext(rs1, 32), _sext(rs2, 32)
            taken = (rs1 == rs2, rs1 != rs2, False, False, a < b, a >= b, rs1 < rs2, rs1 >= rs2)[f3]
            if taken:
                npc = (pc + _sext(imm, 13)) & M
        elif op == 0x03:
            addr = (rs1 + _sext(ins >> 20, 12)) & M
            val = load(addr, (1, 2, 4, 0, 1, 2)[f3], f3 < 3)
        elif op == 0x23:
            imm = ((ins >> 25) << 5) | ((ins >> 7) & 31)
            store((rs1 + _sext(imm, 12)) & M, (1, 2, 4)[f3], rs2)
        elif op in (0x13, 0x33):
            b = (_sext(ins >> 20, 12) & M) if op == 0x13 else rs2
            if op == 0x33 and f7 == 1:
                sa, sb = _sext(rs1, 32), _sext(b, 32)
                if f3 == 0:
                    val = (rs1 * b) & M
                elif f3 == 1:
                    val = ((sa * sb) >> 32) & M
                elif f3 == 2:
                    val = ((sa * b) >> 32) & M
                elif f3 == 3:
                    val = ((rs1 * b) >> 32) & M
                elif f3 == 4:
                    val = M if sb == 0 else (int(sa / sb) & M)
                elif f3 == 5:
                    val = M if b == 0 else rs1 // b
                elif f3 == 6:
                    val = rs1 if sb == 0 else ((sa - sb * int(sa / sb)) & M)
                else:
                    val = rs1 if b == 0 else rs1 % b
            else:
                sh = b & 31
                if f3 == 0:
                    val = (rs1 - b) & M if op == 0x33 and f7 == 0x20 else (rs1 + b) & M
                elif f3 == 1:
                    val = (rs1 << sh) & M
                elif f3 == 2:
                    val = int(_sext(rs1, 32) < _sext(b, 32))
                elif f3 == 3:
                    val = int(rs1 < b)
                elif f3 == 4:
                    val = rs1 ^ b
                elif f3 == 5:
                    val = (_sext(rs1, 32) >> sh) & M if (ins >> 30) & 1 else rs1 >> sh
                elif f3 == 6:
                    val = rs1 | b
                else:
                    val = rs1 & b
        elif op == 0x73 and f3 != 0:
            val = 0  # CSR reads see zero; writes (interrupt masks, CFU enable) do not matter here
        # 0x0F (fence, fence.i), the D-cache invalidate word 0x500F and ecall/mret-free code: no effect
        if val is not None and rd:
            x[rd] = val
        pc = npc
        count += 1
    return parse_records("".join(console))


if __name__ == "__main__":
    # The counter's own process (count_instructions): ELF and limit in, records as JSON out.
    print(json.dumps(_count(Path(sys.argv[1]), int(sys.argv[2]))))
