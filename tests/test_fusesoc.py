"""The generated FuseSoC cores (aesoc.fusesoc): fusesoc lists every aesoc core, and each core's
lint targets (Verilator lint-only -Wall, one per bus shell) pass under fusesoc."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from aesoc import fusesoc, shells
from aesoc.toolchain import BUILD, use_pinned_verilator, verilator_lock

WORK = BUILD / "fusesoc-work"
TARGETS = ["lint", *[f"lint_{bus}" for bus in shells.BUSES]]
BLOCKS = [b.name for b in shells.shell_blocks()]


def _fusesoc(*args: str) -> subprocess.CompletedProcess[str]:
    use_pinned_verilator()  # edalize calls `verilator` from PATH
    WORK.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "fusesoc.main", "--cores-root", str(fusesoc.OUT_DIR), *args]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=WORK, check=False)


def test_fusesoc_lists_every_core() -> None:
    fusesoc.generate()
    proc = _fusesoc("core", "list")
    assert proc.returncode == 0, proc.stderr
    listed = set(re.findall(r"^(aesoc:ip:\w+:[\d.]+)\s", proc.stdout, re.M))
    assert listed == {fusesoc.vlnv(b) for b in shells.shell_blocks()}, proc.stdout


@pytest.mark.parametrize("block", BLOCKS)
def test_fusesoc_lint_targets(block: str) -> None:
    fusesoc.generate()
    blk = next(b for b in shells.shell_blocks() if b.name == block)
    core = fusesoc.OUT_DIR / block / f"{block}.core"
    declared = re.findall(r"^  (lint\w*):$", core.read_text(), re.M)
    assert declared == TARGETS
    for target in declared:
        with verilator_lock():
            proc = _fusesoc("run", "--target", target, fusesoc.vlnv(blk))
        assert proc.returncode == 0, f"{target}:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
