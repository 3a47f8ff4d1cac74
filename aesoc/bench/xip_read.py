"""Benchmark `xip-read`: NXP AN13198's flash read measurement, plaintext vs OTFAD, on aesoc, and
what per-line integrity costs in each tag layout.

One binary (fw/bench/xip_read, linked to execute in place) runs from four flash images: plaintext
(key table without contexts), encrypted (one OTFAD context with a random key and nonce over the
whole program, its read-only buffers included) and the same context in integrity mode with
interleaved and with separate tags (docs/xip.md, "Integrity"). Loops in SRAM read two buffers of 4 KB and of
16 KB with 8/16/32-bit loads and bursts of eight 32-bit loads, linearly or alternating between the
buffers, with the D-cache bypassed (uncached alias), invalidated, and filled (second pass). MB/s
at the SoC's placed-and-routed Fmax (aesoc.bench.clock); the app note's figures beside ours;
cycles plaintext vs OTFAD; line refill and single-read latency; the issue's targets.
"""

from __future__ import annotations

import secrets
from typing import Any

from aesoc.bench import BenchContext, BenchResult, Benchmark, Point, Table, published, run_line, side_by_side
from aesoc.bench.clock import Clock, soc_clock
from aesoc.common.toolchain import BUILD, REPO, ToolError
from aesoc.sim.firmware import build as build_fw
from aesoc.sim.harness import RunResult
from aesoc.sim.run import build_and_run
from aesoc.soc.description import load_config
from aesoc.xip import image

PROGRAM = REPO / "fw" / "bench" / "xip_read"
CONFIG = "full"
# MB/s are at the SoC's placed-and-routed Fmax (aesoc.bench.clock); where it has not been placed,
# at a nominal 200 MHz core: the boot stub runs the flash at SCK = clk / 2, so that gives SCK =
# 100 MHz, next to the app note's 99 MHz QSPI.
NOMINAL_MHZ = 200
SCK_DIV = 2
# Quad I/O: 4 bits per SCK cycle.
RAW_BYTES_PER_CYCLE = 4 / 8 / SCK_DIV
# 0xEB frame in SCK cycles (xip_boot.c: 4 dummy clocks; mode bits 2; address 6; command 8 unless
# the flash is in continuous-read mode) and the controller's fixed overhead (ip/xip/README.md:
# 3 - floor(N/2) bus cycles, one of them the miss stage).
COMMAND, ADDRESS, MODE, DUMMY, LINE_NIBBLES = 8, 6, 2, 4, 64
FIXED_OVERHEAD = 3 - SCK_DIV // 2
# Bus cycles of the zero-wait-state SRAM (first STB to last ACK): the core's share of a flash
# access is measured on SRAM and taken off.
SRAM_BUS_REFILL, SRAM_BUS_SINGLE = 9, 2

SIZES = (4096, 16384)
# The firmware's short run (the test suite's): the first 1 KB of the 4 KB buffers, at a quarter
# of the 4 KB run's simulation time.
SMOKE, SMOKE_SIZE = ("-DXIP_READ_SMOKE",), 1024
DCACHE = ("disabled", "invalidated", "filled")
ROWS = [("linear", "8-bit"), ("linear", "16-bit"), ("linear", "32-bit"), ("linear", "burst8"),
        ("pingpong", "8-bit"), ("pingpong", "16-bit"), ("pingpong", "32-bit")]
ACCESS_KEY = {"8-bit": "8", "16-bit": "16", "32-bit": "32", "burst8": "burst8"}
IMAGES = ("plain", "otfad", *(f"integ-{layout}" for layout in image.LAYOUTS))
AN_IMAGES = ("plain", "otfad")  # the app note's two rows
IMAGE_LABEL = {"plain": "Standard (plaintext image)", "otfad": "OTFAD (encrypted image)",
               **{f"integ-{layout}": f"OTFAD + integrity, {layout} tags" for layout in image.LAYOUTS}}
