"""cocotb tests of one generated bus shell (<block>_<bus>) through a bus model from PyPI.

The model is the shell itself (FuseSoC's sim targets) or the block's shells of every bus side by
side (aesoc.soc.shells.render_side_by_side, test_shells.py): there the tests see shell SHELL_BUS
through `Shell`, and the other shells stay idle.

The bus models: cocotbext-axi (AXI4-Lite), cocotbext-apb (APB4), cocotbext-wishbone (classic and
pipelined). Registers and their access come from the block's SystemRDL; the AES vectors from
FIPS-197 and SP 800-38A, random cases from the `cryptography` package, SHA digests from hashlib.
The bus rules (docs/integration.md, "Errors, strobes and held accesses"): held accesses given up
by the bus and the block's recovery, byte strobes, unaligned addresses, read-only writes.
"""

from __future__ import annotations

import functools
import hashlib
import os
import random
import re
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, ReadOnly, RisingEdge
from cocotb.utils import get_sim_time
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from aesoc.soc.regs import Field, regmap  # noqa: E402
from aesoc.soc.shells import MAX_WAIT_DEFAULT  # noqa: E402

BLOCK = os.environ["SHELL_BLOCK"]
BUS = os.environ["SHELL_BUS"]
# The shell's MaxWait (APB4, AXI4-Lite): the default unless the test build set another.
MAX_WAIT = int(os.environ.get("SHELL_MAX_WAIT", MAX_WAIT_DEFAULT))
WINDOW = 4096
CLOCK_NS = 10
# A Wishbone master here gives up an unanswered access after this many cycles, as the aesoc
# crossbar does after 256.
WB_GIVE_UP = 40
# The SHA holds a DATA_IN write at most one block compression (tens of cycles): its test gives up
# after this many on Wishbone, and needs an APB4 / AXI4-Lite build with a bound at most this long
# (test_shells.py builds them so; with a longer bound, e.g. FuseSoC's default build, it is skipped).
SHA_GIVE_UP = 8
# A wedged block must fail a test, not hang it: the bus models wait for an answer without end.
TEST_TIMEOUT_US = 500


class Shell:
    """Shell BUS of a side-by-side model as the tests' `dut`: its port `x` is the top's `<BUS>_x`;
    the shared clk_i and rst_ni, and the handle's own attributes (`_log`, `_name`), are the top's.
    Names are listed by dir() as well, where cocotb_bus looks signals up without regard to case."""

    SHARED = ("clk_i", "rst_ni")

    def __init__(self, top: Any) -> None:
        self._top = top

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name in self.SHARED:
            return getattr(self._top, name)
        return getattr(self._top, f"{BUS}_{name}")

    def __dir__(self) -> list[str]:
        prefix = f"{BUS}_"
        return [*self.SHARED, *(n.removeprefix(prefix) for n in dir(self._top) if n.startswith(prefix))]


def shell_test(**kwargs: Any) -> Callable[[Callable[[Any], Coroutine[Any, Any, None]]], Any]:
    """cocotb.test(**kwargs) of a test that drives shell BUS: given a side-by-side model (a top
    other than the shell `<BLOCK>_<BUS>` itself), its `dut` is that shell's `Shell`."""
    def wrap(func: Callable[[Any], Coroutine[Any, Any, None]]) -> Any:
        @functools.wraps(func)
        async def run(dut: Any) -> None:
            await func(dut if dut._name == f"{BLOCK}_{BUS}" else Shell(dut))
        return cocotb.test(**kwargs)(run)
    return wrap


