# SPDX-License-Identifier: Apache-2.0
"""cocotb tests of dma_axi, the DMA with an AXI4-Lite register slave and an AXI4 master.

Bus models from cocotbext-axi: AxiLiteMaster on the registers; on the master, AxiRam for the
copies and, where a test needs a FIFO register or a failing address, AxiSlave (the engine inside
AxiRam) over a small target. Every test puts random back-pressure on all five channels (pause
generators on AR, R, AW, W and B) unless it measures cycles, and a monitor records every AR/AW
handshake and checks that a waiting address stays put. Expected bursts come from the transfer's
description (docs/dma.md burst sizing, the AXI 4 KB rule), not from the RTL.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiLiteBus, AxiLiteMaster, AxiRam, AxiResp, AxiSlave

from dma_tb import AM_FIXED, AM_INC, ERR, Xfer, pattern, regmap

# The bus-model helpers the AXI4 master's own tests use (ip/axi_master/tests).
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "axi_master" / "tests"))
from axi_master_models import AddrMonitor, Burst, FifoTarget, axi_slave  # noqa: E402

RAM_BYTES = 0x4_0000       # window 0 of dma_axi's defaults: SRAM0, 256 KB at 0
FIFO_REG = 0xF000_1000     # inside window 2 (4 KB): a constant-address data register
INCR, FIXED = 1, 0         # AxBURST encodings (AMBA AXI4, A3.4.1)
DEPTH = int(os.environ["DMA_FIFO_DEPTH"])


def expected_bursts(start: int, words: int, beats: int, fixed: bool = False) -> list[Burst]:
    """AXI bursts of one side of an unpaced transfer: core bursts of min(BURST, words left)
    (docs/dma.md), each split where an INCR burst would cross a 4 KB boundary."""
    out, addr, left = [], start, words
    while left:
        n = min(beats, left)
        left -= n
        while n:
            part = n if fixed else min(n, (0x1000 - (addr & 0xFFF)) // 4)
            out.append(Burst(addr, part - 1, FIXED if fixed else INCR, 2))
            n -= part
            addr += 0 if fixed else 4 * part
    return out


class Bench:
    def __init__(self, dut) -> None:
        self.dut = dut
        self.regs = regmap()
        self.mon: AddrMonitor
        self.slave: AxiRam | AxiSlave

    async def start(self, target: FifoTarget | None = None, pauses: bool = True, seed: int = 1) -> None:
        d = self.dut
        cocotb.start_soon(Clock(d.clk_i, 10, unit="ns").start())
        d.req_i.value = 0
        d.rst_ni.value = 0
        self.regs_if = AxiLiteMaster(AxiLiteBus.from_prefix(d, "s_axil"), d.clk_i, d.rst_ni, reset_active_level=False)
        self.slave = axi_slave(d, target, RAM_BYTES, pauses, seed)
        self.mon = AddrMonitor(d)
        await ClockCycles(d.clk_i, 4)
        d.rst_ni.value = 1
        await ClockCycles(d.clk_i, 2)

    async def write(self, name: str, value: int) -> None:
        resp = await self.regs_if.write(self.regs[name].offset, value.to_bytes(4, "little"))
        assert resp.resp == AxiResp.OKAY, f"write {name}: {resp.resp}"

    async def read(self, name: str) -> int:
        resp = await self.regs_if.read(self.regs[name].offset, 4)
        assert resp.resp == AxiResp.OKAY, f"read {name}: {resp.resp}"
        return int.from_bytes(resp.data, "little")

    async def fields(self, name: str) -> dict[str, int]:
        return self.regs[name].unpack(await self.read(name))

    async def configure(self, ch: int, x: Xfer) -> None:
        await self.write(f"CH{ch}_CTRL", self.regs[f"CH{ch}_CTRL"].pack(**x.ctrl()))
        await self.write(f"CH{ch}_FLOW", self.regs[f"CH{ch}_FLOW"].pack(block=x.block, fifo_limit=x.fifo_limit))
        for reg, value in (("SRC", x.src), ("DST", x.dst), ("LEN", x.length), ("NEXT", x.next)):
            await self.write(f"CH{ch}_{reg}", value)

    async def run(self, chs: dict[int, Xfer], timeout_cycles: int = 100_000) -> None:
        for ch, x in chs.items():
            await self.configure(ch, x)
        await self.write("CMD", self.regs["CMD"].pack(**{f"start{c}": 1 for c in chs}))
        for _ in range(timeout_cycles):
            await RisingEdge(self.dut.clk_i)
            if not int(self.dut.busy_o.value) & sum(1 << c for c in chs):
                return
        raise AssertionError(f"channels {list(chs)} still busy after {timeout_cycles} cycles")

    async def outcome(self, ch: int) -> tuple[int, dict[str, int]]:
        """The channel's error code, and its IRQ_STATUS bits (cleared afterwards)."""
        st = await self.fields(f"CH{ch}_STATUS")
        assert st["busy"] == 0, st
        irq = await self.fields("IRQ_STATUS")
        await self.write("IRQ_STATUS", 0xFFFF_FFFF)
        return st["err"], {"done": irq[f"done{ch}"], "err": irq[f"err{ch}"]}

    def ram_write(self, addr: int, words: list[int]) -> None:
        data = b"".join(w.to_bytes(4, "little") for w in words)
        if isinstance(self.slave, AxiRam):
            self.slave.write(addr, data)
        else:
            self.slave.write_if.target.ram[addr:addr + len(data)] = data

    def ram_read(self, addr: int, n: int) -> list[int]:
        if isinstance(self.slave, AxiRam):
            data = self.slave.read(addr, 4 * n)
        else:
            data = bytes(self.slave.read_if.target.ram[addr:addr + 4 * n])
        return [int.from_bytes(data[4 * i:4 * i + 4], "little") for i in range(n)]

    def check_protocol(self) -> None:
        assert not self.mon.violations, self.mon.violations[:5]


