"""pytest entry: run the cocotb tests of aes_engine for every RTL variant (one build per variant).

The variants (six round datapaths, an encrypt-only and an XIP-style AES-128 CTR one, the compact
column-serial core with its encrypt-only, AES-128-only, table and block-RAM S-box builds and its
small-part builds with ECB and CTR-32 only, and four with GCM built in) are the engine unit's
variants in ip/aes/ip.toml. The GCM tests (cocotb_aes_gcm.py) run on
the variants with GhashBits > 0.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from aes_ip import VARIANTS, defines_of
from aesoc.sim.unit_tests import run_unit_tests
from aesoc.soc import ipblock

HERE = Path(__file__).resolve().parent
ENGINE = ipblock.block("aes").units["engine"]


def run(variant: str, *testcases: str, module: str = "cocotb_aes_engine") -> None:
    run_unit_tests(ENGINE, variant, module, HERE, *testcases, env="AES_VARIANT")


def test_tower_field_sbox_stays_under_test() -> None:
    """Only multi-round datapaths read their S-boxes as a table (ip.toml sim_defines); the
    tower-field S-box stays under the exhaustive and vector tests of one-round variants with and
    without decryption."""
    tabled = [n for n in VARIANTS if defines_of(n)]
    assert tabled and all(VARIANTS[n].get("RoundsPerCycle", 1) != 1 for n in tabled)
    tower = [VARIANTS[n] for n in VARIANTS if not defines_of(n) and VARIANTS[n].get("Datapath", 128) == 128]
    assert {p.get("DecEnable", 1) for p in tower} == {0, 1}


# Each pytest test is one simulator process; its checks share it (a cocotb process starts in
# about 0.4 CPU-s: Python, cocotb and the pytest it imports, the model), so a variant's checks run
# in two processes, not five.
@pytest.mark.parametrize("variant", VARIANTS)
def test_aes_vectors_timing_errors(variant: str) -> None:
    run(variant, "sbox_exhaustive", "fips197_appendix_c", "sp800_38a", "timing_constant", "one_block_per_mode",
        "clear_and_reset_zeroise", "error_cases")


# Masking = 2 is the leakage assessment's control ("r1-masked-prng-off", never a product): the masked
# datapath with its PRNG forced off. The CAVP files and the differential run go through that
# datapath with live masks ("r1-masked"); the control keeps the standard vectors, the timing,
# clear and error tests here and its leakage tests (test_aes_tvla.py).
PRODUCT_VARIANTS = [name for name, params in VARIANTS.items() if params.get("Masking", 0) != 2]


@pytest.mark.parametrize("variant", PRODUCT_VARIANTS)
def test_aes_cavp_differential(variant: str) -> None:
    run(variant, "cavp_known_answer", "cavp_multi_block", "differential_random")


GCM_VARIANTS = [name for name, params in VARIANTS.items() if params.get("GhashBits", 0)]


@pytest.mark.parametrize("variant", GCM_VARIANTS)
def test_aes_gcm_cavp(variant: str) -> None:
    run(variant, "gcm_cavp", module="cocotb_aes_gcm")


@pytest.mark.parametrize("variant", GCM_VARIANTS)
def test_aes_gcm_differential_timing_errors(variant: str) -> None:
    run(variant, "gcm_differential", "gcm_cycles_per_block", "gcm_errors", "gcm_clear_zeroises",
        module="cocotb_aes_gcm")