class Port:
    """Word reads and writes through the shell's bus model; each returns whether the slave
    answered with an error (ERR / PSLVERR / SLVERR)."""

    def __init__(self, dut) -> None:
        self.dut = dut
        if BUS == "axil":
            from cocotbext.axi import AxiLiteBus, AxiLiteMaster
            self.axil = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clk_i, dut.rst_ni,
                                      reset_active_level=False)
        elif BUS == "apb4":
            from cocotbext.apb import ApbBus, ApbMaster
            self.apb = ApbMaster(ApbBus.from_prefix(dut, "s_apb"), dut.clk_i, timeout_max=4 * MAX_WAIT_DEFAULT)
        else:
            from cocotbext.wishbone.driver import WishboneMaster
            names = {"cyc": "cyc_i", "stb": "stb_i", "we": "we_i", "adr": "adr_i", "datwr": "dat_i",
                     "datrd": "dat_o", "ack": "ack_o", "err": "err_o", "sel": "sel_i"}
            if BUS == "wbp":
                names["stall"] = "stall_o"
            self.wb = WishboneMaster(dut, "wb", dut.clk_i, width=32, timeout=8 * MAX_WAIT_DEFAULT,
                                     signals_dict=names)

    async def write(self, addr: int, value: int, strb: int = 0xF, expect_err: bool = False) -> bool:
        if BUS == "axil":
            data = value.to_bytes(4, "little")
            lanes = [i for i in range(4) if strb >> i & 1]
            contiguous = bool(lanes) and lanes == list(range(lanes[0], lanes[-1] + 1))
            if addr % 4 or not contiguous:
                return await self._axil_raw_write(addr, value, strb)
            # As a CPU's narrow store: AWADDR at the first enabled byte.
            resp = await self.axil.write(addr + lanes[0], data[lanes[0]:lanes[-1] + 1])
            return int(resp.resp) != 0
        if BUS == "apb4":
            await self.apb.write(addr, value, strb=strb, error_expected=expect_err)
            return expect_err
        from cocotbext.wishbone.driver import WBOp
        res = await self.wb.send_cycle([WBOp(addr >> 2, value, sel=strb)])
        return res[0].ack == 2

    async def _axil_raw_write(self, addr: int, value: int, strb: int) -> bool:
        """One AW and W beat with any address and strobes (the model's byte API cannot say a
        write with no strobe, or strobes that do not match the address)."""
        wif = self.axil.write_if
        aw = wif.aw_channel._transaction_obj()
        aw.awaddr, aw.awprot = addr, 0
        w = wif.w_channel._transaction_obj()
        w.wdata, w.wstrb = value, strb
        await wif.aw_channel.send(aw)
        await wif.w_channel.send(w)
        b = await wif.b_channel.recv()
        return int(b.bresp) != 0

    async def axil_stream(self, addr: int, values: list[int]) -> list[bool]:
        """Back-to-back writes (the next AW and W wait while the bridge answers the last): a
        sequential master leaves the peripheral idle cycles between writes. Error flags in order."""
        wif = self.axil.write_if

        async def send() -> None:
            for value in values:
                aw = wif.aw_channel._transaction_obj()
                aw.awaddr, aw.awprot = addr, 0
                w = wif.w_channel._transaction_obj()
                w.wdata, w.wstrb = value, 0xF
                await wif.aw_channel.send(aw)
                await wif.w_channel.send(w)

        cocotb.start_soon(send())
        return [int((await wif.b_channel.recv()).bresp) != 0 for _ in values]

    async def read(self, addr: int, expect_err: bool = False) -> tuple[int, bool]:
        if BUS == "axil":
            resp = await self.axil.read(addr, 4 - addr % 4)
            return int.from_bytes(resp.data, "little"), int(resp.resp) != 0
        if BUS == "apb4":
            value = await self.apb.read(addr, error_expected=expect_err)
            return int.from_bytes(value, "little") if isinstance(value, bytes) else int(value), expect_err
        from cocotbext.wishbone.driver import WBOp
        res = await self.wb.send_cycle([WBOp(addr >> 2)])
        return int(res[0].datrd), res[0].ack == 2

    async def attempt(self, addr: int, value: int | None = None, give_up: int = WB_GIVE_UP) -> str:
        """One access that the block may hold: "ok", "err" (an error answer), or "given up": the
        APB4 / AXI4-Lite bridge ended it at its bound (a timeout_o pulse, checked with the cycles it
        took), or the Wishbone master dropped its cycle after `give_up` cycles without an answer
        (as the aesoc crossbar does at its slave timeout). After a given-up access no late answer
        may reach the bus."""
        if BUS in ("wbc", "wbp"):
            return await self._wb_attempt(addr, value, give_up)
        before, t0 = TIMEOUTS[0], get_sim_time("ns")
        if BUS == "axil":
            err = await self.write(addr, value) if value is not None else (await self.read(addr))[1]
        else:
            err = await self._apb_raw(addr, value)
        if TIMEOUTS[0] == before:
            return "err" if err else "ok"
        waited = (get_sim_time("ns") - t0) / CLOCK_NS
        assert err and TIMEOUTS[0] == before + 1, "timeout_o pulsed without an error answer, or twice"
        assert MAX_WAIT <= waited <= MAX_WAIT + 8, f"given up after {waited} cycles (MaxWait {MAX_WAIT})"
        return "given up"

    async def _apb_raw(self, addr: int, value: int | None) -> bool:
        """An APB access driven here (the model raises inside its own task on an unexpected
        PSLVERR, which a test that does not know the outcome beforehand cannot have)."""
        dut = self.dut
        await FallingEdge(dut.clk_i)
        dut.s_apb_psel.value, dut.s_apb_penable.value = 1, 0
        dut.s_apb_pwrite.value, dut.s_apb_paddr.value = int(value is not None), addr
        dut.s_apb_pwdata.value, dut.s_apb_pstrb.value = value or 0, 0xF if value is not None else 0
        await FallingEdge(dut.clk_i)
        dut.s_apb_penable.value = 1
        while True:
            await ReadOnly()
            if int(dut.s_apb_pready.value):
                err = bool(int(dut.s_apb_pslverr.value))
                break
            await FallingEdge(dut.clk_i)
        await FallingEdge(dut.clk_i)
        dut.s_apb_psel.value, dut.s_apb_penable.value, dut.s_apb_pwrite.value = 0, 0, 0
        return err

    async def _wb_attempt(self, addr: int, value: int | None, give_up: int) -> str:
        dut = self.dut
        await FallingEdge(dut.clk_i)
        dut.wb_cyc_i.value, dut.wb_stb_i.value, dut.wb_we_i.value = 1, 1, int(value is not None)
        dut.wb_adr_i.value, dut.wb_dat_i.value, dut.wb_sel_i.value = addr >> 2, value or 0, 0xF
        outcome = "given up"
        for _ in range(give_up):
            await ReadOnly()
            if int(dut.wb_ack_o.value) or int(dut.wb_err_o.value):
                outcome = "err" if int(dut.wb_err_o.value) else "ok"
            # Pipelined: a request not stalled at this edge is taken; STB drops, CYC stays.
            taken = BUS == "wbp" and not int(dut.wb_stall_o.value)
            await FallingEdge(dut.clk_i)
            if outcome != "given up":
                break
            if taken:
                dut.wb_stb_i.value = 0
        dut.wb_cyc_i.value, dut.wb_stb_i.value, dut.wb_we_i.value = 0, 0, 0
        for _ in range(4 if outcome == "given up" else 0):
            await ReadOnly()
            assert not int(dut.wb_ack_o.value) and not int(dut.wb_err_o.value), "an answer outside a cycle"
            await FallingEdge(dut.clk_i)
        return outcome


