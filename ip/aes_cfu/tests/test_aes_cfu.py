"""pytest entry: the AES CFU's cocotb tests for each engine RoundsPerCycle used in SoC configs."""

from __future__ import annotations

from pathlib import Path

from aesoc.cocotb_flow import run_cocotb
from aesoc.toolchain import REPO

HERE = Path(__file__).resolve().parent
AES_RTL = REPO / "ip" / "aes" / "rtl"
SOURCES = [
    AES_RTL / "aes_pkg.sv", *sorted(p for p in AES_RTL.glob("*.sv") if p.name != "aes_pkg.sv"),
    REPO / "ip" / "aes_cfu" / "rtl" / "aes_cfu.sv",
]


def test_aes_cfu() -> None:
    run_cocotb(toplevel="aes_cfu", sources=SOURCES, test_module="cocotb_aes_cfu", test_dir=HERE,
               parameters={"RoundsPerCycle": 1, "CoarseOps": 1}, extra_env={"AES_CFU_COARSE": "1"})


def test_aes_cfu_round_ops_only() -> None:
    run_cocotb(toplevel="aes_cfu", sources=SOURCES, test_module="cocotb_aes_cfu", test_dir=HERE,
               parameters={"RoundsPerCycle": 1, "CoarseOps": 0}, extra_env={"AES_CFU_COARSE": "0"},
               testcase=["zkn_round_ops_match_spec", "zkn_ops_back_to_back", "coarse_ops_refused_without_engine"])
