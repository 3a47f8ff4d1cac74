"""cocotb: periph_fifo against a Python queue, cycle by cycle: the head word, full, empty and the
level after random pushes, pops (both ignored where they cannot act; a push while full is refused
even with a pop in the same cycle), flushes and a reset, each of which also zeroises the storage."""

from __future__ import annotations

import os
import random
from collections import deque

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge, Timer

DEPTH = int(os.environ["PERIPH_FIFO_DEPTH"])
WIDTH = int(os.environ["PERIPH_FIFO_WIDTH"])


class Model:
    """The FIFO as the peripherals rely on it."""

    def __init__(self) -> None:
        self.words: deque[int] = deque()

    def step(self, flush: bool, push: bool, data: int, pop: bool) -> None:
        if flush:
            self.words.clear()
            return
        full, empty = len(self.words) == DEPTH, not self.words
        if pop and not empty:
            self.words.popleft()
        if push and not full:
            self.words.append(data)


async def _check(dut, model: Model, where: str) -> None:
    await ReadOnly()
    level = len(model.words)
    assert int(dut.level_o.value) == level, f"{where}: level {int(dut.level_o.value)}, want {level}"
    assert int(dut.full_o.value) == (level == DEPTH), f"{where}: full_o"
    assert int(dut.empty_o.value) == (level == 0), f"{where}: empty_o"
    if level:
        assert int(dut.data_o.value) == model.words[0], f"{where}: head word"


async def _drive(dut, flush: bool, push: bool, data: int, pop: bool) -> None:
    dut.flush_i.value = int(flush)
    dut.push_i.value = int(push)
    dut.data_i.value = data
    dut.pop_i.value = int(pop)
    await RisingEdge(dut.clk_i)
    await Timer(1, "ns")


async def _reset(dut) -> None:
    cocotb.start_soon(Clock(dut.clk_i, 10, "ns").start())
    dut.rst_ni.value = 0
    await _drive(dut, False, False, 0, False)
    dut.rst_ni.value = 1
    await Timer(1, "ns")


@cocotb.test()
async def random_traffic(dut) -> None:
    await _reset(dut)
    model, rng = Model(), random.Random(DEPTH * 1000 + WIDTH)
    await _check(dut, model, "after reset")
    assert int(dut.data_o.value) == 0, "storage not zero after reset"
    await Timer(1, "ns")
    for cycle in range(3000):
        # Phases bias toward filling or draining, so full and empty are both met often.
        fill = (cycle // 50) % 2 == 0
        push = rng.random() < (0.8 if fill else 0.3)
        pop = rng.random() < (0.3 if fill else 0.8)
        flush = rng.random() < 0.01
        data = rng.getrandbits(WIDTH)
        await _drive(dut, flush, push, data, pop)
        model.step(flush, push, data, pop)
        await _check(dut, model, f"cycle {cycle}")
        await Timer(1, "ns")


@cocotb.test()
async def full_refuses_push_with_pop(dut) -> None:
    await _reset(dut)
    model = Model()
    for i in range(DEPTH):
        await _drive(dut, False, True, i + 1, False)
        model.step(False, True, i + 1, False)
    await _check(dut, model, "filled")
    assert int(dut.full_o.value) == 1
    await Timer(1, "ns")
    # Push and pop together while full: the pop acts, the push is refused (the peripheral holds it).
    await _drive(dut, False, True, 0x5A, True)
    model.step(False, True, 0x5A, True)
    await _check(dut, model, "push+pop while full")
    assert len(model.words) == DEPTH - 1
    await Timer(1, "ns")
    # Pop while empty changes nothing.
    for _ in range(DEPTH + 2):
        await _drive(dut, False, False, 0, True)
        model.step(False, False, 0, True)
    await _check(dut, model, "drained")
    assert int(dut.empty_o.value) == 1


@cocotb.test()
async def flush_zeroises(dut) -> None:
    await _reset(dut)
    model = Model()
    ones = (1 << WIDTH) - 1
    for _ in range(DEPTH):
        await _drive(dut, False, True, ones, False)
        model.step(False, True, ones, False)
    # A push in the flush cycle is dropped with the rest.
    await _drive(dut, True, True, ones, False)
    model.step(True, True, ones, False)
    await _check(dut, model, "flushed")
    assert int(dut.data_o.value) == 0, "storage not zeroised by the flush"
    await Timer(1, "ns")
    # Every slot is zero, not just the head: walk the pointer round with push-then-pop of nothing.
    for i in range(DEPTH):
        await _drive(dut, False, True, i, False)
        model.step(False, True, i, False)
        await _drive(dut, False, False, 0, True)
        model.step(False, False, 0, True)
        await _check(dut, model, f"slot {i}")
        assert int(dut.data_o.value) == 0, f"slot {(i + 1) % DEPTH} kept data across the flush"
        await Timer(1, "ns")
