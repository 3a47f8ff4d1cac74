"""docs/integration.md's claim that a user's top and exactly the files `aesoc shells --sources`
lists pass `verilator --lint-only -Wall` (issue 47, item 4): the marked command of section 2 runs
as printed, on the section's own example top."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from aesoc.common.toolchain import REPO, use_pinned_verilator, verilator_lock

DOC = REPO / "docs" / "integration.md"
MARKER = re.compile(r"<!-- test: tests/test_shell_sources.py::(\w+) -->\n```sh\n(.*?)```", re.S)


def _marked(test: str) -> str:
    found = [m[2] for m in MARKER.finditer(DOC.read_text()) if m[1] == test]
    assert len(found) == 1, f"docs/integration.md: {len(found)} sh blocks marked for {test}"
    return found[0]


def _top(name: str) -> str:
    found = [c for c in re.findall(r"```systemverilog\n(.*?)```", DOC.read_text(), re.S)
             if re.search(rf"^module\s+{name}\b", c, re.M)]
    assert len(found) == 1, f"{len(found)} systemverilog blocks define {name}"
    return found[0]


def _run(script: str, work: Path) -> subprocess.CompletedProcess[str]:
    use_pinned_verilator()  # the doc's reader has the pinned Verilator on PATH
    env = {**os.environ, "AESOC": str(REPO), "WORK": str(work), "PYTHONPATH": str(REPO)}
    with verilator_lock():
        return subprocess.run(["bash", "-c", "set -e\n" + script], capture_output=True, text=True, env=env,
                              cwd=work, check=False)


def test_lint_command_as_printed(tmp_path: Path) -> None:
    script = _marked("test_lint_command_as_printed")
    (tmp_path / "my_axil_system.sv").write_text(_top("my_axil_system"))
    proc = _run(script, tmp_path)
    assert proc.returncode == 0, f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    # The listing is what makes it pass: without its waiver files the same command warns.
    without = script.replace("sed -n 's/^  //p'", "sed -n 's/^  //p' | grep -v '[.]vlt$'")
    assert without != script, "the doc's command no longer takes the listing through sed"
    proc = _run(without, tmp_path)
    assert proc.returncode != 0 and "%Warning" in proc.stderr, "the listing's waivers changed nothing"