# timeout_o pulses of an APB4 / AXI4-Lite shell since reset.
TIMEOUTS = [0]


async def _count_timeouts(dut) -> None:
    while True:
        await RisingEdge(dut.clk_i)
        TIMEOUTS[0] += int(dut.timeout_o.value)


async def start(dut) -> Port:
    cocotb.start_soon(Clock(dut.clk_i, CLOCK_NS, unit="ns").start())
    for name in ("irq_src_i", "bus_err_i", "bus_err_master_i", "bus_err_addr_i", "req_i", "win_req_i",
                 "win_addr_i", "otp_kek_i", "flash_io_i", "rd_data_i", "rd_ack_i", "rd_err_i", "wr_ack_i",
                 "wr_err_i"):
        if hasattr(dut, name):
            getattr(dut, name).value = 0
    port = Port(dut)
    if hasattr(dut, "timeout_o"):
        cocotb.start_soon(_count_timeouts(dut))
    dut.rst_ni.value = 0
    await ClockCycles(dut.clk_i, 3)
    dut.rst_ni.value = 1
    await ClockCycles(dut.clk_i, 2)
    return port


# ---- register access from the SystemRDL (aesoc.soc.regs.RegMap) ----

def _mask(fields: list[Field]) -> int:
    return sum(f.mask for f in fields)


@shell_test()
async def registers(dut) -> None:
    """Every plain read/write register reads back what was written (random, all byte lanes and
    single lanes); every write-only field reads as zero; ID and VERSION hold their reset value."""
    port = await start(dut)
    rng = random.Random(f"{BLOCK}-{BUS}")
    rm = regmap(BLOCK)
    if "ID" in rm.offsets:
        value, err = await port.read(rm.offsets["ID"])
        assert not err and value == rm.fields["ID.id"].reset, f"ID {value:#x}"
    plain = write_only = 0
    for reg, addr in rm.offsets.items():
        if re.sub(r"\[\d+\]", "", reg) in rm.external:
            continue
        fields = rm.fields_of(reg)
        if all(f.plain for f in fields):
            mask = _mask(fields)
            value = rng.getrandbits(32)
            assert not await port.write(addr, value), reg
            got, err = await port.read(addr)
            assert not err and got & mask == value & mask, f"{reg}: {got:#x} vs {value:#x}"
            # One byte lane only: the other lanes keep their value.
            lane_value = rng.getrandbits(32)
            assert not await port.write(addr, lane_value, strb=0b0100)
            expect = (value & ~0xFF0000 | lane_value & 0xFF0000) & mask
            got, _ = await port.read(addr)
            assert got & mask == expect, f"{reg} lane 2: {got:#x} vs {expect:#x}"
            plain += 1
        wo = [f for f in fields if f.sw == "w"]
        if wo and len(wo) == len(fields):
            assert not await port.write(addr, rng.getrandbits(32) | 1), reg
            got, err = await port.read(addr)
            assert not err and got & _mask(wo) == 0, f"write-only {reg} reads {got:#x}"
            write_only += 1
    dut._log.info("%s over %s: %d read/write registers, %d write-only", BLOCK, BUS, plain, write_only)
    assert plain > 0


