"""The generated FuseSoC cores (aesoc.fusesoc): fusesoc lists every aesoc core, each core's
lint targets (Verilator lint-only -Wall, one per bus shell and alternative top) pass under fusesoc, and its `sim`
target (edalize's sim flow: Verilator and cocotb on the Wishbone classic shell) runs the shell
tests and passes them. The other shells' sim targets are the same flow on another shell, run by
docs/integration.md's commands for the AXI4-Lite one."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

from aesoc import fusesoc, shells
from aesoc.toolchain import BUILD, use_pinned_verilator, verilator_lock

WORK = BUILD / "fusesoc-work"
TARGETS = ["lint", *[f"lint_{bus}" for bus in shells.BUSES]]
SIM_TARGETS = ["sim", *[f"sim_{bus}" for bus in shells.BUSES]]
BLOCKS = [b.name for b in shells.shell_blocks()]


def _fusesoc(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    use_pinned_verilator()  # edalize calls `verilator` from PATH
    WORK.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "fusesoc.main", "--cores-root", str(fusesoc.OUT_DIR), *args]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=WORK, check=False,
                          env={**os.environ, **(env or {})})


def _gpi_users() -> str:
    """cocotb 2.1 loads Python through GPI_USERS, which edalize 0.6.8's sim flow does not set."""
    def config(flag: str) -> str:
        return subprocess.run([sys.executable, "-m", "cocotb_tools.config", flag], capture_output=True,
                              text=True, check=True).stdout.strip()
    return f"{config('--libpython')};{config('--pygpi-entry-point')}"


def _outcomes(results: Path) -> dict[str, str]:
    """cocotb's JUnit file: test name -> passed, skipped or failed."""
    outcomes = {}
    for case in ElementTree.parse(results).getroot().iter("testcase"):
        tags = {child.tag for child in case}
        outcomes[case.get("name", "?")] = ("failed" if tags & {"failure", "error"} else
                                           "skipped" if "skipped" in tags else "passed")
    return outcomes


def test_fusesoc_lists_every_core() -> None:
    fusesoc.generate()
    proc = _fusesoc("core", "list")
    assert proc.returncode == 0, proc.stderr
    listed = set(re.findall(r"^(aesoc:ip:\w+:[\d.]+)\s", proc.stdout, re.M))
    assert listed == {fusesoc.vlnv(b) for b in shells.shell_blocks()}, proc.stdout


@pytest.mark.no_model
@pytest.mark.parametrize("block", BLOCKS)
def test_fusesoc_lint_targets(block: str) -> None:
    fusesoc.generate()
    blk = next(b for b in shells.shell_blocks() if b.name == block)
    core = fusesoc.OUT_DIR / block / f"{block}.core"
    declared = re.findall(r"^  (lint\w*):$", core.read_text(), re.M)
    assert declared == [*TARGETS, *[f"lint_top_{name}" for name in blk.tops]]
    for target in declared:  # a lint is one short process, not a build: no Verilator lock
        proc = _fusesoc("run", "--target", target, fusesoc.vlnv(blk))
        assert proc.returncode == 0, f"{target}:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"


@pytest.mark.parametrize("block", BLOCKS)
def test_fusesoc_sim_target(block: str) -> None:
    fusesoc.generate()
    blk = next(b for b in shells.shell_blocks() if b.name == block)
    core = fusesoc.OUT_DIR / block / f"{block}.core"
    assert re.findall(r"^  (sim\w*):$", core.read_text(), re.M) == SIM_TARGETS
    run_dir = WORK / "build" / fusesoc.vlnv(blk).replace(":", "_") / "sim"
    results = run_dir / "results.xml"
    results.unlink(missing_ok=True)  # a stale file must not pass a run that ended early
    # The build under the machine-wide lock, the simulation (a second or two) after it.
    with verilator_lock():
        proc = _fusesoc("run", "--setup", "--build", "--target", "sim", fusesoc.vlnv(blk))
    assert proc.returncode == 0, f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    # Built as the core says (aesoc.fusesoc.SIM_*_OPTIONS): modules not inlined, one compile unit.
    assert re.search(r"^\s*make_options: \[-j\d+, VM_PARALLEL_BUILDS=0\]", core.read_text(), re.M)
    assert "-fno-inline" in (run_dir / f"{run_dir.parent.name}.vc").read_text().split()
    assert (run_dir / "Vtop__ALL.o").is_file() and not list(run_dir.glob("Vtop___024root__*.o"))
    proc = _fusesoc("run", "--run", "--target", "sim", fusesoc.vlnv(blk), env={"GPI_USERS": _gpi_users()})
    assert proc.returncode == 0, f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    outcomes = _outcomes(results)
    assert "failed" not in outcomes.values(), outcomes
    assert {"registers", "unmapped"} <= {name for name, o in outcomes.items() if o == "passed"}, outcomes
