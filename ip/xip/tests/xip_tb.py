# SPDX-License-Identifier: Apache-2.0
"""cocotb bench for tb_xip: Wishbone masters for the flash window and the registers, flash image
loading through the model's memory array, OTFAD context set-up, and cycle counting."""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from dataclasses import field as field_
from pathlib import Path
from typing import Any

from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge
from cocotb.utils import get_sim_time
# This checkout's aesoc, even where the simulator's Python would find another installed copy.
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from aesoc.soc.regs import regmap  # noqa: E402
from aesoc.xip.image import ContextFields, FLAG_ENABLE, FLAG_LOCK, TABLE_ENTRY, ctr_crypt, region_iv  # noqa: E402

CLOCK_NS = 10
# An unwrap takes about 1,070 cycles (rtl/xip_keywrap.sv); a status read takes one.
UNWRAP_POLLS = 4000
_MAP = regmap("xip")
_CMD = _MAP.enums["xip_read_cmd_e"]
CMD_READ, CMD_FAST, CMD_QOUT, CMD_QIO = _CMD["READ"], _CMD["FAST"], _CMD["QOUT"], _CMD["QIO"]

CTI_CLASSIC = 0b000
CTI_INCR = 0b010
CTI_END = 0b111

MODEL_DUMMY = {CMD_READ: 0, CMD_FAST: 8, CMD_QOUT: 8, CMD_QIO: 4}  # the model's defaults


# Register offsets (array elements as KEYBLOB[i], CTX[c].NONCE[i]) and fields (lsb, width) by name,
# array indices left out (CTX.CTRL.en), from the SystemRDL source (with the read commands above).
REGS = _MAP.offsets
FIELDS = {name: (f.lsb, f.width) for name, f in _MAP.fields.items()}


def field(name: str, value: int) -> int:
    lsb, width = FIELDS[name]
    assert 0 <= value < (1 << width), f"{name} = {value} does not fit"
    return value << lsb


def get_field(name: str, reg_value: int) -> int:
    lsb, width = FIELDS[name]
    return (reg_value >> lsb) & ((1 << width) - 1)


@dataclass
class Access:
    data: list[int]
    cycles: int      # from the first cycle STB was high to the last ACK, inclusive
    err: bool
    beats: list[int] = field_(default_factory=list)  # per beat: its first STB cycle to its ACK, inclusive


@dataclass(frozen=True)
class Region:
    ctx: int
    start: int
    end: int
    key: bytes
    nonce: bytes


def encrypt_image(plain: bytes, regions: list[Region]) -> bytes:
    """The flash contents: each region AES-128-CTR encrypted with IV nonce || be64(start / 16)."""
    out = bytearray(plain)
    for r in regions:
        out[r.start:r.end] = ctr_crypt(r.key, region_iv(r.nonce, r.start), plain[r.start:r.end])
    return bytes(out)