@shell_test()
async def unmapped(dut) -> None:
    """A read and a write of an offset with no register end in an error response; the block then
    answers normally."""
    port = await start(dut)
    rm = regmap(BLOCK)
    used = set(rm.offsets.values())
    hole = max(a for a in range(0, WINDOW, 4) if a not in used)
    _, err = await port.read(hole, expect_err=True)
    assert err, f"read of unmapped {hole:#x} answered OKAY"
    assert await port.write(hole, 0x1234_5678, expect_err=True), f"write of unmapped {hole:#x} answered OKAY"
    first = min(used)
    _, err = await port.read(first)
    assert not err


@shell_test(skip=BUS not in ("wbc", "wbp"))
async def stb_without_cyc(dut) -> None:
    """Wishbone B4: STB outside a cycle (a decoder that fans STB out and selects with CYC, as
    LiteX's does) is no request: no acknowledge, and a write does not land."""
    port = await start(dut)
    rm = regmap(BLOCK)
    first = min(rm.offsets.values())
    before, _ = await port.read(first)
    await FallingEdge(dut.clk_i)
    dut.wb_cyc_i.value, dut.wb_stb_i.value, dut.wb_we_i.value = 0, 1, 1
    dut.wb_adr_i.value, dut.wb_dat_i.value, dut.wb_sel_i.value = first >> 2, ~before & 0xFFFF_FFFF, 0xF
    for _ in range(4):
        await RisingEdge(dut.clk_i)
        assert dut.wb_ack_o.value == 0 and dut.wb_err_o.value == 0, "STB without CYC was answered"
    dut.wb_stb_i.value, dut.wb_we_i.value = 0, 0
    after, _ = await port.read(first)
    assert after == before, f"STB without CYC wrote {first:#x}: {before:#x} -> {after:#x}"


# ---- AES through the shell ----

FIPS197 = [  # FIPS-197 appendix C: key, plaintext, ciphertext
    ("000102030405060708090a0b0c0d0e0f", "00112233445566778899aabbccddeeff", "69c4e0d86a7b0430d8cdb78070b4c55a"),
    ("000102030405060708090a0b0c0d0e0f1011121314151617", "00112233445566778899aabbccddeeff",
     "dda97ca4864cdfe06eaf70a0ec0d7191"),
    ("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "00112233445566778899aabbccddeeff",
     "8ea2b7ca516745bfeafc49904b496089"),
]
SP800_38A_KEY = "2b7e151628aed2a6abf7158809cf4f3c"
SP800_38A_PT = ("6bc1bee22e409f96e93d7e117393172a" "ae2d8a571e03ac9c9eb76fac45af8e51"
                "30c81c46a35ce411e5fbc1191a0a52ef" "f69f2445df4f9b17ad2b417be66c3710")
SP800_38A = [  # SP 800-38A F.2.1 CBC-AES128, F.5.1 CTR-AES128 encryption
    ("CBC", "000102030405060708090a0b0c0d0e0f", "7649abac8119b246cee98e9b12e9197d" "5086cb9b507219ee95db113a917678b2"
     "73bed6b8e3c1743b7116e69e22229516" "3ff1caa1681fac09120eca307586e1a7"),
    ("CTR", "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff", "874d6191b620e3261bef6864990db6ce" "9806f66b7970fdff8617187bb9fffdff"
     "5ae4df3edbd5d35e5b4f09020db03eab" "1e031dda2fbe03d1792170a0f3009cee"),
]


def _words(data: bytes) -> list[int]:
    return [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)]


class Aes:
    """The AES peripheral programmed as its driver does (ip/aes/sw/aes_dev.c)."""

    def __init__(self, port: Port) -> None:
        self.port = port
        self.rm = regmap("aes")
        self.e = self.rm.enums

    def _field(self, name: str, value: int) -> int:
        return value << self.rm.fields[name].lsb

    async def write(self, reg: str, value: int) -> None:
        assert not await self.port.write(self.rm.offsets[reg], value), f"write {reg}"

    async def read(self, reg: str) -> int:
        value, err = await self.port.read(self.rm.offsets[reg])
        assert not err, f"read {reg}"
        return value

    async def setup(self, mode: str, key: bytes, iv: bytes | None, decrypt: bool = False) -> None:
        await self.write("CMD", self._field("CMD.clear", 1))
        key_len = self.e["aes_key_len_e"][f"KEY_{8 * len(key)}"]
        await self.write("CTRL", self._field("CTRL.mode", self.e["aes_mode_e"][mode])
                         | self._field("CTRL.dir", self.e["aes_dir_e"]["DEC" if decrypt else "ENC"])
                         | self._field("CTRL.key_len", key_len)
                         | self._field("CTRL.ctr_width", self.e["aes_ctr_width_e"]["CTR_128"]))
        for i, word in enumerate(_words(key)):
            await self.write(f"KEY[{i}]", word)
        await self.write("CMD", self._field("CMD.key_load", 1))
        ready = self._field("STATUS.key_ready", 1) | self._field("STATUS.busy", 1)
        for _ in range(200):
            if await self.read("STATUS") & ready == self._field("STATUS.key_ready", 1):
                break
        else:
            raise AssertionError("key never ready")
        if iv is not None:
            for i, word in enumerate(_words(iv)):
                await self.write(f"IV[{i}]", word)

    async def crypt(self, data: bytes) -> bytes:
        """All blocks written first (the DATA_IN[3] writes wait while the input FIFO is full, up
        to in + out depth + the engine's block outstanding), then all results read."""
        out = b""
        blocks = [data[i:i + 16] for i in range(0, len(data), 16)]
        for chunk in range(0, len(blocks), 4):
            part = blocks[chunk:chunk + 4]
            for block in part:
                for i, word in enumerate(_words(block)):
                    await self.write(f"DATA_IN[{i}]", word)
            for _ in part:
                for i in range(4):
                    out += (await self.read(f"DATA_OUT[{i}]")).to_bytes(4, "little")
        return out


