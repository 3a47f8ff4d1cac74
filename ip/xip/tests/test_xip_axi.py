# SPDX-License-Identifier: Apache-2.0
"""pytest entry: the cocotb tests of xip_axi (the XIP controller's AXI4 top, ip.toml [top.axi])
with the qspi_flash model, its lint for both Integrity settings, and its Yosys elaboration."""

from __future__ import annotations

from pathlib import Path

import pytest

from aesoc.common.toolchain import BUILD, REPO
from aesoc.fpga.synth import elaborate_check
from aesoc.sim.cocotb_flow import run_cocotb
from aesoc.soc import ipblock
from aesoc.soc.lint import lint_alt_top
from aesoc.soc.sources import alt_top_sources

TESTS = Path(__file__).resolve().parent
# Read by the tests below the test bench besides registers (run_cocotb's `public`).
PUBLIC = ("qspi_flash:err_count",)


def sources() -> list[Path]:
    return alt_top_sources(ipblock.block("xip"), "axi")


def test_xip_axi() -> None:
    run_cocotb(
        toplevel="tb_xip_axi",
        sources=[TESTS / "waivers.vlt", REPO / "sim" / "waivers.vlt", *sources(),
                 *ipblock.block("qspi_flash").rtl, TESTS / "tb_xip_axi.sv"],
        test_module="cocotb_xip_axi",
        test_dir=TESTS,
        parameters={"PrefetchWords": 16},
        build_args=["--timescale", "1ns/1ps", "--assert", "-DASSERT_ON"],
        defines=ipblock.block("xip").test_define_values,
        extra_env={"XIP_PREFETCH_WORDS": "16"},
        public=PUBLIC,
    )


@pytest.mark.parametrize("integrity", [0, 1])
def test_xip_axi_lint(integrity: int) -> None:
    lint_alt_top(ipblock.block("xip"), "axi", {"Integrity": integrity})


def test_xip_axi_yosys_parse() -> None:
    elaborate_check("xip_axi", sources(), {}, BUILD / "yosys-check" / "xip_axi")
