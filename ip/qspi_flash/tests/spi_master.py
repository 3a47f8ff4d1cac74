# SPDX-License-Identifier: Apache-2.0
"""A bit-banged SPI mode-0 master for driving the qspi_flash model's pins from cocotb."""

from __future__ import annotations

from typing import Any

from cocotb.triggers import Timer

HALF_NS = 5  # half an SCK period

CMD_READ = 0x03
CMD_FAST = 0x0B
CMD_QOUT = 0x6B
CMD_QIO = 0xEB
CMD_RDID = 0x9F


class SpiMaster:
    """Drives sck_i/cs_ni/io_i/io_oe_i and samples io_o just before each rising edge."""

    def __init__(self, dut: Any) -> None:
        self.dut = dut
        dut.sck_i.value = 0
        dut.cs_ni.value = 1
        dut.io_i.value = 0
        dut.io_oe_i.value = 0
        dut.rst_ni.value = 1

    async def idle(self, halves: int = 2) -> None:
        await Timer(HALF_NS * halves, unit="ns")

    async def select(self) -> None:
        self.dut.cs_ni.value = 0
        await Timer(HALF_NS, unit="ns")

    async def deselect(self) -> None:
        self.dut.cs_ni.value = 1
        self.dut.io_oe_i.value = 0
        await Timer(2 * HALF_NS, unit="ns")

    async def clock(self, value: int = 0, oe: int = 0) -> int:
        """One SCK cycle: drive value/oe while SCK is low, rise, fall. Returns IO as sampled."""
        self.dut.io_i.value = value
        self.dut.io_oe_i.value = oe
        await Timer(HALF_NS, unit="ns")
        sampled = int(self.dut.io_o.value)
        self.dut.sck_i.value = 1
        await Timer(HALF_NS, unit="ns")
        self.dut.sck_i.value = 0
        return sampled

    async def send_single(self, value: int, bits: int) -> None:
        for i in reversed(range(bits)):
            await self.clock((value >> i) & 1, 0b0001)

    async def send_quad(self, value: int, nibbles: int) -> None:
        for i in reversed(range(nibbles)):
            await self.clock((value >> (4 * i)) & 0xF, 0b1111)

    async def dummy(self, clocks: int, oe: int) -> None:
        for _ in range(clocks):
            await self.clock(0, oe)

    async def recv_single(self, nbytes: int) -> bytes:
        out = bytearray()
        for _ in range(nbytes):
            byte = 0
            for _ in range(8):
                byte = (byte << 1) | ((await self.clock()) >> 1 & 1)
            out.append(byte)
        return bytes(out)

    async def recv_quad(self, nbytes: int) -> bytes:
        out = bytearray()
        for _ in range(nbytes):
            hi = await self.clock()
            lo = await self.clock()
            out.append((hi << 4) | lo)
        return bytes(out)

    async def read(self, cmd: int, addr: int, nbytes: int, dummy: int = 0, mode: int = 0xFF,
                   with_command: bool = True) -> bytes:
        """One complete read transaction with the given command (or address-first in continuous mode)."""
        await self.select()
        if with_command:
            await self.send_single(cmd, 8)
        if cmd == CMD_RDID:
            data = await self.recv_single(nbytes)
        elif cmd == CMD_QIO:
            await self.send_quad(addr, 6)
            await self.send_quad(mode, 2)
            await self.dummy(dummy, 0b1111)
            data = await self.recv_quad(nbytes)
        else:
            await self.send_single(addr, 24)
            await self.dummy(dummy, 0b0001)
            data = await (self.recv_quad(nbytes) if cmd == CMD_QOUT else self.recv_single(nbytes))
        await self.deselect()
        return data