def _reference(mode: str, key: bytes, iv: bytes | None, data: bytes, decrypt: bool = False) -> bytes:
    m = {"ECB": modes.ECB(), "CBC": modes.CBC(iv or b""), "CTR": modes.CTR(iv or b"")}[mode]
    c = Cipher(algorithms.AES(key), m)
    op = c.decryptor() if decrypt else c.encryptor()
    return op.update(data) + op.finalize()


@shell_test(skip=BLOCK != "aes")
async def aes_vectors(dut) -> None:
    """FIPS-197 appendix C (ECB, 128/192/256) and SP 800-38A CBC and CTR (4 blocks) through the shell."""
    aes = Aes(await start(dut))
    for key, pt, ct in FIPS197:
        await aes.setup("ECB", bytes.fromhex(key), None)
        assert (await aes.crypt(bytes.fromhex(pt))).hex() == ct, f"FIPS-197 AES-{4 * len(key)}"
    for mode, iv, ct in SP800_38A:
        await aes.setup(mode, bytes.fromhex(SP800_38A_KEY), bytes.fromhex(iv))
        assert (await aes.crypt(bytes.fromhex(SP800_38A_PT))).hex() == ct, f"SP 800-38A {mode}"


@shell_test(skip=BLOCK != "aes")
async def aes_random(dut) -> None:
    """Random keys, IVs, data, modes and directions against the `cryptography` package."""
    aes = Aes(await start(dut))
    rng = random.Random(f"aes-{BUS}")
    for _ in range(6):
        mode = rng.choice(["ECB", "CBC", "CTR"])
        decrypt = mode != "CTR" and rng.random() < 0.5
        key = rng.randbytes(rng.choice([16, 24, 32]))
        iv = None if mode == "ECB" else rng.randbytes(16)
        data = rng.randbytes(16 * rng.randint(1, 6))
        await aes.setup(mode, key, iv, decrypt)
        assert await aes.crypt(data) == _reference(mode, key, iv, data, decrypt), f"{mode} {len(key)}"


@shell_test(skip=BLOCK != "aes" or BUS not in ("apb4", "axil"), timeout_time=TEST_TIMEOUT_US, timeout_unit="us")
async def aes_bounded_wait(dut) -> None:
    """A DATA_OUT read with no result coming ends in an error response after MaxWait cycles, with
    one timeout_o pulse, instead of holding the bus."""
    port = await start(dut)
    aes = Aes(port)
    await aes.setup("ECB", bytes(16), None)
    assert await port.attempt(aes.rm.offsets["DATA_OUT[0]"]) == "given up"
    assert MAX_WAIT == MAX_WAIT_DEFAULT


async def _bus_abort_recorded(aes: Aes, dut) -> None:
    """IRQ_STATUS.BUS_ABORT is set and raises irq_o (enabled); write 1 clears both."""
    bit = aes.rm.field("IRQ_STATUS.bus_abort", 1)
    assert await aes.read("IRQ_STATUS") & bit, "the given-up access left no trace in IRQ_STATUS"
    assert int(dut.irq_o.value) == 1, "IRQ_STATUS.BUS_ABORT with IRQ_ENABLE.BUS_ABORT: no irq_o"
    await aes.write("IRQ_STATUS", bit)
    assert not await aes.read("IRQ_STATUS") & bit
    assert int(dut.irq_o.value) == 0


async def _fill(aes: Aes, blocks: list[bytes]) -> None:
    for block in blocks:
        for i, word in enumerate(_words(block)):
            await aes.write(f"DATA_IN[{i}]", word)


