# SPDX-License-Identifier: Apache-2.0
"""What the cocotb tests of the AXI4 master take from here (ip/axi_master/tests and the DMA's AXI4
top, ip/dma/tests/cocotb_dma_axi.py): pause patterns for cocotbext-axi channels, an AxiSlave
target with a FIFO register and failing words, and a monitor of the master's AR and AW channels."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import cocotb
from cocotb.triggers import ReadOnly, RisingEdge
from cocotbext.axi import AxiBus, AxiRam, AxiSlave


def axi_slave(dut: Any, target: Any, ram_bytes: int, pauses: bool, seed: int) -> Any:
    """The memory the design's m_axi master sees: an AxiRam of `ram_bytes`, or an AxiSlave over
    `target`; with `pauses`, each channel held busy at random (a different rate per channel)."""
    bus = AxiBus.from_prefix(dut, "m_axi")
    if target is None:
        slave = AxiRam(bus, dut.clk_i, dut.rst_ni, reset_active_level=False, size=ram_bytes)
    else:
        slave = AxiSlave(bus, dut.clk_i, dut.rst_ni, reset_active_level=False, target=target)
    if pauses:
        chans = (slave.read_if.ar_channel, slave.read_if.r_channel, slave.write_if.aw_channel,
                 slave.write_if.w_channel, slave.write_if.b_channel)
        for i, ch in enumerate(chans):
            ch.set_pause_generator(random_pauses(seed * 10 + i, 0.3 + 0.1 * i))
    return slave


def random_pauses(seed: int, busy: float) -> Iterator[int]:
    """A channel pause generator: 1 (pause) with probability `busy` each cycle."""
    rng = random.Random(seed)
    while True:
        yield int(rng.random() < busy)


class FifoTarget:
    """AxiSlave target: `ram_bytes` of RAM from address 0, one FIFO data register at `fifo_reg`
    (reads pop `source`, writes append to `sink`) and word addresses that fail (the model answers
    SLVERR for them)."""

    def __init__(self, ram_bytes: int, fifo_reg: int) -> None:
        self.ram = bytearray(ram_bytes)
        self.fifo_reg = fifo_reg
        self.source: deque[int] = deque()
        self.sink: list[int] = []
        self.fail: set[int] = set()

    async def read(self, address: int, length: int) -> bytes:
        if address in self.fail:
            raise IOError(f"injected read error at {address:#x}")
        if address == self.fifo_reg:
            return self.source.popleft().to_bytes(4, "little")
        return bytes(self.ram[address:address + length])

    async def write(self, address: int, data: bytes) -> None:
        if address in self.fail:
            raise IOError(f"injected write error at {address:#x}")
        if address == self.fifo_reg:
            self.sink.append(int.from_bytes(data, "little"))
        else:
            self.ram[address:address + len(data)] = data


@dataclass(frozen=True)
class Burst:
    addr: int
    len: int       # AxLEN: beats - 1
    burst: int     # AxBURST
    size: int = 2  # AxSIZE: 32-bit beats
    qos: int = 0   # AxQOS


class AddrMonitor:
    """Every AR and AW handshake of `dut.m_axi_*`; the AXI rule that a VALID address waits
    unchanged; and AxID, AxLOCK, AxCACHE, AxPROT 0 on every burst (the master's fixed attributes)."""

    def __init__(self, dut) -> None:
        self.dut = dut
        self.ar: list[Burst] = []
        self.aw: list[Burst] = []
        self.violations: list[str] = []
        cocotb.start_soon(self._run())

    def clear(self) -> None:
        self.ar.clear()
        self.aw.clear()

    def _sample(self, ch: str) -> tuple[int, int, Burst, tuple[int, ...]]:
        s = lambda n: int(getattr(self.dut, f"m_axi_{ch}{n}").value)  # noqa: E731
        burst = Burst(s("addr"), s("len"), s("burst"), s("size"), s("qos"))
        return s("valid"), s("ready"), burst, (s("id"), s("lock"), s("cache"), s("prot"))

    async def _run(self) -> None:
        held: dict[str, Burst | None] = {"ar": None, "aw": None}
        while True:
            await RisingEdge(self.dut.clk_i)
            await ReadOnly()
            for ch, log in (("ar", self.ar), ("aw", self.aw)):
                valid, ready, b, attrs = self._sample(ch)
                if valid and any(attrs):
                    self.violations.append(f"{ch}: id/lock/cache/prot {attrs}")
                if held[ch] is not None and (not valid or b != held[ch]):
                    self.violations.append(f"{ch}: {held[ch]} changed to valid={valid} {b} before ready")
                held[ch] = b if valid and not ready else None
                if valid and ready:
                    log.append(b)
