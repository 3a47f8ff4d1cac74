"""pytest entry: run the cocotb tests of sha_engine for every RTL variant (the engine unit of ip/sha/ip.toml)."""

from __future__ import annotations

from pathlib import Path

import pytest

from aesoc.sim.unit_tests import run_unit_tests
from aesoc.soc import ipblock
from sha_ip import VARIANTS

HERE = Path(__file__).resolve().parent
ENGINE = ipblock.block("sha").units["engine"]


def run(variant: str, *testcases: str) -> None:
    run_unit_tests(ENGINE, variant, "cocotb_sha_engine", HERE, *testcases, env="SHA_VARIANT")


# Each pytest test is one simulator process (about 0.4 CPU-s to start: Python, cocotb and the
# pytest it imports, the model); a variant's short checks share one.
@pytest.mark.parametrize("variant", VARIANTS)
def test_sha_cavp_differential(variant: str) -> None:
    run(variant, "cavp_short_msg", "cavp_long_msg", "differential_random")


@pytest.mark.parametrize("variant", VARIANTS)
def test_sha_monte_carlo(variant: str) -> None:
    run(variant, "monte_carlo")


@pytest.mark.parametrize("variant", VARIANTS)
def test_sha_context_errors_cycles(variant: str) -> None:
    run(variant, "context_save_restore", "error_cases", "cycles_per_block")
