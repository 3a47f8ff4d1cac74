"""Shared fixtures: the SoC model is built once per test session, firmware once per program; and
the order tests are handed out in, longest first, for `pytest -n auto` (pytest-xdist)."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from aesoc import cli
from aesoc.common import toolchain
from aesoc.common.toolchain import REPO, file_lock
from aesoc.sim import firmware, model
from aesoc.sim.harness import RunResult, run
from aesoc.soc import description

# The tests' tools (python3, aesoc, fusesoc, cocotb-config in the docs' recipes) are those of the
# environment that runs the tests, as in a shell that entered it (README, "make setup").
os.environ["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])

# Below the default (aesoc.common.outcome.DEFAULT_MAX_CYCLES): a hung self-test fails in seconds.
TEST_MAX_CYCLES = 5_000_000
# Each test's duration in the last run, kept in pytest's cache (.pytest_cache).
DURATIONS_KEY = "aesoc/durations"
# Each test's CPU seconds in the last run (.pytest_cache), and how many the summary lists.
CPU_KEY = "aesoc/cpu"
CPU_SUMMARY_TESTS = 25
# Without a previous run (a fresh clone, CI): durations measured once and checked in
# (tests/durations.json), used only to order the tests.
PRIOR_DURATIONS = Path(__file__).with_name("durations.json")


class LongestFirst:
    """Orders the tests and records their durations. A plugin, not conftest hooks: these must see
    the tests under ip/ as well as those under tests/."""

    def __init__(self) -> None:
        self.durations: dict[str, float] = {}
        self.cpu: dict[str, float] = {}

    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        """Longest first, for `pytest -n N --maxschedchunk 1` (the Makefile's command), except
        that the tests marked no_model come right after the longest one. pytest-xdist gives each
        worker two tests to start with, consecutive in this order, then one more whenever one
        finishes: so one worker starts the longest test, whose model builds hold the machine-wide
        Verilator lock for a minute or more, while the others run the tests that never wait for
        that lock (lint, synthesis) instead of waiting for it. The rest follow longest first:
        short ones fill the gaps, and the suite ends near max(longest test, total / N)."""
        known: dict[str, float] = json.loads(PRIOR_DURATIONS.read_text()) if PRIOR_DURATIONS.is_file() else {}
        cache = getattr(config, "cache", None)  # absent under `-p no:cacheprovider`
        if cache is not None:
            known.update(cache.get(DURATIONS_KEY, {}))
        items.sort(key=lambda item: known.get(item.nodeid, 0.0), reverse=True)
        if int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")) > 1:
            free = [item for item in items if item.get_closest_marker("no_model")]
            builds = [item for item in items if not item.get_closest_marker("no_model")]
            items[:] = [*builds[:1], *free, *builds[1:]]

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
        """In the process that ran the phase: its CPU seconds, that process's and its finished
        children's (tools, simulators), on the report, which xdist carries to the controller."""
        outcome = yield
        now = _cpu_seconds()
        start = getattr(item, "_aesoc_cpu_mark", None)
        if start is not None:
            outcome.get_result().user_properties.append(("cpu_s", now - start))
        item._aesoc_cpu_mark = now  # type: ignore[attr-defined]

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> Any:
        item._aesoc_cpu_mark = _cpu_seconds()  # type: ignore[attr-defined]
        yield

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        # Under xdist the controller receives every worker's reports; setup counts (model builds).
        if report.when in ("setup", "call"):
            self.durations[report.nodeid] = self.durations.get(report.nodeid, 0.0) + report.duration
            cpu = sum(v for k, v in report.user_properties if k == "cpu_s")
            self.cpu[report.nodeid] = self.cpu.get(report.nodeid, 0.0) + cpu

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        """The tests that used the most CPU (wall time, --durations, counts waits for the lock)."""
        if not self.cpu:
            return
        total = sum(self.cpu.values())
        terminalreporter.write_sep("=", f"CPU seconds by test (setup and call, tools included): {total:.0f} in all")
        for nodeid, cpu in sorted(self.cpu.items(), key=lambda kv: -kv[1])[:CPU_SUMMARY_TESTS]:
            terminalreporter.write_line(f"{cpu:8.1f}  {nodeid}")

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        config = session.config
        if getattr(config, "cache", None) is None or hasattr(config, "workerinput") or not self.durations:
            return
        known: dict[str, float] = config.cache.get(DURATIONS_KEY, {})
        config.cache.set(DURATIONS_KEY, {**known, **{k: round(v, 2) for k, v in self.durations.items()}})
        known_cpu: dict[str, float] = config.cache.get(CPU_KEY, {})
        config.cache.set(CPU_KEY, {**known_cpu, **{k: round(v, 2) for k, v in self.cpu.items()}})


def _cpu_seconds() -> float:
    """User and system CPU seconds of this process and of its children that have ended."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


class NoModelCheck:
    """A test marked no_model that reaches for the Verilator build lock fails (the mark orders the
    suite, so it must be true). A plugin for the same reason as LongestFirst."""

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Any:
        if item.get_closest_marker("no_model") is None:
            yield
            return

        @contextmanager
        def refused() -> Iterator[None]:
            raise AssertionError(f"{item.nodeid} is marked no_model but builds a Verilator model")
            yield

        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(toolchain, "verilator_lock", refused)
            yield


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(LongestFirst(), "aesoc-longest-first")
    config.pluginmanager.register(NoModelCheck(), "aesoc-no-model-check")


class SessionOnce:
    """Work of minutes done once per test session, however pytest-xdist spreads its users: each
    worker has session fixtures of its own, and a worker sets a module fixture up again whenever
    it switches module, which the longest-first order makes frequent. The first caller computes,
    under a lock, in the session's temp folder that all workers share; every caller reads the
    result (JSON) and the folder the work wrote into."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def __call__(self, name: str, compute: Callable[[Path], Any]) -> tuple[Path, Any]:
        folder, result = self.root / name, self.root / f"{name}.json"
        with file_lock(self.root / f"{name}.lock"):
            if not result.is_file():
                folder.mkdir(parents=True, exist_ok=True)
                result.write_text(json.dumps(compute(folder)))
        return folder, json.loads(result.read_text())


@pytest.fixture(scope="session")
def session_once(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> SessionOnce:
    base = tmp_path_factory.getbasetemp()
    # Under xdist each worker's base is a folder of the session's, which is new for each session.
    return SessionOnce(base if worker_id == "master" else base.parent)


@pytest.fixture(scope="session")
def bench_smoke(session_once: SessionOnce) -> Callable[[str], Path]:
    """The results folder of `aesoc bench NAME --smoke`, run once per test session (tests that
    read the folder must not write into it)."""

    def results(name: str) -> Path:
        # --place: what the placement records do not hold is placed (aes-core's smoke variant, the
        # fpga and fpga-soc smoke designs: seconds each); a smoke run never places a SoC.
        argv = ["bench", name, "--smoke", "--place", "--results"]
        folder, status = session_once(f"bench-smoke-{name}", lambda out: cli.main([*argv, str(out)]))
        assert status == 0, f"aesoc bench {name} --smoke exited {status}"
        return folder

    return results


@pytest.fixture(scope="session")
def base_config() -> description.SocConfig:
    return description.load_config("base")


@pytest.fixture(scope="session")
def sim(base_config: description.SocConfig) -> Path:
    return model.build_model(base_config)


@pytest.fixture(scope="session")
def build_fw(base_config: description.SocConfig) -> Callable[..., Path]:
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
