# SPDX-License-Identifier: Apache-2.0
"""Shared helpers of the DMA cocotb tests: register map and encodings from the RDL, bus access, memories.

The register map is read from ip/dma/data/dma.rdl with systemrdl-compiler, so tests never carry
hand-written offsets. `Dma` drives the register slave of tb_dma.sv one access per cycle: inputs
change right after a rising edge and ACK is sampled in ReadOnly of the same cycle.
"""

from __future__ import annotations

import os
import random
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, ReadOnly, RisingEdge, with_timeout
import cocotb

# This checkout's aesoc, even where the simulator's Python would find another installed copy.
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from aesoc.soc import regs  # noqa: E402

# Byte map of tb_dma.sv.
MEM0 = 0x0000_0000
MEM1 = 0x1000_0000
PER = 0x2000_0000
HOLE = 0x3000_0000  # inside DMA window 3, mapped to no crossbar slave
MEM_BYTES = 0x1_0000
PER_IN0, PER_OUT0, PER_STREAM, PER_LOG_COUNT = PER + 0x00, PER + 0x10, PER + 0x20, PER + 0x24
PER_XOR = 0x5A5A_5A5A
SEQ_START = 0x1000_0000

# Encodings of dma.rdl's enums.
_ENUMS = regs.regmap("dma").enums
AM_INC, AM_FIXED, AM_WRAP = (_ENUMS["dma_addr_mode_e"][m] for m in ("INC", "FIXED", "WRAP"))
BURST = {beats: _ENUMS["dma_burst_e"][f"BL_{beats}"] for beats in (1, 4, 8)}
REQ_PER_IN, REQ_PER_OUT, REQ_EXT2, REQ_EXT3 = 0, 1, 2, 3
ERR = {
    "NONE": 0, "ZERO_LEN": 1, "ADDR_ALIGN": 2, "LEN_ALIGN": 3, "SRC_RANGE": 4, "DST_RANGE": 5,
    "RD_BUS": 6, "WR_BUS": 7, "DESC_ADDR": 8, "DESC_BUS": 9, "CFG": 10, "ABORT": 11,
}


@dataclass(frozen=True)
class Reg:
    offset: int
    fields: dict[str, tuple[int, int]]  # name -> (lsb, width)

    def pack(self, **values: int) -> int:
        word = 0
        for name, value in values.items():
            lsb, width = self.fields[name]
            assert 0 <= value < (1 << width), f"{name}={value} does not fit {width} bits"
            word |= value << lsb
        return word

    def unpack(self, word: int) -> dict[str, int]:
        return {n: (word >> lsb) & ((1 << w) - 1) for n, (lsb, w) in self.fields.items()}


@cache
def regmap() -> dict[str, Reg]:
    """Registers by name, channel c's as CH<c>_<REG> (the regfile array CH[c] of dma.rdl)."""
    rm = regs.regmap("dma")
    out: dict[str, Reg] = {}
    for path, offset in rm.offsets.items():
        name = path.replace("CH[", "CH").replace("].", "_")
        plain = path.split("].")[-1] if path.startswith("CH[") else path
        prefix = "CH." if path.startswith("CH[") else ""
        fields = {f.split(".")[-1]: (fd.lsb, fd.width) for f, fd in rm.fields.items()
                  if f.rsplit(".", 1)[0] == prefix + plain}
        out[name] = Reg(offset, fields)
    return out


def pattern(seed: int, n: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.getrandbits(32) for _ in range(n)]


@dataclass
class Xfer:
    """One channel configuration (see CHn_CTRL / CHn_FLOW)."""

    src: int
    dst: int
    length: int
    src_mode: int = AM_INC
    dst_mode: int = AM_INC
    burst: int = 1
    prefetch: int = 0
    chain: int = 0
    prio: int = 0
    bus_prio: int = 0
    src_req: int | None = None
    dst_req: int | None = None
    block: int = 4
    fifo_limit: int = 0
    next: int = 0
    extra_ctrl: dict[str, int] = field(default_factory=dict)

    def ctrl(self) -> dict[str, int]:
        c = dict(src_mode=self.src_mode, dst_mode=self.dst_mode, burst=BURST.get(self.burst, self.burst),
                 prefetch=self.prefetch, chain=self.chain, prio=self.prio, bus_prio=self.bus_prio,
                 src_req_en=int(self.src_req is not None), src_req_sel=self.src_req or 0,
                 dst_req_en=int(self.dst_req is not None), dst_req_sel=self.dst_req or 0)
        c.update(self.extra_ctrl)
        return c


