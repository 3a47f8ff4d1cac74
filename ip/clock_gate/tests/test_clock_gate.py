# SPDX-License-Identifier: Apache-2.0
"""pytest entry for the clock gate's cocotb tests, in the simulation build (gated) and as the
wire that synthesis and the other builds see."""

from __future__ import annotations

from pathlib import Path

import pytest

from aesoc.sim.cocotb_flow import run_cocotb

TESTS = Path(__file__).resolve().parent


@pytest.mark.parametrize("gated", [True, False], ids=["gated", "wire"])
def test_clock_gate(gated: bool) -> None:
    run_cocotb(
        toplevel="clock_gate",
        sources=[TESTS.parent / "rtl" / "clock_gate.sv"],
        test_module="cocotb_clock_gate",
        test_dir=TESTS,
        defines={"AESOC_SIM_CLOCK_GATES": 1} if gated else None,
        extra_env={"CLOCK_GATE_GATED": "1" if gated else "0"},
    )
