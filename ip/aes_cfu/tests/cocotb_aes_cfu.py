"""cocotb tests of aes_cfu: every function id, against the Zkn spec model and `cryptography`."""

from __future__ import annotations

import os
import random
import struct

import cocotb
from cocotb.clock import Clock
from cocotb.handle import HierarchyArrayObject, HierarchyObject
from cocotb.triggers import ClockCycles, ReadOnly, RisingEdge
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from zkn_model import SBOX, aes32

F3 = {"esi": 0, "esmi": 1, "dsi": 2, "dsmi": 3, "key": 4, "block": 5, "ctrl": 6, "result": 7}
CTRL = {"config": 0, "iv": 1, "clear": 2, "status": 3, "start": 4}
MODE = {"ecb": 0, "cbc": 1, "ctr": 2}
KLEN = {16: 0, 24: 1, 32: 2}


def _registers(scope, found: dict[str, object], path: str = "") -> dict[str, object]:
    """Every register of the design under scope: the signals named *_q (lowRISC style, which
    aes_cfu and aes_engine keep), generate scopes and submodules included."""
    for child in scope:
        name = f"{path}.{child._name}" if path else child._name
        if isinstance(child, (HierarchyObject, HierarchyArrayObject)):
            _registers(child, found, name)
        elif child._name.endswith("_q"):
            found[name] = child
    return found


