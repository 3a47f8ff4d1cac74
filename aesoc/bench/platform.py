"""Benchmark `platform`: memory latencies, line refill cost, 1 KB memcpy and simulation speed."""

from __future__ import annotations

from aesoc.bench import Benchmark, BenchContext, BenchResult, Table
from aesoc.plots import bar_chart
from aesoc.run import build_and_run
from aesoc.soc import load_config
from aesoc.toolchain import REPO, ToolError

PROGRAM = REPO / "fw" / "bench" / "platform"
CONFIG = "base"

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


def run(ctx: BenchContext) -> BenchResult:
    ctx.progress(0, 1, "platform firmware")
    result, line = build_and_run(PROGRAM, CONFIG)
    ctx.progress(1, 1, "platform firmware")
    if result.status != "exit" or result.code != 0:
        raise ToolError(f"platform benchmark firmware failed: {line}\n{result.console[-2000:]}")
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
        title="Simulation speed",
        columns=["simulated cycles", "wall seconds", "simulated kHz"],
        rows=[[result.cycles, round(result.seconds, 3), round(result.khz)]],
        notes=["Verilator model of the whole SoC, one thread, on this machine; target at least 1000 kHz."],
    )
    plot = bar_chart(ctx.results_dir / "platform_memory.png", [r[0] for r in rows], [r[3] for r in rows],
                     title="Memory system, base SoC", ylabel="cycles per operation")
    config = load_config(CONFIG)
    return BenchResult(
        tables=[latency, speed],
        records=result.records,
        runs=[line],
        config={"soc": CONFIG, "params": config.params},
        plots=[plot],
    )


BENCHMARK = Benchmark(
    name="platform",
    summary="Load/store latency cached and uncached, line refill cost, 1 KB memcpy, simulation speed.",
    run=run,
)