@shell_test(skip=BLOCK != "aes", timeout_time=TEST_TIMEOUT_US, timeout_unit="us")
async def aes_held_read_given_up(dut) -> None:
    """Issue 47 (1): a DATA_OUT read with nothing queued, given up by the bus (bridge bound or
    Wishbone master), is cancelled in the core: BUS_ABORT recorded, the next access (ID) answers
    at once, and the peripheral then encrypts normally, without CMD.CLEAR or reset."""
    port = await start(dut)
    aes = Aes(port)
    rng = random.Random(f"held-read-{BUS}")
    key = rng.randbytes(16)
    await aes.setup("ECB", key, None)
    await aes.write("IRQ_ENABLE", aes.rm.field("IRQ_ENABLE.bus_abort", 1))
    for word in range(4):
        assert await port.attempt(aes.rm.offsets[f"DATA_OUT[{word}]"]) == "given up"
        t0 = get_sim_time("ns")
        assert await aes.read("ID") == aes.rm.fields["ID.id"].reset
        assert (get_sim_time("ns") - t0) / CLOCK_NS < 10, "the access after a given-up one waited"
        await _bus_abort_recorded(aes, dut)
    data = rng.randbytes(48)
    assert await aes.crypt(data) == _reference("ECB", key, None, data)


@shell_test(skip=BLOCK != "aes", timeout_time=TEST_TIMEOUT_US, timeout_unit="us")
async def aes_held_write_given_up(dut) -> None:
    """Issue 47 (1): InDepth + engine + OutDepth blocks fill the peripheral; the next DATA_IN[3]
    write is held and given up by the bus. It queues nothing; the DATA_OUT reads that make room
    then return exactly the queued blocks' results. The same wedge again is ended by CMD.CLEAR,
    after which the peripheral encrypts normally."""
    port = await start(dut)
    aes = Aes(port)
    rng = random.Random(f"held-write-{BUS}")
    key = rng.randbytes(16)
    await aes.setup("ECB", key, None)
    await aes.write("IRQ_ENABLE", aes.rm.field("IRQ_ENABLE.bus_abort", 1))
    hwcfg = await aes.read("HWCFG")
    capacity = aes.rm.get("HWCFG.in_depth", hwcfg) + 1 + aes.rm.get("HWCFG.out_depth", hwcfg)
    ready = aes.rm.field("STATUS.in_ready", 1)
    for clear in (False, True):
        blocks = [rng.randbytes(16) for _ in range(capacity)]
        await _fill(aes, blocks)
        for _ in range(100):
            if not await aes.read("STATUS") & ready:
                break
        else:
            raise AssertionError(f"{capacity} blocks did not fill the input FIFO")
        extra = _words(rng.randbytes(16))
        for i in range(3):
            await aes.write(f"DATA_IN[{i}]", extra[i])
        assert await port.attempt(aes.rm.offsets["DATA_IN[3]"], extra[3]) == "given up"
        await _bus_abort_recorded(aes, dut)
        if clear:
            await aes.write("CMD", aes.rm.field("CMD.clear", 1))
            status = await aes.read("STATUS")
            assert aes.rm.get("STATUS.in_level", status) == aes.rm.get("STATUS.out_level", status) == 0
            await aes.setup("ECB", key, None)
            data = rng.randbytes(64)
            assert await aes.crypt(data) == _reference("ECB", key, None, data)
        else:
            out = b""
            for _ in blocks:
                for i in range(4):
                    out += (await aes.read(f"DATA_OUT[{i}]")).to_bytes(4, "little")
            assert out == _reference("ECB", key, None, b"".join(blocks)), "results after the given-up write"
            for _ in range(50):
                status = await aes.read("STATUS")
                if not aes.rm.get("STATUS.busy", status):
                    break
            assert aes.rm.get("STATUS.out_level", status) == 0, "the given-up write queued a block"


# ---- SHA through the shell ----

class Sha:
    """The SHA peripheral programmed as its driver does (ip/sha/sw)."""

    def __init__(self, port: Port) -> None:
        self.port = port
        self.rm = regmap("sha")

    async def write(self, reg: str, value: int) -> None:
        assert not await self.port.write(self.rm.offsets[reg], value), f"write {reg}"

    async def read(self, reg: str) -> int:
        value, err = await self.port.read(self.rm.offsets[reg])
        assert not err, f"read {reg}"
        return value

    async def start(self, alg: str, length: int) -> None:
        await self.write("CTRL", self.rm.field("CTRL.alg", self.rm.enums["sha_alg_e"][alg]))
        await self.write("MSG_LEN_LO", length)
        await self.write("MSG_LEN_HI", 0)
        await self.write("CMD", self.rm.field("CMD.start", 1))

    async def sha256(self, msg: bytes) -> bytes:
        await self.start("SHA256", len(msg))
        padded = msg + bytes(-len(msg) % 4)
        for word in _words(padded):
            await self.write("DATA_IN", word)
        for _ in range(200):
            if self.rm.get("STATUS.done", await self.read("STATUS")):
                break
        else:
            raise AssertionError("no digest")
        digest = b""
        for i in range(8):
            digest += (await self.read(f"DIGEST[{i}]")).to_bytes(4, "little")
        return digest


@shell_test(skip=BLOCK != "sha" or (BUS in ("apb4", "axil") and MAX_WAIT > SHA_GIVE_UP),
             timeout_time=TEST_TIMEOUT_US, timeout_unit="us")