# Integrity's data-volume floor: a pass reads a tag's bytes beside each line's.
TAG_FLOOR = (image.LINE + image.TAG) / image.LINE
# One run reads every cell of the AN13198 layout, beyond the default bound.
MAX_CYCLES = 200_000_000


def _descriptions(elf_dir_name: str, span: tuple[int, int], key_table: int) -> dict[str, Any]:
    """The program's image descriptions (IMAGES) under one part's KEK: plaintext, one OTFAD
    context over the whole program, and that context with integrity in each tag layout (the
    separate tag area right after the region)."""
    out = BUILD / "bench" / elf_dir_name
    kek = secrets.token_bytes(16).hex()
    context = {"start": span[0], "end": span[1], "key": secrets.token_hex(16), "nonce": secrets.token_hex(8)}
    integrity = {"integrity": True, "mac_key": secrets.token_hex(16), "version": 1}
    contexts: dict[str, list[dict[str, Any]]] = {
        "plain": [], "otfad": [context],
        "integ-interleaved": [{**context, **integrity, "layout": "interleaved"}],
        "integ-separate": [{**context, **integrity, "layout": "separate", "tag_base": span[1]}],
    }
    paths = {}
    for img in IMAGES:
        paths[img] = out / f"xip-read-{img}.toml"
        image.write_description(paths[img], {"kek": kek, "key_table": key_table, "context": contexts[img]})
    return paths


def _checked(result: RunResult, line: str) -> None:
    boot = result.records_of("xip_boot")
    check = result.records_of("xip_read_check")
    if result.status != "exit" or result.code != 0 or not boot or boot[0]["status"] != "ok" or not check:
        raise ToolError(f"xip-read firmware failed: {line}\n{result.console[-2000:]}")
    if check[0]["errors"]:
        raise ToolError(f"xip-read: {check[0]['errors']} buffer words read back wrong: {line}")


def _mbps(clock: Clock, bytes_: int, cycles: int) -> float:
    return bytes_ / cycles * clock.mhz


def _paper_cell(paper: dict[str, Any], img: str, size: int, pattern: str, access: str, col: int) -> str:
    row = paper["mbps"][img].get(f"{size // 1024}k", {}).get(f"{pattern}_{ACCESS_KEY[access]}")
    if row is None:  # a cell the app note cannot be read at, or a size it did not measure
        return "-"
    value = row[col]
    return value if isinstance(value, str) else f"{value:g}"


