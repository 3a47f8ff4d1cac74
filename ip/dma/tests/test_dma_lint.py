# SPDX-License-Identifier: Apache-2.0
"""Static checks of the DMA RTL: Verilator -Wall lint (only the project's waivers for the generated
register block) and read/elaborate with the pinned Yosys for every FIFO depth."""

from __future__ import annotations

import subprocess

import pytest

from aesoc.common.toolchain import BUILD, REPO, verilator_bin
from aesoc.fpga.synth import elaborate_check
from aesoc.soc import ipblock
from aesoc.soc.sources import ip_sources

from test_dma import sources

pytestmark = pytest.mark.no_model

WAIVERS = REPO / "sim" / "waivers.vlt"
DEPTHS = [16, 32, 64]


def rtl_sources():
    """The DMA's RTL as its manifest lists it (with the shared bus bridge and the register block)."""
    return ip_sources(ipblock.block("dma"))


@pytest.mark.parametrize("depth", DEPTHS)
def test_dma_verilator_lint(depth: int) -> None:
    for top, srcs in (("dma_wb", rtl_sources()), ("tb_dma", sources())):
        cmd = [verilator_bin(), "--lint-only", "-Wall", "--timescale", "1ns/1ps", f"-GFifoDepth={depth}",
               "--top-module", top, str(WAIVERS), *(str(f) for f in srcs if f.suffix != ".vlt")]
        # Not under verilator_lock: a lint is one short single-threaded process, not a build.
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        assert proc.returncode == 0, f"{top}:\n{proc.stderr}"


@pytest.mark.parametrize("depth", DEPTHS)
def test_dma_yosys_parse(depth: int) -> None:
    elaborate_check("dma_wb", rtl_sources(), {"FifoDepth": depth}, BUILD / "yosys-check" / "dma" / str(depth))
