"""cocotb: periph_irq raises irq_o exactly when some status bit has its enable bit set, over every
pair of status and enable values."""

from __future__ import annotations

import os

import cocotb
from cocotb.triggers import Timer

WIDTH = int(os.environ["PERIPH_IRQ_WIDTH"])


@cocotb.test()
async def every_status_and_enable(dut) -> None:
    raised = 0
    for status in range(1 << WIDTH):
        for enable in range(1 << WIDTH):
            dut.status_i.value = status
            dut.enable_i.value = enable
            await Timer(1, "ns")
            want = int((status & enable) != 0)
            assert int(dut.irq_o.value) == want, f"status {status:#x} enable {enable:#x}: irq_o should be {want}"
            raised += want
    assert 0 < raised < 1 << (2 * WIDTH)
