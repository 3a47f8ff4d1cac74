"""cocotb: the gate passes whole clock pulses while enabled, none while disabled, and ignores an
enable that changes while the clock is high (the latch holds it)."""

from __future__ import annotations

import os

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge, Timer

GATED = os.environ.get("CLOCK_GATE_GATED") == "1"


async def _count_edges(dut, cycles: int) -> int:
    """Rising edges of clk_o over `cycles` clock periods."""
    seen = 0
    for _ in range(cycles):
        await RisingEdge(dut.clk_i)
        await Timer(1, "ns")
        seen += int(dut.clk_o.value)
        await FallingEdge(dut.clk_i)
        await Timer(1, "ns")
        assert int(dut.clk_o.value) == 0, "clk_o high while clk_i is low"
    return seen


@cocotb.test()
async def gate_follows_enable(dut) -> None:
    cocotb.start_soon(Clock(dut.clk_i, 10, "ns").start())
    dut.en_i.value = 1
    await FallingEdge(dut.clk_i)
    assert await _count_edges(dut, 8) == 8
    dut.en_i.value = 0
    await FallingEdge(dut.clk_i)
    assert await _count_edges(dut, 8) == (8 if not GATED else 0)


@cocotb.test()
async def enable_change_while_high_waits(dut) -> None:
    cocotb.start_soon(Clock(dut.clk_i, 10, "ns").start())
    dut.en_i.value = 0
    await FallingEdge(dut.clk_i)
    await RisingEdge(dut.clk_i)
    await Timer(1, "ns")
    dut.en_i.value = 1  # while the clock is high: a gated clk_o must not rise before the next edge
    await Timer(1, "ns")
    assert int(dut.clk_o.value) == (0 if GATED else 1)
    await FallingEdge(dut.clk_i)
    await RisingEdge(dut.clk_i)
    await Timer(1, "ns")
    assert int(dut.clk_o.value) == 1
