# SPDX-License-Identifier: Apache-2.0
"""cocotb tests of axi_master, the AXI4 burst master behind the DMA's read and write ports.

Python requesters stand in for the DMA core: a request holds its word address, the beats it still
wants, FIXED and priority, and advances by one word per ack. On the AXI side cocotbext-axi's AxiRam
(which asserts that no INCR burst crosses 4 KB), or AxiSlave over a RAM with a FIFO register and
failing words, with random pauses on all five channels unless a test measures cycles; a hand-driven
slave for DECERR and EXOKAY, which the models never answer. A monitor (axi_master_models) records
every AR/AW handshake and checks the fixed attributes and that a waiting address stays put. Expected bursts come from the
AXI 4 KB rule, not from the RTL.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, ReadOnly, RisingEdge
from cocotbext.axi import AxiRam, AxiSlave

from axi_master_models import AddrMonitor, Burst, FifoTarget, axi_slave

RAM_BYTES = 0x2_0000
FIFO_REG = 0x1_F000        # a constant-address data register (FifoTarget)
INCR, FIXED = 1, 0         # AxBURST (AMBA AXI4, A3.4.1)
OKAY, EXOKAY, SLVERR, DECERR = 0, 1, 2, 3


def expected_bursts(addr: int, beats: int, fixed: bool, prio: bool) -> list[Burst]:
    """The AXI bursts of one request: FIXED as one burst, INCR split at every 4 KB boundary."""
    out = []
    while beats:
        n = beats if fixed else min(beats, (0x1000 - (addr & 0xFFF)) // 4)
        out.append(Burst(addr, n - 1, FIXED if fixed else INCR, qos=0xF if prio else 0))
        beats -= n
        addr += 0 if fixed else 4 * n
    return out


@dataclass
class Outcome:
    data: list[int]   # words acknowledged (read: their data; write: the words written)
    err: bool         # the request ended with an error on its next beat


class Bench:
    def __init__(self, dut) -> None:
        self.dut = dut
        self.mon: AddrMonitor
        self.slave: AxiRam | AxiSlave | None = None

    async def start(self, target: FifoTarget | None = None, pauses: bool = True, model: bool = True, seed: int = 1) -> None:
        d = self.dut
        cocotb.start_soon(Clock(d.clk_i, 10, unit="ns").start())
        for port in ("rd", "wr"):
            for name in ("req", "addr", "beats", "fixed", "prio"):
                getattr(d, f"{port}_{name}_i").value = 0
        d.wr_data_i.value = 0
        d.rst_ni.value = 0
        if model:
            self.slave = axi_slave(d, target, RAM_BYTES, pauses, seed)
        self.mon = AddrMonitor(d)
        await ClockCycles(d.clk_i, 4)
        d.rst_ni.value = 1
        await ClockCycles(d.clk_i, 2)

    async def request(self, port: str, addr: int, beats: int, fixed: bool = False, prio: bool = False,
                      words: list[int] | None = None, timeout: int = 5_000) -> Outcome:
        """One core request on `port` ("rd" or "wr"), held until its last beat or an error."""
        d = self.dut
        sig = lambda n: getattr(d, f"{port}_{n}")  # noqa: E731
        out = Outcome([], False)
        word = addr // 4
        sig("fixed_i").value = int(fixed)
        sig("prio_i").value = int(prio)
        for _ in range(timeout):
            sig("req_i").value = 1
            sig("addr_i").value = word
            sig("beats_i").value = beats
            if port == "wr":
                d.wr_data_i.value = words[len(out.data)]
            await ReadOnly()
            ack, err = int(sig("ack_o").value), int(sig("err_o").value)
            data = int(d.rd_data_o.value) if port == "rd" else words[len(out.data)]
            await RisingEdge(d.clk_i)
            if err:
                out.err = True
                break
            if ack:
                out.data.append(data)
                beats -= 1
                word += 0 if fixed else 1
                if beats == 0:
                    break
        else:
            raise AssertionError(f"{port} request at {addr:#x} not done after {timeout} cycles")
        sig("req_i").value = 0
        return out

    async def wait_idle(self, timeout: int = 2_000) -> None:
        for _ in range(timeout):
            await ReadOnly()
            idle = int(self.dut.idle_o.value)
            await RisingEdge(self.dut.clk_i)
            if idle:
                return
        raise AssertionError(f"idle_o still low after {timeout} cycles")

    def check_protocol(self) -> None:
        assert not self.mon.violations, self.mon.violations[:5]


def ram_words(ram: AxiRam, addr: int, n: int) -> list[int]:
    data = ram.read(addr, 4 * n)
    return [int.from_bytes(data[4 * i:4 * i + 4], "little") for i in range(n)]


def near_4k(rng: random.Random) -> int:
    """A word address a few words before a 4 KB boundary, or anywhere."""
    page = rng.randrange(1, RAM_BYTES // 0x1000 - 1) * 0x1000
    return page - 4 * rng.randrange(1, 16) if rng.random() < 0.5 else 4 * rng.randrange(RAM_BYTES // 4 - 16)


@cocotb.test()
async def random_bursts(dut):
    """Writes then reads of 1 to 15 beats at random addresses, many across 4 KB: the data, and
    every AR/AW against the bursts the 4 KB rule makes."""
    tb = Bench(dut)
    await tb.start()
    rng = random.Random(7)
    for i in range(60):
        addr, beats, prio = near_4k(rng), rng.randrange(1, 16), rng.random() < 0.3
        words = [rng.getrandbits(32) for _ in range(beats)]
        tb.mon.clear()
        wr = await tb.request("wr", addr, beats, prio=prio, words=words)
        await tb.wait_idle()
        assert not wr.err and ram_words(tb.slave, addr, beats) == words, i
        rd = await tb.request("rd", addr, beats, prio=prio)
        await tb.wait_idle()
        assert not rd.err and rd.data == words, i
        want = expected_bursts(addr, beats, False, prio)
        assert tb.mon.aw == want and tb.mon.ar == want, (i, tb.mon.aw, tb.mon.ar, want)
    tb.check_protocol()


@cocotb.test()
async def read_and_write_at_once(dut):
    """The two halves run independently: a copy with reads and writes overlapping."""
    tb = Bench(dut)
    await tb.start(seed=3)
    rng = random.Random(3)
    src, dst, n = 0x0FF0, 0x8FF8, 120
    words = [rng.getrandbits(32) for _ in range(n)]
    tb.slave.write(src, b"".join(w.to_bytes(4, "little") for w in words))
    other = [rng.getrandbits(32) for _ in range(n)]

    async def writes() -> None:
        for k in range(0, n, 8):
            assert not (await tb.request("wr", dst + 4 * k, 8, words=other[k:k + 8])).err

    async def reads() -> list[int]:
        got = []
        for k in range(0, n, 8):
            got += (await tb.request("rd", src + 4 * k, 8)).data
        return got

    w = cocotb.start_soon(writes())
    got = await reads()
    await w
    await tb.wait_idle()
    assert got == words
    assert ram_words(tb.slave, dst, n) == other
    tb.check_protocol()


@cocotb.test()
async def fixed_bursts(dut):
    """FIXED bursts to and from a FIFO register: one burst per request, never split, in order."""
    target = FifoTarget(RAM_BYTES, FIFO_REG)
    tb = Bench(dut)
    await tb.start(target=target, seed=5)
    target.source.extend(range(100, 115))
    rd = await tb.request("rd", FIFO_REG, 15, fixed=True)
    assert not rd.err and rd.data == list(range(100, 115))
    wr = await tb.request("wr", FIFO_REG, 12, fixed=True, prio=True, words=list(range(200, 212)))
    await tb.wait_idle()
    assert not wr.err and target.sink == list(range(200, 212))
    assert tb.mon.ar == [Burst(FIFO_REG, 14, FIXED)] and tb.mon.aw == [Burst(FIFO_REG, 11, FIXED, qos=0xF)]
    tb.check_protocol()


@cocotb.test()
async def slave_errors(dut):
    """SLVERR on a read beat: the beats before it are acknowledged, the error comes on that beat,
    the burst's other beats are drained. On a write: the burst's beats but the last are
    acknowledged, the last one is the error. The master is idle and works afterwards."""
    target = FifoTarget(RAM_BYTES, FIFO_REG)
    tb = Bench(dut)
    await tb.start(target=target, seed=9)
    words = list(range(1, 9))
    target.ram[0x100:0x120] = b"".join(w.to_bytes(4, "little") for w in words)
    target.fail = {0x10C}
    rd = await tb.request("rd", 0x100, 8)
    assert rd.err and rd.data == words[:3], rd
    await tb.wait_idle()
    wr = await tb.request("wr", 0x100, 8, words=words)
    assert wr.err and len(wr.data) == 7, wr
    await tb.wait_idle()
    target.fail = set()
    rd = await tb.request("rd", 0x100, 8)
    assert not rd.err and rd.data == words
    tb.check_protocol()


async def hand_slave(dut, resp: dict[str, list[int]]) -> None:
    """A minimal always-ready slave: each read burst answered with resp["r"] per beat, each write
    burst with B resp["b"][0]."""
    dut.m_axi_arready.value = 1
    dut.m_axi_awready.value = 1
    dut.m_axi_wready.value = 1
    dut.m_axi_rvalid.value = 0
    dut.m_axi_bvalid.value = 0
    beats: deque[int] = deque()
    while True:
        await ReadOnly()
        ar = int(dut.m_axi_arvalid.value)
        r_taken = int(dut.m_axi_rvalid.value) and int(dut.m_axi_rready.value)
        w_last = int(dut.m_axi_wvalid.value) and int(dut.m_axi_wlast.value)
        b_taken = int(dut.m_axi_bvalid.value) and int(dut.m_axi_bready.value)
        await RisingEdge(dut.clk_i)
        if r_taken:
            beats.popleft()
        if ar:
            beats.extend(resp["r"])
        dut.m_axi_rvalid.value = int(bool(beats))
        dut.m_axi_rresp.value = beats[0] if beats else 0
        dut.m_axi_rdata.value = 0x1234_0000 + len(beats)
        dut.m_axi_rlast.value = int(len(beats) == 1)
        if b_taken:
            dut.m_axi_bvalid.value = 0
        if w_last:
            dut.m_axi_bvalid.value = 1
            dut.m_axi_bresp.value = resp["b"][0]


@cocotb.test()
async def decerr_and_exokay(dut):
    """DECERR is a bus error like SLVERR, on R and on B; EXOKAY counts as OKAY."""
    tb = Bench(dut)
    await tb.start(model=False)
    resp: dict[str, list[int]] = {}
    cocotb.start_soon(hand_slave(dut, resp))
    for rresp, bresp, rd_acks, wr_err in (([EXOKAY, OKAY, DECERR, OKAY], DECERR, 2, True),
                                          ([OKAY, EXOKAY, OKAY, EXOKAY], EXOKAY, 4, False)):
        resp.update(r=rresp, b=[bresp])
        rd = await tb.request("rd", 0x40, 4)
        assert rd.err == (rd_acks < 4) and len(rd.data) == rd_acks, rd
        await tb.wait_idle()
        wr = await tb.request("wr", 0x40, 4, words=[1, 2, 3, 4])
        assert wr.err == wr_err and len(wr.data) == (3 if wr_err else 4), wr
        await tb.wait_idle()
    tb.check_protocol()


@cocotb.test()
async def address_timing(dut):
    """No back-pressure: ARVALID in the cycle the read request rises; WVALID in the cycle the
    write request rises and AWVALID one cycle later (the address is registered); idle_o low from
    the request until the burst's end."""
    tb = Bench(dut)
    await tb.start(pauses=False)
    d = dut
    await RisingEdge(d.clk_i)
    d.rd_req_i.value, d.rd_addr_i.value, d.rd_beats_i.value = 1, 0x10, 4
    await ReadOnly()
    assert int(d.m_axi_arvalid.value) == 1 and int(d.idle_o.value) == 0
    await RisingEdge(d.clk_i)
    d.rd_req_i.value = 0
    await RisingEdge(d.clk_i)
    d.wr_req_i.value, d.wr_addr_i.value, d.wr_beats_i.value, d.wr_data_i.value = 1, 0x20, 1, 0xCAFE
    await ReadOnly()
    assert int(d.m_axi_wvalid.value) == 1 and int(d.m_axi_wlast.value) == 1 and int(d.m_axi_awvalid.value) == 0
    await RisingEdge(d.clk_i)
    d.wr_req_i.value = 0
    await ReadOnly()
    assert int(d.m_axi_awvalid.value) == 1 and int(d.m_axi_awaddr.value) == 0x80
    await RisingEdge(d.clk_i)
    await tb.wait_idle()
    assert ram_words(tb.slave, 0x80, 1) == [0xCAFE]
    tb.check_protocol()
