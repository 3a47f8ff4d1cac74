"""cocotb tests of sha_engine: CAVP vectors, Monte Carlo, differential against hashlib with random
lengths and back-pressure, context save/restore, errors and the cycles per block.

The variant under test comes from SHA_VARIANT (its RTL parameters, JSON).
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge

from sha_ref import ALGS, ERR_CODE, Alg, algs_for, monte_vectors, msg_vectors

_PARAMS = json.loads(os.environ.get("SHA_VARIANT", "{}"))
SHA512 = bool(_PARAMS.get("Sha512Enable", 1))
SHA256_ROUNDS = int(_PARAMS.get("Sha256Rounds", 1))
# A message never takes longer than this per byte (rounds, padding, back-pressure included).
TIMEOUT_CYCLES_PER_BYTE = 16
# CAVP LongMsg files hold 64 (up to 6.4 KB, SHA-1/256) or 128-byte-step messages (up to 12.8 KB,
# SHA-512): every LONG_STEP-th is run, to keep the simulation short.
LONG_STEP = 8


def words_of(msg: bytes) -> list[int]:
    """The bus words of a message: four bytes each, byte 0 in bits 7:0, the last one padded."""
    padded = msg + bytes(-len(msg) % 4)
    return [int.from_bytes(padded[i:i + 4], "little") for i in range(0, len(padded), 4)]


class ShaTb:
    def __init__(self, dut: Any, seed: int = 1) -> None:
        self.dut = dut
        self.rng = random.Random(seed)

    async def reset(self) -> None:
        dut = self.dut
        cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
        for sig in (dut.start_i, dut.resume_i, dut.clear_i, dut.fault_i, dut.fault_code_i,
                    dut.in_valid_i, dut.in_data_i, dut.len_i, dut.count_i, dut.state_i):
            sig.value = 0
        dut.alg_i.value = ALGS["SHA256"].code
        dut.rst_ni.value = 0
        await ClockCycles(dut.clk_i, 3)
        dut.rst_ni.value = 1
        await FallingEdge(dut.clk_i)

    async def pulse(self, sig: Any, value: int = 1) -> None:
        """Raise a one-cycle input; inputs change on falling edges, away from the sampling edge."""
        sig.value = value
        await FallingEdge(self.dut.clk_i)
        sig.value = 0

    async def begin(self, alg: Alg, length: int, *, state: int | None = None, count: int = 0) -> None:
        self.dut.alg_i.value = alg.code
        self.dut.len_i.value = length
        if state is None:
            await self.pulse(self.dut.start_i)
        else:
            self.dut.state_i.value = state
            self.dut.count_i.value = count
            await self.pulse(self.dut.resume_i)

    async def feed(self, words: list[int], idle: float = 0.0) -> None:
        """Offer the words one by one; with probability `idle` a cycle offers nothing."""
        dut = self.dut
        i = 0
        while i < len(words):
            if idle and self.rng.random() < idle:
                dut.in_valid_i.value = 0
            else:
                dut.in_valid_i.value = 1
                dut.in_data_i.value = words[i]
                # in_ready_o is a register output: its value now is the one the edge samples.
                if dut.in_ready_o.value == 1:
                    i += 1
            await FallingEdge(dut.clk_i)
        dut.in_valid_i.value = 0

    async def wait_done(self, limit: int) -> None:
        for _ in range(limit):
            if self.dut.done_o.value == 1:
                return
            assert self.dut.err_o.value == 0, f"error code {int(self.dut.err_code_o.value)}"
            await FallingEdge(self.dut.clk_i)
        raise AssertionError(f"no digest within {limit} cycles")

    def state_words(self, alg: Alg) -> bytes:
        """The chaining value as bytes in FIPS 180-4 order (the whole state, not truncated)."""
        raw = int(self.dut.state_o.value)
        slots = [(raw >> (64 * i)) & ((1 << 64) - 1) for i in range(8)]
        n = 5 if alg.name == "SHA1" else 8
        return b"".join((s if alg.wide else s & 0xFFFFFFFF).to_bytes(alg.word_bytes, "big") for s in slots[:n])

    async def hash(self, alg: Alg, msg: bytes, idle: float = 0.0) -> bytes:
        await self.begin(alg, len(msg))
        await self.feed(words_of(msg), idle)
        await self.wait_done(limit=TIMEOUT_CYCLES_PER_BYTE * (len(msg) + 2 * alg.block_bytes))
        return self.state_words(alg)[: alg.digest_bytes]

    async def clear(self) -> None:
        await self.pulse(self.dut.clear_i)


async def new_tb(dut: Any, seed: int = 1) -> ShaTb:
    tb = ShaTb(dut, seed)
    await tb.reset()
    return tb


@cocotb.test()
async def cavp_short_msg(dut: Any) -> None:
    """Every ShortMsg vector (all lengths 0..block size and beyond, byte steps) of every algorithm."""
    tb = await new_tb(dut)
    count = 0
    for alg in algs_for(SHA512):
        for msg, md in msg_vectors(alg, "ShortMsg"):
            got = await tb.hash(alg, msg)
            assert got == md, f"{alg.name} len {len(msg)}: {got.hex()} != {md.hex()}"
            count += 1
    dut._log.info("%d ShortMsg vectors", count)


@cocotb.test()
async def cavp_long_msg(dut: Any) -> None:
    """Every LONG_STEP-th LongMsg vector of every algorithm, with light back-pressure."""
    tb = await new_tb(dut)
    count = 0
    for alg in algs_for(SHA512):
        for msg, md in msg_vectors(alg, "LongMsg")[::LONG_STEP]:
            got = await tb.hash(alg, msg, idle=0.1)
            assert got == md, f"{alg.name} len {len(msg)}: {got.hex()} != {md.hex()}"
            count += 1
    dut._log.info("%d LongMsg vectors", count)


@cocotb.test()
async def monte_carlo(dut: Any) -> None:
    """SHAVS Monte Carlo, first checkpoint (1000 chained hashes) of SHA-1, SHA-256 and SHA-512."""
    tb = await new_tb(dut)
    for name in ("SHA1", "SHA256", "SHA512"):
        alg = ALGS[name]
        if alg.wide and not SHA512:
            continue
        seed, checkpoints = monte_vectors(alg)
        md = [seed, seed, seed]
        for _ in range(1000):
            md = [md[1], md[2], await tb.hash(alg, md[0] + md[1] + md[2])]
        assert md[2] == checkpoints[0], f"{name} Monte Carlo checkpoint 0"


@cocotb.test()
async def differential_random(dut: Any) -> None:
    """Random algorithms, lengths 0..4 KB and back-pressure, against hashlib."""
    tb = await new_tb(dut, seed=14)
    rng = random.Random(2026)
    algs = algs_for(SHA512)
    for _ in range(40):
        alg = rng.choice(algs)
        msg = rng.randbytes(rng.randint(0, 4096))
        idle = rng.choice((0.0, 0.3, 0.7))
        got = await tb.hash(alg, msg, idle)
        assert got == alg.digest(msg), f"{alg.name} len {len(msg)} idle {idle}"


@cocotb.test()
async def context_save_restore(dut: Any) -> None:
    """Hash part of a message, save the context at a block boundary, hash another message, resume."""
    tb = await new_tb(dut)
    rng = random.Random(7)
    for alg in algs_for(SHA512):
        msg = rng.randbytes(5 * alg.block_bytes + 17)
        cut = 3 * alg.block_bytes
        await tb.begin(alg, len(msg))
        await tb.feed(words_of(msg[:cut]))
        for _ in range(4 * alg.rounds):
            if dut.saveable_o.value == 1:
                break
            await FallingEdge(dut.clk_i)
        assert dut.saveable_o.value == 1 and int(dut.count_o.value) == cut
        state, count = int(dut.state_o.value), int(dut.count_o.value)
        other = rng.randbytes(100)
        assert await tb.hash(ALGS["SHA256"], other) == ALGS["SHA256"].digest(other)
        await tb.begin(alg, len(msg), state=state, count=count)
        await tb.feed(words_of(msg[cut:]))
        await tb.wait_done(TIMEOUT_CYCLES_PER_BYTE * len(msg))
        assert tb.state_words(alg)[: alg.digest_bytes] == alg.digest(msg), alg.name


async def expect_error(tb: ShaTb, code: str) -> None:
    for _ in range(4):
        if tb.dut.err_o.value == 1:
            break
        await FallingEdge(tb.dut.clk_i)
    assert tb.dut.err_o.value == 1 and int(tb.dut.err_code_o.value) == ERR_CODE[code], code
    assert tb.dut.done_o.value == 0 and int(tb.dut.state_o.value) == 0, "an error zeroises the state"


@cocotb.test()
async def error_cases(dut: Any) -> None:
    """Each error: raised with its code, the state wiped, input drained (never a hang), and after
    CLEAR the next message hashes correctly."""
    tb = await new_tb(dut)
    sha256 = ALGS["SHA256"]
    good = b"recovered"

    async def recovers() -> None:
        await tb.feed([1, 2, 3])  # drained and dropped while in error
        await tb.clear()
        assert dut.err_o.value == 0
        assert await tb.hash(sha256, good) == sha256.digest(good)

    # A word after the last one.
    await tb.begin(sha256, 5)
    await tb.feed(words_of(b"hello") + [0xDEADBEEF])
    await expect_error(tb, "AFTER_FINAL")
    await recovers()
    # A word with no message started.
    await tb.feed([0])
    await expect_error(tb, "AFTER_FINAL")
    await recovers()
    # A bit length that does not fit 64 bits.
    await tb.begin(sha256, 1 << 61)
    await expect_error(tb, "LEN")
    await recovers()
    # Resume counts: not a block multiple, and beyond the length.
    await tb.begin(sha256, 200, state=1, count=65)
    await expect_error(tb, "LEN")
    await recovers()
    await tb.begin(sha256, 64, state=1, count=128)
    await expect_error(tb, "LEN")
    await recovers()
    # An algorithm this build lacks (the SHA-512 family without Sha512Enable; code 7 always).
    for code in ([7] if SHA512 else [7, ALGS["SHA512"].code]):
        dut.alg_i.value = code
        await tb.pulse(dut.start_i)
        await expect_error(tb, "ALG")
        await recovers()
    # A fault from the peripheral mid-message.
    await tb.begin(sha256, 1000)
    await tb.feed(list(range(40)))
    dut.fault_code_i.value = ERR_CODE["ABORT"]
    await tb.pulse(dut.fault_i)
    await expect_error(tb, "ABORT")
    await recovers()


@cocotb.test()
async def cycles_per_block(dut: Any) -> None:
    """Back to back, a block costs its rounds + 1 cycles, SHA-1 (and SHA-224/256 with Sha256Rounds = 2)
    half its rounds + 1 (the bound: the rounds per cycle, and one cycle to add the chaining value
    and take the next block)."""
    tb = await new_tb(dut)
    for alg in algs_for(SHA512):
        blocks = 8
        msg = bytes(range(256)) * (blocks * alg.block_bytes // 256)
        await tb.begin(alg, len(msg))
        feeder = cocotb.start_soon(tb.feed(words_of(msg)))
        done_at = []
        cycle = 0
        while dut.done_o.value == 0:
            await RisingEdge(dut.clk_i)
            cycle += 1
            if dut.blk_done_o.value == 1:
                done_at.append(cycle)
            await FallingEdge(dut.clk_i)
        await feeder
        gaps = {b - a for a, b in zip(done_at, done_at[1:])}
        # blocks + 1 compressions: the message's blocks and the padding block.
        assert len(done_at) == blocks + 1 and gaps == {alg.cycles_per_block(SHA256_ROUNDS)}, f"{alg.name}: {done_at}"
        assert tb.state_words(alg)[: alg.digest_bytes] == alg.digest(msg)
        dut._log.info("%s: %d cycles per block", alg.name, alg.cycles_per_block(SHA256_ROUNDS))
