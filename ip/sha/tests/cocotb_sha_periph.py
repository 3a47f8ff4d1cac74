"""cocotb tests of sha_periph through its register port: identification, hashing through DATA_IN
and DIGEST, IRQ, FIFO back-pressure, context save/restore and every error case.

Register offsets, fields and codes come from the register map (ip/sha/data/sha.rdl).
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, ReadOnly

from sha_ref import ALGS, ERR_CODE, Alg, algs_for, regmap

RM = regmap("sha")
PARAMS = json.loads(os.environ.get("SHA_VARIANT", "{}"))
SHA512 = bool(PARAMS.get("Sha512Enable", 1))
IN_DEPTH = PARAMS.get("InDepth", 16)
# Longest a register access may wait for its acknowledge (a DATA_IN write behind a full FIFO).
ACK_LIMIT = 400


def words_of(msg: bytes) -> list[int]:
    padded = msg + bytes(-len(msg) % 4)
    return [int.from_bytes(padded[i:i + 4], "little") for i in range(0, len(padded), 4)]


class RegTb:
    def __init__(self, dut: Any) -> None:
        self.dut = dut

    async def reset(self) -> None:
        dut = self.dut
        cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
        dut.reg_req_i.value = 0
        dut.reg_req_is_wr_i.value = 0
        dut.reg_addr_i.value = 0
        dut.reg_wr_data_i.value = 0
        dut.reg_wr_biten_i.value = 0xFFFFFFFF
        dut.rst_ni.value = 0
        await ClockCycles(dut.clk_i, 3)
        dut.rst_ni.value = 1
        await FallingEdge(dut.clk_i)

    async def access(self, name: str, data: int | None = None) -> int:
        """One register access, held until acknowledged; returns the read data (0 for a write)."""
        dut = self.dut
        dut.reg_req_i.value = 1
        dut.reg_req_is_wr_i.value = int(data is not None)
        dut.reg_addr_i.value = RM.offsets[name]
        dut.reg_wr_data_i.value = data or 0
        for _ in range(ACK_LIMIT):
            await ReadOnly()
            ack = dut.reg_wr_ack_o.value if data is not None else dut.reg_rd_ack_o.value
            err = dut.reg_wr_err_o.value if data is not None else dut.reg_rd_err_o.value
            value = int(dut.reg_rd_data_o.value)
            await FallingEdge(dut.clk_i)
            if ack == 1 or err == 1:
                dut.reg_req_i.value = 0
                assert err == 0, f"bus error on {name}"
                return value if data is None else 0
        raise AssertionError(f"{name}: no acknowledge in {ACK_LIMIT} cycles")

    async def read(self, name: str) -> int:
        return await self.access(name)

    async def write(self, name: str, value: int) -> None:
        await self.access(name, value)

    async def field(self, name: str) -> int:
        return RM.get(name, await self.read(name.split(".")[0]))

    async def command(self, cmd: str) -> None:
        await self.write("CMD", RM.field(f"CMD.{cmd}", 1))

    async def begin(self, alg: Alg, length: int) -> None:
        await self.write("CTRL", RM.field("CTRL.alg", alg.code))
        await self.write("MSG_LEN_LO", length & 0xFFFFFFFF)
        await self.write("MSG_LEN_HI", length >> 32)
        await self.command("start")

    async def wait_status(self, field: str, limit: int = 20000) -> None:
        for _ in range(limit):
            if await self.field(f"STATUS.{field}"):
                return
        raise AssertionError(f"STATUS.{field} never rose")

    async def digest(self, alg: Alg) -> bytes:
        words = [await self.read(f"DIGEST[{i}]") for i in range(alg.digest_bytes // 4)]
        return b"".join(w.to_bytes(4, "little") for w in words)

    async def hash(self, alg: Alg, msg: bytes) -> bytes:
        await self.begin(alg, len(msg))
        for w in words_of(msg):
            await self.write("DATA_IN", w)
        await self.wait_status("done")
        return await self.digest(alg)


async def new_tb(dut: Any) -> RegTb:
    tb = RegTb(dut)
    await tb.reset()
    return tb


@cocotb.test()
async def identification(dut: Any) -> None:
    tb = await new_tb(dut)
    assert await tb.field("ID.id") == RM.fields["ID.id"].reset
    assert await tb.field("HWCFG.sha512") == int(SHA512)
    assert await tb.field("HWCFG.in_depth") == IN_DEPTH
    assert await tb.field("HWCFG.dma_words") == IN_DEPTH // 2


@cocotb.test()
async def hash_through_registers(dut: Any) -> None:
    """Every algorithm, message lengths around the block and padding boundaries, done IRQ."""
    tb = await new_tb(dut)
    rng = random.Random(3)
    await tb.write("IRQ_ENABLE", RM.field("IRQ_ENABLE.done", 1) | RM.field("IRQ_ENABLE.err", 1))
    for alg in algs_for(SHA512):
        for length in (0, 3, alg.block_bytes - 2 * alg.word_bytes - 1, alg.block_bytes - 2 * alg.word_bytes,
                       alg.block_bytes, 3 * alg.block_bytes + 5):
            msg = rng.randbytes(length)
            assert dut.irq_o.value == 0
            assert await tb.hash(alg, msg) == alg.digest(msg), f"{alg.name} len {length}"
            assert dut.irq_o.value == 1 and await tb.field("IRQ_STATUS.done") == 1
            await tb.write("IRQ_STATUS", RM.field("IRQ_STATUS.done", 1))
    assert await tb.read("PERF_BLOCKS") > 0 and await tb.read("PERF_BUSY") > 0


@cocotb.test()
async def context_save_restore(dut: Any) -> None:
    """Two messages interleaved block by block through one engine by saving and restoring contexts."""
    tb = await new_tb(dut)
    rng = random.Random(5)
    for alg in algs_for(SHA512):
        msgs = [rng.randbytes(4 * alg.block_bytes + 9), rng.randbytes(3 * alg.block_bytes + 60)]
        ctx: list[tuple[list[int], int] | None] = [None, None]
        pos = [0, 0]
        step = 2 * alg.block_bytes
        while pos[0] < len(msgs[0]) or pos[1] < len(msgs[1]):
            for s in (0, 1):
                msg = msgs[s]
                if pos[s] >= len(msg):
                    continue
                await tb.write("CTRL", RM.field("CTRL.alg", alg.code))
                await tb.write("MSG_LEN_LO", len(msg))
                await tb.write("MSG_LEN_HI", 0)
                if ctx[s] is None:
                    await tb.command("start")
                else:
                    state, count = ctx[s]
                    for i, w in enumerate(state):
                        await tb.write(f"DIGEST[{i}]", w)
                    await tb.write("COUNT_LO", count)
                    await tb.write("COUNT_HI", 0)
                    await tb.command("resume")
                chunk = msg[pos[s]:pos[s] + step]
                for w in words_of(chunk):
                    await tb.write("DATA_IN", w)
                pos[s] += len(chunk)
                if pos[s] < len(msg):
                    await tb.wait_status("saveable")
                    assert await tb.read("COUNT_LO") == pos[s]
                    ctx[s] = ([await tb.read(f"DIGEST[{i}]") for i in range(16)], pos[s])
                    await tb.command("clear")  # the context lives in software now
                else:
                    await tb.wait_status("done")
                    assert await tb.digest(alg) == alg.digest(msg), f"{alg.name} stream {s}"
        assert await tb.field("STATUS.err") == 0


async def expect_error(tb: RegTb, code: str) -> None:
    await tb.wait_status("err", limit=50)
    assert await tb.field("ERR_CODE.code") == ERR_CODE[code], code
    assert await tb.field("STATUS.done") == 0
    assert [await tb.read(f"DIGEST[{i}]") for i in range(16)] == [0] * 16, "no digest after an error"
    assert await tb.field("IRQ_STATUS.err") == 1


async def recovers(tb: RegTb) -> None:
    for w in range(2 * IN_DEPTH):  # more than the FIFO holds: drained, never a hang
        await tb.write("DATA_IN", w)
    await tb.command("clear")
    await tb.write("IRQ_STATUS", RM.field("IRQ_STATUS.err", 1))
    assert await tb.field("STATUS.err") == 0 and await tb.field("ERR_CODE.code") == ERR_CODE["NONE"]
    msg = b"after the error"
    assert await tb.hash(ALGS["SHA256"], msg) == ALGS["SHA256"].digest(msg)


@cocotb.test()
async def error_cases(dut: Any) -> None:
    """Each bad use sets its code, wipes the digest, raises the error IRQ; CLEAR recovers."""
    tb = await new_tb(dut)
    sha256 = ALGS["SHA256"]
    # Data after the final word.
    await tb.begin(sha256, 8)
    for w in (1, 2, 3):
        await tb.write("DATA_IN", w)
    await expect_error(tb, "AFTER_FINAL")
    await recovers(tb)
    # Digest read mid-message (not at a block boundary).
    await tb.begin(sha256, 100)
    await tb.write("DATA_IN", 1)
    assert await tb.read("DIGEST[0]") == 0
    await expect_error(tb, "EARLY_READ")
    await recovers(tb)
    # Algorithm change mid-message.
    await tb.begin(sha256, 100)
    await tb.write("CTRL", RM.field("CTRL.alg", ALGS["SHA1"].code))
    await expect_error(tb, "ALG_CHANGE")
    await recovers(tb)
    # Length overflow (bit length beyond 64 bits).
    await tb.begin(sha256, 1 << 61)
    await expect_error(tb, "LEN")
    await recovers(tb)
    # Abort (a DMA error seen by software) mid-message.
    await tb.begin(sha256, 1000)
    for w in range(20):
        await tb.write("DATA_IN", w)
    await tb.command("abort")
    await expect_error(tb, "ABORT")
    await recovers(tb)
    if not SHA512:
        await tb.begin(ALGS["SHA512"], 3)
        await expect_error(tb, "ALG")
        await recovers(tb)
    # A digest read after done stays valid and raises nothing.
    msg = b"abc"
    assert await tb.hash(sha256, msg) == sha256.digest(msg)
    assert await tb.digest(sha256) == sha256.digest(msg)
    assert await tb.field("STATUS.err") == 0


async def pulse_write(tb: RegTb, name: str, value: int) -> int:
    """A write as a bus shell makes it: the request for one cycle, then waiting for its acknowledge;
    returns the cycles it waited."""
    dut = tb.dut
    dut.reg_req_i.value, dut.reg_req_is_wr_i.value = 1, 1
    dut.reg_addr_i.value, dut.reg_wr_data_i.value = RM.offsets[name], value
    for cycle in range(ACK_LIMIT):
        await ReadOnly()
        ack, err = dut.reg_wr_ack_o.value, dut.reg_wr_err_o.value
        await FallingEdge(dut.clk_i)
        dut.reg_req_i.value = 0
        if ack == 1 or err == 1:
            assert err == 0, f"bus error on {name}"
            return cycle
    raise AssertionError(f"{name}: no acknowledge in {ACK_LIMIT} cycles")


@cocotb.test()
async def data_in_during_clear(dut: Any) -> None:
    """A DATA_IN write in the cycle CMD.CLEAR flushes the FIFO, with the FIFO full and with room:
    acknowledged, and the word lands after the clear (no message started: AFTER_FINAL)."""
    tb = await new_tb(dut)
    sha256 = ALGS["SHA256"]
    for fill in (True, False):
        await tb.begin(sha256, 1000)
        # Filling: a word a cycle until the FIFO is full, which happens while the engine hashes a
        # block (STATUS reads between the words would let a fast engine keep up).
        for w in range(3 * 16 + IN_DEPTH if fill else 1):
            await tb.write("DATA_IN", w)
            if dut.in_full.value:
                break
        assert dut.in_full.value == int(fill)
        await tb.command("clear")  # returns in the cycle the clear acts
        assert await pulse_write(tb, "DATA_IN", 0x5A5A5A5A) < 4
        await expect_error(tb, "AFTER_FINAL")
        await recovers(tb)


@cocotb.test()
async def dma_request_line(dut: Any) -> None:
    """The request line: only with DMA_CTRL.IN_EN, while a message wants data and the FIFO has
    room for HWCFG.DMA_WORDS words."""
    tb = await new_tb(dut)
    await tb.write("DMA_CTRL", RM.field("DMA_CTRL.in_en", 1))
    assert dut.dma_in_req_o.value == 0, "no message: no request"
    await tb.begin(ALGS["SHA256"], 64)
    await tb.read("STATUS")  # the START acts one cycle after its write
    assert dut.dma_in_req_o.value == 1
    for w in range(16):
        await tb.write("DATA_IN", w)
    await tb.wait_status("done")
    assert dut.dma_in_req_o.value == 0, "message complete: no request"
    await tb.write("DMA_CTRL", 0)
    await tb.begin(ALGS["SHA256"], 64)
    await tb.read("STATUS")
    assert dut.dma_in_req_o.value == 0, "requests disabled"
