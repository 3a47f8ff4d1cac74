# SPDX-License-Identifier: Apache-2.0
"""cocotb tests of the qspi_flash model: every read command, JEDEC ID, continuous-read mode,
run-time dummy counts, the RESET# pin and each protocol check."""

from __future__ import annotations

import os
import random
from typing import Any

import cocotb

from spi_master import CMD_FAST, CMD_QIO, CMD_QOUT, CMD_READ, CMD_RDID, SpiMaster

SIZE = int(os.environ["QSPI_FLASH_SIZE"])
DUMMY_FAST = 8
DUMMY_QIO = 4


def load_image(dut: Any, seed: int) -> bytes:
    """Random contents written through the model's memory array (32-bit words, little-endian)."""
    rng = random.Random(seed)
    image = rng.randbytes(SIZE)
    for i in range(SIZE // 4):
        dut.mem_q[i].value = int.from_bytes(image[4 * i:4 * i + 4], "little")
    return image


def expect(image: bytes, addr: int, n: int) -> bytes:
    return bytes(image[(addr + i) % SIZE] for i in range(n))


def errors(dut: Any) -> int:
    return int(dut.err_count.value)


@cocotb.test()
async def read_commands(dut: Any) -> None:
    """0x03, 0x0B, 0x6B and 0xEB return the image at random addresses, wrapping at the end."""
    m = SpiMaster(dut)
    image = load_image(dut, 1)
    await m.idle()
    rng = random.Random(2)
    cases = [(CMD_READ, 0), (CMD_FAST, DUMMY_FAST), (CMD_QOUT, DUMMY_FAST), (CMD_QIO, DUMMY_QIO)]
    for cmd, dummy in cases:
        addrs = [rng.randrange(SIZE) for _ in range(6)] + [SIZE - 3]
        for addr in addrs:
            n = rng.randrange(1, 12)
            got = await m.read(cmd, addr, n, dummy)
            assert got == expect(image, addr, n), f"cmd {cmd:#04x} addr {addr:#x}: {got.hex()}"
    assert errors(dut) == 0


@cocotb.test()
async def jedec_id(dut: Any) -> None:
    m = SpiMaster(dut)
    await m.idle()
    assert await m.read(CMD_RDID, 0, 6) == bytes.fromhex("9d70189d7018")
    assert errors(dut) == 0


@cocotb.test()
async def continuous_read(dut: Any) -> None:
    """Mode bits 0xA0 keep continuous mode (next read has no command); 0xFF leaves it; RESET# too."""
    m = SpiMaster(dut)
    image = load_image(dut, 3)
    await m.idle()
    assert await m.read(CMD_QIO, 0x100, 4, DUMMY_QIO, mode=0xA0) == expect(image, 0x100, 4)
    assert int(dut.cont_q.value) == 1
    for addr in (0x2000, 0x37, SIZE - 2):
        got = await m.read(CMD_QIO, addr, 5, DUMMY_QIO, mode=0xA5, with_command=False)
        assert got == expect(image, addr, 5)
    got = await m.read(CMD_QIO, 0x40, 3, DUMMY_QIO, mode=0xFF, with_command=False)
    assert got == expect(image, 0x40, 3)
    assert int(dut.cont_q.value) == 0
    assert await m.read(CMD_FAST, 0x44, 2, DUMMY_FAST) == expect(image, 0x44, 2)
    # RESET# leaves continuous mode as well.
    await m.read(CMD_QIO, 0x0, 1, DUMMY_QIO, mode=0xA0)
    assert int(dut.cont_q.value) == 1
    dut.rst_ni.value = 0
    await m.idle()
    dut.rst_ni.value = 1
    await m.idle()
    assert int(dut.cont_q.value) == 0
    assert await m.read(CMD_READ, 0x10, 2) == expect(image, 0x10, 2)
    assert errors(dut) == 0


@cocotb.test()
async def runtime_dummy(dut: Any) -> None:
    """The dummy counts are variables: change them and read with the new counts."""
    m = SpiMaster(dut)
    image = load_image(dut, 4)
    await m.idle()
    for fast, qio in ((10, 6), (0, 0), (DUMMY_FAST, DUMMY_QIO)):
        dut.dummy_fast.value = fast
        dut.dummy_qio.value = qio
        await m.idle()
        assert await m.read(CMD_FAST, 0x300, 4, fast) == expect(image, 0x300, 4)
        assert await m.read(CMD_QOUT, 0x301, 4, fast) == expect(image, 0x301, 4)
        assert await m.read(CMD_QIO, 0x302, 4, qio) == expect(image, 0x302, 4)
    assert errors(dut) == 0


class ErrorWatch:
    """Checks that a transaction raised exactly one protocol error and that the model recovers."""

    def __init__(self, dut: Any, m: SpiMaster) -> None:
        self.dut = dut
        self.m = m
        self.seen = errors(dut)

    async def expect_one(self, what: str) -> None:
        now = errors(self.dut)
        assert now == self.seen + 1, f"{what}: {now - self.seen} errors reported, want 1"
        self.seen = now
        await self.m.read(CMD_READ, 0, 1)
        assert errors(self.dut) == now, f"{what}: the next clean read raised an error"


@cocotb.test()
async def protocol_errors(dut: Any) -> None:
    """Each malformed sequence is reported once and the model recovers at the next CS#."""
    m = SpiMaster(dut)
    await m.idle()
    watch = ErrorWatch(dut, m)

    # Unknown command.
    await m.select()
    await m.send_single(0x5A, 8)
    await m.dummy(4, 0)
    await m.deselect()
    await watch.expect_one("unknown command")

    # Data phase without a command: the master only clocks and samples.
    await m.select()
    await m.recv_quad(2)
    await m.deselect()
    await watch.expect_one("no command")

    # Dummy count shorter than the flash's: the master releases IO for data too early.
    await m.select()
    await m.send_single(CMD_QIO, 8)
    await m.send_quad(0x10, 6)
    await m.send_quad(0xFF, 2)
    await m.dummy(DUMMY_QIO - 2, 0b1111)
    await m.recv_quad(4)
    await m.deselect()
    await watch.expect_one("dummy too short")

    # Dummy count longer than the flash's: the master still drives when data comes out.
    await m.select()
    await m.send_single(CMD_FAST, 8)
    await m.send_single(0x10, 24)
    await m.dummy(DUMMY_FAST + 1, 0b0001)
    await m.recv_single(1)
    await m.deselect()
    await watch.expect_one("dummy too long")

    # CS# rises in the address phase.
    await m.select()
    await m.send_single(CMD_READ, 8)
    await m.send_single(0x1, 10)
    await m.deselect()
    await watch.expect_one("CS# in the address phase")

    # 0xEB address sent on IO0 only.
    await m.select()
    await m.send_single(CMD_QIO, 8)
    await m.send_single(0x1, 6)
    await m.deselect()
    await watch.expect_one("quad address on one line")


@cocotb.test()
async def fatal_on_error(dut: Any) -> None:
    """With FatalOnError (the SoC default) a protocol error ends the simulation: run by itself
    in a build with FatalOnError = 1, where pytest expects this test to fail."""
    if int(os.environ.get("QSPI_FLASH_FATAL", "0")) == 0:
        return
    m = SpiMaster(dut)
    await m.idle()
    await m.select()
    await m.send_single(0x5A, 8)
    await m.deselect()
    await m.idle(10)
