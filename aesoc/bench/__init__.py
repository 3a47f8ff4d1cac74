"""Benchmark interface: a benchmark runs simulations and returns tables of what it measured.

A benchmark is a module under aesoc/bench/ that defines `BENCHMARK = Benchmark(...)`, plus one
line in aesoc/bench/registry.py. Its `run` function receives a `BenchContext` and returns a
`BenchResult`; `aesoc bench` writes that to results/NAME.json and `aesoc report` renders it.
Every table names the simulation runs its figures came from (`BenchResult.runs`).

Placement (`BenchContext.place`, `aesoc bench --place`): place and route takes minutes for an IP
block and hours for a SoC, so a benchmark starts one only when asked; otherwise it takes the
placement from the FPGA flow's cache or placement store (aesoc.fpga.store; filled by any earlier
`--place` run or `aesoc pnr`, for the current sources) and, where neither has it, says so in its table. Benchmarks
whose whole work is placement (`Benchmark.places`) run only when named or with `--place`.

Smoke mode (`BenchContext.smoke`, `aesoc bench --smoke`, tests/test_bench_smoke.py): the module
builds and runs its real firmware and flows on its smallest sizes and one configuration, and
renders the same tables from what that run measured, so the test suite exercises every module.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from aesoc.fpga.design import Design, PlaceResult, SEEDS
from aesoc.fpga.jobs import Progress, run_jobs
from aesoc.fpga.place import place_fitting, placed_fitting

from aesoc.common.toolchain import REPO

PUBLISHED_DIR = REPO / "aesoc" / "data" / "published"
T = TypeVar("T")


@dataclass
class Table:
    title: str
    columns: list[str]
    rows: list[list[Any]]
    notes: list[str] = field(default_factory=list)


@dataclass
class BenchResult:
    tables: list[Table]
    # Raw measurements exactly as the simulation produced them (firmware JSON records, cocotb dicts).
    records: list[dict[str, Any]]
    # One line per simulation run behind the figures: what ran, on which configuration.
    runs: list[str]
    # The RTL/SoC configuration measured (parameters, clocks assumed for MB/s).
    config: dict[str, Any]
    # Image files written by the benchmark, relative to the results directory.
    plots: list[str] = field(default_factory=list)


@dataclass
class BenchContext:
    results_dir: Path
    # Called with (done, total, what) so the CLI can show progress on long runs.
    progress: Callable[[int, int, str], None]
    # Smallest sizes, one configuration: a real but short run that exercises every table.
    smoke: bool = False
    # Run place and route that is not cached (see the module's docstring).
    place: bool = False

    @property
    def seeds(self) -> tuple[int, ...]:
        """Placer seeds: the fixed set, or its first in a smoke run (a place and route of the AES
        engine takes minutes per seed)."""
        return SEEDS[:1] if self.smoke else SEEDS

    def placement(self, design: Design, devices: tuple[str, ...],
                  seeds: tuple[int, ...] | None = None) -> PlaceResult | None:
        """`design` on the first of `devices` it fits: placed now if this run places, else from
        the cache or the placement store (None when neither has it)."""
        seeds = self.seeds if seeds is None else seeds
        return place_fitting(design, devices, seeds) if self.place else placed_fitting(design, devices, seeds)


class _Finished(Progress):
    """pnr.run_jobs's progress, reported on the benchmark's own bar."""

    def __init__(self, ctx: BenchContext, total: int) -> None:
        super().__init__("bench", total)
        self.ctx = ctx

    def step(self, what: str) -> None:
        with self.lock:
            self.done += 1
            self.ctx.progress(self.done, self.total, f"finished {what}")


def side_by_side(ctx: BenchContext, jobs: Sequence[tuple[str, Callable[[], T]]]) -> list[T]:
    """Run a benchmark's independent jobs (label, job) with pnr.run_jobs; results in order. Each
    job's tools hold the slots of aesoc.common.toolchain, so however many benchmarks do this at once, no
    more tools run than `-j` allows, and a benchmark's runs no longer queue behind one another."""
    labels = [label for label, _ in jobs]
    return run_jobs([job for _, job in jobs], labels, "bench", progress=_Finished(ctx, len(jobs)))


@dataclass(frozen=True)
class Point:
    """One way to run AES-128 at one message size, for the summary that opens the report."""
    option: str  # how AES runs, e.g. "DMA + iterative engine ('default'), CTR"
    nbytes: int
    cycles_per_byte: float
    run: str  # the run line (BenchResult.runs) the figure came from
    area: str = ""  # what the option adds in area, where the benchmark measured it
    added_cost: bool = False  # a cost added to other work (inline decryption), not a way to run AES
    software: bool = False  # runs on the CPU alone (drawn as one family in the summary chart)
    # For the summary's decision table, where the benchmark measured them: the SoC's iCE40 LUT4 with
    # this option; the cycles a new key costs; the cycles per byte the CPU itself spends (None: all
    # of them, as when the CPU moves every word).
    area_lut4: int | None = None
    key_cycles: int | None = None
    cpu_cycles_per_byte: float | None = None


@dataclass(frozen=True)
class Verdict:
    """One seed study's headline figure beside ours for the same measure, for the report's opening."""
    seed: str  # the study, as its published data names it
    measure: str
    theirs: str  # the headline figure as published
    ours: str
    ratio: float  # theirs / ours, in the measure's own unit (cycles, c/B: above 1 means ours is leaner)
    why: str  # what explains the difference (where the section's notes say more)
    run: str


@dataclass(frozen=True)
class Benchmark:
    name: str
    summary: str
    run: Callable[[BenchContext], BenchResult]
    # From a stored result (results/NAME.json): the benchmark's points for the report's summary.
    # A new benchmark joins the summary by giving this, never by editing the report.
    points: Callable[[dict[str, Any]], list[Point]] | None = None
    # From a stored result: the seed studies it re-runs, their headline beside ours.
    verdicts: Callable[[dict[str, Any]], list[Verdict]] | None = None
    # Its whole work is place and route (hours for a SoC): it runs only when named or with --place.
    places: bool = False


def run_line(data: dict[str, Any], needle: str) -> str:
    """The first run line of a stored result that contains `needle` (which run a figure came from)."""
    for line in data["runs"]:
        if needle in line:
            return line
    raise KeyError(f"no run of {data['name']} mentions {needle!r}")


@cache
def published(bench: str) -> dict[str, Any]:
    """Published figures (seeds and anchors) with their sources, to print beside a benchmark's.

    They live in aesoc/data/published/BENCH.toml, one file per benchmark; every entry carries its
    source. They are printed, never used in a computation of ours.
    """
    path = PUBLISHED_DIR / f"{bench}.toml"
    if not path.is_file():
        return {}
    with open(path, "rb") as handle:
        return tomllib.load(handle)
