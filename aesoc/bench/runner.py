"""Run benchmarks side by side with a quiet terminal: `aesoc bench [-j N] [--verbose]`.

Every benchmark starts on its own thread; what bounds the load is the tool slots
(aesoc.common.toolchain.set_jobs): at most N simulations, Yosys or nextpnr runs at once, Verilator
builds one at a time under verilator_lock. Models, firmware and syntheses are cached by their
inputs, so a benchmark never redoes what another one (or an earlier run) already built.

The terminal shows progress only: one bar per benchmark with its stage, count, elapsed and
remaining time. Tool output is in build/logs/ (a failure prints the log's path and last lines);
--verbose prints plain progress lines and every tool's output instead.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import subprocess
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import TracebackType
from typing import Any

from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn,
                           TimeRemainingColumn)

from aesoc.bench import BenchContext, BenchResult, Benchmark
from aesoc.common.toolchain import REPO, ToolError, set_jobs, set_status, set_verbose
from aesoc.sim.harness import set_reuse
from aesoc.sim.model import set_profile_guided

WIDTH = 60  # characters of a bar's description


def _git(*args: str) -> str:
    proc = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True)
    return proc.stdout.strip() if proc.returncode == 0 else ""


def payload(name: str, result: BenchResult, seconds: float, smoke: bool) -> dict[str, Any]:
    """What results/NAME.json holds: the result and which revision, when and how it ran."""
    return {
        "name": name,
        "git_revision": _git("rev-parse", "--short", "HEAD") or "unknown",
        "git_dirty": bool(_git("status", "--porcelain")),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "wall_seconds": round(seconds, 1),
        "smoke": smoke,
        **dataclasses.asdict(result),
    }


class Display:
    """Progress bars on a terminal; plain lines with --verbose or when output is not a terminal."""

    def __init__(self, verbose: bool, count: int) -> None:
        self.console = Console(stderr=True)
        self.lock = threading.Lock()
        self.bars: Progress | None = None
        if not verbose and self.console.is_terminal:
            self.bars = Progress(TextColumn(f"{{task.description:<{WIDTH}}}"), BarColumn(bar_width=24),
                                 MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("left"),
                                 TimeRemainingColumn(), console=self.console)
        self.tools: TaskID | None = None
        self.overall: TaskID | None = None
        self.count = count

    def __enter__(self) -> Display:
        if self.bars is not None:
            self.bars.start()
            self.overall = self.bars.add_task("all benchmarks", total=self.count)
            self.tools = self.bars.add_task("tools", total=None, visible=False)
        set_status(self.status)
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        set_status(lambda line: self.console.print(line, markup=False, highlight=False))
        if self.bars is not None:
            if self.tools is not None:
                self.bars.remove_task(self.tools)
            self.bars.stop()

    def line(self, text: str) -> None:
        with self.lock:
            self.console.print(text, markup=False, highlight=False)

    def status(self, text: str) -> None:
        """A tool flow's own progress line (synthesis and place-and-route jobs)."""
        if self.bars is not None and self.tools is not None:
            self.bars.update(self.tools, description=_fit(f"tools: {text.strip()}"), visible=True)
        else:
            self.line(text)

    def bench(self, name: str) -> Callable[[int, int, str], None]:
        """A progress callback for one benchmark (BenchContext.progress)."""
        if self.bars is None:
            return lambda done, total, what: self.line(f"  {name} [{done}/{total}] {what}")
        bars = self.bars
        task = bars.add_task(_fit(f"{name}: starting"), total=None)

        def update(done: int, total: int, what: str) -> None:
            bars.update(task, completed=done, total=max(total, 1), description=_fit(f"{name}: {what}"))

        return update

    def finished(self, name: str, seconds: float) -> None:
        if self.bars is not None and self.overall is not None:
            self.bars.advance(self.overall)
        else:
            self.line(f"bench {name}: done in {seconds:.0f} s")


def _fit(text: str) -> str:
    return text if len(text) <= WIDTH else text[: WIDTH - 1] + "…"


def run_all(registry: dict[str, Benchmark], names: list[str], results_dir: Path, *, jobs: int, smoke: bool,
            place: bool, verbose: bool, pgo: bool = True) -> None:
    """Run `names` side by side, write results_dir/NAME.json for each that finished; raise
    ToolError naming every one that failed (the others' results are still written)."""
    set_jobs(jobs)
    set_verbose(verbose)
    # A warm `aesoc bench` re-simulates nothing whose model, program and image are unchanged.
    set_reuse(True)
    # Full runs simulate millions of cycles: on the profile-guided models (same cycles, faster).
    # A smoke run's simulations are short, and the training would cost more than it saves.
    set_profile_guided(pgo and not smoke)
    try:
        _run_all(registry, names, results_dir, smoke=smoke, place=place, verbose=verbose)
    finally:
        set_reuse(False)
        set_profile_guided(False)


def _run_all(registry: dict[str, Benchmark], names: list[str], results_dir: Path, *, smoke: bool, place: bool,
             verbose: bool) -> None:
    failures: dict[str, str] = {}
    with Display(verbose, len(names)) as display:
        def one(name: str) -> None:
            progress = display.bench(name)
            start = time.monotonic()
            try:
                result = registry[name].run(BenchContext(results_dir=results_dir, progress=progress, smoke=smoke,
                                                            place=place))
            except ToolError as exc:
                failures[name] = str(exc)
                display.line(f"bench {name}: failed after {time.monotonic() - start:.0f} s")
                return
            seconds = time.monotonic() - start
            data = payload(name, result, seconds, smoke)
            (results_dir / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n")
            display.finished(name, seconds)

        with ThreadPoolExecutor(max_workers=max(1, len(names))) as pool:
            list(pool.map(one, names))
    if failures:
        raise ToolError("\n".join(f"benchmark {n} failed: {msg}" for n, msg in failures.items()))
