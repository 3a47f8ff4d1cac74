# SPDX-License-Identifier: Apache-2.0
"""cocotb tests of the XIP controller with OTFAD, against the qspi_flash model.

Cycle counts are bus cycles from the first cycle STB is high to the ACK, inclusive. The flash
model runs with FatalOnError = 0 here, and every test ends by checking it saw no protocol error.
"""

from __future__ import annotations

import math
import os
import random
import struct
from typing import Any

import cocotb
from cocotb.triggers import RisingEdge

from aesoc.xip import image as imgtool
from xip_tb import (CMD_FAST, CMD_QIO, CMD_QOUT, CMD_READ, MODEL_DUMMY, Region, XipTb, encrypt_image,
                    field, get_field, random_regions, region_fields, word_at)

PREFETCH_WORDS = int(os.environ["XIP_PREFETCH_WORDS"])
KEK = bytes.fromhex("5f4dcc3b5aa765d61d8327deb882cf99")
IMAGE_BYTES = 64 * 1024

# RFC 3394 section 4.1: 128 bits of key data wrapped with a 128-bit KEK.
RFC3394_KEK = bytes.fromhex("000102030405060708090A0B0C0D0E0F")
RFC3394_KEY = bytes.fromhex("00112233445566778899AABBCCDDEEFF")
RFC3394_WRAPPED = bytes.fromhex("1FA68B0A8112B447AEF34BD8FB5A7B829D3E862371D2CFE5")


def miss_cycles(div: int, cmd: int, dummy: int, with_command: bool = True, words: int = 1) -> int:
    """Bus cycles of a read of `words` words (a single read or a burst) that opens a transaction
    on an idle controller: the miss is registered (the miss stage), CS# falls in the cycle after
    that, SCK rises ceil(N/2) cycles later and every N cycles after that, and the last word is
    acknowledged in the cycle after the rising edge of its last unit: N * clocks + 3 - floor(N/2)."""
    quad_addr = cmd == CMD_QIO
    clocks = (8 if with_command else 0) + (6 if quad_addr else 24) + (2 if quad_addr else 0)
    clocks += 0 if cmd == CMD_READ else dummy
    clocks += words * (8 if cmd in (CMD_QOUT, CMD_QIO) else 32)
    return math.ceil(div / 2) + (clocks - 1) * div + 3


async def start(dut: Any, kek: bytes = KEK) -> XipTb:
    tb = XipTb(dut)
    await tb.start(kek)
    return tb


async def go_idle(tb: XipTb) -> None:
    """End the stream and let CS# stay high long enough: the next read opens a transaction."""
    await tb.reg_write("CTRL", field("CTRL.flush", 1))
    await tb.idle(40)


def check_word(image: bytes, addr: int, got: int, sel: int = 0xF) -> None:
    mask = sum(0xFF << (8 * b) for b in range(4) if sel >> b & 1)
    want = word_at(image, addr)
    assert got & mask == want & mask, f"{addr:#x} sel {sel:x}: got {got:08x}, want {want:08x}"


async def random_traffic(tb: XipTb, image: bytes, rng: random.Random, ops: int,
                         hot: list[int] | None = None) -> int:
    """Random single reads of every width, 8-beat bursts and linear runs; returns beats done."""
    beats = 0
    hot = hot or []
    for _ in range(ops):
        kind = rng.random()
        if hot and rng.random() < 0.4:
            base = rng.choice(hot) + rng.randrange(-32, 32)
        else:
            base = rng.randrange(len(image))
        base = min(max(base, 0), len(image) - 64) & ~3
        gap = rng.choice([0, 0, 1, 3, 20])
        if kind < 0.4:
            sel = rng.choice([0x1, 0x2, 0x4, 0x8, 0x3, 0xC, 0xF])
            acc = await tb.read(base, sel=sel, gap=gap)
            check_word(image, base, acc.data[0], sel)
            beats += 1
        elif kind < 0.7:
            line = base & ~31 if rng.random() < 0.8 else base
            acc = await tb.burst(line, gap=gap)
            for i, word in enumerate(acc.data):
                check_word(image, line + 4 * i, word)
            beats += 8
        else:
            for i in range(rng.randrange(2, 24)):
                acc = await tb.read(base + 4 * i, gap=rng.choice([0, 2]))
                check_word(image, base + 4 * i, acc.data[0])
                beats += 1
        assert not acc.err
    return beats


