# SPDX-License-Identifier: Apache-2.0
"""cocotb tests of xip_axi, the XIP controller with an AXI4-Lite register slave and the flash
window as an AXI4 read slave, with the qspi_flash model on the pins (tb_xip_axi.sv).

Bus models from cocotbext-axi: AxiLiteMaster on the registers, AxiMaster on the window, with
random pauses on AR and R (RREADY low) where a test says so. A monitor records every AR and R
handshake and every CS# fall, and checks that a waiting R beat stays put. Expected data are the
bytes the test wrote into the flash model (plaintext images), or the plaintext a `cryptography`
encrypted image was made from; a WRAP burst's beat order is the AXI rule's (AMBA AXI4, A3.4.1).
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from typing import Any, Iterator

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge, with_timeout
from cocotbext.axi import AxiBurstType, AxiBus, AxiLiteBus, AxiLiteMaster, AxiMaster, AxiResp

from cocotb_xip import miss_cycles
from cocotb_xip_integ import INTERLEAVED, LINE, build_image, phys, region, set_integ_context
from xip_tb import _MAP, CLOCK_NS, CMD_QIO, MODEL_DUMMY, REGS, Region, XipTb, encrypt_image, field, get_field

KEK = bytes.fromhex("000102030405060708090a0b0c0d0e0f")  # the integrity helpers wrap keys under it
IMAGE_BYTES = 64 * 1024
INCR, WRAP, FIXED = AxiBurstType.INCR, AxiBurstType.WRAP, AxiBurstType.FIXED
OKAY, SLVERR = int(AxiResp.OKAY), int(AxiResp.SLVERR)
BURST_TIMEOUT_US = 500  # a 256-beat burst at the flash's rate under pauses takes about 100


@dataclass(frozen=True)
class Beat:
    data: int
    resp: int
    last: bool
    id: int
    cycle: int


def random_pauses(seed: int, busy: float) -> Iterator[int]:
    rng = random.Random(seed)
    while True:
        yield int(rng.random() < busy)


def wrap_order(addr: int, beats: int) -> list[int]:
    """Word addresses of a 32-bit WRAP burst in beat order: from `addr` up to the boundary of the
    beats * 4-byte container, then from its start."""
    span = 4 * beats
    lo = addr & ~(span - 1)
    return [lo + (addr - lo + 4 * i) % span for i in range(beats)]


def words_of(image: bytes, addrs: list[int]) -> bytes:
    return b"".join(image[a:a + 4] for a in addrs)


class Monitor:
    """AR and R handshakes with their cycle, CS# falls, and R payloads that change while waiting."""

    def __init__(self, dut: Any) -> None:
        self.dut = dut
        self.cycle = 0
        self.ar: list[tuple[int, int, int, int]] = []  # (cycle, addr, len, burst)
        self.r: list[Beat] = []
        self.cs_falls = 0
        self.violations: list[str] = []
        cocotb.start_soon(self._run())

    async def _run(self) -> None:
        d = self.dut
        held: tuple[int, ...] | None = None
        cs_prev = 1
        while True:
            await RisingEdge(d.clk_i)
            await ReadOnly()
            self.cycle += 1
            if int(d.s_axi_arvalid.value) and int(d.s_axi_arready.value):
                self.ar.append((self.cycle, int(d.s_axi_araddr.value), int(d.s_axi_arlen.value),
                                int(d.s_axi_arburst.value)))
            rvalid, rready = int(d.s_axi_rvalid.value), int(d.s_axi_rready.value)
            payload = (int(d.s_axi_rdata.value), int(d.s_axi_rresp.value), int(d.s_axi_rlast.value),
                       int(d.s_axi_rid.value))
            if held is not None and (not rvalid or payload != held):
                self.violations.append(f"cycle {self.cycle}: R {held} changed to valid={rvalid} {payload}")
            held = payload if rvalid and not rready else None
            if rvalid and rready:
                self.r.append(Beat(payload[0], payload[1], bool(payload[2]), payload[3], self.cycle))
            cs = int(d.cs_n.value)
            self.cs_falls += int(cs_prev == 1 and cs == 0)
            cs_prev = cs


