# SPDX-License-Identifier: Apache-2.0
"""pytest entry: the cocotb tests of axi_master (the shared AXI4 burst master), its lint, its
Yosys elaboration and its logic depth against the manifest's ceiling."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from aesoc.common.toolchain import BUILD, verilator_bin
from aesoc.fpga import depth
from aesoc.fpga.design import Design
from aesoc.fpga.synth import elaborate_check
from aesoc.sim.cocotb_flow import run_cocotb
from aesoc.soc import ipblock

HERE = Path(__file__).resolve().parent


def sources() -> list[Path]:
    return list(ipblock.block("axi_master").rtl)


def test_axi_master() -> None:
    run_cocotb(
        toplevel="axi_master",
        sources=sources(),
        test_module="cocotb_axi_master",
        test_dir=HERE,
        build_args=["--timescale", "1ns/1ps"],
    )


@pytest.mark.parametrize("id_width", [1, 4])
def test_axi_master_lint(id_width: int) -> None:
    proc = subprocess.run([verilator_bin(), "--lint-only", "-Wall", "--top-module", "axi_master",
                           f"-GIdWidth={id_width}", *map(str, sources())], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_axi_master_yosys_parse() -> None:
    elaborate_check("axi_master", sources(), {}, BUILD / "yosys-check" / "axi_master")


def test_axi_master_within_its_ceiling() -> None:
    block = ipblock.block("axi_master")
    found = depth.depth(Design("axi_master", "axi_master", tuple(sources()), ()), write_store=False)
    assert block.max_lut_levels is not None and found.levels <= block.max_lut_levels, (
        f"{found.levels} LUT levels, ceiling {block.max_lut_levels}: {found.start} -> {found.end} {found.cells}")