class XipTb:
    def __init__(self, dut: Any) -> None:
        self.dut = dut

    async def start(self, kek: bytes) -> None:
        dut = self.dut
        Clock(dut.clk_i, CLOCK_NS, unit="ns").start()
        for name in ("wb_cyc_i", "wb_stb_i", "wb_we_i", "wb_adr_i", "wb_dat_i", "wb_cti_i", "wb_bte_i",
                     "reg_cyc_i", "reg_stb_i", "reg_we_i", "reg_adr_i", "reg_dat_i"):
            getattr(dut, name).value = 0
        dut.wb_sel_i.value = 0xF
        dut.reg_sel_i.value = 0xF
        self.set_kek(kek)
        self.set_otp()
        await self.reset()

    def set_kek(self, kek: bytes) -> None:
        self.dut.otp_kek_i.value = int.from_bytes(kek, "big")

    def set_otp(self, integ_req: bool = False, min_version: int = 0) -> None:
        """The OTP policy fuses (static inputs: change them only across a reset)."""
        self.dut.otp_integ_req_i.value = int(integ_req)
        self.dut.otp_min_version_i.value = min_version

    async def reset(self) -> None:
        """Reset controller and flash (RESET# also leaves continuous-read mode)."""
        self.dut.rst_ni.value = 0
        await ClockCycles(self.dut.clk_i, 3)
        self.dut.rst_ni.value = 1
        await RisingEdge(self.dut.clk_i)

    def now(self) -> int:
        return round(get_sim_time(unit="ns")) // CLOCK_NS

    async def idle(self, cycles: int) -> None:
        await ClockCycles(self.dut.clk_i, cycles)

    # -- flash contents ------------------------------------------------------------------------

    def load_flash(self, data: bytes, base: int = 0) -> None:
        mem = self.dut.u_flash.mem_q
        for i in range(0, len(data), 4):
            mem[(base + i) // 4].value = int.from_bytes(data[i:i + 4], "little")

    def flash_errors(self) -> int:
        return int(self.dut.u_flash.err_count.value)

    # -- registers -----------------------------------------------------------------------------

    async def _reg(self, name: str, write: bool, value: int = 0) -> tuple[int, bool]:
        dut = self.dut
        dut.reg_cyc_i.value = 1
        dut.reg_stb_i.value = 1
        dut.reg_we_i.value = int(write)
        dut.reg_adr_i.value = REGS[name] >> 2
        dut.reg_dat_i.value = value
        while True:
            await FallingEdge(dut.clk_i)
            ack, err = int(dut.reg_ack_o.value), int(dut.reg_err_o.value)
            data = int(dut.reg_dat_o.value)
            await RisingEdge(dut.clk_i)
            if ack or err:
                break
        dut.reg_cyc_i.value = 0
        dut.reg_stb_i.value = 0
        dut.reg_we_i.value = 0
        return data, bool(err)

    async def reg_write(self, name: str, value: int) -> None:
        _, err = await self._reg(name, True, value)
        assert not err, f"register write {name} ended in ERR"

    async def reg_read(self, name: str) -> int:
        data, err = await self._reg(name, False)
        assert not err, f"register read {name} ended in ERR"
        return data

    async def reg_offset_access(self, offset: int, write: bool) -> bool:
        """Access a raw register offset; True when it ended in ERR."""
        dut = self.dut
        dut.reg_cyc_i.value = 1
        dut.reg_stb_i.value = 1
        dut.reg_we_i.value = int(write)
        dut.reg_adr_i.value = offset >> 2
        await FallingEdge(dut.clk_i)
        err = bool(int(dut.reg_err_o.value))
        ack = bool(int(dut.reg_ack_o.value))
        await RisingEdge(dut.clk_i)
        dut.reg_cyc_i.value = 0
        dut.reg_stb_i.value = 0
        assert ack != err, "a register access must end in exactly one of ACK and ERR"
        return err

    async def configure(self, div: int = 2, cmd: int = CMD_QIO, dummy: int | None = None,
                        cont: bool = False) -> None:
        dummy = MODEL_DUMMY[cmd] if dummy is None else dummy
        await self.reg_write("CFG", field("CFG.div", div) | field("CFG.dummy", dummy)
                             | field("CFG.cmd", cmd) | field("CFG.cont", int(cont)))

    # -- OTFAD ---------------------------------------------------------------------------------

    async def unwrap(self, ctx: int, blob: bytes) -> int:
        """Write a context blob and unwrap it into a context; returns OTFAD_STATUS after."""
        assert len(blob) == TABLE_ENTRY
        for i in range(TABLE_ENTRY // 4):
            await self.reg_write(f"KEYBLOB[{i}]", int.from_bytes(blob[4 * i:4 * i + 4], "little"))
        await self.reg_write("UNWRAP", field("UNWRAP.ctx", ctx) | field("UNWRAP.go", 1))
        for _ in range(UNWRAP_POLLS):
            status = await self.reg_read("OTFAD_STATUS")
            if not get_field("OTFAD_STATUS.busy", status):
                return status
        raise AssertionError("context unwrap did not finish")

    async def set_context(self, r: Region, kek: bytes, lock: bool = False) -> None:
        """Arm a plain AES-CTR context the only way there is: its description's blob."""
        status = await self.unwrap(r.ctx, region_fields(r, lock).blob(kek))
        assert not get_field("OTFAD_STATUS.unwrap_err", status), "unwrap failed"

    # -- flash window --------------------------------------------------------------------------

    async def access(self, addrs: list[int], ctis: list[int] | None = None, write: bool = False,
                     sel: int = 0xF, gap: int = 0) -> Access:
        """One Wishbone cycle over byte addresses `addrs` (a single access or a burst), started
        `gap` idle cycles after the previous one ended."""
        dut = self.dut
        if gap:
            await ClockCycles(dut.clk_i, gap)
        ctis = ctis or [CTI_CLASSIC] * len(addrs)
        dut.wb_cyc_i.value = 1
        dut.wb_stb_i.value = 1
        dut.wb_we_i.value = int(write)
        dut.wb_sel_i.value = sel
        dut.wb_dat_i.value = 0x5A5A5A5A
        t0 = self.now()
        data: list[int] = []
        err = False
        beats: list[int] = []
        for addr, cti in zip(addrs, ctis):
            dut.wb_adr_i.value = addr >> 2
            dut.wb_cti_i.value = cti
            t_beat = self.now()
            for _ in range(100_000):
                await FallingEdge(dut.clk_i)
                ack, e = int(dut.wb_ack_o.value), int(dut.wb_err_o.value)
                word = int(dut.wb_dat_o.value) if ack else 0
                await RisingEdge(dut.clk_i)
                if ack or e:
                    beats.append(self.now() - t_beat)
                    data.append(word)
                    err = err or bool(e)
                    break
            else:
                raise AssertionError(f"no ACK or ERR for address {addr:#x}")
        dut.wb_cyc_i.value = 0
        dut.wb_stb_i.value = 0
        dut.wb_we_i.value = 0
        return Access(data, self.now() - t0, err, beats)

    async def read(self, addr: int, sel: int = 0xF, gap: int = 0) -> Access:
        return await self.access([addr], sel=sel, gap=gap)

    async def burst(self, addr: int, beats: int = 8, gap: int = 0) -> Access:
        """An incrementing burst as the CPU's line refill issues it: CTI 010 ... 111."""
        addrs = [addr + 4 * i for i in range(beats)]
        ctis = [CTI_INCR] * (beats - 1) + [CTI_END]
        return await self.access(addrs, ctis, gap=gap)


def region_fields(r: Region, lock: bool = False) -> ContextFields:
    return ContextFields(r.ctx, r.key, r.nonce, r.start, r.end, FLAG_ENABLE | (FLAG_LOCK if lock else 0))


def word_at(image: bytes, addr: int) -> int:
    a = addr & ~3
    return int.from_bytes(image[a:a + 4], "little")


def random_regions(rng: random.Random, span: int, count: int = 4) -> list[Region]:
    """`count` non-overlapping 1 KB-aligned regions inside [0, span), random keys and nonces."""
    cuts = sorted(rng.sample(range(1, span // 1024), 2 * count))
    regions = []
    for ctx in range(count):
        start, end = cuts[2 * ctx] * 1024, cuts[2 * ctx + 1] * 1024
        regions.append(Region(ctx, start, end, rng.randbytes(16), rng.randbytes(8)))
    rng.shuffle(regions)
    return [Region(i, r.start, r.end, r.key, r.nonce) for i, r in enumerate(regions)]
