"""Shared fixtures: the SoC model is built once per test session, firmware once per program; and
the order tests are handed out in, longest first, for `pytest -n auto` (pytest-xdist)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from aesoc import firmware, soc
from aesoc.run import RunResult, run
from aesoc.toolchain import REPO


# Below the default (aesoc.outcome.DEFAULT_MAX_CYCLES): a hung self-test fails in seconds.
TEST_MAX_CYCLES = 5_000_000
# Each test's duration in the last run, kept in pytest's cache (.pytest_cache).
DURATIONS_KEY = "aesoc/durations"
# Without a previous run (a fresh clone, CI): the benchmark smoke runs, minutes each, go first.
LONG_WITHOUT_HISTORY = ("tests/test_bench_smoke.py::",)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Longest first. pytest-xdist hands tests out in this order (the first batch round robin), so
    the long ones start at once on every worker and the short ones fill the gaps; the suite then
    ends near max(longest test, total / workers) instead of with one worker running a long tail."""
    known: dict[str, float] = config.cache.get(DURATIONS_KEY, {}) if config.cache else {}

    def weight(item: pytest.Item) -> float:
        if item.nodeid in known:
            return known[item.nodeid]
        return float("inf") if item.nodeid.startswith(LONG_WITHOUT_HISTORY) else 0.0

    items.sort(key=weight, reverse=True)


_durations: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    # Under xdist the controller receives every worker's reports; setup counts (model builds).
    if report.when in ("setup", "call"):
        _durations[report.nodeid] = _durations.get(report.nodeid, 0.0) + report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    config = session.config
    if config.cache is None or hasattr(config, "workerinput") or not _durations:
        return
    known: dict[str, float] = config.cache.get(DURATIONS_KEY, {})
    config.cache.set(DURATIONS_KEY, {**known, **{k: round(v, 2) for k, v in _durations.items()}})


@pytest.fixture(scope="session")
def base_config() -> soc.SocConfig:
    return soc.load_config("base")


@pytest.fixture(scope="session")
def sim(base_config: soc.SocConfig) -> Path:
    return soc.build_model(base_config)


@pytest.fixture(scope="session")
def build_fw(base_config: soc.SocConfig) -> Callable[..., Path]:
    def build(program: str, **kwargs: object) -> Path:
        return firmware.build(REPO / "fw" / program, base_config, **kwargs).elf  # type: ignore[arg-type]

    return build


@pytest.fixture(scope="session")
def run_fw(sim: Path, build_fw: Callable[..., Path]) -> Callable[..., RunResult]:
    def go(program: str, max_cycles: int = TEST_MAX_CYCLES) -> RunResult:
        return run(sim, build_fw(program), max_cycles=max_cycles)

    return go


def host_c_values(tmp_path: Path, names: Sequence[str], headers: Sequence[str],
                  includes: Sequence[Path]) -> dict[str, int]:
    """Compile and run a host program that prints each C constant `names` (what a compiler sees
    of the generated headers)."""
    src = tmp_path / "values.c"
    lines = ["#include <stdio.h>", *[f'#include "{h}"' for h in headers], "int main(void) {"]
    lines += [f'  printf("%s %ld\\n", "{n}", (long)({n}));' for n in names]
    src.write_text("\n".join([*lines, "  return 0;", "}", ""]))
    exe = tmp_path / "values"
    subprocess.run(["cc", "-std=gnu11", "-Wall", "-Werror", *[f"-I{d}" for d in includes], str(src), "-o", str(exe)],
                   check=True, capture_output=True, text=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    return {name: int(value) for name, value in (line.split() for line in out.splitlines())}