@cocotb.test()
async def random_copies_bursts(dut):
    """Copies of random lengths, alignments and burst sizes, some across 4 KB boundaries, under
    back-pressure on every channel: data, and every AR/AW (INCR, AxSIZE 2, AxLEN as expected)."""
    tb = Bench(dut)
    await tb.start(seed=3)
    rng = random.Random(15)
    cases = [(0x0FF8, 0x2FE0, 40, 8), (0x5FF0, 0x7004, 9, 4), (0x1000, 0x9000, 1, 1)]
    for _ in range(9):
        words = rng.randint(1, 300)
        src = 4 * rng.randrange(0, 0x8000 - words)
        dst = 0x2_0000 + 4 * rng.randrange(0, 0x8000 - words)
        cases.append((src, dst, words, rng.choice((1, 4, 8))))
    for i, (src, dst, words, beats) in enumerate(cases):
        data = pattern(100 + i, words)
        tb.ram_write(src, data)
        tb.ram_write(dst, [0xDEAD_BEEF] * (words + 1))
        tb.mon.clear()
        await tb.run({i % 4: Xfer(src, dst, 4 * words, burst=beats)})
        code, irq = await tb.outcome(i % 4)
        assert code == ERR["NONE"] and irq == {"done": 1, "err": 0}, (code, irq)
        assert tb.ram_read(dst, words + 1) == data + [0xDEAD_BEEF], f"case {i}: copy differs"
        assert tb.mon.ar == expected_bursts(src, words, beats), f"case {i}: AR {tb.mon.ar[:4]}"
        assert tb.mon.aw == expected_bursts(dst, words, beats), f"case {i}: AW {tb.mon.aw[:4]}"
    tb.check_protocol()


