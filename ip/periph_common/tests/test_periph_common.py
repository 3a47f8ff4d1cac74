# SPDX-License-Identifier: Apache-2.0
"""pytest entry for the shared peripheral parts' cocotb tests: the FIFO at the depths and widths
the AES and SHA peripherals build (1 and a non-power-of-two depth included), the interrupt line
at the widths the AES/SHA, DMA and XIP peripherals use, and the clock-gating hint's term."""

from __future__ import annotations

from pathlib import Path

import pytest

from aesoc.sim.cocotb_flow import run_cocotb

TESTS = Path(__file__).resolve().parent
RTL = TESTS.parent / "rtl"


@pytest.mark.parametrize(("depth", "width"), [(1, 8), (2, 128), (3, 32), (16, 32)],
                         ids=["d1-w8", "d2-w128", "d3-w32", "d16-w32"])
def test_periph_fifo(depth: int, width: int) -> None:
    run_cocotb(
        toplevel="periph_fifo",
        sources=[RTL / "periph_fifo.sv"],
        test_module="cocotb_periph_fifo",
        test_dir=TESTS,
        parameters={"Depth": depth, "Width": width},
        extra_env={"PERIPH_FIFO_DEPTH": str(depth), "PERIPH_FIFO_WIDTH": str(width)},
    )


@pytest.mark.parametrize("width", [1, 3, 5])
def test_periph_irq(width: int) -> None:
    run_cocotb(
        toplevel="periph_irq",
        sources=[RTL / "periph_irq.sv"],
        test_module="cocotb_periph_irq",
        test_dir=TESTS,
        parameters={"Width": width},
        extra_env={"PERIPH_IRQ_WIDTH": str(width)},
    )


def test_periph_idle() -> None:
    run_cocotb(
        toplevel="periph_idle",
        sources=[RTL / "periph_idle.sv"],
        test_module="cocotb_periph_idle",
        test_dir=TESTS,
    )