@cocotb.test()
async def registers(dut: Any) -> None:
    """Identification, reset values, write-only key blob, ERR outside the map."""
    tb = await start(dut)
    assert await tb.reg_read("ID") == 0x58495030
    cfg = await tb.reg_read("CFG")
    assert get_field("CFG.div", cfg) == 2 and get_field("CFG.cmd", cfg) == CMD_QIO
    assert get_field("CFG.dummy", cfg) == MODEL_DUMMY[CMD_QIO] and get_field("CFG.cont", cfg) == 0
    for i in range(imgtool.TABLE_ENTRY // 4):
        await tb.reg_write(f"KEYBLOB[{i}]", 0xDEADBEEF)
        assert await tb.reg_read(f"KEYBLOB[{i}]") == 0, "key blob registers must read as zero"
    assert await tb.reg_read("OTFAD_STATUS") == 0
    assert await tb.reg_offset_access(0x3F0, write=False)
    assert await tb.reg_offset_access(0xFFC, write=True)
    assert not await tb.reg_offset_access(0x08, write=False)


@cocotb.test()
async def writes_end_in_err(dut: Any) -> None:
    tb = await start(dut)
    tb.load_flash(bytes(range(256)))
    for sel in (0x1, 0x3, 0xF):
        acc = await tb.access([0x40], write=True, sel=sel)
        assert acc.err and acc.cycles == 1
    acc = await tb.access([0x80, 0x84], ctis=[0b010, 0b111], write=True)
    assert acc.err
    acc = await tb.read(0x40)
    check_word(bytes(range(256)), 0x40, acc.data[0])
    assert tb.flash_errors() == 0


@cocotb.test()
async def random_reads(dut: Any) -> None:
    """Random 8/16/32-bit reads, line refills and linear runs against a plaintext image; the
    prefetch statistics count every beat."""
    tb = await start(dut)
    rng = random.Random(11)
    image = rng.randbytes(IMAGE_BYTES)
    tb.load_flash(image)
    await tb.reg_write("CTRL", field("CTRL.clr_stats", 1))
    beats = await random_traffic(tb, image, rng, 250, hot=[0x1000, 0x8000])
    hits, waits, misses = [await tb.reg_read(r) for r in ("HITS", "WAITS", "MISSES")]
    dut._log.info(f"{beats} beats: {hits} hits, {waits} waits, {misses} misses")
    assert hits + waits + misses == beats
    assert hits > 0 and waits > 0 and misses > 0
    assert tb.flash_errors() == 0


@cocotb.test()
async def prefetch(dut: Any) -> None:
    """A miss streams on: the next PrefetchWords - 1 words are hits once the stream is ahead;
    a reader that keeps up waits on the stream (no new transaction); a jump is a miss."""
    tb = await start(dut)
    rng = random.Random(12)
    image = rng.randbytes(IMAGE_BYTES)
    tb.load_flash(image)
    await go_idle(tb)
    await tb.reg_write("CTRL", field("CTRL.clr_stats", 1))
    acc = await tb.read(0x2000)
    assert acc.cycles == miss_cycles(2, CMD_QIO, 4)
    await tb.idle(16 * PREFETCH_WORDS + 40)  # the stream fills the buffer, then pauses
    for i in range(1, PREFETCH_WORDS):
        acc = await tb.read(0x2000 + 4 * i)
        check_word(image, 0x2000 + 4 * i, acc.data[0])
        assert acc.cycles == 1, f"word {i} should be a hit, took {acc.cycles} cycles"
    stats = [await tb.reg_read(r) for r in ("HITS", "WAITS", "MISSES")]
    assert stats == [PREFETCH_WORDS - 1, 0, 1], stats
    # The buffer refills behind the reader; beyond it the reader waits on the stream.
    await tb.idle(16 * PREFETCH_WORDS + 40)
    base = 0x2000 + 4 * PREFETCH_WORDS
    for i in range(2 * PREFETCH_WORDS):
        acc = await tb.read(base + 4 * i)
        check_word(image, base + 4 * i, acc.data[0])
    stats = [await tb.reg_read(r) for r in ("HITS", "WAITS", "MISSES")]
    assert stats[2] == 1 and stats[1] > 0, stats
    # Re-reading a word still buffered is a hit; a far address is a miss.
    acc = await tb.read(base + 4 * (2 * PREFETCH_WORDS - 1))
    assert acc.cycles == 1
    acc = await tb.read(0x9000)
    check_word(image, 0x9000, acc.data[0])
    assert await tb.reg_read("MISSES") == 2
    assert tb.flash_errors() == 0


@cocotb.test()
async def commands_and_dividers(dut: Any) -> None:
    """Every read command at several SCK dividers: data right and miss latency as computed."""
    tb = await start(dut)
    rng = random.Random(13)
    image = rng.randbytes(IMAGE_BYTES)
    tb.load_flash(image)
    for cmd in (CMD_READ, CMD_FAST, CMD_QOUT, CMD_QIO):
        for div in (2, 3, 4, 7):
            await tb.configure(div=div, cmd=cmd)
            await tb.idle(2 * div + 4)
            addr = rng.randrange(IMAGE_BYTES - 64) & ~3
            acc = await tb.read(addr)
            check_word(image, addr, acc.data[0])
            want = miss_cycles(div, cmd, MODEL_DUMMY[cmd])
            assert acc.cycles == want, f"cmd {cmd} div {div}: {acc.cycles} cycles, want {want}"
            acc = await tb.burst((addr + 64) & ~31)
            for i, word in enumerate(acc.data):
                check_word(image, ((addr + 64) & ~31) + 4 * i, word)
            for _ in range(3):
                a = rng.randrange(IMAGE_BYTES) & ~3
                check_word(image, a, (await tb.read(a)).data[0])
    assert tb.flash_errors() == 0


@cocotb.test()
async def continuous_read(dut: Any) -> None:
    """With CONT the flash stays in continuous-read mode: later transactions skip the command
    (8 SCK cycles fewer); clearing CONT leaves the mode with the next transaction."""
    tb = await start(dut)
    rng = random.Random(14)
    image = rng.randbytes(IMAGE_BYTES)
    tb.load_flash(image)
    await tb.configure(cont=True)
    await tb.idle(8)
    acc = await tb.read(0x100)
    assert acc.cycles == miss_cycles(2, CMD_QIO, 4)
    assert get_field("STATUS.cont", await tb.reg_read("STATUS")) == 1
    for addr in (0x4000, 0x124, 0xF000):
        await go_idle(tb)
        acc = await tb.read(addr)
        check_word(image, addr, acc.data[0])
        assert acc.cycles == miss_cycles(2, CMD_QIO, 4, with_command=False), acc.cycles
    await go_idle(tb)
    acc = await tb.burst(0x3000)
    assert [word_at(image, 0x3000 + 4 * i) for i in range(8)] == acc.data
    assert acc.cycles == miss_cycles(2, CMD_QIO, 4, with_command=False, words=8)
    await tb.configure(cont=False)
    await tb.idle(8)
    acc = await tb.read(0x500)  # address-first, mode bits 0xFF: leaves continuous mode
    check_word(image, 0x500, acc.data[0])
    assert acc.cycles == miss_cycles(2, CMD_QIO, 4, with_command=False)
    assert get_field("STATUS.cont", await tb.reg_read("STATUS")) == 0
    await go_idle(tb)
    acc = await tb.burst(0x3000)
    assert acc.cycles == miss_cycles(2, CMD_QIO, 4, words=8)  # the command phase is back
    assert tb.flash_errors() == 0


def script_ops(seed: int, count: int) -> list[tuple[list[int], list[int], int]]:
    """A fixed mix of single reads, line refills (aligned or not) and 12-word runs, some at or
    across region edges: (byte addresses, CTI per beat, idle cycles before)."""
    rng = random.Random(seed)
    ops = []
    for _ in range(count):
        addr = rng.choice([rng.randrange(IMAGE_BYTES - 64), 0x3F8, 0x4FE0, 0x53F0, 0xEFF0]) & ~3
        gap = rng.choice([0, 0, 1, 5, 30])
        kind = rng.random()
        if kind < 0.4:
            ops.append(([addr], [0], gap))
        elif kind < 0.8:
            line = addr & ~31 if rng.random() < 0.7 else addr
            ops.append(([line + 4 * i for i in range(8)], [0b010] * 7 + [0b111], gap))
        else:
            ops.append(([addr + 4 * i for i in range(12)], [0] * 12, gap))
    return ops


class KeystreamWatch:
    """Per flash transaction: cycles from its start until the first block's keystream is ready,
    and until the first data nibble is sampled (rising SCK edge in the data phase)."""

    def __init__(self, dut: Any) -> None:
        self.core = dut.u_xip.u_periph.u_core
        self.ready: list[int] = []
        self.nibble: list[int] = []
        self.running = True
        cocotb.start_soon(self._watch(dut))

    async def _watch(self, dut: Any) -> None:
        seq = self.core.u_seq
        since: int | None = None
        ready: int | None = None
        while self.running:
            await RisingEdge(dut.clk_i)
            # Sampled at the edge: values of the cycle that just ended.
            if int(self.core.seq_start.value):
                since, ready = 0, None
                continue
            if since is None:
                continue
            since += 1
            if ready is None and int(self.core.u_otfad.ks_ok_o.value):
                ready = since
            if int(seq.rise.value) and int(seq.state_q.value) == 6:  # ST_DATA
                assert ready is not None and ready <= since, "keystream late for the first nibble"
                self.ready.append(ready)
                self.nibble.append(since)
                since = None


async def zero_added_run(dut: Any, tb: XipTb, encrypted: bool, seed: int, div: int, dummy: int,
                         cont: bool) -> list[int]:
    """The access script on a fresh controller and flash; cycles per access. The plaintext run
    has no context enabled; the encrypted run covers most of the image with four contexts that
    touch each other, so streams switch keys on the way."""
    rng = random.Random(seed)
    plain = rng.randbytes(IMAGE_BYTES)
    kek = rng.randbytes(16)
    cuts = [0, 0x0400, 0x5000, 0x5400, 0xF000]
    regions = [Region(i, cuts[i], cuts[i + 1], rng.randbytes(16), rng.randbytes(8)) for i in range(4)]
    tb.set_kek(kek)
    await tb.reset()
    dut.u_flash.dummy_qio.value = dummy
    tb.load_flash(encrypt_image(plain, regions) if encrypted else plain)
    if encrypted:
        for r in regions:
            await tb.set_context(r, kek)
    await tb.configure(div=div, dummy=dummy, cont=cont)
    await tb.idle(4 * div)
    cycles: list[int] = []
    for addrs, ctis, gap in script_ops(seed + 1, 100):
        acc = await tb.access(addrs, ctis, gap=gap)
        for a, word in zip(addrs, acc.data):
            check_word(plain, a, word)
        cycles.append(acc.cycles)
    assert tb.flash_errors() == 0
    return cycles


@cocotb.test()
async def zero_added_cycles(dut: Any) -> None:
    """OTFAD adds no cycle: the same accesses take exactly as many cycles on an encrypted image
    with contexts enabled as on the plaintext image without, in several configurations, down to
    continuous-read mode with no dummy clock at SCK = clk/2 (the tightest keystream deadline)."""
    tb = await start(dut)
    watch = KeystreamWatch(dut)
    for seed, (div, dummy, cont) in enumerate([(2, 4, False), (2, 0, True), (3, 2, True), (5, 4, False)]):
        plain = await zero_added_run(dut, tb, False, 100 + seed, div, dummy, cont)
        watch.ready.clear()
        watch.nibble.clear()
        enc = await zero_added_run(dut, tb, True, 100 + seed, div, dummy, cont)
        assert plain == enc, f"div {div} dummy {dummy} cont {cont}: cycle counts differ"
        dut._log.info(f"div {div} dummy {dummy} cont {cont}: {len(enc)} accesses, {sum(enc)} cycles "
                      f"either way; first keystream ready after <= {max(watch.ready)} cycles, first "
                      f"nibble after >= {min(watch.nibble)} cycles ({len(watch.ready)} transactions)")
    watch.running = False
    dut.u_flash.dummy_qio.value = MODEL_DUMMY[CMD_QIO]


@cocotb.test()
async def bandwidth(dut: Any) -> None:
    """Linear 32-bit reads through the uncached view against the raw interface rate (one word
    per 8 SCK cycles), and the cost of a line refill."""
    tb = await start(dut)
    rng = random.Random(15)
    image = rng.randbytes(IMAGE_BYTES)
    tb.load_flash(image)
    for cont in (False, True):
        await tb.configure(cont=cont)
        await go_idle(tb)
        for gap in (0, 3):
            await go_idle(tb)
            words = 1024
            t0 = tb.now()
            for i in range(words):
                acc = await tb.read(0x4000 + 4 * i, gap=gap)
                check_word(image, 0x4000 + 4 * i, acc.data[0])
            total = tb.now() - t0
            raw = words * 8 * 2
            dut._log.info(f"cont {cont} gap {gap}: 4 KB in {total} cycles, {raw / total:.1%} of the raw rate")
            assert raw / total >= 0.9
        await go_idle(tb)
        acc = await tb.burst(0x8000)
        overhead = acc.cycles - (2 * ((0 if cont else 8) + 6 + 2 + 4 + 64))
        dut._log.info(f"cont {cont}: line refill {acc.cycles} cycles, fixed overhead {overhead}")
        assert overhead <= 3
    assert tb.flash_errors() == 0


@cocotb.test()
async def otfad_random(dut: Any) -> None:
    """Four random contexts with random keys and nonces: every read, at random addresses, at
    region edges and across them, matches the plaintext (reference: the cryptography package)."""
    tb = await start(dut)
    for seed in (21, 22):
        rng = random.Random(seed)
        kek = rng.randbytes(16)
        tb.set_kek(kek)
        await tb.reset()
        plain = rng.randbytes(IMAGE_BYTES)
        regions = random_regions(rng, IMAGE_BYTES)
        tb.load_flash(encrypt_image(plain, regions))
        for r in regions:
            await tb.set_context(r, kek)
        status = await tb.reg_read("OTFAD_STATUS")
        assert get_field("OTFAD_STATUS.key_valid", status) == 0xF
        assert get_field("OTFAD_STATUS.active", status) == 0xF
        edges = [e for r in regions for e in (r.start, r.end)]
        for e in edges:
            for addr in (e - 16, e - 4, e, e + 12):
                if 0 <= addr < IMAGE_BYTES - 32:
                    check_word(plain, addr, (await tb.read(addr)).data[0])
            if 32 <= e < IMAGE_BYTES - 32:
                acc = await tb.access([e - 16 + 4 * i for i in range(8)])
                for i, word in enumerate(acc.data):
                    check_word(plain, e - 16 + 4 * i, word)
        await random_traffic(tb, plain, rng, 150, hot=edges)
    assert tb.flash_errors() == 0
@cocotb.test()
async def keywrap_rfc3394(dut: Any) -> None:
    """The hardware's RFC 3394 unwrap (n = 8) against the `cryptography` package (whose wrap
    gives the RFC's section 4.1 vector): a description wrapped there arms the context with every
    field, and the key it carries decrypts a region encrypted under it."""
    assert imgtool.wrap_key(RFC3394_KEK, RFC3394_KEY) == RFC3394_WRAPPED
    tb = await start(dut, RFC3394_KEK)
    rng = random.Random(16)
    plain = rng.randbytes(IMAGE_BYTES)
    region = Region(2, 0x2000, 0x6000, RFC3394_KEY, rng.randbytes(8))
    tb.load_flash(encrypt_image(plain, [region]))
    t0 = tb.now()
    status = await tb.unwrap(2, region_fields(region).blob(RFC3394_KEK))
    dut._log.info(f"unwrap done within {tb.now() - t0} cycles (including 19 register accesses and polling)")
    assert get_field("OTFAD_STATUS.unwrap_err", status) == 0
    assert get_field("OTFAD_STATUS.key_valid", status) == 0b0100
    assert get_field("OTFAD_STATUS.active", status) == 0b0100
    regs = {n: await tb.reg_read(f"CTX[2].{n}") for n in ("CTRL", "START", "END", "NONCE[0]", "NONCE[1]")}
    assert regs == {"CTRL": field("CTX.CTRL.en", 1), "START": region.start, "END": region.end,
                    "NONCE[0]": int.from_bytes(region.nonce[:4], "little"),
                    "NONCE[1]": int.from_bytes(region.nonce[4:], "little")}
    for addr in (0x1FF0, 0x2000, 0x2ABC, 0x5FFC, 0x6000):
        acc = await tb.burst(addr & ~31)
        for i, word in enumerate(acc.data):
            check_word(plain, (addr & ~31) + 4 * i, word)
    assert tb.flash_errors() == 0


@cocotb.test()
async def unwrap_failure(dut: Any) -> None:
    """A blob that fails the integrity check (a flipped bit anywhere, another KEK, or another
    slot's blob) leaves the context without a key and its registers as software left them:
    disabled even with EN set, reads return the flash contents as they are, and UNWRAP_ERR is set
    until written 1. It also takes away an earlier good key."""
    tb = await start(dut)
    rng = random.Random(17)
    plain = rng.randbytes(IMAGE_BYTES)
    region = Region(1, 0x1000, 0x3000, rng.randbytes(16), rng.randbytes(8))
    flash = encrypt_image(plain, [region])
    tb.load_flash(flash)
    good = region_fields(region).blob(KEK)
    other_slot = region_fields(Region(0, region.start, region.end, region.key, region.nonce)).blob(KEK)
    bads = [bytes([good[0] ^ 1]) + good[1:], good[:71] + bytes([good[71] ^ 0x80]),
            good[:40] + bytes([good[40] ^ 4]) + good[41:], region_fields(region).blob(rng.randbytes(16)), other_slot]
    for bad in bads:
        status = await tb.unwrap(1, bad)
        assert get_field("OTFAD_STATUS.unwrap_err", status) == 1
        assert get_field("OTFAD_STATUS.key_valid", status) == 0
        await tb.reg_write("CTX[1].START", region.start)
        await tb.reg_write("CTX[1].END", region.end)
        await tb.reg_write("CTX[1].CTRL", field("CTX.CTRL.en", 1))
        assert get_field("OTFAD_STATUS.active", await tb.reg_read("OTFAD_STATUS")) == 0
        check_word(flash, 0x1800, (await tb.read(0x1800)).data[0])  # ciphertext, not decrypted
        await tb.reg_write("OTFAD_STATUS", field("OTFAD_STATUS.unwrap_err", 1))
        assert get_field("OTFAD_STATUS.unwrap_err", await tb.reg_read("OTFAD_STATUS")) == 0
    # A good blob decrypts; a failed unwrap into the same (unlocked) context takes the key away.
    await tb.set_context(region, KEK)
    check_word(plain, 0x1800, (await tb.read(0x1800)).data[0])
    status = await tb.unwrap(1, good[:8] + bytes(64))
    assert get_field("OTFAD_STATUS.unwrap_err", status) == 1
    assert get_field("OTFAD_STATUS.key_valid", status) == 0
    check_word(flash, 0x1800, (await tb.read(0x1800)).data[0])
    assert tb.flash_errors() == 0


@cocotb.test()
async def lock(dut: Any) -> None:
    """A context that holds a key ignores register writes (only a blob sets it up); LOCK (the
    blob's flag) also refuses unwraps into it until reset; other contexts stay configurable. The
    global LOCK refuses every unwrap and freezes every context."""
    tb = await start(dut)
    rng = random.Random(18)
    plain = rng.randbytes(IMAGE_BYTES)
    r0 = Region(0, 0x0000, 0x2000, rng.randbytes(16), rng.randbytes(8))
    r3 = Region(3, 0x8000, 0x9000, rng.randbytes(16), rng.randbytes(8))
    r1 = Region(1, 0x4000, 0x5000, rng.randbytes(16), rng.randbytes(8))
    tb.load_flash(encrypt_image(plain, [r0, r3, r1]))
    names = ("CTRL", "START", "END", "NONCE[0]", "NONCE[1]", "VERSION", "TAGBASE")
    await tb.set_context(r3, KEK)  # keyed, not locked
    await tb.set_context(r0, KEK, lock=True)
    for c in (0, 3):
        snapshot = {n: await tb.reg_read(f"CTX[{c}].{n}") for n in names}
        assert get_field("CTX.CTRL.lock", snapshot["CTRL"]) == int(c == 0)
        for name in snapshot:
            await tb.reg_write(f"CTX[{c}].{name}", 0)
        await tb.reg_write(f"CTX[{c}].END", 0x4000)
        after = {n: await tb.reg_read(f"CTX[{c}].{n}") for n in snapshot}
        assert after == snapshot, f"a keyed context changed: {snapshot} -> {after}"
    status = await tb.unwrap(0, region_fields(Region(0, 0, 0x2000, rng.randbytes(16), bytes(8))).blob(KEK))
    assert get_field("OTFAD_STATUS.lock_err", status) == 1
    assert get_field("OTFAD_STATUS.unwrap_err", status) == 0
    assert get_field("OTFAD_STATUS.key_valid", status) == 0b1001
    check_word(plain, 0x1000, (await tb.read(0x1000)).data[0])  # still the old key
    check_word(plain, 0x8800, (await tb.read(0x8800)).data[0])
    await tb.reg_write("OTFAD_STATUS", field("OTFAD_STATUS.lock_err", 1))
    assert get_field("OTFAD_STATUS.lock_err", await tb.reg_read("OTFAD_STATUS")) == 0
    # Global LOCK: context 1 (no key, not locked) ignores writes and refuses its good blob.
    await tb.reg_write("LOCK", field("LOCK.lock", 1))
    await tb.reg_write("LOCK", 0)
    assert get_field("LOCK.lock", await tb.reg_read("LOCK")) == 1
    await tb.reg_write("CTX[1].START", 0x400)
    assert await tb.reg_read("CTX[1].START") == 0
    status = await tb.unwrap(1, region_fields(r1).blob(KEK))
    assert get_field("OTFAD_STATUS.lock_err", status) == 1
    assert get_field("OTFAD_STATUS.key_valid", status) == 0b1001
    await tb.reset()
    assert await tb.reg_read("CTX[0].CTRL") == 0 and await tb.reg_read("LOCK") == 0
    assert get_field("OTFAD_STATUS.key_valid", await tb.reg_read("OTFAD_STATUS")) == 0
    await tb.reg_write("CTX[0].START", 0x400)
    assert await tb.reg_read("CTX[0].START") == 0x400
    assert tb.flash_errors() == 0


@cocotb.test()
async def image_tool_boot(dut: Any) -> None:
    """End to end with the host tool: an image from aesoc.xip.image, contexts armed the way boot
    code does it (each blob's words read through the flash window and copied into KEYBLOB), then
    the whole firmware reads back in clear."""
    tb = await start(dut)
    rng = random.Random(19)
    firmware = rng.randbytes(0x7000)
    desc = imgtool.parse_description({
        "kek": KEK.hex(), "key_table": 0x100, "binary_offset": 0x400,
        "context": [
            {"start": 0x1000, "end": 0x3000, "key": rng.randbytes(16).hex(), "nonce": rng.randbytes(8).hex()},
            {"start": 0x3000, "end": 0x3400, "key": rng.randbytes(16).hex(), "nonce": rng.randbytes(8).hex()},
            {"start": 0x6000, "end": 0x7800, "key": rng.randbytes(16).hex(), "nonce": rng.randbytes(8).hex(),
             "lock": True},
        ]})
    flash = imgtool.build_image(desc, {0x400: firmware})
    tb.load_flash(flash + b"\xff" * (-len(flash) % 4))
    words = [(await tb.read(0x100 + 4 * i)).data[0] for i in range(4)]
    magic, version, count, _ = words
    assert struct.pack("<I", magic) == imgtool.TABLE_MAGIC and version == imgtool.TABLE_VERSION
    for ctx in range(count):
        base = 0x100 + imgtool.TABLE_HEADER + imgtool.TABLE_ENTRY * ctx
        entry = [(await tb.read(base + 4 * i)).data[0] for i in range(imgtool.TABLE_ENTRY // 4)]
        for i, word in enumerate(entry):
            await tb.reg_write(f"KEYBLOB[{i}]", word)
        await tb.reg_write("UNWRAP", field("UNWRAP.ctx", ctx) | field("UNWRAP.go", 1))
        while get_field("OTFAD_STATUS.busy", await tb.reg_read("OTFAD_STATUS")):
            pass
    assert get_field("CTX.CTRL.lock", await tb.reg_read("CTX[2].CTRL")) == 1
    status = await tb.reg_read("OTFAD_STATUS")
    assert get_field("OTFAD_STATUS.active", status) == 0b0111 and not get_field("OTFAD_STATUS.unwrap_err", status)
    expected = bytearray(flash)
    expected[0x400:0x400 + len(firmware)] = firmware
    for line in range(0x400, 0x400 + len(firmware), 32):
        acc = await tb.burst(line)
        for i, word in enumerate(acc.data):
            check_word(bytes(expected), line + 4 * i, word)
    assert tb.flash_errors() == 0
