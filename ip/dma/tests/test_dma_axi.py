# SPDX-License-Identifier: Apache-2.0
"""pytest entry: the cocotb tests of dma_axi (the DMA's AXI4 top, ip.toml [top.axi]), its lint
for every FIFO depth, and its Yosys elaboration."""

from __future__ import annotations

from pathlib import Path

import pytest

from aesoc.common.toolchain import BUILD
from aesoc.fpga.synth import elaborate_check
from aesoc.sim.cocotb_flow import run_cocotb
from aesoc.soc import ipblock
from aesoc.soc.lint import LINT_WAIVERS, lint_alt_top
from aesoc.soc.sources import alt_top_sources

HERE = Path(__file__).resolve().parent
DEPTH = 32


def sources() -> list[Path]:
    return alt_top_sources(ipblock.block("dma"), "axi")


def test_dma_axi() -> None:
    run_cocotb(
        toplevel="dma_axi",
        sources=[LINT_WAIVERS, *sources()],
        test_module="cocotb_dma_axi",
        test_dir=HERE,
        parameters={"FifoDepth": DEPTH},
        extra_env={"DMA_FIFO_DEPTH": str(DEPTH)},
        build_args=["--timescale", "1ns/1ps"],
    )


@pytest.mark.parametrize("depth", [16, 32, 64])
def test_dma_axi_lint(depth: int) -> None:
    lint_alt_top(ipblock.block("dma"), "axi", {"FifoDepth": depth})


def test_dma_axi_yosys_parse() -> None:
    elaborate_check("dma_axi", sources(), {"FifoDepth": DEPTH}, BUILD / "yosys-check" / "dma_axi")
