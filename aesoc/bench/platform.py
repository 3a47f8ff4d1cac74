"""Benchmark `platform`: memory latencies, line refill cost, 1 KB memcpy and simulation speed.

The latencies come from the `base` SoC; the same program then runs on every other SoC
configuration for the simulation speed of each model (its memory figures are the same there:
the configurations share the CPU, caches, crossbar and SRAM)."""

from __future__ import annotations

from aesoc.bench import BenchContext, BenchResult, Benchmark, Table
from aesoc.bench.plots import bar_chart
from aesoc.common.toolchain import REPO, ToolError
from aesoc.sim.harness import RunResult
from aesoc.sim.run import build_and_run
from aesoc.soc.description import config_names, load_config

PROGRAM = REPO / "fw" / "bench" / "platform"
CONFIG = "base"
# Simulated kHz each configuration's model should reach on this 2-core machine: the small SoC
# 1 MHz, the others (issue 13) 0.5 MHz.
SPEED_TARGET_KHZ = {CONFIG: 1000}
SPEED_TARGET_OTHER_KHZ = 500

ROWS: list[tuple[str, str]] = [
    ("load_chain_hit", "Dependent load, D-cache hit"),
    ("load_chain_cold", "Dependent load, D-cache miss (32-byte line refill)"),
    ("load_chain_uncached", "Dependent load, uncached alias (single bus read)"),
    ("store_cached", "Store, cached address (write-through)"),
    ("store_uncached", "Store, uncached alias"),
    ("memcpy_1k_cold", "memcpy 1 KB, D-cache invalidated first"),
    ("memcpy_1k_warm", "memcpy 1 KB, source in D-cache"),
    ("memcpy_1k_uncached", "memcpy 1 KB, uncached aliases"),
]


def _checked_run(config: str) -> tuple[RunResult, str]:
    # Simulated every time: the wall time of these runs is the simulation-speed table.
    result, line = build_and_run(PROGRAM, config, reuse=False)
    if result.status != "exit" or result.code != 0:
        raise ToolError(f"platform benchmark firmware failed: {line}\n{result.console[-2000:]}")
    return result, line


def run(ctx: BenchContext) -> BenchResult:
    # A smoke run times the base model only.
    configs = [CONFIG] if ctx.smoke else [CONFIG, *[c for c in config_names() if c != CONFIG]]
    ctx.progress(0, len(configs), "platform firmware")
    result, line = _checked_run(CONFIG)
    speeds = [(CONFIG, result, line)]
    for i, config in enumerate(configs[1:], start=1):
        ctx.progress(i, len(configs), f"platform firmware on '{config}' (simulation speed)")
        speeds.append((config, *_checked_run(config)))
    ctx.progress(len(configs), len(configs), "tables")
    by_metric = {r["metric"]: r for r in result.records_of("platform")}
    missing = [m for m, _ in ROWS if m not in by_metric]
    if missing:
        raise ToolError(f"platform benchmark did not report {missing}")
    rows: list[list[object]] = []
    for metric, label in ROWS:
        rec = by_metric[metric]
        rows.append([label, rec["ops"], rec["cycles"], round(rec["cycles"] / rec["ops"], 2)])
    hit = by_metric["load_chain_hit"]["cycles"] / by_metric["load_chain_hit"]["ops"]
    cold = by_metric["load_chain_cold"]["cycles"] / by_metric["load_chain_cold"]["ops"]
    latency = Table(
        title="Memory system (cycles, measured by firmware with the SoC cycle counter)",
        columns=["operation", "operations", "cycles", "cycles per operation"],
        rows=rows,
        notes=[
            f"Line refill cost (cold minus hit dependent load): {cold - hit:.1f} cycles per 32-byte line.",
            f"Counter read overhead ({by_metric['counter_read_pair']['cycles']} cycles) is subtracted from every window.",
        ],
    )
    speed = Table(
        title="Simulation speed per SoC configuration (this benchmark's firmware)",
        columns=["SoC configuration", "simulated cycles", "wall seconds", "simulated kHz", "target kHz"],
        rows=[[config, r.cycles, round(r.seconds, 3), round(r.khz),
               SPEED_TARGET_KHZ.get(config, SPEED_TARGET_OTHER_KHZ)] for config, r, _ in speeds],
        notes=["Verilator model of the whole SoC, one thread, on this machine, while `aesoc bench` runs its "
               "other jobs beside it (wall time, so a loaded machine reads slower)."],
    )
    plot = bar_chart(ctx.results_dir / "platform_memory.png", [r[0] for r in rows], [r[3] for r in rows],
                     title="Memory system, base SoC", ylabel="cycles per operation")
    config = load_config(CONFIG)
    return BenchResult(
        tables=[latency, speed],
        records=result.records,
        runs=[ln for _, _, ln in speeds],
        config={"soc": CONFIG, "params": config.params},
        plots=[plot],
    )


BENCHMARK = Benchmark(
    name="platform",
    summary="Load/store latency cached and uncached, line refill cost, 1 KB memcpy, simulation speed.",
    run=run,
)
