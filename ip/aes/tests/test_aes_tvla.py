"""Smoke leakage assessment (aesoc bench tvla, ip/aes/tests/tvla_harness.cpp): at a few thousand
fixed-vs-random traces the unmasked engine and the masked one with its PRNG forced off exceed
|t| = 4.5 at first order, and the masked engine with its PRNG on stays under it."""

from __future__ import annotations

from pathlib import Path

import pytest

from aesoc.bench.tvla import SMOKE_TRACES, THRESHOLD, assess


@pytest.mark.parametrize("variant", ["r1", "r1-masked-prng-off"])
def test_tvla_unprotected_leaks(variant: str, tmp_path: Path) -> None:
    result = assess(variant, SMOKE_TRACES, tmp_path)
    assert result.traces == SMOKE_TRACES and result.flip_flops > 1000
    assert result.max_t1 > THRESHOLD, f"{variant}: max |t| {result.max_t1:.2f} at order 1"


def test_tvla_masked_passes_first_order(tmp_path: Path) -> None:
    result = assess("r1-masked", SMOKE_TRACES, tmp_path)
    assert result.traces == SMOKE_TRACES and result.window > 100
    # Every checkpoint of the curve, not only the last, stays under the line.
    assert all(t1 < THRESHOLD for _, t1, _ in result.curve), result.curve