class AxiXipTb(XipTb):
    """XipTb's register helpers over AXI4-Lite, and AXI4 bursts on the window."""

    async def start(self, kek: bytes) -> None:
        dut = self.dut
        cocotb.start_soon(Clock(dut.clk_i, CLOCK_NS, unit="ns").start())
        self.set_kek(kek)
        self.set_otp()
        self.regs_if = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clk_i, dut.rst_ni,
                                     reset_active_level=False)
        self.axi = AxiMaster(AxiBus.from_prefix(dut, "s_axi"), dut.clk_i, dut.rst_ni, reset_active_level=False)
        for model in (self.regs_if.read_if, self.regs_if.write_if, self.axi.read_if, self.axi.write_if):
            model.log.setLevel(logging.WARNING)  # one line per burst slows the run down
        self.mon = Monitor(dut)
        await self.reset()

    def pauses(self, seed: int, r_busy: float = 0.4, ar_busy: float = 0.3) -> None:
        self.axi.read_if.r_channel.set_pause_generator(random_pauses(seed, r_busy))
        self.axi.read_if.ar_channel.set_pause_generator(random_pauses(seed + 1, ar_busy))

    def no_pauses(self) -> None:
        for ch in (self.axi.read_if.r_channel, self.axi.read_if.ar_channel):
            ch.clear_pause_generator()
            ch.pause = False  # clearing the generator leaves its last value

    async def _reg(self, name: str, write: bool, value: int = 0) -> tuple[int, bool]:
        if write:
            wr = await self.regs_if.write(REGS[name], value.to_bytes(4, "little"))
            return 0, wr.resp != AxiResp.OKAY
        rd = await self.regs_if.read(REGS[name], 4)
        return int.from_bytes(rd.data, "little"), rd.resp != AxiResp.OKAY

    async def burst(self, addr: int, beats: int, burst: AxiBurstType = INCR, arid: int = 0,
                    size: int = 2) -> tuple[bytes, list[Beat]]:
        """One AXI burst of `beats` beats of 2^size bytes; its data and its R beats."""
        first = len(self.mon.r)
        resp = await with_timeout(self.axi.read(addr, beats << size, arid=arid, burst=burst, size=size),
                                  BURST_TIMEOUT_US, "us")
        await RisingEdge(self.dut.clk_i)
        got = self.mon.r[first:]
        assert len(got) == beats, f"{addr:#x}: {len(got)} beats, want {beats}"
        assert [b.last for b in got] == [False] * (beats - 1) + [True], "RLAST only on the last beat"
        assert all(b.id == arid for b in got), "RID is the burst's ARID"
        assert (resp.resp != AxiResp.OKAY) == any(b.resp != OKAY for b in got)
        return resp.data, got

    def check_protocol(self) -> None:
        assert not self.mon.violations, self.mon.violations[:5]
        assert self.flash_errors() == 0


async def start(dut: Any, image: bytes | None = None) -> AxiXipTb:
    tb = AxiXipTb(dut)
    await tb.start(KEK)
    if image is not None:
        tb.load_flash(image)
    return tb


def plain_image(seed: int) -> bytes:
    return random.Random(seed).randbytes(IMAGE_BYTES)


def reset_value(reg: str) -> int:
    """A register's reset value from the SystemRDL source."""
    return sum((f.reset or 0) << f.lsb for name, f in _MAP.fields.items() if name.startswith(reg + "."))


@cocotb.test()
async def registers_axil(dut: Any) -> None:
    """ID and VERSION as the SystemRDL says, a context register round trip, SLVERR off the map."""
    tb = await start(dut)
    assert await tb.reg_read("ID") == reset_value("ID")
    assert await tb.reg_read("VERSION") == reset_value("VERSION")
    for value in (0xA5A5_5A5A, 0x0123_4567):
        await tb.reg_write("CTX[2].NONCE[0]", value)
        assert await tb.reg_read("CTX[2].NONCE[0]") == value
    start_reg = field("CTX.START.addr", 0x1234)
    await tb.reg_write("CTX[1].START", start_reg)
    assert await tb.reg_read("CTX[1].START") == start_reg
    rd = await tb.regs_if.read(0x3F0, 4)
    assert rd.resp == AxiResp.SLVERR


