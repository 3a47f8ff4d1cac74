"""The masked AES engine behind the memory-mapped peripheral (SoC configuration `full-masked`,
aes.Masking = 1): its C driver reseeds the PRNG and FIPS-197 passes before, after and across a
reseed (ip/aes/tests/fw_masked). On `full` (unmasked) the same firmware sees the reseed refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from aesoc.sim.run import build_and_run
from aesoc.soc.description import load_config

FIRMWARE = Path(__file__).parent / "fw_masked"


@pytest.mark.parametrize("config", ["full-masked", "full"])
def test_masked_periph_firmware(config: str) -> None:
    result, line = build_and_run(FIRMWARE, config)
    assert result.status == "exit", line
    assert result.code == 0, result.console
    (rec,) = result.records_of("aes_masking")
    assert rec["masking"] == load_config(config).of_block("aes").params["Masking"], rec
    assert len(result.records_of("aes_masked_done")) == (1 if rec["masking"] else 0), result.console


def test_masked_periph_dma() -> None:
    """The DMA path is unchanged by masking: fw/tests/aes_dma (every mode through DMA channels,
    each result checked in firmware against the software AES) passes on `full-masked`."""
    result, line = build_and_run(FIRMWARE.parents[3] / "fw" / "tests" / "aes_dma", "full-masked", libs=("crypto",))
    assert result.status == "exit", line
    assert result.code == 0, result.console
    (done,) = result.records_of("aes_dma_done")
    assert done["failures"] == 0, result.console