class CfuTb:
    def __init__(self, dut) -> None:
        self.dut = dut
        self.cycle = 0
        self.idle_edges = 0  # clock edges the idle monitor saw with idle_o = 1

    async def idle_monitor(self) -> None:
        """The clock-gating contract: when idle_o is 1 before a rising edge, no register of aes_cfu
        or of its engine changes at that edge. The testbench changes inputs only just after rising
        edges, so the values read at ReadOnly after an edge are those in front of the next one."""
        dut = self.dut
        regs = _registers(dut, {})
        if os.environ.get("AES_CFU_COARSE", "1") == "1":
            assert any("u_cipher_core" in n for n in regs), "the engine's registers are not visible"
        dut._log.info("idle monitor: %d registers: %s", len(regs), " ".join(sorted(regs)))
        before = None
        while True:
            await RisingEdge(dut.clk_i)
            await ReadOnly()
            if before is not None:
                changed = [n for n, h in regs.items() if str(h.value) != before[n]]
                assert not changed, f"idle_o = 1, yet {', '.join(changed)} changed at the edge"
                self.idle_edges += 1
            idle = str(dut.idle_o.value) == "1" and str(dut.rst_ni.value) == "1"
            before = {n: str(h.value) for n, h in regs.items()} if idle else None

    async def reset(self) -> None:
        cocotb.start_soon(Clock(self.dut.clk_i, 10, unit="ns").start())
        if os.environ.get("AES_CFU_GATE", "0") != "1":  # a netlist has no *_q names to watch
            cocotb.start_soon(self.idle_monitor())
        self.dut.cmd_valid_i.value = 0
        self.dut.rsp_ready_i.value = 1
        self.dut.cmd_function_id_i.value = 0
        self.dut.cmd_inputs_0_i.value = 0
        self.dut.cmd_inputs_1_i.value = 0
        self.dut.rst_ni.value = 0
        await ClockCycles(self.dut.clk_i, 3)
        self.dut.rst_ni.value = 1
        await RisingEdge(self.dut.clk_i)

    async def op(self, f3: int, f7: int = 0, a: int = 0, b: int = 0) -> tuple[int, int]:
        """Issue one command; return (result, cycles from issue to response)."""
        dut = self.dut
        dut.cmd_function_id_i.value = (f7 << 3) | f3
        dut.cmd_inputs_0_i.value = a
        dut.cmd_inputs_1_i.value = b
        dut.cmd_valid_i.value = 1
        cycles = 0
        while True:
            await ReadOnly()
            ready = int(dut.cmd_ready_o.value)
            await RisingEdge(dut.clk_i)
            cycles += 1
            if ready:
                break
            assert cycles < 200, "CFU never accepted the command"
        dut.cmd_valid_i.value = 0
        while True:
            await ReadOnly()
            if int(dut.rsp_valid_o.value):
                value = int(dut.rsp_outputs_0_o.value)
                await RisingEdge(dut.clk_i)
                return value, cycles
            await RisingEdge(dut.clk_i)
            cycles += 1
            assert cycles < 200, "CFU never answered"

    async def load_key(self, key: bytes, mode: str, decrypt: bool) -> None:
        words = struct.unpack(f"<{len(key) // 4}I", key)
        for p in range(len(words) // 2):
            await self.op(F3["key"], p, words[2 * p], words[2 * p + 1])
        cfg = MODE[mode] | (int(decrypt) << 2) | (KLEN[len(key)] << 3)
        await self.op(F3["ctrl"], CTRL["config"], cfg)

    async def wait_key_ready(self) -> int:
        """Poll STATUS until the decryption key is derived; return the polls it took."""
        for polls in range(1, 64):
            if (await self.status()) & 1:
                return polls
        raise AssertionError("key never became ready")

    async def crypt_block(self, block: bytes) -> bytes:
        w = struct.unpack("<4I", block)
        await self.op(F3["block"], 0, w[0], w[1])
        await self.op(F3["block"], 2 | 1, w[2], w[3])  # second pair, then start
        out = [ (await self.op(F3["result"], i))[0] for i in range(4)]
        return struct.pack("<4I", *out)

    async def status(self) -> int:
        return (await self.op(F3["ctrl"], CTRL["status"]))[0]


def _seeded() -> random.Random:
    return random.Random(int(os.environ.get("AES_CFU_SEED", "1")))


@cocotb.test()
async def zkn_round_ops_match_spec(dut) -> None:
    tb = CfuTb(dut)
    await tb.reset()
    rng = _seeded()
    for op in ("esi", "esmi", "dsi", "dsmi"):
        for bs in range(4):
            # Every S-box input once in this byte lane, plus random other bytes.
            for si in range(256):
                rs1 = rng.getrandbits(32)
                rs2 = (rng.getrandbits(32) & ~(0xFF << (8 * bs))) | (si << (8 * bs))
                got, _ = await tb.op(F3[op], bs, rs1, rs2)
                assert got == aes32(op, rs1, rs2, bs), f"{op} bs={bs} rs1={rs1:08x} rs2={rs2:08x}: {got:08x}"


@cocotb.test()
async def zkn_ops_back_to_back(dut) -> None:
    """One op per cycle with dependent operands: each result feeds the next command."""
    tb = CfuTb(dut)
    await tb.reset()
    rng = _seeded()
    acc = rng.getrandbits(32)
    expected = acc
    dut.rsp_ready_i.value = 1
    ops = [("esmi", rng.randrange(4), rng.getrandbits(32)) for _ in range(64)]
    for op, bs, rs2 in ops:
        got, cycles = await tb.op(F3[op], bs, acc, rs2)
        expected = aes32(op, expected, rs2, bs)
        assert got == expected
        assert cycles == 1, "a round op must be accepted at once and answered the next cycle"
        acc = got


@cocotb.test()
async def coarse_ecb_cbc_against_cryptography(dut) -> None:
    tb = CfuTb(dut)
    await tb.reset()
    rng = _seeded()
    for key_len in (16, 24, 32):
        for decrypt in (False, True):
            key = rng.randbytes(key_len)
            await tb.load_key(key, "ecb", decrypt)
            await tb.wait_key_ready()
            for _ in range(16):
                block = rng.randbytes(16)
                cipher = Cipher(algorithms.AES(key), modes.ECB())
                ref = (cipher.decryptor() if decrypt else cipher.encryptor()).update(block)
                got = await tb.crypt_block(block)
                assert got == ref, f"key {key_len * 8} decrypt={decrypt}: status {await tb.status():#x}"
        # CBC encrypt over 8 blocks with the IV loaded through the block staging registers.
        key, iv = rng.randbytes(key_len), rng.randbytes(16)
        await tb.load_key(key, "cbc", False)
        await tb.wait_key_ready()  # the engine refuses an IV write while it derives the key
        w = struct.unpack("<4I", iv)
        await tb.op(F3["block"], 0, w[0], w[1])
        await tb.op(F3["block"], 1, w[2], w[3])
        await tb.op(F3["ctrl"], CTRL["iv"])
        msg = rng.randbytes(128)
        ref = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor().update(msg)
        got = b"".join([await tb.crypt_block(msg[i:i + 16]) for i in range(0, 128, 16)])
        assert got == ref


@cocotb.test()
async def result_waits_for_engine(dut) -> None:
    tb = CfuTb(dut)
    await tb.reset()
    key = bytes(range(16))
    await tb.load_key(key, "ecb", False)
    await tb.wait_key_ready()
    w = struct.unpack("<4I", bytes(16))
    await tb.op(F3["block"], 0, w[0], w[1])
    await tb.op(F3["block"], 3, w[2], w[3])
    first, cycles = await tb.op(F3["result"], 0)
    ref = Cipher(algorithms.AES(key), modes.ECB()).encryptor().update(bytes(16))
    assert first == struct.unpack("<I", ref[:4])[0]
    assert 2 <= cycles <= 14, f"RESULT held {cycles} cycles"
    for i in range(1, 4):
        assert (await tb.op(F3["result"], i))[0] == struct.unpack("<4I", ref)[i]


@cocotb.test()
async def errors_and_clear(dut) -> None:
    tb = CfuTb(dut)
    await tb.reset()
    # RESULT with nothing in flight answers 0 at once and flags the error.
    value, cycles = await tb.op(F3["result"], 0)
    assert value == 0 and cycles == 1
    assert (await tb.status()) & 0x8
    await tb.op(F3["ctrl"], CTRL["clear"])
    assert (await tb.status()) == 0
    # Unknown function ids answer 0 and set err; nothing hangs.
    for f3, f7 in [(F3["ctrl"], 5), (F3["ctrl"], 127), (F3["esi"], 4), (F3["key"], 8), (F3["result"], 16)]:
        value, _ = await tb.op(f3, f7, 0xFFFFFFFF, 0xFFFFFFFF)
        assert value == 0 or f3 == F3["esi"]
        assert (await tb.status()) & 0x8, f"function id {f7}:{f3} must flag an error"
        await tb.op(F3["ctrl"], CTRL["clear"])
    # CLEAR zeroises: the loaded key is gone (key_ready drops).
    await tb.load_key(bytes(16), "ecb", False)
    await tb.wait_key_ready()
    await tb.op(F3["ctrl"], CTRL["clear"])
    assert (await tb.status()) & 1 == 0
    assert SBOX[0] == 0x63  # the model itself is FIPS-197's S-box


@cocotb.test()
async def coarse_ops_refused_without_engine(dut) -> None:
    """Built with CoarseOps=0: round ops work, every coarse op answers 0, flags err, never waits."""
    if os.environ.get("AES_CFU_COARSE", "1") == "1":
        return  # the full build runs the coarse tests instead
    tb = CfuTb(dut)
    await tb.reset()
    got, _ = await tb.op(F3["esmi"], 2, 0x11223344, 0x55667788)
    assert got == aes32("esmi", 0x11223344, 0x55667788, 2)
    for f3, f7 in [(F3["key"], 0), (F3["block"], 3), (F3["ctrl"], CTRL["config"]), (F3["result"], 0)]:
        value, cycles = await tb.op(f3, f7, 1, 2)
        assert value == 0 and cycles <= 2
        assert (await tb.status()) & 0x8
        await tb.op(F3["ctrl"], CTRL["clear"])


async def _idle_after(tb: CfuTb, limit: int) -> int:
    """Cycles until idle_o rises (at most limit); returns just after a rising edge."""
    for cycles in range(limit + 1):
        await ReadOnly()
        idle = int(tb.dut.idle_o.value)
        await RisingEdge(tb.dut.clk_i)
        if idle:
            return cycles
    raise AssertionError(f"idle_o still 0 after {limit} cycles")


async def _idle_sample(tb: CfuTb) -> int:
    await ReadOnly()
    idle = int(tb.dut.idle_o.value)
    await RisingEdge(tb.dut.clk_i)
    return idle


@cocotb.test()
async def idle_hint(dut) -> None:
    """idle_o: 1 at rest (after reset, after key expansion, with a result waiting to be read), 0 on
    a command, while a response waits, while the engine expands a key or runs a block. The idle
    monitor of CfuTb checks at every edge that nothing changes while it is 1."""
    coarse = os.environ.get("AES_CFU_COARSE", "1") == "1"
    tb = CfuTb(dut)
    await tb.reset()
    assert await _idle_after(tb, 2) <= 2, "reset state must be idle"
    assert all([await _idle_sample(tb) for _ in range(4)]), "idle_o must stay 1 at rest"

    # A command, then its response held by rsp_ready_i = 0: never idle.
    dut.rsp_ready_i.value = 0
    dut.cmd_function_id_i.value = (CTRL["status"] << 3) | F3["ctrl"]
    dut.cmd_valid_i.value = 1
    assert not await _idle_sample(tb), "idle_o must be 0 while cmd_valid_i is high"
    dut.cmd_valid_i.value = 0
    for _ in range(3):
        await ReadOnly()
        assert int(dut.rsp_valid_o.value) and not int(dut.idle_o.value), "a waiting response is not idle"
        await RisingEdge(dut.clk_i)
    dut.rsp_ready_i.value = 1
    assert await _idle_after(tb, 2) == 1

    if coarse:
        # Decryption key derivation after CONFIG runs without commands: not idle until it ends.
        key = bytes(range(32))
        await tb.load_key(key, "ecb", True)
        assert not await _idle_sample(tb), "key expansion must not be idle"
        await _idle_after(tb, 30)
        assert (await tb.status()) & 1, "idle before the key was ready"
        # A started block: not idle until its result sits in result_q; then reads answer at once.
        block = bytes(range(16, 32))
        w = struct.unpack("<4I", block)
        await tb.op(F3["block"], 0, w[0], w[1])
        await tb.op(F3["block"], 2 | 1, w[2], w[3])
        assert not await _idle_sample(tb), "a block in flight must not be idle"
        await _idle_after(tb, 30)
        ref = Cipher(algorithms.AES(key), modes.ECB()).decryptor().update(block)
        for i in range(4):
            value, cycles = await tb.op(F3["result"], i)
            assert cycles == 1 and value == struct.unpack("<4I", ref)[i]
        assert await _idle_after(tb, 2) <= 1
        # A RESULT read waiting for the engine keeps cmd_valid_i high: the CFU is woken by it.
        await tb.op(F3["block"], 2 | 1, w[2], w[3])
        assert (await tb.op(F3["result"], 0))[1] > 1
        await tb.op(F3["ctrl"], CTRL["clear"])
        assert await _idle_after(tb, 2) <= 1, "CLEAR must leave the CFU idle"
    else:
        # Without an engine a coarse op raises err a cycle later (coarse_q); a staged start is no work.
        await tb.op(F3["block"], 2 | 1, 1, 2)
        assert await _idle_after(tb, 3) <= 2
        assert (await tb.status()) & 0x8
        assert await _idle_after(tb, 2) <= 1
    assert tb.idle_edges >= 8, f"the idle monitor checked only {tb.idle_edges} idle edges"
