"""Benchmark interface: a benchmark runs simulations and returns tables of what it measured.

A benchmark is a module under aesoc/bench/ that defines `BENCHMARK = Benchmark(...)`, plus one
line in aesoc/bench/registry.py. Its `run` function receives a `BenchContext` and returns a
`BenchResult`; `aesoc bench` writes that to results/NAME.json and `aesoc report` renders it.
Every table names the simulation runs its figures came from (`BenchResult.runs`).
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from aesoc.toolchain import REPO

PUBLISHED_DIR = REPO / "aesoc" / "data" / "published"


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


@dataclass(frozen=True)
class Benchmark:
    name: str
    summary: str
    run: Callable[[BenchContext], BenchResult]


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