@cocotb.test()
async def incr_bursts(dut: Any) -> None:
    """INCR bursts of 1 to 256 beats at random word addresses (inside a 4 KB page), and narrow
    8/16-bit INCR reads at odd addresses; half of them under random R and AR pauses."""
    image = plain_image(1)
    tb = await start(dut, image)
    rng = random.Random(2)
    for i, beats in enumerate((1, 2, 3, 5, 8, 9, 16, 37, 64, 256, 1, 8)):
        if i % 2:
            tb.pauses(10 + i)
        else:
            tb.no_pauses()
        addr = 4 * rng.randrange(0, (IMAGE_BYTES - 4 * beats) // 4)
        addr = min(addr, (addr | 0xFFF) + 1 - 4 * beats)  # AXI: an INCR burst stays in its 4 KB page
        data, got = await tb.burst(addr, beats, arid=i % 16)
        assert data == image[addr:addr + 4 * beats], f"INCR {beats} at {addr:#x}"
        assert all(b.resp == OKAY for b in got)
    for size, n in ((0, 7), (1, 5), (0, 1)):
        addr = rng.randrange(0x100, IMAGE_BYTES - 0x100) | 1 if size == 0 else rng.randrange(0x100, 0x8000) & ~1
        resp = await tb.axi.read(addr, n << size, size=size)
        assert resp.resp == AxiResp.OKAY and resp.data == image[addr:addr + (n << size)], f"size {size} at {addr:#x}"
    tb.check_protocol()


@cocotb.test()
async def wrap_bursts(dut: Any) -> None:
    """WRAP-8 and WRAP-4 at every start word of a line, WRAP-2 and WRAP-16 at some: data in the
    AXI wrap order, under random pauses, from cold (a flushed controller) and warm buffers."""
    image = plain_image(3)
    tb = await start(dut, image)
    rng = random.Random(4)
    cases = [(beats, off) for beats in (8, 4) for off in range(beats)] + [(2, 1), (16, 5), (16, 15), (16, 0)]
    for i, (beats, off) in enumerate(cases):
        if i % 3:
            tb.pauses(100 + i)
        else:
            tb.no_pauses()
        if i % 2:
            await tb.reg_write("CTRL", field("CTRL.flush", 1))
        # Not the page's last 64 bytes: the model splits a WRAP burst it thinks crosses 4 KB.
        span = 4 * beats
        lo = 0x1000 * rng.randrange(IMAGE_BYTES // 0x1000) + span * rng.randrange((0x1000 - 64) // span)
        addr = lo + 4 * off
        data, got = await tb.burst(addr, beats, burst=WRAP, arid=i % 16)
        assert data == words_of(image, wrap_order(addr, beats)), f"WRAP {beats} at {addr:#x}"
        assert all(b.resp == OKAY for b in got)
        assert tb.mon.ar[-1][1:] == (addr, beats - 1, int(WRAP))
    tb.check_protocol()


@cocotb.test()
async def wrap_refill_cycles(dut: Any) -> None:
    """A cold 32-byte line refill as WRAP-8 at critical words 0, 3 and 7 (quad I/O, SCK = clk/2,
    no pauses): one flash transaction each. Cycles from the AR handshake to the first and the
    last R handshake, beside the Wishbone refill's formula (cocotb_xip.miss_cycles)."""
    image = plain_image(5)
    tb = await start(dut, image)
    await tb.configure(div=2, cmd=CMD_QIO)
    wb_refill = miss_cycles(2, CMD_QIO, MODEL_DUMMY[CMD_QIO], words=8)
    for off in (0, 3, 7):
        await tb.reg_write("CTRL", field("CTRL.flush", 1))
        await tb.idle(40)
        falls = tb.mon.cs_falls
        addr = 0x1240 + 4 * off
        data, got = await tb.burst(addr, 8, burst=WRAP)
        assert data == words_of(image, wrap_order(addr, 8))
        assert tb.mon.cs_falls - falls == 1, "a WRAP refill is one flash transaction"
        t_ar = tb.mon.ar[-1][0]
        first, last = got[0].cycle - t_ar, got[-1].cycle - t_ar
        dut._log.info(f"WRAP-8 critical word {off}: first beat {first} cycles, last {last} "
                      f"(Wishbone 8-beat refill from the line start: {wb_refill})")
        # The line arrives at the stream's rate; the wrapped-round words are already buffered.
        assert last <= wb_refill + off + 3, (off, last, wb_refill)
        assert first >= miss_cycles(2, CMD_QIO, MODEL_DUMMY[CMD_QIO], words=off + 1)
    tb.check_protocol()


@cocotb.test()
async def otfad_bursts(dut: Any) -> None:
    """An AES-128-CTR region (image encrypted with `cryptography` through xip_tb.encrypt_image)
    read back as plaintext by WRAP-8 and INCR bursts, inside and across its borders, under pauses."""
    rng = random.Random(6)
    plain = plain_image(7)
    # Borders inside 4 KB pages, so that one INCR burst crosses each.
    r = Region(0, 0x4400, 0x8400, rng.randbytes(16), rng.randbytes(8))
    image = encrypt_image(plain, [r])
    assert image[r.start:r.end] != plain[r.start:r.end]
    tb = await start(dut, image)
    await tb.set_context(r, KEK)
    tb.pauses(60)
    for addr, beats, burst in ((0x4400, 8, WRAP), (0x5A14, 8, WRAP), (0x83FC, 8, WRAP), (0x43E0, 16, INCR),
                               (0x83F0, 8, INCR), (0x6008, 4, WRAP), (0x4800, 64, INCR)):
        data, got = await tb.burst(addr, beats, burst=burst)
        order = wrap_order(addr, beats) if burst == WRAP else [addr + 4 * i for i in range(beats)]
        assert data == words_of(plain, order), f"{burst.name} {beats} at {addr:#x}"
        assert all(b.resp == OKAY for b in got)
    tb.check_protocol()


@cocotb.test()
async def integrity_slverr(dut: Any) -> None:
    """Line integrity (CMAC tags built with `cryptography`): a line with a flipped ciphertext bit
    answers SLVERR on every beat of a WRAP-8 refill with zero data, INTEG_STATUS and irq_o record
    it; the lines beside it read as their plaintext."""
    tb = await start(dut)
    r = region(INTERLEAVED)
    plain = bytes((i * 7 + 3) & 0xFF for i in range(IMAGE_BYTES))
    img = build_image(plain, r)
    bad = r.start + 0x300
    img[phys(r, bad) + 13] ^= 0x10
    tb.load_flash(bytes(img))
    status = await set_integ_context(tb, r)
    assert get_field("OTFAD_STATUS.mac_valid", status) == 1 << r.ctx
    await tb.reg_write("INTEG_IE", field("INTEG_IE.fail", 1))
    tb.pauses(70)
    data, got = await tb.burst(bad + 12, 8, burst=WRAP)
    assert [b.resp for b in got] == [SLVERR] * 8 and data == bytes(32), "nothing of a failed line is served"
    st = await tb.reg_read("INTEG_STATUS")
    assert get_field("INTEG_STATUS.fail", st) == 1 and await tb.reg_read("INTEG_ADDR") == bad
    assert int(dut.irq_o.value) == 1
    for addr in (bad - LINE + 20, bad + LINE + 4):
        data, got = await tb.burst(addr, 8, burst=WRAP)
        assert all(b.resp == OKAY for b in got)
        assert data == words_of(plain, wrap_order(addr, 8)), f"line at {addr & ~31:#x}"
    tb.check_protocol()


@cocotb.test()
async def writes_fixed_and_illegal(dut: Any) -> None:
    """Writes (single, burst, and one racing a read) end in BRESP SLVERR and change nothing; a
    FIXED burst repeats its word; WRAP of 3 or 32 beats (not allowed by AXI) answers SLVERR on
    every beat without a flash read; the slave keeps working after each."""
    image = plain_image(8)
    tb = await start(dut, image)
    tb.pauses(80)
    for addr, n in ((0x100, 4), (0x200, 32), (0x3FC, 64)):
        wr = await tb.axi.write(addr, bytes(range(n)))
        assert wr.resp == AxiResp.SLVERR, (addr, wr.resp)
    wr_ev = tb.axi.init_write(0x800, b"\xff" * 64)
    data, got = await tb.burst(0x800, 16)
    await wr_ev.wait()
    assert wr_ev.data.resp == AxiResp.SLVERR
    assert data == image[0x800:0x840] and all(b.resp == OKAY for b in got)
    data, _ = await tb.burst(0x100, 8)
    assert data == image[0x100:0x120], "a write changed what the window reads"
    data, got = await tb.burst(0x1234, 5, burst=FIXED)
    assert data == image[0x1234:0x1238] * 5 and all(b.resp == OKAY for b in got)
    for beats in (3, 32):
        await tb.reg_write("CTRL", field("CTRL.flush", 1))
        await tb.idle(40)
        falls = tb.mon.cs_falls
        data, got = await tb.burst(0x2000, beats, burst=WRAP)
        assert [b.resp for b in got] == [SLVERR] * beats and data == bytes(4 * beats)
        assert tb.mon.cs_falls == falls, "an illegal burst reads nothing from the flash"
    data, got = await tb.burst(0x2010, 8, burst=WRAP)
    assert data == words_of(image, wrap_order(0x2010, 8)) and all(b.resp == OKAY for b in got)
    tb.check_protocol()
