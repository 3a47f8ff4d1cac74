# SPDX-License-Identifier: Apache-2.0
"""pytest entry: the DMA cocotb tests on tb_dma.sv, one Verilator build per FIFO depth."""

from __future__ import annotations

from pathlib import Path

import pytest

from aesoc.common.toolchain import REPO
from aesoc.sim.cocotb_flow import run_cocotb
from aesoc.soc import ipblock
from aesoc.soc.sources import ip_sources

HERE = Path(__file__).resolve().parent
RTL = HERE.parent / "rtl"
TB_FILES = ["tb_dma_mem.sv", "tb_dma_periph.sv", "tb_dma_traffic.sv", "tb_dma_wbmon.sv", "tb_dma.sv"]

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
    # The project waivers cover the generated register block (struct-level false reports); the
    # DMA's and the crossbar's RTL come from their manifests (ip/*/ip.toml).
    return [REPO / "sim" / "waivers.vlt", *ip_sources(ipblock.block("dma")), *ipblock.block("wb_xbar").rtl,
            *(HERE / f for f in TB_FILES)]


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