class Dma:
    def __init__(self, dut):
        self.dut = dut
        self.regs = regmap()
        self.depth = int(os.environ["DMA_FIFO_DEPTH"])  # the FifoDepth parameter of this build

    # ---- set-up ----
    async def init(self) -> None:
        d = self.dut
        cocotb.start_soon(Clock(d.clk_i, 10, unit="ns").start())
        for sig, val in (("wb_cyc_i", 0), ("wb_stb_i", 0), ("wb_we_i", 0), ("wb_adr_i", 0), ("wb_dat_i", 0),
                         ("ext_req_i", 0), ("mem0_wait_i", 0), ("mem1_wait_i", 0), ("mem0_err_en_i", 0),
                         ("mem0_err_adr_i", 0), ("mem1_err_en_i", 0), ("mem1_err_adr_i", 0),
                         ("per_in_en_i", 0), ("per_out_en_i", 0), ("per_latency_i", 11), ("tr_en_i", 0),
                         ("tr_prio_i", 0)):
            getattr(d, sig).value = val
        d.rst_ni.value = 0
        await ClockCycles(d.clk_i, 3)
        d.rst_ni.value = 1
        await RisingEdge(d.clk_i)

    # ---- register slave ----
    async def access(self, we: bool, offset: int, data: int = 0) -> tuple[int, bool]:
        d = self.dut
        d.wb_cyc_i.value = 1
        d.wb_stb_i.value = 1
        d.wb_we_i.value = int(we)
        d.wb_adr_i.value = offset >> 2
        d.wb_dat_i.value = data
        for _ in range(16):
            await ReadOnly()
            ack, err = int(d.wb_ack_o.value), int(d.wb_err_o.value)
            rdata = int(d.wb_dat_o.value)
            await RisingEdge(d.clk_i)
            if ack or err:
                break
        else:
            raise AssertionError(f"register access at {offset:#x} never answered")
        d.wb_cyc_i.value = 0
        d.wb_stb_i.value = 0
        return rdata, bool(err)

    async def write(self, name: str, value: int) -> None:
        _, err = await self.access(True, self.regs[name].offset, value)
        assert not err, f"write {name} answered ERR"

    async def read(self, name: str) -> int:
        value, err = await self.access(False, self.regs[name].offset)
        assert not err, f"read {name} answered ERR"
        return value

    async def fields(self, name: str) -> dict[str, int]:
        return self.regs[name].unpack(await self.read(name))

    async def write_fields(self, name: str, **values: int) -> None:
        await self.write(name, self.regs[name].pack(**values))

    # ---- channels ----
    async def configure(self, ch: int, x: Xfer) -> None:
        await self.write_fields(f"CH{ch}_CTRL", **x.ctrl())
        await self.write_fields(f"CH{ch}_FLOW", block=x.block, fifo_limit=x.fifo_limit)
        await self.write(f"CH{ch}_SRC", x.src)
        await self.write(f"CH{ch}_DST", x.dst)
        await self.write(f"CH{ch}_LEN", x.length)
        await self.write(f"CH{ch}_NEXT", x.next)

    async def start(self, *chs: int) -> None:
        """Start channels with one CMD write (the start pulse is in the cycle after it)."""
        await self.write_fields("CMD", **{f"start{c}": 1 for c in chs})

    async def abort(self, *chs: int) -> None:
        await self.write_fields("CMD", **{f"abort{c}": 1 for c in chs})

    def busy(self, ch: int) -> bool:
        return bool(int(self.dut.busy_o.value) >> ch & 1)

    def cycle(self) -> int:
        return int(self.dut.cycle_o.value)

    async def wait_idle(self, ch: int, timeout_cycles: int = 200_000) -> int:
        """Wait until channel ch is idle; returns the cycle count at that point."""
        d = self.dut
        deadline = self.cycle() + timeout_cycles
        await ReadOnly()
        while int(d.busy_o.value) >> ch & 1:
            remaining = deadline - self.cycle()
            assert remaining > 0, f"channel {ch} still busy after {timeout_cycles} cycles"
            await with_timeout(d.busy_o.value_change, remaining * 10, "ns")
            await ReadOnly()
        await RisingEdge(d.clk_i)
        return self.cycle()

    async def status(self, ch: int) -> dict[str, int]:
        return await self.fields(f"CH{ch}_STATUS")

    async def counters(self, ch: int) -> dict[str, int]:
        return {k: await self.read(f"CH{ch}_{k.upper()}") for k in ("cycles", "wait", "rd_beats", "wr_beats")}

    async def run(self, ch: int, x: Xfer, timeout_cycles: int = 200_000) -> dict[str, int]:
        await self.configure(ch, x)
        await self.start(ch)
        await self.wait_idle(ch, timeout_cycles)
        return await self.status(ch)

    async def clear_irqs(self) -> None:
        await self.write("IRQ_STATUS", 0xFFFF_FFFF)

    # ---- memories ----
    def _mem(self, byte_addr: int):
        bank = {MEM0 >> 28: self.dut.u_mem0, MEM1 >> 28: self.dut.u_mem1}[byte_addr >> 28]
        return bank.mem_q, (byte_addr & (MEM_BYTES - 1)) >> 2

    def mem_write(self, byte_addr: int, words: list[int]) -> None:
        mem, w = self._mem(byte_addr)
        for i, v in enumerate(words):
            mem[w + i].value = v

    def mem_read(self, byte_addr: int, n: int) -> list[int]:
        mem, w = self._mem(byte_addr)
        return [int(mem[w + i].value) for i in range(n)]

    def mem_fill(self, byte_addr: int, n: int, value: int = 0xDEAD_BEEF) -> None:
        self.mem_write(byte_addr, [value] * n)

    def periph_log(self) -> list[int]:
        n = int(self.dut.u_per.log_cnt_q.value)
        return [int(self.dut.u_per.log_q[i].value) for i in range(n)]

    def violations(self) -> int:
        return int(self.dut.mon_violations_o.value)

    def mon_busy_cycles(self, ch: int) -> int:
        return (int(self.dut.mon_busy_cycles_o.value) >> (32 * ch)) & 0xFFFF_FFFF


