"""cocotb: periph_idle is 1 exactly when the block is quiet and there is no register request in
this cycle nor in the one before (reset counts as no request)."""

from __future__ import annotations

import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge, Timer


@cocotb.test()
async def request_and_the_cycle_after_are_busy(dut) -> None:
    cocotb.start_soon(Clock(dut.clk_i, 10, "ns").start())
    dut.rst_ni.value = 0
    dut.reg_req_i.value = 1
    dut.quiet_i.value = 1
    await RisingEdge(dut.clk_i)
    await Timer(1, "ns")
    dut.reg_req_i.value = 0
    await Timer(1, "ns")
    assert int(dut.idle_o.value) == 1, "a request under reset must not count"
    dut.rst_ni.value = 1
    rng, prev, seen = random.Random(48), 0, {0: 0, 1: 0}
    for cycle in range(2000):
        req, quiet = int(rng.random() < 0.3), int(rng.random() < 0.8)
        dut.reg_req_i.value = req
        dut.quiet_i.value = quiet
        await ReadOnly()
        want = int(not req and not prev and quiet)
        assert int(dut.idle_o.value) == want, f"cycle {cycle}: req {req} last {prev} quiet {quiet}"
        seen[want] += 1
        await RisingEdge(dut.clk_i)
        await Timer(1, "ns")
        prev = req
    assert seen[0] and seen[1]