def run(ctx: BenchContext) -> BenchResult:
    config = load_config(CONFIG)
    sizes = (SMOKE_SIZE,) if ctx.smoke else SIZES
    name, cflags = ("xip_read_smoke", ("-O2", *SMOKE)) if ctx.smoke else (None, ("-O2",))
    elf = build_fw(PROGRAM, config, name=name, cflags=cflags, placement="xip").elf
    layout = image.xip_layout(elf)
    descs = _descriptions(elf.parent.name, layout.program_span, layout.key_table)
    cells: dict[tuple[str, int, str, str, str], dict[str, Any]] = {}
    latency: dict[tuple[str, int], dict[str, Any]] = {}
    records: list[dict[str, Any]] = []
    runs: list[str] = []
    outcomes = side_by_side(ctx, [(f"xip-read, {IMAGE_LABEL[img]}", lambda img=img: build_and_run(
        PROGRAM, CONFIG, name=name, cflags=cflags, placement="xip", image=descs[img], max_cycles=MAX_CYCLES))
        for img in IMAGES])
    for img, (result, line) in zip(IMAGES, outcomes):
        _checked(result, line)
        runs.append(line)
        records += [{**r, "image": img} for r in result.records]
        for r in result.records_of("xip_read"):
            cells[(img, r["size"], r["pattern"], r["access"], r["dcache"])] = r
        for r in result.records_of("xip_latency"):
            latency[(img, r["cont"])] = r
    expected = {(img, s, p, a, d) for img in IMAGES for s in sizes for p, a in ROWS for d in DCACHE}
    if set(cells) != expected:
        raise ToolError(f"xip-read: missing measurements {sorted(expected - set(cells))[:4]}")

    clock = soc_clock(ctx, CONFIG, NOMINAL_MHZ)
    sck_mhz = clock.mhz / SCK_DIV
    paper = published("xip-read")
    an_rows: list[list[Any]] = []
    for img in AN_IMAGES:
        for pattern, access in ROWS:
            row: list[Any] = [IMAGE_LABEL[img], "Linear" if pattern == "linear" else "PingPong", access]
            for size in sizes:
                for col, dc in enumerate(DCACHE):
                    r = cells[(img, size, pattern, access, dc)]
                    theirs = _paper_cell(paper, img, size, pattern, access, col)
                    row.append(f"{_mbps(clock, r['bytes'], r['cycles']):.2f} ({theirs})")
            an_rows.append(row)
    an_table = Table(
        title=f"AN13198 Figure 4 layout: MB/s at a {clock.short} core, SCK {sck_mhz:g} MHz "
              "(app note's figure in parentheses: Cortex-M7 at 996 MHz, QSPI at 99 MHz)",
        columns=["access", "pattern", "load", *(f"{s // 1024} KB {d}" for s in sizes for d in DCACHE)],
        rows=an_rows,
        notes=[
            f"Ours: bytes read / cycles x the core clock, {clock.label}. Linear reads one buffer once; "
            "ping-pong alternates loads between the two buffers and reads both in full (twice the bytes). Loops "
            "of 32 loads in SRAM; the XIP prefetch buffer is flushed before every pass; 'filled' is the pass "
            "right after 'invalidated'.",
            f"Raw flash interface bandwidth at SCK = clk/{SCK_DIV}: 4 bits per SCK cycle = SCK x 4 / 8 = "
            f"{sck_mhz * 4 / 8:g} MB/s at {sck_mhz:g} MHz ({RAW_BYTES_PER_CYCLE:g} bytes per core cycle); the app "
            "note's 99 MHz QSPI gives 49.5.",
            "D-cache: VexRiscv's is 4 KB direct-mapped with 32-byte lines (the M7's is 32 KB). The buffers of one "
            "size sit 4 KB or 16 KB apart, so in ping-pong every load evicts the other buffer's line, and 16 KB "
            "(or 2 x 4 KB) cannot stay 'filled': those cells are refill-bound where the app note's are hits.",
            f"Filled (cache-hit) cells are bound by the core: a {clock.mhz:g} MHz single-issue RV32 core against "
            "a 996 MHz dual-issue M7 with 64-bit loads (LDM).",
            f"App note: {paper['source']}; cells marked illegible are cut off in the source text.",
        ],
    )

    diff_rows: list[list[Any]] = []
    max_added = 0
    for size in sizes:
        for pattern, access in ROWS:
            row = [f"{size // 1024} KB", pattern, access]
            for dc in DCACHE:
                plain = cells[("plain", size, pattern, access, dc)]["cycles"]
                otfad = cells[("otfad", size, pattern, access, dc)]["cycles"]
                max_added = max(max_added, otfad - plain)
                row += [plain, otfad, otfad - plain]
            diff_rows.append(row)
    diff_table = Table(
        title="Cycles per pass, plaintext image vs OTFAD image of the same binary",
        columns=["buffer", "pattern", "load",
                 *(f"{d} {what}" for d in DCACHE for what in ("plain", "OTFAD", "OTFAD - plain"))],
        rows=diff_rows,
        notes=["Core cycles from the SoC cycle counter around one pass (two counter reads and the call included)."],
    )

    target_rows: list[list[Any]] = []
    for cont in (1, 0):
        command = 0 if cont else COMMAND
        frame = SCK_DIV * (command + ADDRESS + MODE + DUMMY + LINE_NIBBLES) + FIXED_OVERHEAD
        single_frame = SCK_DIV * (command + ADDRESS + MODE + DUMMY + 8) + FIXED_OVERHEAD
        mode = "continuous-read mode" if cont else "command sent"
        for img in IMAGES:
            bus, core, sram, single = _latencies(latency[(img, cont)])
            if img in AN_IMAGES:
                refill_bound, single_bound = (frame, "yes" if bus <= frame else "no"), \
                    (single_frame, "yes" if single <= single_frame else "no")
            else:  # integrity has no bound of its own: what it adds to OTFAD
                otfad_bus, _, _, otfad_single = _latencies(latency[("otfad", cont)])
                refill_bound = (f"OTFAD + {bus - otfad_bus}", "-")
                single_bound = (f"OTFAD + {single - otfad_single}", "-")
            target_rows.append([f"line refill, {mode}", IMAGE_LABEL[img], f"{bus} (core sees {core}; SRAM {sram})",
                                *refill_bound])
            target_rows.append([f"single uncached 32-bit read, {mode}", IMAGE_LABEL[img], single, *single_bound])
    for size in sizes:
        for img in AN_IMAGES:
            r = cells[(img, size, "linear", "32-bit", "disabled")]
            share = r["bytes"] / r["cycles"] / RAW_BYTES_PER_CYCLE
            target_rows.append([f"linear 32-bit uncached, {size // 1024} KB: share of the raw rate", IMAGE_LABEL[img],
                                f"{100 * share:.1f} %", ">= 90 %", "yes" if share >= 0.9 else "no"])
    target_rows.append(["OTFAD cycles added, worst cell of both sizes", "OTFAD - plain", max_added, 0,
                        "yes" if max_added <= 0 else "no"])
    targets = Table(
        title="Latencies and the issue's targets",
        columns=["measure", "image", "ours (cycles or share)", "bound", "met"],
        rows=target_rows,
        notes=[
            "Line refill at the bus: 'core sees' = one load to a cold line (D-cache invalidated, XIP buffer "
            "flushed) minus the same load hitting; the same for an SRAM line gives the core's own share, and the "
            f"SRAM's bus refill is {SRAM_BUS_REFILL} cycles (wb_sram: ACK the cycle after STB, then a beat per "
            f"cycle), so flash refill at the bus = core sees - SRAM + {SRAM_BUS_REFILL}. The core's share includes "
            "the D-cache invalidate just before the load.",
            f"Refill bound: N x (command + address + mode + dummy + 64 nibbles) + fixed overhead, N = {SCK_DIV}: "
            f"command {COMMAND} (0 in continuous-read mode), address {ADDRESS}, mode {MODE}, dummy {DUMMY} SCK "
            f"cycles; fixed overhead 2 - floor(N/2) = {FIXED_OVERHEAD} cycle (ip/xip/README.md).",
            "Single read: one uncached load after a flush minus an uncached SRAM load, plus the SRAM's "
            f"{SRAM_BUS_SINGLE} bus cycles; bound: the same frame with 8 data nibbles.",
            f"Raw rate: 4 bits per SCK cycle = {RAW_BYTES_PER_CYCLE} bytes per core cycle at SCK = clk/{SCK_DIV}.",
        ],
    )
    return BenchResult(
        tables=[an_table, diff_table, targets, _integrity_table(cells, sizes)],
        records=records,
        runs=runs,
        config={"soc": CONFIG, "params": config.params, "clock_mhz": clock.mhz, "clock": clock.label,
                "sck_mhz": sck_mhz,
                "xip": "0xEB quad I/O, 4 dummy clocks, continuous-read mode, SCK = clk/2 (fw/xip_boot.c)",
                "otfad_contexts": 1, "integrity_layouts": list(image.LAYOUTS),
                "default_layout": image.DEFAULT_LAYOUT},
    )