def side_index(mode: int, i: int, block: int) -> int:
    """Word offset of beat i on one side of a transfer in address mode `mode`."""
    if mode == AM_FIXED:
        return 0
    if mode == AM_WRAP:
        return i % block
    return i


def model_copy(src: list[int], dst_before: list[int], n: int, src_mode: int, dst_mode: int,
               block: int) -> list[int]:
    """Destination contents after moving n words (the last write to a word wins)."""
    out = list(dst_before)
    for i in range(n):
        out[side_index(dst_mode, i, block)] = src[side_index(src_mode, i, block)]
    return out


class BeatLog:
    """Records (cti, word address) of every acknowledged beat of both DMA masters."""

    def __init__(self, dut):
        self.dut = dut
        self.rd: list[tuple[int, int]] = []
        self.wr: list[tuple[int, int]] = []
        self.max_level: dict[int, int] = {}
        self.running = True

    async def run(self, level_channels: tuple[int, ...] = ()) -> None:
        d = self.dut
        levels = {c: d.u_dma.u_periph.u_core.gen_ch[c].u_ch.count_q for c in level_channels}
        while self.running:
            await RisingEdge(d.clk_i)
            await ReadOnly()
            if int(d.rd_beat_o.value):
                self.rd.append((int(d.rd_cti_o.value), int(d.rd_adr_o.value)))
            if int(d.wr_beat_o.value):
                self.wr.append((int(d.wr_cti_o.value), int(d.wr_adr_o.value)))
            for c, sig in levels.items():
                self.max_level[c] = max(self.max_level.get(c, 0), int(sig.value))

    def start(self, *level_channels: int) -> "BeatLog":
        cocotb.start_soon(self.run(level_channels))
        return self

    def stop(self) -> None:
        self.running = False


def bursts(beats: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """Split a beat log into bursts: a burst ends with CTI 111 or is a single CTI 000 beat."""
    out, cur = [], []
    for cti, adr in beats:
        cur.append((cti, adr))
        if cti in (0, 7):
            out.append(cur)
            cur = []
    assert not cur, f"unterminated burst {cur}"
    return out
