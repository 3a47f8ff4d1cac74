"""cocotb tests of one generated bus shell (<block>_<bus>) through a bus model from PyPI.

The bus models: cocotbext-axi (AXI4-Lite), cocotbext-apb (APB4), cocotbext-wishbone (classic and
pipelined). Registers and their access come from the block's SystemRDL; the AES vectors from
FIPS-197 and SP 800-38A, random cases from the `cryptography` package.
"""

from __future__ import annotations

import os
import random
import re
import sys
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge
from cocotb.utils import get_sim_time
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from aesoc.regs import Field, regmap  # noqa: E402
from aesoc.shells import MAX_WAIT_DEFAULT  # noqa: E402

BLOCK = os.environ["SHELL_BLOCK"]
BUS = os.environ["SHELL_BUS"]
WINDOW = 4096
CLOCK_NS = 10


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
            resp = await self.axil.write(addr + lanes[0], data[lanes[0]:lanes[-1] + 1])
            return int(resp.resp) != 0
        if BUS == "apb4":
            await self.apb.write(addr, value, strb=strb, error_expected=expect_err)
            return expect_err
        from cocotbext.wishbone.driver import WBOp
        res = await self.wb.send_cycle([WBOp(addr >> 2, value, sel=strb)])
        return res[0].ack == 2

    async def read(self, addr: int, expect_err: bool = False) -> tuple[int, bool]:
        if BUS == "axil":
            resp = await self.axil.read(addr, 4)
            return int.from_bytes(resp.data, "little"), int(resp.resp) != 0
        if BUS == "apb4":
            value = await self.apb.read(addr, error_expected=expect_err)
            return int.from_bytes(value, "little") if isinstance(value, bytes) else int(value), expect_err
        from cocotbext.wishbone.driver import WBOp
        res = await self.wb.send_cycle([WBOp(addr >> 2)])
        return int(res[0].datrd), res[0].ack == 2


async def start(dut) -> Port:
    cocotb.start_soon(Clock(dut.clk_i, CLOCK_NS, unit="ns").start())
    for name in ("irq_src_i", "bus_err_i", "bus_err_master_i", "bus_err_addr_i", "req_i", "win_req_i",
                 "win_addr_i", "otp_kek_i", "flash_io_i", "rd_data_i", "rd_ack_i", "rd_err_i", "wr_ack_i",
                 "wr_err_i"):
        if hasattr(dut, name):
            getattr(dut, name).value = 0
    port = Port(dut)
    dut.rst_ni.value = 0
    await ClockCycles(dut.clk_i, 3)
    dut.rst_ni.value = 1
    await ClockCycles(dut.clk_i, 2)
    return port


# ---- register access from the SystemRDL (aesoc.regs.RegMap) ----

def _mask(fields: list[Field]) -> int:
    return sum(f.mask for f in fields)


@cocotb.test()
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


@cocotb.test()
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


@cocotb.test(skip=BUS not in ("wbc", "wbp"))
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


@cocotb.test(skip=BLOCK != "aes")
async def aes_vectors(dut) -> None:
    """FIPS-197 appendix C (ECB, 128/192/256) and SP 800-38A CBC and CTR (4 blocks) through the shell."""
    aes = Aes(await start(dut))
    for key, pt, ct in FIPS197:
        await aes.setup("ECB", bytes.fromhex(key), None)
        assert (await aes.crypt(bytes.fromhex(pt))).hex() == ct, f"FIPS-197 AES-{4 * len(key)}"
    for mode, iv, ct in SP800_38A:
        await aes.setup(mode, bytes.fromhex(SP800_38A_KEY), bytes.fromhex(iv))
        assert (await aes.crypt(bytes.fromhex(SP800_38A_PT))).hex() == ct, f"SP 800-38A {mode}"


@cocotb.test(skip=BLOCK != "aes")
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


@cocotb.test(skip=BLOCK != "aes" or BUS not in ("apb4", "axil"))
async def aes_bounded_wait(dut) -> None:
    """A DATA_OUT read with no result coming ends in an error response after MaxWait cycles, with
    one timeout_o pulse, instead of holding the bus (the read stays pending in the core until a
    result comes or reset, so it is the last access of this test)."""
    port = await start(dut)
    aes = Aes(port)
    pulses = 0

    async def count() -> None:
        nonlocal pulses
        while True:
            await RisingEdge(dut.clk_i)
            pulses += int(dut.timeout_o.value)

    cocotb.start_soon(count())
    await aes.setup("ECB", bytes(16), None)
    t0 = get_sim_time("ns")
    _, err = await port.read(aes.rm.offsets["DATA_OUT[0]"], expect_err=True)
    waited = (get_sim_time("ns") - t0) / CLOCK_NS
    assert err, "a DATA_OUT read with nothing to read answered OKAY"
    assert MAX_WAIT_DEFAULT <= waited <= MAX_WAIT_DEFAULT + 8, f"error after {waited} cycles"
    await ClockCycles(dut.clk_i, 2)
    assert pulses == 1, f"timeout_o pulsed {pulses} times"
