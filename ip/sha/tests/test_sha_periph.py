"""pytest entry: the register-level cocotb tests of sha_periph, for every engine variant and a
shallow FIFO (generated register block from ip/sha/data/sha.rdl)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aesoc.common.toolchain import REPO
from aesoc.sim.cocotb_flow import run_cocotb
from aesoc.soc import ipblock
from aesoc.soc.sources import ip_sources
from sha_ip import VARIANTS, VERILATOR_ARGS

HERE = Path(__file__).resolve().parent
PERIPH_VARIANTS = {**VARIANTS, "sha512-depth4": {"Sha512Enable": 1, "InDepth": 4}}


def sources() -> list[Path]:
    # The project waivers cover the generated register block only.
    return [REPO / "sim" / "waivers.vlt", *ip_sources(ipblock.block("sha"))]


@pytest.mark.parametrize("variant", PERIPH_VARIANTS)
def test_sha_periph(variant: str) -> None:
    params = PERIPH_VARIANTS[variant]
    run_cocotb(
        toplevel="sha_periph",
        sources=sources(),
        test_module="cocotb_sha_periph",
        test_dir=HERE,
        parameters=params,
        extra_env={"SHA_VARIANT": json.dumps(params)},
        build_args=VERILATOR_ARGS,
    )