async def sha_held_write_given_up(dut) -> None:
    """Issue 47 (1): a DATA_IN write held while the input FIFO is full and the engine compresses,
    given up by the bus (the bridge's MaxWait of SHA_GIVE_UP cycles, or the Wishbone master after
    as many), is dropped in the core: BUS_ABORT recorded with irq_o, the message stops with error
    ABORT (it lacks a word), the next access answers, and after CMD.CLEAR the peripheral hashes
    normally."""
    port = await start(dut)
    sha = Sha(port)
    await sha.write("IRQ_ENABLE", sha.rm.field("IRQ_ENABLE.bus_abort", 1))
    await sha.start("SHA256", 1 << 16)
    if BUS == "axil":
        before = TIMEOUTS[0]
        errors = await port.axil_stream(sha.rm.offsets["DATA_IN"], list(range(100)))
        assert errors.count(True) == 1 and TIMEOUTS[0] == before + 1, \
            f"{errors.count(True)} writes answered SLVERR, {TIMEOUTS[0] - before} timeout_o pulses (want 1, 1)"
    else:
        outcomes = []
        for i in range(200):
            outcomes.append(await port.attempt(sha.rm.offsets["DATA_IN"], i, give_up=SHA_GIVE_UP))
            if outcomes[-1] != "ok":
                break
        assert outcomes[-1] == "given up", f"no DATA_IN write was held past {SHA_GIVE_UP} cycles: {outcomes[-3:]}"
    assert await sha.read("ID") == sha.rm.fields["ID.id"].reset
    irq = await sha.read("IRQ_STATUS")
    assert sha.rm.get("IRQ_STATUS.bus_abort", irq) and int(dut.irq_o.value) == 1
    assert sha.rm.get("STATUS.err", await sha.read("STATUS")), "the message went on without the dropped word"
    assert await sha.read("ERR_CODE") == sha.rm.enums["sha_err_e"]["ABORT"]
    await sha.write("CMD", sha.rm.field("CMD.clear", 1))
    await sha.write("IRQ_STATUS", sha.rm.field("IRQ_STATUS.bus_abort", 1))
    for msg in (b"abc", bytes(range(70))):
        assert await sha.sha256(msg) == hashlib.sha256(msg).digest()


@shell_test(skip=BLOCK in ("aes", "sha"), timeout_time=TEST_TIMEOUT_US, timeout_unit="us")
async def never_held(dut) -> None:
    """Issue 47 (1) for the blocks whose cores have no reg_abort_i (DMA, XIP, system control):
    every register answers a read at once (Wishbone: in the request cycle; APB4 / AXI4-Lite: within
    the bridge's latency), so no access of theirs can reach a bus timeout."""
    port = await start(dut)
    rm = regmap(BLOCK)
    for reg, addr in rm.offsets.items():
        if BUS in ("wbc", "wbp"):
            assert await port.attempt(addr, give_up=2) != "given up", f"{reg} held a read"
        else:
            t0 = get_sim_time("ns")
            await port.read(addr)
            cycles = (get_sim_time("ns") - t0) / CLOCK_NS
            assert cycles <= 8, f"{reg}: a read took {cycles} cycles"


# ---- byte strobes, unaligned addresses, read-only registers (every block) ----

def _plain_reg(rm) -> tuple[str, int]:
    """The plain read/write register with the most bits (the first of equals), and its mask."""
    plain = [(reg, _mask(rm.fields_of(reg))) for reg in rm.offsets
             if re.sub(r"\[\d+\]", "", reg) not in rm.external and rm.fields_of(reg)
             and all(f.plain for f in rm.fields_of(reg))]
    assert plain, "no plain register"
    return max(plain, key=lambda rm_: bin(rm_[1]).count("1"))


