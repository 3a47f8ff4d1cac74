"""cocotb side of tests/test_cocotb_flow.py's check of the signals public to block tests."""

from __future__ import annotations

from typing import Any

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles


@cocotb.test()
async def public_signals(dut: Any) -> None:
    cocotb.start_soon(Clock(dut.clk_i, 10, "ns").start())
    dut.rst_ni.value = 0
    dut.a_i.value = 3
    await ClockCycles(dut.clk_i, 2)
    dut.rst_ni.value = 1
    await ClockCycles(dut.clk_i, 1)
    # The toplevel whole, registers everywhere and the named wire: readable, and with the design's
    # values (a_i ^ 0x5A + 1, then the register's first value).
    assert int(dut.top_wire.value) == 3 ^ 0x5A
    assert int(dut.u_sub.named.value) == (3 ^ 0x5A) + 1
    await ClockCycles(dut.clk_i, 1)
    assert int(dut.u_sub.sum_q.value) == (3 ^ 0x5A) + 1
    # Anything else below the toplevel is not in the model's symbol table.
    assert not hasattr(dut.u_sub, "hidden"), "a signal no test named is public"
