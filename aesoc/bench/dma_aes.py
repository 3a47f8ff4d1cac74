"""Benchmark `dma-aes`: DMA-fed AES requests, the OMAP sDMA study re-run knob by knob.

fw/bench/dma_aes runs a tcrypt-like sweep through the aes_dma driver (buffer sizes 16 B..16 KB,
AES-128/192/256, CBC encrypt/decrypt and CTR, each DMA configuration of the study) on two SoC
configurations: `full` (iterative engine, 1 round per cycle) and `dma-unrolled` (fully unrolled,
pipelined engine). Per request it records the total time seen by the caller, and the hardware
time from the DMA and AES counters; fixed cost = total - hardware. A theory column models the
hardware time from the design parameters the way the study's theory table does: first-block
latency plus one block per bottleneck period.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, replace
from statistics import median
from typing import Any

from aesoc.bench import BenchContext, BenchResult, Benchmark, Point, Table, Verdict, published, run_line, side_by_side
from aesoc.bench.clock import Clock, soc_clock
from aesoc.bench.plots import line_chart, stacked_bars
from aesoc.common.toolchain import REPO, ToolError
from aesoc.fpga.area import Block, area, flat_synthesis_finishes, soc_blocks
from aesoc.fpga.store import stored_synth_runs
from aesoc.fpga.synth import SynthResult, tool_version
from aesoc.sim.run import build_and_run
from aesoc.soc.description import load_config

PROGRAM = REPO / "fw" / "bench" / "dma_aes"
ENGINES = {"iterative": "full", "unrolled": "dma-unrolled"}
SW_VARIANT = "SWC_AES_UNROLLED"
CFLAGS = ("-O2", f"-D{SW_VARIANT}")
CONFIGS = ["default", "prefetch", "fifo32", "fifo64", "high-priority", "early-start", "burst8"]
OPS = ["cbc-enc", "cbc-dec", "ctr"]
KEYS = [128, 192, 256]
# The theory column (docs/dma_aes.md) comes from each configuration's AES instance parameters:
# words per block and bus beats per block on the AES slave (the block written, then read, one
# 32-bit beat per cycle), and the engine's cycles per block.
WORDS = 16 // 4
AES_SLAVE_BEATS = 2 * WORDS
AES_ROUNDS = {128: 10, 192: 12, 256: 14}
# The whole sweep (every size, key, mode and DMA configuration) is one long run.
MAX_CYCLES = 400_000_000
SMOKE = ("-DDMA_AES_SMOKE",)  # the firmware's short run: default configuration, AES-128, software up to 1 KB
SWEEP = (*SMOKE, "-DDMA_AES_SWEEP")  # a sweep point's run: the short run's sweep section only
# The placement sweep (iterative engine): the default configuration's AES-128 requests again with
# this many bytes of code and of data ahead of the benchmark's own (fw/bench/dma_aes,
# DMA_AES_PLACEMENT), as other programs would place the caller against the driver. The caches are
# direct-mapped, 4 KB: eight steps of 512 bytes go once round them.
PLACEMENTS = tuple(range(0, 4096, 512))
SMOKE_PLACEMENTS = (2048,)  # one build instead of eight: the table and its sums are still exercised
# Area of a DMA-fed option: the blocks of its SoC configuration that carry it, summed as the
# interfaces benchmark sums its options (aesoc.fpga.area; SRAM maps to block RAM and is not counted).
AREA_BLOCKS = ("cpu", "xbar", "sysctrl", "aes_mmio", "dma")


def engine_latency(aes: dict[str, int], bits: int) -> int:
    """Cycles from a block in to its result out (docs/aes_engine.md): one per round group plus the
    output register; a pipelined engine has a stage per round."""
    rounds, rpc = AES_ROUNDS[bits], aes["RoundsPerCycle"]
    if aes["Pipelined"]:
        return rounds + 1
    return 2 if rpc == 0 else -(-rounds // rpc) + 1


def engine_period(aes: dict[str, int], op: str, bits: int) -> int:
    """Cycles between blocks the engine can accept in this mode: a pipelined engine takes one per
    cycle unless each block needs the previous result (CBC encryption)."""
    if aes["Pipelined"] and op != "cbc-enc":
        return 1
    return engine_latency(aes, bits)


def theory_cycles(aes: dict[str, int], op: str, bits: int, size: int) -> int:
    """First block: read it, write it to the AES, its latency, read it back, write it out; then one
    block per bottleneck period (the engine or the AES slave's beats, whichever is slower)."""
    blocks = size // 16
    first = 4 * WORDS + engine_latency(aes, bits)
    return first + (blocks - 1) * max(engine_period(aes, op, bits), AES_SLAVE_BEATS)


def aes_params(config: str) -> dict[str, int]:
    return dict(load_config(config).of_block("aes").params)


def area_blocks(config: str) -> dict[str, Block]:
    """The blocks of AREA_BLOCKS as `config` builds them; an unrolled engine's peripheral with its
    hierarchy kept: flattened, it reaches ABC as one module of 405k AND gates, which ran past ten
    minutes under WebAssembly without finishing when tried."""
    soc_config = load_config(config)
    blocks = soc_blocks(soc_config)
    if not flat_synthesis_finishes(soc_config):
        blocks["aes_mmio"] = replace(blocks["aes_mmio"], flatten=False)
    return {name: blocks[name] for name in AREA_BLOCKS}


def _area_table(areas: dict[str, dict[str, SynthResult]]) -> Table:
    rows = [[f"DMA + {engine} engine", ENGINES[engine],
             sum(a.lut4 for a in by.values()), sum(a.ff for a in by.values()), by["aes_mmio"].lut4, by["dma"].lut4]
            for engine, by in areas.items()]
    return Table(
        title="SoC area of each DMA-fed option (iCE40 LUT4 / FF)",
        columns=["option", "SoC config", "SoC LUT4", "SoC FF", "AES peripheral LUT4", "DMA LUT4"],
        rows=rows,
        notes=[f"{tool_version()} synth_ice40 of CPU + crossbar + sysctrl + AES peripheral + DMA with each "
               "configuration's parameters, as the interfaces section sums its options; SRAM maps to block RAM "
               "and is not counted. Blocks: "
               + "; ".join(f"{engine}: " + ", ".join(f"{n} {a.lut4}/{a.ff}" for n, a in by.items())
                           for engine, by in areas.items()) + ".",
               "Every block is synthesised flattened except the unrolled, pipelined engine's AES peripheral, whose "
               "hierarchy is kept (slang --keep-hierarchy, -noflatten; counts summed over its modules): "
               "flattened it reaches ABC as one module of 405k AND gates, which ran past ten minutes under "
               "WebAssembly without finishing when tried."],
    )


def _stored_clock(data: dict[str, Any], engine: str) -> Clock:
    """The clock a stored run stated its MB/s at (runs before aesoc.bench.clock: the nominal one)."""
    config = data["config"]
    if "clocks" in config:
        return Clock(**config["clocks"][engine])
    return Clock(config["nominal_mhz"], f"{config['nominal_mhz']:g} MHz nominal", placed=False)


def run(ctx: BenchContext) -> BenchResult:
    records: dict[str, list[dict[str, Any]]] = {}
    runs: list[str] = []
    params: dict[str, dict[str, int]] = {}  # each configuration's AES instance, elaborated once
    # The firmware runs and the area syntheses are independent: side by side.
    syntheses = [(engine, name, block) for engine, config in ENGINES.items()
                 for name, block in area_blocks(config).items()]
    placements = SMOKE_PLACEMENTS if ctx.smoke else PLACEMENTS
    jobs: list[tuple[str, Callable[[], Any]]] = [
        *[(f"dma_aes firmware on '{config}'", lambda config=config: build_and_run(
            PROGRAM, config, name="dma_aes_smoke" if ctx.smoke else None,
            cflags=(*CFLAGS, *SMOKE) if ctx.smoke else CFLAGS, libs=("crypto",), max_cycles=MAX_CYCLES))
          for config in ENGINES.values()],
        *[(f"dma_aes firmware, placement +{pad} B", lambda pad=pad: build_and_run(
            PROGRAM, ENGINES["iterative"], name=f"dma_aes_place{pad}",
            cflags=(*CFLAGS, f"-DDMA_AES_PLACEMENT={pad}"), libs=("crypto",), max_cycles=MAX_CYCLES))
          for pad in placements],
        *[(f"synthesis of {name} for '{ENGINES[engine]}' (Yosys, cached)", lambda block=block: area(block))
          for engine, name, block in syntheses]]
    outcomes = side_by_side(ctx, jobs)
    placed = outcomes[len(ENGINES):len(ENGINES) + len(placements)]
    for (result, line) in placed:
        if result.status != "exit" or result.code != 0:
            raise ToolError(f"dma_aes firmware failed: {line}\n{result.console[-2000:]}")
    runs_placed = [line for _, line in placed]
    by_placement = {pad: result.records for pad, (result, _) in zip(placements, placed)}
    areas: dict[str, dict[str, SynthResult]] = {engine: {} for engine in ENGINES}
    for (engine, name, _), result in zip(syntheses, outcomes[len(ENGINES) + len(placements):]):
        areas[engine][name] = result
    for (engine, config), (result, line) in zip(ENGINES.items(), outcomes):
        if result.status != "exit" or result.code != 0:
            raise ToolError(f"dma_aes firmware failed: {line}\n{result.console[-2000:]}")
        records[engine] = result.records
        runs.append(line)
        params[config] = aes_params(config)
    clocks = {engine: soc_clock(ctx, config) for engine, config in ENGINES.items()}

    def sweep(engine: str) -> dict[tuple[str, int, str, int], dict[str, Any]]:
        return {(r["config"], r["key_bits"], r["op"], r["bytes"]): r
                for r in records[engine] if r["kind"] == "dma_aes"}

    data = {engine: sweep(engine) for engine in ENGINES}
    sizes = sorted({key[3] for key in data["iterative"]})
    # The configurations and key sizes the firmware swept (all of them, or the smoke run's one).
    configs = [c for c in CONFIGS if any(key[0] == c for key in data["iterative"])]
    keys = [k for k in KEYS if any(key[1] == k for key in data["iterative"])]
    tables: list[Table] = []
    plots: list[str] = []

    # 1. The study's question per DMA configuration: AES-128-CBC encrypt (iterative engine), and CTR
    #    where the pipelined engine changes the picture.
    for engine, op in (("iterative", "cbc-enc"), ("unrolled", "ctr")):
        d, clock = data[engine], clocks[engine]
        rows = [[cfg, *[f"{d[(cfg, 128, op, s)]['total']} c, {clock.mbps(s, d[(cfg, 128, op, s)]['total'])}"
                        for s in sizes]] for cfg in configs]
        tables.append(Table(
            title=f"AES-128 {op} per DMA configuration, {engine} engine: cycles per buffer, MB/s at "
                  f"{clock.short}",
            columns=["DMA configuration", *[f"{s} B" for s in sizes]],
            rows=rows,
            notes=["Total time from aes_dma_submit() to the completion seen by the caller (polling), warm caches "
                   "(third of three back-to-back requests). Configurations: default = 4-beat bursts, no "
                   "prefetch, 16-word FIFO; then prefetch on; FIFO 32 and 64 words; channels at high priority "
                   "(channel priority 3 and the crossbar's high-priority class); early start (channels started "
                   "before the AES engine is programmed); 8-beat memory bursts on top. Every record of every "
                   "key size and mode is in results/dma-aes.json.", f"MB/s at {clock.label}."],
        ))
        plots.append(line_chart(
            ctx.results_dir / f"dma_aes_{engine}.png", sizes,
            {cfg: [clock.mbps(s, d[(cfg, 128, op, s)]["total"]) for s in sizes] for cfg in configs},
            title=f"AES-128 {op} by DMA, {engine} engine", xlabel="buffer bytes",
            ylabel=f"MB/s at {clock.short}", logx=True))

    # 2. Decomposition and theory, every key size and mode, each engine's best configuration (the
    #    fastest for 16 KB AES-128 CTR: measured, not assumed).
    best_of = {engine: min(configs, key=lambda cfg, e=engine: data[e][(cfg, 128, "ctr", 16384)]["total"])
               for engine in ENGINES}
    best = best_of["iterative"]
    rows = []
    for engine in ENGINES:
        for bits in keys:
            for op in OPS:
                for s in (1024, 16384):
                    r = data[engine][(best_of[engine], bits, op, s)]
                    theory = theory_cycles(params[ENGINES[engine]], op, bits, s)
                    rows.append([f"{engine} ('{best_of[engine]}')", f"AES-{bits}", op, s, r["total"],
                                 round(r["total"] / s, 3),
                                 r["total"] - r["hw"], r["hw"], round(r["hw"] / s, 3), r["engine_busy"], r["beats"],
                                 theory, round(theory / r["hw"], 3), clocks[engine].mbps(s, r["total"])])
    tables.append(Table(
        title="Every key size and mode, each engine's best DMA configuration: total = fixed + hardware, and theory",
        columns=["engine", "key", "mode", "bytes", "total c", "total c/B", "fixed c", "hardware c", "hw c/B",
                 "engine busy c", "bus beats", "theory c", "theory / hw", "MB/s at the SoC's clock"],
        rows=rows,
        notes=["hardware = DMA channel cycles from start to the output channel idle (CHn_CYCLES); engine busy = "
               "AES PERF_BUSY; bus beats = words read + written by both channels (DMA counters). fixed = total - "
               "hardware: driver set-up, completion detection, chaining-IV read-back.",
               f"theory = 4 x {WORDS} beats + engine latency for the first block, then per block the slower of "
               f"the engine's period (11/13/15 iterative and CBC encrypt; 1 for the pipelined engine in CBC decrypt "
               f"and CTR) and the AES slave's {AES_SLAVE_BEATS} beats (4 written, 4 read).",
               "MB/s: " + "; ".join(f"{engine} engine at {c.label}" for engine, c in clocks.items()) + "."],
    ))

    # 3. Fixed vs hardware, default and best configuration (the study's decomposition).
    rows = []
    it_clock = clocks["iterative"]
    parts: dict[str, list[float]] = {"fixed (software)": [], "hardware": []}
    labels: list[str] = []
    for cfg in ("default", best):
        for s in sizes:
            r = data["iterative"][(cfg, 128, "cbc-enc", s)]
            theory = theory_cycles(params[ENGINES["iterative"]], "cbc-enc", 128, s)
            rows.append([cfg, s, r["total"], r["total"] - r["hw"], r["hw"], r["in_wait"], r["out_wait"], theory,
                         round(theory / r["hw"], 3), round(it_clock.mhz * 1e6 / r["total"]), it_clock.mbps(s, r["hw"])])
            labels.append(f"{cfg} {s}")
            parts["fixed (software)"].append(r["total"] - r["hw"])
            parts["hardware"].append(r["hw"])
    tables.append(Table(
        title="AES-128-CBC encrypt, iterative engine: the study's decomposition",
        columns=["configuration", "bytes", "total c", "fixed c", "hardware c", "input waits c", "output waits c",
                 "theory c", "theory / hw", f"buffers/s at {it_clock.short}", "hardware MB/s"],
        rows=rows,
        notes=["input/output waits: cycles the DMA channel had words left but no request from the AES peripheral "
               "(its input FIFO full / no result ready), i.e. engine-bound time.",
               f"buffers/s and MB/s at {it_clock.label}."],
    ))
    plots.append(stacked_bars(ctx.results_dir / "dma_aes_decomposition.png", labels, parts,
                              title="AES-128-CBC encrypt: fixed + hardware cycles", ylabel="cycles"))

    # 4. Beside the study.
    omap = published("dma-aes")["omap"]
    rows = []
    for i, s in enumerate(omap["sizes"]):
        ours_d = data["iterative"][("default", 128, "cbc-enc", s)]
        ours_o = data["iterative"][(best, 128, "cbc-enc", s)]
        rows.append([s, omap["default_buffers_per_s"][i], omap["default_mbps"][i], omap["default_hw_mbps"][i],
                     omap["optimised_buffers_per_s"][i], omap["optimised_mbps"][i],
                     round(it_clock.mhz * 1e6 / ours_d["total"]), it_clock.mbps(s, ours_d["total"]),
                     it_clock.mbps(s, ours_d["hw"]), round(it_clock.mhz * 1e6 / ours_o["total"]),
                     it_clock.mbps(s, ours_o["total"])])
    tables.append(Table(
        title="Beside the OMAP4460 sDMA study (AES-128-CBC encrypt)",
        columns=["bytes", "OMAP default buffers/s", "OMAP default MB/s", "OMAP hardware MB/s",
                 "OMAP optimised buffers/s", "OMAP optimised MB/s", "ours default buffers/s", "ours default MB/s",
                 "ours hardware MB/s", f"ours '{best}' buffers/s", f"ours '{best}' MB/s"],
        rows=rows,
        notes=[f"OMAP figures: {omap['source']}; its theory table (L3 cycles at 200 MHz): "
               + ", ".join(f"{s} B {c} c / {m} MB/s" for s, c, m in
                           zip(omap["theory_sizes"], omap["theory_l3_cycles"], omap["theory_mbps"]))
               + f"; its fixed software cost was about {omap['software_overhead_us']} us per request.",
               f"Ours: iterative engine, {it_clock.label}. OMAP's AES runs on a 200 MHz L3 "
               "with a 700 MHz CPU; compare shapes (fixed vs hardware share), not absolute MB/s."],
    ))

    # 5. Beside DCP / CAAM / mbedtls (seed 002) and our software: cycles/byte, AES-CBC-128, 1 KB.
    rt = published("dma-aes")["rt"]
    sw = {(r["op"], r["bytes"]): r["cycles"] for r in records["iterative"] if r["kind"] == "dma_aes_sw"}
    rows = [[f"ours, DMA + {engine} engine ('{best_of[engine]}')",
             round(data[engine][(best_of[engine], 128, "cbc-enc", 1024)]["total"] / 1024, 2)] for engine in ENGINES]
    rows.append([f"ours, software ({SW_VARIANT}), same run", round(sw[("cbc-enc", 1024)] / 1024, 2)])
    rows += [[f"{name} (published)", cpb] for name, cpb in rt["rows"].items()]
    tables.append(Table(
        title="AES-CBC-128 encrypt over 1 KB: cycles per byte beside DCP, CAAM and mbedtls (seed 002)",
        columns=["implementation", "cycles/byte"],
        rows=rows,
        notes=[f"Published: {rt['source']}. The seed's two columns per implementation are printed as given."],
    ))

    # 6. Crossover with our best software AES.
    rows = []
    for op in OPS:
        hw_default = {s: data["iterative"][("default", 128, op, s)]["total"] for s in sizes}
        sw_sizes = sorted(s for (o, s) in sw if o == op)
        faster = [s for s in sw_sizes if hw_default[s] < sw[(op, s)]]
        rows.append([op, *[f"{sw[(op, s)]} / {hw_default[s]}" for s in sw_sizes],
                     min(faster) if faster else "none measured"])
    tables.append(Table(
        title="Software vs DMA-fed hardware, AES-128 (cycles, software / hardware, default DMA configuration)",
        columns=["mode", *[f"{s} B" for s in sorted({s for (_, s) in sw})], "hardware faster from"],
        rows=rows,
        notes=[f"Software: fw/crypto built with -D{SW_VARIANT} -O2, warm caches, same firmware run. The driver's "
               "software fallback threshold (aes_dma_opts_t.sw_threshold) should be set below the crossover."],
    ))

    # 6b. Short requests: the CPU through the registers against the channels, and the driver's default.
    tables.append(_short_table(records))
    # 6c. The same requests at other code and data placements.
    placement_table, placed_fixed = _placement_table(by_placement)
    tables.append(placement_table)

    # 7. The targets, measured.
    best_iter = data["iterative"][(best, 128, "cbc-enc", 16384)]
    cbc_bound = engine_latency(params[ENGINES["iterative"]], 128) / 16
    fixed = [r["total"] - r["hw"] for engine in ENGINES for (cfg, _, _, s), r in data[engine].items()
             if cfg == "default" and s >= 1024]
    rows = [["AES-128-CBC encrypt, 16 KB, iterative: within 5 % of the engine bound "
             f"({cbc_bound:.4f} c/B)", f"<= {cbc_bound * 1.05:.3f} c/B end to end",
             f"{best_iter['total'] / 16384:.3f} c/B ('{best}'), "
             f"{data['iterative'][('default', 128, 'cbc-enc', 16384)]['total'] / 16384:.3f} (default)",
             "holds" if best_iter["total"] / 16384 <= cbc_bound * 1.05 else "missed"]]
    for op in ("cbc-dec", "ctr"):
        r = data["unrolled"][(best_of["unrolled"], 128, op, 16384)]
        bound = AES_SLAVE_BEATS / 16
        rows.append([f"AES-128 {op}, 16 KB, unrolled: within 10 % of the bus bound ({bound:.3f} c/B: "
                     f"{AES_SLAVE_BEATS} AES-slave beats per block)", f"<= {bound * 1.1:.3f} c/B hardware",
                     f"{r['hw'] / 16384:.3f} c/B hardware, {r['total'] / 16384:.3f} end to end "
                     f"('{best_of['unrolled']}')",
                     "holds" if r["hw"] / 16384 <= bound * 1.1 else "missed"])
    rows.append(["fixed per-request cost (default configuration, every key size and mode, >= 1 KB)",
                 "<= 200 cycles", f"{min(fixed)}..{max(fixed)} cycles; AES-128 at {len(by_placement)} placements: "
                 f"{_spread(placed_fixed)}",
                 "holds" if max(fixed) <= 200 and max(placed_fixed) <= 200 else "missed"])
    ratios = [theory_cycles(params[ENGINES[engine]], op, bits, s) / r["hw"] for engine in ENGINES
              for (cfg, bits, op, s), r in data[engine].items() if cfg == best_of[engine] and s >= 1024]
    rows.append(["theory / measured hardware time, buffers >= 1 KB (each engine's best configuration)", ">= 0.9",
                 f"{min(ratios):.2f}..{max(ratios):.2f}", "holds" if min(ratios) >= 0.9 else "missed"])
    tables.append(Table(
        title="Issue targets",
        columns=["target", "goal", "measured", "verdict"],
        rows=rows,
        notes=["Why the misses: docs/dma_aes.md (the fixed cost is the RV32IM driver path at about 2 cycles per "
               "instruction with write-through stores, and moves by about a hundred cycles with where the "
               "program's code and data lie against the driver's (the placement table); with the pipelined engine "
               "the 8-beat bound needs the AES slave busy every cycle: with 4-beat memory bursts each master "
               "waits one cycle per block for the SRAM's first beat, acknowledged a cycle after a burst's "
               "request (9.1-9.3 cycles per block); with 8-beat ones both masters are also on memory at once "
               "(10.6))."],
    ))

    # 8. Concurrent traffic.
    loads = [r for r in records["iterative"] if r["kind"] == "dma_aes_load"]
    rows = [[r["load"], "high" if r["priority"] else "normal", r["bytes"], r["total"], r["hw"],
             round(r["hw"] / r["bytes"], 3), r["cpu_loops"]] for r in loads]
    tables.append(Table(
        title="AES-128-CBC encrypt (iterative engine, prefetch, FIFO 64) under concurrent traffic",
        columns=["concurrent load", "DMA priority", "bytes", "total c", "hardware c", "hw c/B", "CPU loop iterations"],
        rows=rows,
        notes=["cpu-loop: the CPU reads the source bank uncached in a loop until the completion interrupt; "
               "dma-copy: a third channel copies 16 KB from bank 0 to bank 1 at the same time. High priority: "
               "channel priority 3 and the crossbar's high-priority class for the AES channels. Completion by "
               "interrupt in this table."],
    ))

    tables.append(_area_table(areas))
    area_records = [{"kind": "dma_aes_area", "engine": engine, "block": name, "lut4": a.lut4, "ff": a.ff}
                    for engine, by in areas.items() for name, a in by.items()]
    placement_records = [{**r, "engine": "iterative", "placement": pad}
                         for pad, rs in by_placement.items() for r in rs]
    return BenchResult(
        tables=tables,
        records=[{**r, "engine": engine} for engine, rs in records.items() for r in rs] + area_records
                + placement_records,
        runs=runs + runs_placed + [f"{tool_version()} synth_ice40{'' if block.flatten else ' -noflatten'} {block.top} "
                     f"{areas[engine][name].parameters}"
                     for engine, name, block in syntheses]
             + stored_synth_runs(a for by in areas.values() for a in by.values()),
        config={"soc": ENGINES, "params": params, "sw_variant": SW_VARIANT,
                "clocks": {engine: asdict(c) for engine, c in clocks.items()}},
        plots=plots,
    )


def _span(values: list[int]) -> str:
    """One figure, or the range of several that differ."""
    return f"{min(values)}" if min(values) == max(values) else f"{min(values)}..{max(values)}"


def _spread(values: list[int]) -> str:
    return f"{min(values)}..{max(values)}, median {median(values):g}"


def _short_table(records: dict[str, list[dict[str, Any]]]) -> Table:
    """Short requests fed by the CPU (opts.dma_min above them) against the channels (dma_min 0), and
    with the driver's default dma_min, per engine and size (the range over the three modes)."""
    rows = []
    for engine, rs in records.items():
        dma_min = next(r["dma_min"] for r in rs if r["kind"] == "dma_aes_engine")
        short = [r for r in rs if r["kind"] == "dma_aes_short"]
        for size in sorted({r["bytes"] for r in short}):
            at = [r for r in short if r["bytes"] == size]
            rows.append([engine, size, *[_span([r[path] for r in at]) for path in ("cpu", "dma", "default")],
                         "CPU" if size < dma_min else "channels",
                         round(min(r["dma"] / r["default"] for r in at), 2)])
    defaults = sorted({r["dma_min"] for rs in records.values() for r in rs if r["kind"] == "dma_aes_engine"})
    return Table(
        title="Short requests, AES-128, default DMA configuration: fed by the CPU or by the channels (cycles)",
        columns=["engine", "bytes", "CPU-fed c", "channel-fed c", "driver default c", "default path",
                 "channels / default"],
        rows=rows,
        notes=["Total from aes_dma_submit() to the completion seen by the caller, warm caches (third of three "
               "requests), the range over CBC encrypt, CBC decrypt and CTR. CPU-fed: the driver moves the "
               "blocks through the peripheral's DATA_IN / DATA_OUT registers itself (opts.dma_min above the "
               "length), no channel set-up and no D-cache invalidation; channel-fed: opts.dma_min = 0. Driver "
               "default: opts.dma_min = AES_DMA_DMA_MIN = " + ", ".join(str(d) for d in defaults)
               + " bytes, as this firmware was built. The sweep above sets dma_min to 0: the study's requests "
               "all go through the channels."],
    )


def _placement_table(by_placement: dict[int, list[dict[str, Any]]]) -> tuple[Table, list[int]]:
    """Per placement: the caller's and the driver's addresses, a 16-byte request fed by the CPU and by
    the channels, and the fixed cost of the requests of 1 KB and more (every mode). Also that fixed
    cost at every placement, for the targets."""
    rows, fixed_all = [], []
    for pad, rs in by_placement.items():
        layout = next(r for r in rs if r["kind"] == "dma_aes_layout")
        sweep = [r for r in rs if r["kind"] == "dma_aes"]
        short16 = [r for r in rs if r["kind"] == "dma_aes_short" and r["bytes"] == 16]
        fixed = [r["total"] - r["hw"] for r in sweep if r["bytes"] >= 1024]
        fixed_all += fixed
        rows.append([f"+{pad}", f"{layout['main']:#x}", f"{layout['eng']:#x}", f"{layout['submit']:#x}",
                     _span([r["cpu"] for r in short16]), _span([r["dma"] for r in short16]), _span(fixed)])
    short16 = [r for rs in by_placement.values() for r in rs if r["kind"] == "dma_aes_short" and r["bytes"] == 16]
    rows.append(["all", "", "", "", _spread([r["cpu"] for r in short16]), _spread([r["dma"] for r in short16]),
                 _spread(fixed_all)])
    return Table(
        title="Code and data placement: the same requests with the caller moved against the driver (iterative "
              "engine, default DMA configuration, AES-128, cycles)",
        columns=["placement", "main()", "aes_dma_t", "aes_dma_submit()", "16 B, CPU-fed c", "16 B, channel-fed c",
                 "fixed c, >= 1 KB"],
        rows=rows,
        notes=["Each row is one firmware build with that many bytes of code and of data ahead of the benchmark's "
               "own (DMA_AES_PLACEMENT), so its functions, stack use and buffers fall on other lines of the "
               "CPU's direct-mapped 4 KB instruction and data caches against the driver's; the driver's code "
               "barely moves. Ranges are over the three modes (CBC encrypt and decrypt, CTR). A channel-fed "
               "request invalidates the whole D-cache (this core has no per-line operation), so what the "
               "caller and the driver read next is refetched, and which of those lines collide depends on "
               "where they lie: the fixed cost of a DMA request is a property of the program around it as "
               "much as of the driver."],
    ), fixed_all


def points(data: dict[str, Any]) -> list[Point]:
    """AES-128 CTR through the DMA, each engine, default configuration, every size: submit to
    completion, the fixed per-request cost included."""
    lut4: dict[str, int] = {}
    for r in data["records"]:
        if r["kind"] == "dma_aes_area":
            lut4[r["engine"]] = lut4.get(r["engine"], 0) + r["lut4"]
    found: list[Point] = []
    for r in data["records"]:
        if r["kind"] == "dma_aes" and r["config"] == "default" and r["key_bits"] == 128 and r["op"] == "ctr":
            run = run_line(data, f"on SoC config '{ENGINES[r['engine']]}'")
            soc_area = f"{lut4[r['engine']]:,} LUT4 SoC (iCE40)" if r["engine"] in lut4 else ""
            # The CPU's share: the driver's fixed cost; during the hardware time it is free (it
            # polls here, but completion can be an interrupt).
            found.append(Point(f"DMA + {r['engine']} engine, CTR", r["bytes"], r["total"] / r["bytes"], run,
                               soc_area, area_lut4=lut4.get(r["engine"]),
                               cpu_cycles_per_byte=(r["total"] - r["hw"]) / r["bytes"]))
    return found


def verdicts(data: dict[str, Any]) -> list[Verdict]:
    """Seed 001 (OMAP4460 sDMA): AES-128-CBC encrypt of its largest buffer, optimised set-up."""
    omap = published("dma-aes")["omap"]
    size, theirs = omap["sizes"][-1], omap["optimised_mbps"][-1]
    mine = [r for r in data["records"] if r["kind"] == "dma_aes" and r.get("engine") == "iterative"
            and r["key_bits"] == 128 and r["op"] == "cbc-enc" and r["bytes"] == size]
    if not mine:
        return []
    best = min(mine, key=lambda r: r["total"])
    clock = _stored_clock(data, "iterative")
    ours = clock.mbps(size, best["total"])
    return [Verdict(omap["source"], f"AES-128-CBC encrypt, {size} B through the DMA, best set-up",
                    f"{theirs} MB/s", f"{ours} MB/s at {clock.short} ('{best['config']}')",
                    round(theirs / ours, 3),
                    f"MB/s depends on clocks (ours {clock.short}; OMAP's AES on a 200 MHz L3); the study's "
                    f"fixed software cost was about {omap['software_overhead_us']} us per request, ours "
                    f"{best['total'] - best['hw']} cycles: section 'dma-aes'",
                    run_line(data, f"on SoC config '{ENGINES['iterative']}'"))]


BENCHMARK = Benchmark(
    name="dma-aes",
    summary="DMA-fed AES requests: the OMAP sDMA study's knobs, decomposition and theory, vs software.",
    run=run,
    points=points,
    verdicts=verdicts,
)