@cocotb.test()
async def concurrent_channels(dut):
    """Four channels at once, bursts of 1, 4 and 8, sharing the two AXI directions."""
    tb = Bench(dut)
    await tb.start(seed=5)
    jobs = {c: Xfer(0x400 * c + 4 * c, 0x2_0000 + 0x800 * c, 4 * (130 + 17 * c), burst=(1, 4, 8, 8)[c],
                    prio=c % 2) for c in range(4)}
    datas = {c: pattern(40 + c, x.length // 4) for c, x in jobs.items()}
    for c, x in jobs.items():
        tb.ram_write(x.src, datas[c])
    await tb.run(jobs)
    for c, x in jobs.items():
        assert (await tb.outcome(c))[0] == ERR["NONE"]
        assert tb.ram_read(x.dst, x.length // 4) == datas[c], f"channel {c}"
    assert all(b.len <= 7 and b.burst == INCR for b in tb.mon.ar + tb.mon.aw)
    tb.check_protocol()


@cocotb.test()
async def fixed_fifo_register(dut):
    """Memory to a FIFO data register and back: FIXED bursts at one address, AxLEN = BURST - 1."""
    target = FifoTarget(RAM_BYTES, FIFO_REG)
    tb = Bench(dut)
    await tb.start(target, seed=7)
    words = 37
    data = pattern(9, words)
    tb.ram_write(0x100, data)
    await tb.run({0: Xfer(0x100, FIFO_REG, 4 * words, dst_mode=AM_FIXED, burst=8)})
    assert (await tb.outcome(0))[0] == ERR["NONE"]
    assert target.sink == data
    assert tb.mon.aw == expected_bursts(FIFO_REG, words, 8, fixed=True), tb.mon.aw
    target.source.extend(pattern(10, words))
    tb.mon.clear()
    await tb.run({1: Xfer(FIFO_REG, 0x3000, 4 * words, src_mode=AM_FIXED, dst_mode=AM_INC, burst=4)})
    assert (await tb.outcome(1))[0] == ERR["NONE"]
    assert tb.ram_read(0x3000, words) == pattern(10, words) and not target.source
    assert tb.mon.ar == expected_bursts(FIFO_REG, words, 4, fixed=True), tb.mon.ar
    tb.check_protocol()


@cocotb.test()
async def slave_errors(dut):
    """SLVERR on a read beat and on a write burst: RD_BUS / WR_BUS, the error IRQ bit and irq_o
    (docs/dma.md, Errors); the rest of the errored read burst is drained, so the next copy works."""
    target = FifoTarget(RAM_BYTES, FIFO_REG)
    tb = Bench(dut)
    await tb.start(target, seed=11)
    await tb.write("IRQ_ENABLE", tb.regs["IRQ_ENABLE"].pack(done=0xF, err=0xF))
    words = 64
    data = pattern(12, words)
    tb.ram_write(0x1000, data)
    for ch, fail, code in ((0, 0x1000 + 4 * 21, "RD_BUS"), (1, 0x5000 + 4 * 42, "WR_BUS")):
        target.fail = {fail}
        await tb.run({ch: Xfer(0x1000, 0x5000, 4 * words, burst=8)})
        assert int(dut.irq_o.value) == 1
        got, irq = await tb.outcome(ch)
        assert got == ERR[code] and irq == {"done": 0, "err": 1}, (ch, got, irq)
        assert int(dut.irq_o.value) == 0
        beats = await tb.read(f"CH{ch}_{'RD' if code == 'RD_BUS' else 'WR'}_BEATS")
        assert beats < words, beats
    target.fail = set()
    await tb.run({2: Xfer(0x1000, 0x6000, 4 * words, burst=8)})
    assert (await tb.outcome(2))[0] == ERR["NONE"]
    assert tb.ram_read(0x6000, words) == data
    tb.check_protocol()


@cocotb.test()
async def descriptor_chain(dut):
    """A three-descriptor chain; one descriptor straddles a 4 KB boundary (its 4-beat fetch is split)."""
    tb = Bench(dut)
    await tb.start(seed=13)
    segs = [(0x0800, 0x2_1000, 10), (0x4000, 0x2_3000, 40), (0x6000, 0x2_5FF8, 3)]
    descs = [0x8000, 0x8FF8, 0x9100]
    for i, (src, dst, n) in enumerate(segs):
        tb.ram_write(src, pattern(60 + i, n))
        tb.ram_write(descs[i], [src, dst, 4 * n, descs[i + 1] if i < 2 else 0])
    tb.mon.clear()
    await tb.run({0: Xfer(0, 0, 0, burst=8, chain=1, next=descs[0])})
    assert (await tb.outcome(0))[0] == ERR["NONE"]
    for i, (_, dst, n) in enumerate(segs):
        assert tb.ram_read(dst, n) == pattern(60 + i, n), f"segment {i}"
    assert Burst(0x8FF8, 1, INCR, 2) in tb.mon.ar and Burst(0x9000, 1, INCR, 2) in tb.mon.ar, tb.mon.ar
    tb.check_protocol()


@cocotb.test()
async def throughput_1k(dut):
    """1 KB copy with 8-beat bursts, no back-pressure: CH0_CYCLES against docs/dma.md's Wishbone figure."""
    tb = Bench(dut)
    await tb.start(pauses=False)
    words = 256
    data = pattern(21, words)
    tb.ram_write(0x0, data)
    await tb.run({0: Xfer(0x0, 0x2_0000, 4 * words, burst=8)})
    assert (await tb.outcome(0))[0] == ERR["NONE"]
    assert tb.ram_read(0x2_0000, words) == data
    cycles = await tb.read("CH0_CYCLES")
    dut._log.info(f"1 KB copy over AXI4 (AxiRam, no back-pressure, FifoDepth {DEPTH}): {cycles} cycles, "
                  f"{cycles / words:.3f} cycles/word")
    assert [b.len for b in tb.mon.ar] == [7] * (words // 8)
    tb.check_protocol()
