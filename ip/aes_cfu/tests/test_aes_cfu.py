"""pytest entry: the AES CFU's cocotb tests for each engine RoundsPerCycle used in SoC configs."""

from __future__ import annotations

from pathlib import Path

import pytest

from aesoc.cocotb_flow import run_cocotb
from aesoc.toolchain import REPO

HERE = Path(__file__).resolve().parent
AES_RTL = REPO / "ip" / "aes" / "rtl"
SOURCES = [
    AES_RTL / "aes_pkg.sv", *sorted(p for p in AES_RTL.glob("*.sv") if p.name != "aes_pkg.sv"),
    REPO / "ip" / "aes_cfu" / "rtl" / "aes_cfu.sv",
]


@pytest.mark.parametrize("rounds_per_cycle", [1])
def test_aes_cfu(rounds_per_cycle: int) -> None:
    run_cocotb(toplevel="aes_cfu", sources=SOURCES, test_module="cocotb_aes_cfu", test_dir=HERE,
               parameters={"RoundsPerCycle": rounds_per_cycle})
