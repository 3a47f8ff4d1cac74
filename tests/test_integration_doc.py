"""docs/integration.md is exercised as written: its SystemVerilog examples lint clean against the
generated shells, and its shell commands (generate, FuseSoC library, lint runs) succeed."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from aesoc import shells
from aesoc.toolchain import REPO, use_pinned_verilator, verilator_bin, verilator_lock

DOC = REPO / "docs" / "integration.md"


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", DOC.read_text(), re.S)


def _instantiated(code: str) -> str:
    """The aesoc shell a doc example instantiates."""
    names = {shells.shell_module(b, bus) for b in shells.shell_blocks() for bus in shells.BUSES}
    used = [m for m in re.findall(r"^\s+(\w+)\s*(?:#|\w+\s*\()", code, re.M) if m in names]
    assert len(used) == 1, f"example instantiates {used or 'no aesoc shell'}"
    return used[0]


@pytest.mark.parametrize("index", range(len(_blocks("systemverilog"))))
def test_sv_example_lints(index: int, tmp_path: Path) -> None:
    code = _blocks("systemverilog")[index]
    top = re.search(r"^module\s+(\w+)", code, re.M).group(1)
    shell = _instantiated(code)
    block, bus = shell.rsplit("_", 1)
    blk = next(b for b in shells.shell_blocks() if b.name == block)
    src = tmp_path / f"{top}.sv"
    src.write_text(code)
    cmd = [verilator_bin(), "--lint-only", "-Wall", "--top-module", top,
           *map(str, shells.lint_waivers(blk)), *map(str, shells.sources(blk, bus)), str(src)]
    with verilator_lock():
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr


def test_sh_commands_run(tmp_path: Path) -> None:
    """All `sh` blocks in order, in one shell, as a reader would type them."""
    (tmp_path / "my_axil_system.sv").write_text(_blocks("systemverilog")[0])
    (tmp_path / "top.core").write_text(_blocks("yaml")[0])
    use_pinned_verilator()  # the doc asks for the pinned Verilator on PATH
    fusesoc_bin = Path(sys.executable).parent
    env = {**os.environ, "AESOC": str(REPO), "WORK": str(tmp_path), "PYTHONPATH": str(REPO),
           "PATH": f"{os.environ['PATH']}{os.pathsep}{fusesoc_bin}"}
    script = "set -e\n" + "\n".join(_blocks("sh"))
    with verilator_lock():
        proc = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env, cwd=tmp_path,
                              check=False)
    assert proc.returncode == 0, f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    assert "aesoc:ip:aes:" in proc.stdout
