"""pytest entry: run the cocotb tests of sha_engine for every RTL variant (the engine unit of ip/sha/ip.toml)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aesoc.sim.cocotb_flow import run_cocotb
from sha_ip import RTL_SOURCES, VARIANTS, VERILATOR_ARGS

HERE = Path(__file__).resolve().parent


def run(variant: str, *testcases: str) -> None:
    params = VARIANTS[variant]
    run_cocotb(
        toplevel="sha_engine",
        sources=RTL_SOURCES,
        test_module="cocotb_sha_engine",
        test_dir=HERE,
        parameters=params,
        extra_env={"SHA_VARIANT": json.dumps(params)},
        build_args=VERILATOR_ARGS,
        testcase=list(testcases),
    )


@pytest.mark.parametrize("variant", VARIANTS)
def test_sha_cavp(variant: str) -> None:
    run(variant, "cavp_short_msg", "cavp_long_msg")


@pytest.mark.parametrize("variant", VARIANTS)
def test_sha_monte_carlo(variant: str) -> None:
    run(variant, "monte_carlo")


@pytest.mark.parametrize("variant", VARIANTS)
def test_sha_differential(variant: str) -> None:
    run(variant, "differential_random")


@pytest.mark.parametrize("variant", VARIANTS)
def test_sha_context_and_errors(variant: str) -> None:
    run(variant, "context_save_restore", "error_cases")


@pytest.mark.parametrize("variant", VARIANTS)
def test_sha_cycles_per_block(variant: str) -> None:
    run(variant, "cycles_per_block")