def _latencies(r: dict[str, Any]) -> tuple[int, int, int, int]:
    """A latency record as (line refill at the bus, refill the core sees, the core's SRAM share,
    single uncached read at the bus): the notes of the targets table say how."""
    core = r["refill"] - r["hit"]
    sram = r["sram_refill"] - r["sram_hit"]
    return core - sram + SRAM_BUS_REFILL, core, sram, r["single"] - r["sram_uncached"] + SRAM_BUS_SINGLE


def _integrity_table(cells: dict[tuple[str, int, str, str, str], dict[str, Any]], sizes: tuple[int, ...]) -> Table:
    """Cycles per pass of each tag layout against OTFAD alone, and which layout is faster overall."""
    layouts = [img for img in IMAGES if img not in AN_IMAGES]
    rows: list[list[Any]] = []
    totals = dict.fromkeys(["otfad", *layouts], 0)
    for size in sizes:
        for pattern, access in ROWS:
            row: list[Any] = [f"{size // 1024} KB", pattern, access]
            for dc in DCACHE:
                base = cells[("otfad", size, pattern, access, dc)]["cycles"]
                totals["otfad"] += base
                row += [base, f"{round(TAG_FLOOR * base):,}"]
                for img in layouts:
                    c = cells[(img, size, pattern, access, dc)]["cycles"]
                    totals[img] += c
                    row.append(f"{c:,} ({100 * (c - base) / base:+.1f} %)")
            rows.append(row)
    best = min(layouts, key=lambda img: totals[img])
    return Table(
        title="Per-line integrity: cycles per pass in each tag layout against OTFAD alone",
        columns=["buffer", "pattern", "load", *(f"{dc} {col}" for dc in DCACHE
                                                 for col in (IMAGE_LABEL["otfad"], "floor", *layouts))],
        rows=rows,
        notes=[
            "Same binary and the same OTFAD context; the integrity images add a 64-bit AES-CMAC tag per 32-byte "
            "line (docs/xip.md, \"Integrity\"): interleaved after each line (1.25x flash), or in a separate tag "
            "area after the region. Every line is checked before any of its bytes is answered.",
            f"floor: OTFAD's cycles x {TAG_FLOOR}, the same pass reading a tag's 8 bytes per 32-byte line at the "
            "flash's rate; the verified-line buffer goes under it where a pass returns to lines it checked.",
            "All cells summed: " + ", ".join(f"{img} {totals[img]}" for img in ("otfad", *layouts))
            + f" cycles. Faster layout: {best.removeprefix('integ-')}; the image tool's default "
              f"(aesoc.xip.image.DEFAULT_LAYOUT) is {image.DEFAULT_LAYOUT}.",
        ],
    )


def points(data: dict[str, Any]) -> list[Point]:
    """Inline decryption as a cost line: cycles per byte the OTFAD image adds to linear 32-bit
    reads of each buffer size, D-cache disabled (every read goes to the flash)."""
    cells = {(r["image"], r["size"]): r for r in data["records"] if r.get("kind") == "xip_read"
             and r["pattern"] == "linear" and r["access"] == "32-bit" and r["dcache"] == "disabled"}
    return [Point("Inline XIP decryption (OTFAD): cycles added per byte read", size,
                  (cells[("otfad", size)]["cycles"] - plain["cycles"]) / plain["bytes"],
                  run_line(data, "'xip-read-otfad.toml'"), added_cost=True)
            for (img, size), plain in cells.items() if img == "plain" and ("otfad", size) in cells]


BENCHMARK = Benchmark(
    name="xip-read",
    summary="XIP flash read MB/s, plaintext vs OTFAD, AN13198 layout (8/16/32-bit, burst, linear, ping-pong, "
            "D-cache disabled/invalidated/filled, 4 KB and 16 KB).",
    run=run,
    points=points,
)
