"""Block-test models (aesoc.cocotb_flow) are rebuilt exactly when what they are built from changes."""

from __future__ import annotations

import re
from typing import Any

import pytest

from aesoc import cocotb_flow
from aesoc.cocotb_flow import TEST_MODEL_ARGS, build_dir_for, run_cocotb
from aesoc.toolchain import LOGS, REPO

GATE = REPO / "ip" / "clock_gate"
# A define of its own: this test's model has its own build folder, which no other test runs from.
DEFINES = {"AESOC_REBUILD_CHECK": 1}


def _run(**more: Any) -> None:
    run_cocotb(toplevel="clock_gate", sources=[GATE / "rtl" / "clock_gate.sv"], test_module="cocotb_clock_gate",
               test_dir=GATE / "tests", defines=DEFINES, extra_env={"CLOCK_GATE_GATED": "0"}, **more)


def test_changed_build_flags_rebuild_the_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """A change of the model's C++ optimisation alone, which reaches only make (no source and no
    Verilator argument changed, so make would keep every object), builds the model again; an
    unchanged request does not."""
    folder = build_dir_for("clock_gate", {}, DEFINES)
    model = folder / "clock_gate"
    _run()
    built = model.stat().st_mtime_ns
    _run()
    assert model.stat().st_mtime_ns == built, "an unchanged model was built again"
    monkeypatch.setattr(cocotb_flow, "TEST_MODEL_OPT", "-O0")
    _run()
    assert model.stat().st_mtime_ns != built, "a new optimisation level did not rebuild the model"
    log = (LOGS / f"cocotb-{folder.name}-build.log").read_text()
    assert re.search(r"c\+\+ .*-O0 .*-c -o Vtop__ALL\.o", log), log[-2000:]


def test_block_models_are_not_inlined() -> None:
    """The choice measured in aesoc.cocotb_flow reaches Verilator: a model built here keeps its
    modules as classes of their own."""
    _run()
    command = (build_dir_for("clock_gate", {}, DEFINES) / "Vtop__verFiles.dat").read_text()
    assert all(arg in command for arg in TEST_MODEL_ARGS), command[:500]
