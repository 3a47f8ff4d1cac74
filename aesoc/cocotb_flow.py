"""Run a cocotb test module against RTL with the pinned Verilator.

Every block-level test calls `run_cocotb` from its pytest function. The build directory is keyed
by toplevel and parameter set, so parametrised runs do not rebuild each other, and builds are
serialised by the Verilator lock.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from aesoc.toolchain import (LOGS, BUILD, ToolError, log_tail, tool_slot, use_pinned_verilator, verilator_lock, verbose,
                             worker_suffix)


def build_dir_for(
    toplevel: str, parameters: Mapping[str, object], defines: Mapping[str, object] | None = None
) -> Path:
    items = [*sorted(parameters.items()), *sorted((f"D{k}", v) for k, v in (defines or {}).items())]
    tag = "_".join(f"{k}{v}" for k, v in items) or "default"
    return BUILD / "cocotb" / toplevel / tag


def run_cocotb(
    *,
    toplevel: str,
    sources: Sequence[Path],
    test_module: str,
    test_dir: Path,
    parameters: Mapping[str, object] | None = None,
    defines: Mapping[str, object] | None = None,
    extra_env: Mapping[str, str] | None = None,
    build_args: Sequence[str] = (),
    testcase: Sequence[str] | None = None,
) -> None:
    """Build (if needed) and run one cocotb module; raise if any cocotb test failed. Preprocessor
    `defines` (e.g. a gate-level build of a harness) get their own build directory."""
    use_pinned_verilator()
    from cocotb_tools.runner import get_runner

    params = dict(parameters or {})
    build_dir = build_dir_for(toplevel, params, defines)
    runner = get_runner("verilator")
    # The runner's own output (Verilator and compiler command lines, the simulator's log) goes to
    # build/logs/, unless --verbose asked for everything.
    LOGS.mkdir(parents=True, exist_ok=True)
    build_log = None if verbose() else LOGS / f"cocotb-{build_dir.name}-build.log"
    # Two processes (pytest-xdist workers) may run tests of one build at once: each keeps its own
    # test log and results file.
    test_log = None if verbose() else LOGS / f"cocotb-{build_dir.name}-{test_module}{worker_suffix()}.log"
    try:
        with verilator_lock():
            runner.build(
                sources=[str(s) for s in sources],
                hdl_toplevel=toplevel,
                parameters=params,
                defines=dict(defines or {}),
                build_dir=str(build_dir),
                build_args=["-Wall", "--x-assign", "unique", "--x-initial", "unique", *build_args],
                always=False,
                log_file=build_log,
            )
    except (Exception, SystemExit) as exc:
        raise ToolError(f"cocotb build of {toplevel} failed ({exc}); "
                        + (log_tail(build_log) if build_log else "output above")) from exc
    build_dir.mkdir(parents=True, exist_ok=True)
    fd, results_xml = tempfile.mkstemp(dir=build_dir, prefix=f"results_{test_module}.", suffix=".xml")
    os.close(fd)
    with tool_slot():
        results = runner.test(
            hdl_toplevel=toplevel,
            test_module=test_module,
            test_dir=str(test_dir),
            build_dir=str(build_dir),
            extra_env=dict(extra_env or {}),
            testcase=list(testcase) if testcase else None,
            results_xml=results_xml,
            log_file=test_log,
        )
    try:
        _raise_on_failure(Path(results), test_log)
    finally:
        Path(results_xml).unlink(missing_ok=True)


def _raise_on_failure(results_xml: Path, log: Path | None = None) -> None:
    import xml.etree.ElementTree as ET

    root = ET.parse(results_xml).getroot()
    cases = list(root.iter("testcase"))
    if not cases:
        raise AssertionError(f"cocotb ran no test ({results_xml})")
    failed = [c.get("name") for c in cases if c.find("failure") is not None or c.find("error") is not None]
    if failed:
        raise AssertionError(f"cocotb tests failed: {', '.join(str(f) for f in failed)}"
                             + (f"; {log_tail(log)}" if log else ""))
