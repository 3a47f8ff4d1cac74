"""The DMA controller in the SoC (config 'full'), driven by its C driver: four channels at once
with descriptors, errors and interrupts, and the hardware's own argument checks. The firmware
checks every result itself (data compared byte for byte, error codes, interrupt bits)."""

from __future__ import annotations

from aesoc.common.toolchain import REPO
from aesoc.sim.run import build_and_run


def test_dma_in_soc() -> None:
    result, line = build_and_run(REPO / "fw" / "tests" / "dma")
    assert result.status == "exit" and result.code == 0, f"{line}\n{result.console[-3000:]}"
    (copy,) = result.records_of("dma_copy")
    # Four channels share the two masters: the copy takes longer than alone, but finishes.
    assert copy["bytes"] == 4096 and copy["bytes"] // 4 <= copy["cycles"] < 8 * copy["bytes"]
