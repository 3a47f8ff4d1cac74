"""cocotb tests of aes_ghash: GHASH against the SP 800-38D model, cycles per multiply, clear."""

from __future__ import annotations

import os
import random
from typing import Any

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, ReadOnly, RisingEdge

from gcm_ref import aes_block, gf_mult, ghash, j0_of

BITS = int(os.environ["GHASH_BITS"])


async def start(dut: Any) -> None:
    Clock(dut.clk_i, 10, unit="ns").start()
    for name in ("clear_i", "init_i", "in_valid_i", "in_data_i", "h_i"):
        getattr(dut, name).value = 0
    dut.rst_ni.value = 0
    await ClockCycles(dut.clk_i, 2)
    dut.rst_ni.value = 1
    await RisingEdge(dut.clk_i)


async def absorb(dut: Any, block: int) -> int:
    """Offer one block; return the cycles from the cycle it is taken until in_ready is high again."""
    dut.in_valid_i.value = 1
    dut.in_data_i.value = block
    for _ in range(300):
        await ReadOnly()
        if dut.in_ready_o.value == 1:
            break
        await RisingEdge(dut.clk_i)
    else:
        raise AssertionError("in_ready_o never rose")
    await RisingEdge(dut.clk_i)
    dut.in_valid_i.value = 0
    dut.in_data_i.value = 0
    cycles = 1
    while True:
        await ReadOnly()
        if dut.in_ready_o.value == 1:
            return cycles
        await RisingEdge(dut.clk_i)
        cycles += 1
        assert cycles < 300, "multiply never ended"


async def init(dut: Any) -> None:
    await RisingEdge(dut.clk_i)
    dut.init_i.value = 1
    await RisingEdge(dut.clk_i)
    dut.init_i.value = 0


@cocotb.test()
async def ghash_random(dut: Any) -> None:
    """Y = (Y ^ X) . H for random H and blocks, every step against Algorithm 1; the multiply takes
    exactly 128 / BitsPerCycle cycles; init zeroes Y."""
    await start(dut)
    rng = random.Random(BITS)
    for _ in range(12):
        h = rng.getrandbits(128)
        dut.h_i.value = h
        await init(dut)
        y = 0
        for _ in range(rng.randrange(1, 8)):
            x = rng.getrandbits(128)
            cycles = await absorb(dut, x)
            y = gf_mult(y ^ x, h)
            assert int(dut.y_o.value) == y, f"Y after block: got {int(dut.y_o.value):032x} want {y:032x}"
            assert cycles == 128 // BITS, f"multiply took {cycles} cycles, want {128 // BITS}"
            await RisingEdge(dut.clk_i)


@cocotb.test()
async def ghash_back_to_back_and_j0(dut: Any) -> None:
    """Blocks offered back to back (valid held), then J0 of a 60-byte IV (SP 800-38D Algorithm 4,
    step 2) against the model and AESGCM-checked reference."""
    await start(dut)
    key = bytes(range(16))
    h = aes_block(key, 0)
    iv = bytes(range(100, 160))
    dut.h_i.value = h
    await init(dut)
    data = iv + bytes(-len(iv) % 16) + (len(iv) * 8).to_bytes(16, "big")
    blocks = [int.from_bytes(data[i : i + 16], "big") for i in range(0, len(data), 16)]
    taken = 0
    dut.in_valid_i.value = 1
    dut.in_data_i.value = blocks[0]
    start_cycle = 0
    cycle = 0
    while taken < len(blocks):
        await ReadOnly()
        fire = dut.in_ready_o.value == 1
        await RisingEdge(dut.clk_i)
        cycle += 1
        if fire:
            if taken == 0:
                start_cycle = cycle
            taken += 1
            dut.in_data_i.value = blocks[taken] if taken < len(blocks) else 0
            dut.in_valid_i.value = int(taken < len(blocks))
    while True:
        await ReadOnly()
        if dut.busy_o.value == 0:
            break
        await RisingEdge(dut.clk_i)
        cycle += 1
    assert cycle - start_cycle + 1 == len(blocks) * (128 // BITS), "back-to-back blocks did not stream"
    assert int(dut.y_o.value) == j0_of(h, iv) == ghash(h, data)


@cocotb.test()
async def ghash_clear(dut: Any) -> None:
    """clear_i in the middle of a multiply zeroises Y and the working registers in one cycle."""
    await start(dut)
    dut.h_i.value = (1 << 128) - 1
    await absorb(dut, 0x1234)
    await RisingEdge(dut.clk_i)
    dut.in_valid_i.value = 1
    dut.in_data_i.value = 0xFFFF << 64
    await RisingEdge(dut.clk_i)
    dut.in_valid_i.value = 0
    dut.clear_i.value = 1
    await RisingEdge(dut.clk_i)
    dut.clear_i.value = 0
    await ReadOnly()
    for name in ("y_q", "z_q", "v_q", "x_q", "cnt_q", "busy_q"):
        assert int(getattr(dut, name).value) == 0, f"{name} not wiped"
    assert dut.in_ready_o.value == 1