@shell_test(timeout_time=TEST_TIMEOUT_US, timeout_unit="us")
async def strobes(dut) -> None:
    """Issue 47 (2): a write with no byte strobe changes nothing and answers OKAY; one with some
    lanes merges them (plain registers); whole-word registers (AES IV and DATA_IN, SHA DATA_IN,
    DIGEST, COUNT) refuse a partial write with an error and change nothing, and a DATA_IN[3] write
    without strobes queues no block."""
    port = await start(dut)
    rm = regmap(BLOCK)
    reg, mask = _plain_reg(rm)
    addr = rm.offsets[reg]
    assert not await port.write(addr, 0x0123_4567 & mask)
    assert not await port.write(addr, 0xFFFF_FFFF, strb=0), "a write with no strobe was refused"
    assert (await port.read(addr))[0] & mask == 0x0123_4567 & mask, f"{reg}: a write with no strobe changed it"
    assert not await port.write(addr, 0xA5A5_A5A5, strb=0b1001)
    expect = (0x0123_4567 & 0x00FF_FF00 | 0xA5A5_A5A5 & 0xFF00_00FF) & mask
    assert (await port.read(addr))[0] & mask == expect, f"{reg}: lanes 0 and 3 not merged"
    if BLOCK == "aes":
        aes = Aes(port)
        await aes.setup("CBC", bytes(16), bytes(range(16)))
        iv = await aes.read("IV[1]")
        assert await port.write(rm.offsets["IV[1]"], 0xDEAD_BEEF, strb=0b0011, expect_err=True)
        assert not await port.write(rm.offsets["IV[1]"], 0xDEAD_BEEF, strb=0)
        assert await aes.read("IV[1]") == iv, "a refused IV write changed the IV"
        for i in range(3):
            await aes.write(f"DATA_IN[{i}]", i)
        assert not await port.write(rm.offsets["DATA_IN[3]"], 3, strb=0)
        assert await port.write(rm.offsets["DATA_IN[3]"], 3, strb=0b1110, expect_err=True)
        assert await port.write(rm.offsets["DATA_IN[0]"], 9, strb=0b0001, expect_err=True)
        await ClockCycles(dut.clk_i, 40)
        status = await aes.read("STATUS")
        assert not aes.rm.get("STATUS.busy", status) and not aes.rm.get("STATUS.out_valid", status), \
            "a DATA_IN[3] write without all strobes queued a block"
    if BLOCK == "sha":
        sha = Sha(port)
        level = sha.rm.get("STATUS.in_level", await sha.read("STATUS"))
        assert await port.write(rm.offsets["DATA_IN"], 1, strb=0b0111, expect_err=True)
        assert not await port.write(rm.offsets["DATA_IN"], 1, strb=0)
        assert sha.rm.get("STATUS.in_level", await sha.read("STATUS")) == level
        assert not sha.rm.get("STATUS.err", await sha.read("STATUS")), "a refused DATA_IN word reached the engine"
        for reg in ("DIGEST[3]", "COUNT_LO", "COUNT_HI"):
            assert await port.write(rm.offsets[reg], 0x1234_5678, strb=0b1100, expect_err=True), reg


@shell_test(skip=BUS not in ("apb4", "axil"), timeout_time=TEST_TIMEOUT_US, timeout_unit="us")
async def unaligned(dut) -> None:
    """Issue 47 (3): an address that is not a multiple of 4 answers an error and changes nothing:
    every read, an APB4 write, and an AXI4-Lite write with a strobe below its byte offset (one whose
    strobes start at the offset is AXI's narrow write, and merges those lanes)."""
    port = await start(dut)
    rm = regmap(BLOCK)
    reg, mask = _plain_reg(rm)
    addr = rm.offsets[reg]
    assert not await port.write(addr, 0x1111_1111 & mask)
    for off in (1, 2, 3):
        _, err = await port.read(rm.offsets["ID"] + off, expect_err=True)
        assert err, f"read of ID+{off} answered OKAY"
        if BUS == "apb4":
            assert await port.write(addr + off, 0xFFFF_FFFF, expect_err=True), f"write {reg}+{off} answered OKAY"
        else:
            assert await port._axil_raw_write(addr + off, 0xFFFF_FFFF, 0xF), f"write {reg}+{off}, WSTRB 1111"
        assert (await port.read(addr))[0] & mask == 0x1111_1111 & mask, f"{reg}: a refused write changed it"
    if BUS == "axil":
        assert not await port._axil_raw_write(addr + 2, 0x2222_2222, 0b1100), "narrow write at offset 2"
        assert (await port.read(addr))[0] & mask == 0x2222_1111 & mask


@shell_test(timeout_time=TEST_TIMEOUT_US, timeout_unit="us")
async def read_only_writes(dut) -> None:
    """Issue 47 (3): a write to a read-only register answers an error (ID and VERSION keep their
    value), except inside the DMA's channel blocks, whose own register file ignores it (OKAY, as
    documented); reads of write-only registers answer OKAY with 0 (the `registers` test)."""
    port = await start(dut)
    rm = regmap(BLOCK)
    checked = 0
    for reg, addr in rm.offsets.items():
        base = re.sub(r"\[\d+\]", "", reg)
        fields = rm.fields_of(reg)
        if not fields or not all(f.sw == "r" for f in fields):
            continue
        if "." in base:
            # Inside an external register file (the DMA's channel blocks), which ignores the write.
            assert not await port.write(addr, 0xFFFF_FFFF), f"write to read-only {reg} in its register file"
            continue
        # (Not read first: an AES DATA_OUT read would be held.)
        assert await port.write(addr, 0xFFFF_FFFF, expect_err=True), f"write to read-only {reg} answered OKAY"
        checked += 1
    value, err = await port.read(rm.offsets["ID"])
    assert not err and value == rm.fields["ID.id"].reset
    version = sum((f.reset or 0) << f.lsb for f in rm.fields_of("VERSION"))
    assert (await port.read(rm.offsets["VERSION"]))[0] == version
    assert checked >= 3
