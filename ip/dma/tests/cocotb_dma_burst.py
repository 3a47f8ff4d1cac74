# SPDX-License-Identifier: Apache-2.0
"""cocotb test of dma_burst, the burst stepper both DMA engines share: loads, beats, errors and
back-to-back takes against a reference model of its outputs."""

from __future__ import annotations

import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge


class Model:
    """What dma_burst holds: the running burst (None when idle)."""

    def __init__(self) -> None:
        self.busy = False
        self.ch = self.left = self.idx = self.addr = 0
        self.fixed = False

    def free(self, ack: int, err: int) -> bool:
        return not self.busy or (ack == 1 and err == 0 and self.left == 1)

    def step(self, take: tuple[int, int, int, int] | None, ack: int, err: int) -> None:
        if self.busy and err:
            self.busy = False
        elif self.busy and ack:
            self.left -= 1
            self.idx = (self.idx + 1) % 4
            if not self.fixed:
                self.addr = (self.addr + 1) % (1 << 30)
            if self.left == 0:
                self.busy = False
        if take is not None:
            self.ch, n, self.addr, fixed = take
            self.left, self.idx, self.fixed, self.busy = n, 0, bool(fixed), True


@cocotb.test()
async def random_bursts(dut):
    cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
    for sig in (dut.take_i, dut.ch_i, dut.n_i, dut.addr_i, dut.fixed_i, dut.ack_i, dut.err_i):
        sig.value = 0
    dut.rst_ni.value = 0
    await ClockCycles(dut.clk_i, 2)
    dut.rst_ni.value = 1
    rng = random.Random(44)
    model = Model()
    takes = beats = errors = back_to_back = 0
    for cycle in range(4000):
        await FallingEdge(dut.clk_i)
        ack = int(rng.random() < 0.7)
        err = int(rng.random() < 0.02)
        dut.ack_i.value, dut.err_i.value = ack, err
        # An engine takes only when the stepper is free, as the engines do.
        want = rng.random() < 0.6
        free = model.free(ack, err)
        take = (rng.randrange(4), rng.choice((1, 2, 3, 4, 8)), rng.randrange(1 << 30), rng.randrange(2)) \
            if want and free else None
        if take:
            dut.take_i.value = 1
            dut.ch_i.value, dut.n_i.value, dut.addr_i.value, dut.fixed_i.value = take
            takes += 1
            back_to_back += int(model.busy)
        else:
            dut.take_i.value = 0
        await RisingEdge(dut.clk_i)
        # Outputs in the cycle (before the edge) against the model's state.
        assert int(dut.busy_o.value) == int(model.busy), cycle
        assert int(dut.free_o.value) == int(free), cycle
        if model.busy:
            assert int(dut.ch_o.value) == model.ch, cycle
            assert int(dut.addr_o.value) == model.addr, cycle
            assert int(dut.beats_o.value) == model.left, cycle
            assert int(dut.index_o.value) == model.idx, cycle
            assert int(dut.fixed_o.value) == int(model.fixed), cycle
            assert int(dut.last_o.value) == int(model.left == 1), cycle
            assert int(dut.beat_ok_o.value) == int(ack and not err), cycle
            beats += int(ack and not err)
            errors += err
        else:
            assert int(dut.beat_ok_o.value) == 0, cycle
        model.step(take, ack, err)
    dut._log.info(f"{takes} bursts ({back_to_back} back to back), {beats} beats, {errors} errors")
    assert takes > 500 and back_to_back > 100 and beats > 1500 and errors > 10
