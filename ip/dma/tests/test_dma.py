# SPDX-License-Identifier: Apache-2.0
"""pytest entry: the DMA cocotb tests on tb_dma.sv, one Verilator build per FIFO depth."""

from __future__ import annotations

from pathlib import Path

import pytest

from aesoc import regs
from aesoc.cocotb_flow import run_cocotb
from aesoc.toolchain import REPO

HERE = Path(__file__).resolve().parent
RTL = HERE.parent / "rtl"
RTL_FILES = ["dma_pkg.sv", "dma_arb.sv", "dma_fifo_ram.sv", "dma_chan_regs.sv", "dma_channel.sv", "dma_range_check.sv",
             "dma_rd_engine.sv", "dma_wr_engine.sv", "dma_core.sv", "dma_periph.sv", "dma_wb.sv"]
TB_FILES = ["tb_dma_mem.sv", "tb_dma_periph.sv", "tb_dma_traffic.sv", "tb_dma_wbmon.sv", "tb_dma.sv"]
XBAR = REPO / "ip" / "wb_xbar" / "rtl"

# Groups of cocotb tests (cocotb_dma.py), one pytest case each per FIFO depth.
GROUPS = {
    "registers": ["registers_and_config_lock", "interrupts", "interrupt_set_during_clear"],
    "mem_to_mem": ["mem_to_mem_modes", "burst_shapes", "random_wait_states", "throughput_mem_to_mem"],
    "peripheral": ["peripheral_paced", "prefetch_and_fifo_limit", "early_start", "fixed_stream"],
    "chains": ["descriptor_chains", "descriptor_errors"],
    "errors": ["setup_errors", "bus_errors_other_channels_continue", "abort_and_restart"],
    "arbitration": ["channel_priority_and_fairness", "crossbar_priority"],
    "counters": ["counters_match_testbench"],
}


def sources() -> list[Path]:
    block = regs.block("dma")
    regs.generate(block)
    # The project waivers cover the generated register block (struct-level false reports).
    return [REPO / "sim" / "waivers.vlt", RTL / "dma_pkg.sv", *block.sv_files, *(RTL / f for f in RTL_FILES[1:]),
            XBAR / "wb_xbar_arb.sv", XBAR / "wb_xbar.sv", *(HERE / f for f in TB_FILES)]


@pytest.mark.parametrize("group", GROUPS)
@pytest.mark.parametrize("depth", [16, 64])
def test_dma(depth: int, group: str) -> None:
    run_cocotb(
        toplevel="tb_dma",
        sources=sources(),
        test_module="cocotb_dma",
        test_dir=HERE,
        parameters={"FifoDepth": depth},
        extra_env={"DMA_FIFO_DEPTH": str(depth)},
        build_args=["--timescale", "1ns/1ps"],
        testcase=GROUPS[group],
    )
