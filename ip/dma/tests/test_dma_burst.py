# SPDX-License-Identifier: Apache-2.0
"""pytest entry: cocotb test of dma_burst (the engines' shared burst stepper) on its own."""

from __future__ import annotations

from pathlib import Path

from aesoc.sim.cocotb_flow import run_cocotb

HERE = Path(__file__).resolve().parent


def test_dma_burst() -> None:
    run_cocotb(
        toplevel="dma_burst",
        sources=[HERE.parent / "rtl" / "dma_burst.sv"],
        test_module="cocotb_dma_burst",
        test_dir=HERE,
        parameters={"CW": 2},
        build_args=["--timescale", "1ns/1ps"],
    )
