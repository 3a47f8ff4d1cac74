"""Block-test models (aesoc.sim.cocotb_flow) are rebuilt exactly when what they are built from changes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from aesoc.common.toolchain import LOGS, REPO, ToolError
from aesoc.sim import cocotb_flow
from aesoc.sim.cocotb_flow import TEST_MODEL_ARGS, build_dir_for, run_cocotb

GATE = REPO / "ip" / "clock_gate"


def _run(folder_tag: str, **more: Any) -> Path:
    """Build (if needed) and run the clock gate's tests in a build folder of this test's own (a
    define no RTL reads), which no other test, on this worker or another, runs from; return it."""
    defines = {folder_tag: 1}
    run_cocotb(toplevel="clock_gate", sources=[GATE / "rtl" / "clock_gate.sv"], test_module="cocotb_clock_gate",
               test_dir=GATE / "tests", defines=defines, extra_env={"CLOCK_GATE_GATED": "0"}, **more)
    return build_dir_for("clock_gate", {}, defines)


def test_changed_build_flags_rebuild_the_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """A change of the model's C++ optimisation alone, which reaches only make (no source and no
    Verilator argument changed, so make would keep every object), builds the model again; an
    unchanged request does not."""
    folder = _run("AESOC_REBUILD_CHECK")
    model = folder / "clock_gate"
    built = model.stat().st_mtime_ns
    _run("AESOC_REBUILD_CHECK")
    assert model.stat().st_mtime_ns == built, "an unchanged model was built again"
    monkeypatch.setattr(cocotb_flow, "TEST_MODEL_OPT", "-O0")
    _run("AESOC_REBUILD_CHECK")
    assert model.stat().st_mtime_ns != built, "a new optimisation level did not rebuild the model"
    log = (LOGS / f"cocotb-{folder.name}-build.log").read_text()
    assert re.search(r"[cg]\+\+ .*-O0 .*-c -o Vtop__ALL\.o", log), log[-2000:]


def test_block_models_are_not_inlined() -> None:
    """The choice measured in aesoc.sim.cocotb_flow (-fno-inline) is on the command line Verilator
    recorded for a block-test model."""
    command = (_run("AESOC_INLINE_CHECK") / "Vtop__verFiles.dat").read_text()
    assert all(arg in command for arg in TEST_MODEL_ARGS), command[:500]


def test_parameters_spelled_at_their_defaults_share_a_model() -> None:
    """A caller that passes a configuration's whole parameter set (defaults included) gets the
    model of one that passes only what differs; a default the parser cannot read as an integer
    literal (an expression) stays in the key, so no two designs ever share a folder."""
    engine = [REPO / "ip" / "aes" / "tests" / "tb_aes_engine.sv"]
    spelled = {"RoundsPerCycle": 1, "Pipelined": 0, "DecEnable": 1, "KeyLenMax": 256, "GhashBits": 16}
    assert build_dir_for("tb_aes_engine", spelled, sources=engine) == \
        build_dir_for("tb_aes_engine", {"GhashBits": 16}, sources=engine)
    assert build_dir_for("tb_aes_engine", {"GhashBits": 0, "Pipelined": False}, sources=engine).name == "default"
    assert build_dir_for("tb_aes_engine", {"KeyLenMax": 128}, sources=engine).name == "KeyLenMax128"
    xip = [REPO / "ip" / "xip" / "tests" / "tb_xip.sv"]
    assert build_dir_for("tb_xip", {"ModelBytes": 1024 * 1024, "VerifiedLines": 4}, sources=xip).name == \
        f"ModelBytes{1024 * 1024}"


def test_tests_reach_the_toplevel_registers_and_named_signals_only() -> None:
    """A block-test model makes public the toplevel's signals, every register and the signals the
    test names (run_cocotb's `public`), and leaves the rest to Verilator (cocotb_flow.public_config):
    the cocotb side reads each of the first with its value and finds no other."""
    data = REPO / "tests" / "data"
    run_cocotb(toplevel="public_top", sources=[data / "public_top.sv", data / "public_sub.sv"],
               test_module="cocotb_public", test_dir=data, public=["public_sub:named"])


def test_a_public_signal_is_named_with_its_module() -> None:
    with pytest.raises(ToolError, match="module:signal"):
        cocotb_flow.public_config("public_top", ["named"])
