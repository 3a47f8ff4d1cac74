# SPDX-License-Identifier: Apache-2.0
"""cocotb tests of the XIP controller's line integrity (CTX.CTRL.INTEG), against the qspi_flash
model. Expected ciphertext and tags come from the `cryptography` package (AES-CTR, AES-CMAC per
NIST SP 800-38B), never from the design."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import cocotb
from cocotb.triggers import FallingEdge, RisingEdge
from cryptography.hazmat.primitives import cmac
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from aesoc.xip.image import ContextFields, FLAG_ENABLE, FLAG_INTEGRITY, FLAG_SEPARATE
from cocotb_xip import check_word, go_idle, miss_cycles, start
from xip_tb import _MAP, Region, XipTb, field, get_field

KEK = bytes.fromhex("000102030405060708090a0b0c0d0e0f")
IMAGE_BYTES = 64 * 1024
LINE = 32
_LAYOUT = _MAP.enums["xip_tag_layout_e"]
INTERLEAVED, SEPARATE = _LAYOUT["INTERLEAVED"], _LAYOUT["SEPARATE"]


@dataclass(frozen=True)
class IntegRegion:
    ctx: int
    start: int
    end: int
    key: bytes
    mac_key: bytes
    nonce: bytes
    version: int
    layout: int
    tagbase: int = 0


def ctr(key: bytes, nonce: bytes, start: int, data: bytes) -> bytes:
    enc = Cipher(algorithms.AES(key), modes.CTR(nonce + (start // 16).to_bytes(8, "big"))).encryptor()
    return enc.update(data) + enc.finalize()


def line_tag(mac_key: bytes, nonce: bytes, version: int, addr: int, ct: bytes) -> bytes:
    c = cmac.CMAC(algorithms.AES(mac_key))
    c.update(nonce + version.to_bytes(4, "big") + addr.to_bytes(4, "big") + ct)
    return c.finalize()[:8]


def phys(r: IntegRegion, addr: int) -> int:
    """Flash offset of the ciphertext of logical line `addr`."""
    return r.start + (addr - r.start) * 5 // 4 if r.layout == INTERLEAVED else addr


def tag_at(r: IntegRegion, addr: int) -> int:
    return phys(r, addr) + LINE if r.layout == INTERLEAVED else r.tagbase + (addr - r.start) // 4


def build_image(plain: bytes, r: IntegRegion, version: int | None = None,
                nonce: bytes | None = None) -> bytearray:
    """The flash: plaintext outside the region, the region's lines and tags in its layout."""
    out = bytearray(plain)
    ct = ctr(r.key, r.nonce if nonce is None else nonce, r.start, plain[r.start:r.end])
    for off in range(0, r.end - r.start, LINE):
        a = r.start + off
        line = ct[off:off + LINE]
        out[phys(r, a):phys(r, a) + LINE] = line
        tag = line_tag(r.mac_key, r.nonce if nonce is None else nonce,
                       r.version if version is None else version, a, line)
        out[tag_at(r, a):tag_at(r, a) + 8] = tag
    return out


def integ_fields(r: IntegRegion, mac_key: bytes | None = None) -> ContextFields:
    flags = FLAG_ENABLE | FLAG_INTEGRITY | (FLAG_SEPARATE if r.layout == SEPARATE else 0)
    return ContextFields(r.ctx, r.key, r.nonce, r.start, r.end, flags,
                         r.mac_key if mac_key is None else mac_key, r.version, r.tagbase)


async def set_integ_context(tb: XipTb, r: IntegRegion, mac_key: bytes | None = None) -> int:
    """Arm the context from its description's blob; returns OTFAD_STATUS."""
    status = await tb.unwrap(r.ctx, integ_fields(r, mac_key).blob(KEK))
    assert not get_field("OTFAD_STATUS.unwrap_err", status)
    return status


def region(layout: int, ctx: int = 1, version: int = 7) -> IntegRegion:
    tagbase = 0xC000 if layout == SEPARATE else 0
    return IntegRegion(ctx, 0x2000, 0x4000, bytes(range(16, 32)), bytes(range(100, 116)),
                       bytes.fromhex("a1a2a3a4a5a6a7a8"), version, layout, tagbase)


async def setup(dut: Any, layout: int, **kw: Any) -> tuple[XipTb, IntegRegion, bytes, bytearray]:
    tb = await start(dut, KEK)
    r = region(layout)
    plain = bytes((i * 7 + 3) & 0xFF for i in range(IMAGE_BYTES))
    img = build_image(plain, r, **kw)
    tb.load_flash(bytes(img))
    status = await set_integ_context(tb, r)
    dut._log.info(f"OTFAD_STATUS {status:#x} INTEG_STATUS {await tb.reg_read('INTEG_STATUS'):#x}")
    assert get_field("OTFAD_STATUS.mac_valid", status) == 1 << r.ctx
    assert get_field("OTFAD_STATUS.active", status) == 1 << r.ctx
    return tb, r, plain, img


async def good_reads(dut: Any, layout: int, cont: int = 0) -> None:
    tb, r, plain, _ = await setup(dut, layout)
    if cont:  # continuous-read mode, as the SoC's boot code sets it: later transactions skip the command
        cfg = await tb.reg_read("CFG")
        await tb.reg_write("CFG", cfg | field("CFG.cont", 1))
    # Uncached reads of every width, from an idle controller: cycles for the timing table.
    for sel in (0x1, 0x3, 0xF):
        await go_idle(tb)
        acc = await tb.read(r.start + 0x104, sel=sel)
        assert not acc.err
        check_word(plain, r.start + 0x104, acc.data[0], sel)
    dut._log.info(f"layout {layout}: single read, idle controller: {acc.cycles} cycles")
    await go_idle(tb)
    acc = await tb.burst(r.start + 0x200)
    assert not acc.err
    for i, w in enumerate(acc.data):
        check_word(plain, r.start + 0x200 + 4 * i, w)
    dut._log.info(f"layout {layout}: line refill, idle controller: {acc.cycles} cycles")
    # Sequential word reads streaming across lines (and tag runs in SEPARATE).
    await go_idle(tb)
    t0 = tb.now()
    for a in range(r.start + 0x400, r.start + 0x400 + 12 * LINE, 4):
        acc = await tb.read(a)
        assert not acc.err
        check_word(plain, a, acc.data[0])
    dut._log.info(f"layout {layout}: 12 lines read word by word: {tb.now() - t0} cycles")
    # Refills up to the region's end, a read across START from plaintext, and plaintext beyond.
    for a in (r.end - 2 * LINE, r.end - LINE, r.start - LINE, r.start):
        acc = await tb.burst(a)
        assert not acc.err
        for i, w in enumerate(acc.data):
            check_word(plain, a + 4 * i, w)
    for a in range(r.start - 16, r.start + 16, 4):
        check_word(plain, a, (await tb.read(a)).data[0])
    st = await tb.reg_read("INTEG_STATUS")
    assert get_field("INTEG_STATUS.fail", st) == 0 and get_field("INTEG_STATUS.bad_cfg", st) == 0
    assert int(dut.irq_o.value) == 0
    assert tb.flash_errors() == 0


@cocotb.test()
async def integ_interleaved_good(dut: Any) -> None:
    """Good lines in the INTERLEAVED layout: refills, uncached reads, streaming across lines."""
    await good_reads(dut, INTERLEAVED)


@cocotb.test()
async def integ_separate_good(dut: Any) -> None:
    """Good lines in the SEPARATE layout (tags fetched in runs of two, after the run's first line)."""
    await good_reads(dut, SEPARATE)


@cocotb.test()
async def integ_separate_cont(dut: Any) -> None:
    """Good lines in the SEPARATE layout with the flash in continuous-read mode."""
    await good_reads(dut, SEPARATE, cont=1)


@cocotb.test()
async def integ_interleaved_cont(dut: Any) -> None:
    """Good lines in the INTERLEAVED layout with the flash in continuous-read mode."""
    await good_reads(dut, INTERLEAVED, cont=1)


def xbar_timeout() -> int:
    """ip/wb_xbar's TimeoutCycles in the SoC (its description, test_xip.py): a beat a slave leaves
    unanswered for this many cycles (from its first STB cycle) gets its master ERR, and an
    instruction fetch gets zeros. Read when a test needs it: other benches import this module."""
    return int(os.environ["XBAR_TIMEOUT"])


def assert_within_timeout(worst: int) -> None:
    timeout = xbar_timeout()
    assert worst <= timeout, f"a beat took {worst} cycles: the SoC's crossbar answers ERR after {timeout}"


def tag_run() -> int:
    """The bench's TagRun (the SoC's)."""
    return int(os.environ["XIP_TAG_RUN"])


async def soc_traffic(dut: Any, layout: int) -> None:
    """The SoC's access pattern at its boot settings (SCK = clk/2, 0xEB, 4 dummy clocks,
    continuous-read mode): I-cache refills running straight through the region (across tag
    runs), with D-side uncached single reads and D-cache refills of other lines in between, and
    a linear run of uncached word reads (crt0's .data copy). Every beat must be answered within
    the crossbar's timeout: in SEPARATE, a line that waited for a whole run of tags before its
    data did not (about 320 cycles), and the SoC hung on the first instruction fetch from the
    flash."""
    tb, r, plain, _ = await setup(dut, layout)
    cfg = await tb.reg_read("CFG")
    await tb.reg_write("CFG", cfg | field("CFG.cont", 1))
    worst = 0

    def served(acc: Any, addr: int) -> None:
        nonlocal worst
        assert not acc.err
        for i, w in enumerate(acc.data):
            check_word(plain, addr + 4 * i, w)
        worst = max(worst, *acc.beats)

    await go_idle(tb)
    code, data, rodata = r.start + 0x100, r.start + 0x1000, r.start + 0x1800
    for k in range(14):  # 8 instructions per line: a few cycles between refills
        served(await tb.burst(code + k * LINE, gap=4), code + k * LINE)
        if k % 3 == 1:
            served(await tb.read(data + 4 * k, gap=2), data + 4 * k)
        if k % 4 == 2:
            served(await tb.burst(rodata + k * LINE, gap=2), rodata + k * LINE)
    for a in range(data + 0x100, data + 0x100 + 10 * LINE, 4):
        served(await tb.read(a, gap=3), a)
    for a in (r.start, r.end - LINE, r.start + 0x740):  # cold, from an idle controller
        await go_idle(tb)
        served(await tb.read(a + 4), a + 4)
        served(await tb.burst(a + LINE if a + LINE < r.end else a - LINE),
               a + LINE if a + LINE < r.end else a - LINE)
    dut._log.info(f"layout {layout}: SoC traffic, continuous-read mode: slowest beat {worst} cycles")
    assert_within_timeout(worst)
    assert get_field("INTEG_STATUS.fail", await tb.reg_read("INTEG_STATUS")) == 0
    assert tb.flash_errors() == 0


@cocotb.test()
async def integ_separate_soc_timeout(dut: Any) -> None:
    """SEPARATE under the SoC's traffic: every beat within the crossbar's timeout."""
    await soc_traffic(dut, SEPARATE)


@cocotb.test()
async def integ_interleaved_soc_timeout(dut: Any) -> None:
    """INTERLEAVED under the SoC's traffic: every beat within the crossbar's timeout."""
    await soc_traffic(dut, INTERLEAVED)


@cocotb.test()
async def integ_miss_at_data_phase(dut: Any) -> None:
    """A miss in every cycle around the engine's own restart to the next line (SEPARATE, after a
    line's tags): a start that arrived in the cycle the sequencer entered the data phase was
    lost (the old stream went on, the next restart ended at once), and the SoC's D-cache refill
    of the missed line timed out again and again."""
    tb, r, plain, _ = await setup(dut, SEPARATE)
    cfg = await tb.reg_read("CFG")
    await tb.reg_write("CFG", cfg | field("CFG.cont", 1))
    first, other = r.start + 0x600, r.start + 0x1200
    timeout = xbar_timeout()
    for gap in range(0, 90):
        await go_idle(tb)
        acc = await tb.read(first + 4)
        assert not acc.err
        acc = await tb.burst(other, gap=gap)
        assert not acc.err and max(acc.beats) <= timeout, f"gap {gap}: {acc.beats}"
        for i, w in enumerate(acc.data):
            check_word(plain, other + 4 * i, w)
        acc = await tb.burst(other + LINE)
        assert not acc.err and max(acc.beats) <= timeout, f"gap {gap}: next line {acc.beats}"
        for i, w in enumerate(acc.data):
            check_word(plain, other + LINE + 4 * i, w)
    assert tb.flash_errors() == 0


async def expect_fail(tb: XipTb, r: IntegRegion, plain: bytes, line: int, overflow: bool) -> None:
    """A read of `line` ends in ERR (uncached and refill), is recorded, raises irq when enabled,
    and neither read returns any of it."""
    acc = await tb.read(line + 8)
    assert acc.err and acc.data[0] == 0, "a tampered line must end in ERR"
    await tb.idle(1)  # recorded in the cycle after the ERR (docs/xip.md)
    st = await tb.reg_read("INTEG_STATUS")
    assert get_field("INTEG_STATUS.fail", st) == 1
    assert get_field("INTEG_STATUS.ctx", st) == r.ctx
    assert get_field("INTEG_STATUS.overflow", st) == int(overflow)
    assert await tb.reg_read("INTEG_ADDR") == line
    acc = await tb.burst(line)
    assert acc.err and all(w == 0 for w in acc.data), "nothing of a failed line is served"
    # The lines around it still verify.
    for a in (line - LINE, line + LINE):
        if r.start <= a < r.end:
            acc = await tb.burst(a)
            assert not acc.err
            for i, w in enumerate(acc.data):
                check_word(plain, a + 4 * i, w)
    acc = await tb.read(line)
    assert acc.err
    assert await tb.reg_read("INTEG_ADDR") == line, "the first failure's address is held"


@cocotb.test()
async def integ_tamper(dut: Any) -> None:
    """Flipped ciphertext bit, flipped tag bit, a line copied to another address: ERR, sticky
    status, address, irq, W1C; both layouts."""
    for layout in (INTERLEAVED, SEPARATE):
        tb, r, plain, img = await setup(dut, layout)
        await tb.reg_write("INTEG_IE", field("INTEG_IE.fail", 1))
        bad_ct, bad_tag, moved = r.start + 0x300, r.start + 0x500, r.start + 0x700
        img[phys(r, bad_ct) + 13] ^= 0x10
        img[tag_at(r, bad_tag) + 7] ^= 0x01
        src = r.start + 0x100
        img[phys(r, moved):phys(r, moved) + LINE] = img[phys(r, src):phys(r, src) + LINE]
        img[tag_at(r, moved):tag_at(r, moved) + 8] = img[tag_at(r, src):tag_at(r, src) + 8]
        tb.load_flash(bytes(img))
        await tb.reg_write("CTRL", field("CTRL.flush", 1))
        assert int(dut.irq_o.value) == 0
        await expect_fail(tb, r, plain, bad_ct, overflow=False)
        await tb.idle(1)
        assert int(dut.irq_o.value) == 1
        # The first failure stays recorded; later ones only set OVERFLOW.
        acc = await tb.read(bad_tag)
        assert acc.err
        assert await tb.reg_read("INTEG_ADDR") == bad_ct
        st = await tb.reg_read("INTEG_STATUS")
        assert get_field("INTEG_STATUS.overflow", st) == 1
        await tb.reg_write("INTEG_STATUS", field("INTEG_STATUS.fail", 1) | field("INTEG_STATUS.overflow", 1))
        await tb.idle(1)
        assert int(dut.irq_o.value) == 0
        assert await tb.reg_read("INTEG_STATUS") & 0x3 == 0
        await expect_fail(tb, r, plain, bad_tag, overflow=False)
        await tb.reg_write("INTEG_STATUS", field("INTEG_STATUS.fail", 1) | field("INTEG_STATUS.overflow", 1))
        await expect_fail(tb, r, plain, moved, overflow=False)
        await tb.reg_write("INTEG_STATUS", field("INTEG_STATUS.fail", 1) | field("INTEG_STATUS.overflow", 1))
        # Streaming into a bad line: the words before it are served, the bad one is not.
        await go_idle(tb)
        for a in range(bad_ct - LINE, bad_ct + 4, 4):
            acc = await tb.read(a)
            if a < bad_ct:
                assert not acc.err
                check_word(plain, a, acc.data[0])
            else:
                assert acc.err
        assert tb.flash_errors() == 0


@cocotb.test()
async def integ_replay(dut: Any) -> None:
    """An image of the previous version, or built with another nonce: every line fails."""
    for kw in ({"version": 6}, {"nonce": bytes.fromhex("a1a2a3a4a5a6a7a9")}):
        tb, r, plain, _ = await setup(dut, INTERLEAVED, **kw)
        for line in (r.start, r.start + 0x1000, r.end - LINE):
            acc = await tb.burst(line)
            assert acc.err and all(w == 0 for w in acc.data)
            assert await tb.reg_read("INTEG_ADDR") == r.start
        st = await tb.reg_read("INTEG_STATUS")
        assert get_field("INTEG_STATUS.fail", st) and get_field("INTEG_STATUS.overflow", st)
        assert tb.flash_errors() == 0


@cocotb.test()
async def integ_keys_and_config(dut: Any) -> None:
    """Wrong MAC key: lines fail. INTEG set by software on a context no blob armed (no keys),
    or an illegal layout in a blob: the context is not active, BAD_CFG says which layouts, and
    reads inside it end in ERR without a flash access."""
    tb = await start(dut, KEK)
    r = region(INTERLEAVED)
    plain = bytes((i * 5 + 1) & 0xFF for i in range(IMAGE_BYTES))
    tb.load_flash(bytes(build_image(plain, r)))
    await set_integ_context(tb, r, mac_key=bytes(16))
    acc = await tb.burst(r.start + 0x40)
    assert acc.err
    await tb.idle(1)  # recorded in the cycle after the ERR (docs/xip.md)
    assert await tb.reg_read("INTEG_ADDR") == r.start + 0x40

    await tb.reset()
    c = f"CTX[{r.ctx}]"
    await tb.reg_write(f"{c}.START", r.start)
    await tb.reg_write(f"{c}.END", r.end)
    await tb.reg_write(f"{c}.CTRL", field("CTX.CTRL.en", 1) | field("CTX.CTRL.integ", 1))
    st = await tb.reg_read("OTFAD_STATUS")
    assert get_field("OTFAD_STATUS.mac_valid", st) == 0 and get_field("OTFAD_STATUS.active", st) == 0
    acc = await tb.read(r.start + 0x44)
    assert acc.err and acc.cycles == 1
    await tb.idle(1)  # recorded in the cycle after the ERR (docs/xip.md)
    assert await tb.reg_read("INTEG_ADDR") == r.start + 0x40
    # Plaintext outside the region is unaffected.
    check_word(plain, r.start - 4, (await tb.read(r.start - 4)).data[0])

    bad = [
        IntegRegion(2, 0x4000, 0x8000, r.key, r.mac_key, r.nonce, 1, SEPARATE, 0x5000),  # tags inside
        IntegRegion(2, 0x4000, 0x8000, r.key, r.mac_key, r.nonce, 1, SEPARATE, 0xFFFC00),  # beyond flash
        IntegRegion(2, 0xF00000, 0x1000000, r.key, r.mac_key, r.nonce, 1, INTERLEAVED),  # footprint
    ]
    for b in bad:
        await tb.reset()
        st = await set_integ_context(tb, b)
        assert get_field("OTFAD_STATUS.active", st) == 0
        ist = await tb.reg_read("INTEG_STATUS")
        assert get_field("INTEG_STATUS.bad_cfg", ist) == 1 << b.ctx
        acc = await tb.read(b.start + 0x20)
        assert acc.err
        await tb.idle(1)  # recorded in the cycle after the ERR (docs/xip.md)
        ist = await tb.reg_read("INTEG_STATUS")
        assert get_field("INTEG_STATUS.fail", ist) and get_field("INTEG_STATUS.ctx", ist) == b.ctx
    # A legal SEPARATE layout with the tag area just before the region is accepted.
    await tb.reset()
    ok = IntegRegion(2, 0x4000, 0x8000, r.key, r.mac_key, r.nonce, 1, SEPARATE, 0x3000)
    st = await set_integ_context(tb, ok)
    assert get_field("OTFAD_STATUS.active", st) == 1 << ok.ctx
    assert tb.flash_errors() == 0


@cocotb.test()
async def integ_beside_ctr(dut: Any) -> None:
    """An integrity context next to a CTR-only context and plaintext: a plain stream running
    into the integrity region stops at its border; reads on both sides stay correct."""
    tb = await start(dut, KEK)
    r = region(INTERLEAVED, ctx=0)
    plain = bytes((i * 11 + 5) & 0xFF for i in range(IMAGE_BYTES))
    img = build_image(plain, r)
    ckey, cnonce = bytes(range(50, 66)), bytes(8)
    img[0x5000:0x6000] = ctr(ckey, cnonce, 0x5000, plain[0x5000:0x6000])
    tb.load_flash(bytes(img))
    # What reads return: plaintext inside both contexts, the raw flash elsewhere (including the
    # interleaved footprint's tail after END, which is not translated).
    view = bytearray(img)
    view[r.start:r.end] = plain[r.start:r.end]
    view[0x5000:0x6000] = plain[0x5000:0x6000]
    await set_integ_context(tb, r)
    await tb.set_context(Region(3, 0x5000, 0x6000, ckey, cnonce), KEK)
    assert get_field("OTFAD_STATUS.active", await tb.reg_read("OTFAD_STATUS")) == 0b1001
    for a in list(range(r.start - 64, r.start + 64, 4)) + list(range(r.end - 64, r.end + 64, 4)) \
            + list(range(0x5000 - 32, 0x5000 + 32, 4)):
        acc = await tb.read(a)
        assert not acc.err
        check_word(bytes(view), a, acc.data[0])
    # A plain stream started below START runs up to it and stops; the line after is verified.
    await go_idle(tb)
    for a in range(r.start - 16, r.start + 40, 4):
        acc = await tb.read(a)
        assert not acc.err
        check_word(bytes(view), a, acc.data[0])
    assert get_field("INTEG_STATUS.fail", await tb.reg_read("INTEG_STATUS")) == 0
    assert tb.flash_errors() == 0


@cocotb.test()
async def integ_policy(dut: Any) -> None:
    """The OTP policy fuse (otp_integ_req_i): blobs without EN and INTEG are refused (POLICY_ERR,
    no key); an integrity blob arms. Before LOCK plaintext is served (boot code reads the key
    table); LOCK empties the prefetch buffer, and from then on a read outside the armed integrity
    context ends in ERR, recorded in INTEG_STATUS, while its own lines still verify."""
    tb = await start(dut, KEK)
    tb.set_otp(integ_req=True)
    await tb.reset()
    assert get_field("POLICY.integ_req", await tb.reg_read("POLICY")) == 1
    r = region(INTERLEAVED)
    plain = bytes((i * 13 + 9) & 0xFF for i in range(IMAGE_BYTES))
    img = build_image(plain, r)
    tb.load_flash(bytes(img))
    ckey, cnonce = bytes(range(40, 56)), bytes(8)
    for flags in (FLAG_ENABLE, FLAG_INTEGRITY):
        status = await tb.unwrap(0, ContextFields(0, ckey, cnonce, 0x8000, 0x9000, flags, r.mac_key, 9).blob(KEK))
        assert get_field("OTFAD_STATUS.policy_err", status) == 1, f"flags {flags} armed under the policy"
        assert get_field("OTFAD_STATUS.key_valid", status) == 0 and get_field("OTFAD_STATUS.mac_valid", status) == 0
        assert await tb.reg_read("CTX[0].END") == 0, "a refused blob loaded its description"
        await tb.reg_write("OTFAD_STATUS", field("OTFAD_STATUS.policy_err", 1))
    status = await set_integ_context(tb, r)
    assert get_field("OTFAD_STATUS.active", status) == 1 << r.ctx
    assert get_field("OTFAD_STATUS.policy_err", status) == 0
    outside = 0x100
    check_word(bytes(img), outside, (await tb.read(outside)).data[0])  # before LOCK: served
    await tb.reg_write("LOCK", field("LOCK.lock", 1))
    for a in (outside + 4, 0x8000, r.end + 0x10, r.start - 4):  # the first one was prefetched
        acc = await tb.read(a)
        assert acc.err and acc.data == [0], f"read at {a:#x} outside the integrity context was served"
    ist = await tb.reg_read("INTEG_STATUS")
    assert get_field("INTEG_STATUS.fail", ist) == 1 and get_field("INTEG_STATUS.overflow", ist) == 1
    assert await tb.reg_read("INTEG_ADDR") == (outside + 4) & ~(LINE - 1)
    acc = await tb.burst(r.start + 0x80)
    assert not acc.err
    for i, word in enumerate(acc.data):
        check_word(plain, r.start + 0x80 + 4 * i, word)
    assert tb.flash_errors() == 0


@cocotb.test()
async def integ_rollback(dut: Any) -> None:
    """MIN_VERSION starts at the OTP value (otp_min_version_i) and only rises: a blob whose
    version is below it is refused (VERSION_ERR, no keys, no description loaded); one at it
    arms; MIN_VERSION_RAISE lifts it and never lowers it."""
    tb = await start(dut, KEK)
    tb.set_otp(min_version=7)
    await tb.reset()
    assert await tb.reg_read("MIN_VERSION") == 7
    plain = bytes((i * 3 + 1) & 0xFF for i in range(IMAGE_BYTES))
    old, cur = region(INTERLEAVED, version=6), region(INTERLEAVED, version=7)
    tb.load_flash(bytes(build_image(plain, old)))
    status = await tb.unwrap(old.ctx, integ_fields(old).blob(KEK))
    assert get_field("OTFAD_STATUS.version_err", status) == 1 and get_field("OTFAD_STATUS.unwrap_err", status) == 0
    assert get_field("OTFAD_STATUS.key_valid", status) == 0 and get_field("OTFAD_STATUS.mac_valid", status) == 0
    assert await tb.reg_read(f"CTX[{old.ctx}].VERSION") == 0
    await tb.reg_write("OTFAD_STATUS", field("OTFAD_STATUS.version_err", 1))
    tb.load_flash(bytes(build_image(plain, cur)))
    status = await set_integ_context(tb, cur)
    assert get_field("OTFAD_STATUS.active", status) == 1 << cur.ctx and not get_field("OTFAD_STATUS.version_err", status)
    acc = await tb.burst(cur.start)
    assert not acc.err
    for written, want in ((5, 7), (9, 9), (8, 9), (0, 9)):
        await tb.reg_write("MIN_VERSION_RAISE", written)
        assert await tb.reg_read("MIN_VERSION") == want, f"after writing {written}"
    blob = ContextFields(2, bytes(16), bytes(8), 0x8000, 0x9000, FLAG_ENABLE, version=8).blob(KEK)
    assert get_field("OTFAD_STATUS.version_err", await tb.unwrap(2, blob)) == 1
    await tb.reset()
    assert await tb.reg_read("MIN_VERSION") == 7, "only the OTP value survives a reset"
    assert tb.flash_errors() == 0


@cocotb.test()
async def integ_verified_lines(dut: Any) -> None:
    """The verified-line buffer: after VerifiedLines lines far apart (each its own transaction)
    were checked, reads alternating between them are answered in their first cycle with no new
    flash transaction; one more line evicts the oldest; a flush empties the buffer; a line that
    failed its check never enters it."""
    tb, r, plain, img = await setup(dut, INTERLEAVED)
    verified_lines = int(os.environ["XIP_VERIFIED_LINES"])  # the bench's parameter (test_xip.py)
    lines = [r.start + 0x100 * i for i in range(verified_lines)]
    for a in lines:
        acc = await tb.read(a)
        assert not acc.err and acc.cycles > 1
        check_word(plain, a, acc.data[0])
    misses = await tb.reg_read("MISSES")
    for w in range(8):
        for a in lines:
            acc = await tb.read(a + 4 * w)
            assert not acc.err and acc.cycles == 1, f"{a + 4 * w:#x}: {acc.cycles} cycles"
            check_word(plain, a + 4 * w, acc.data[0])
    assert await tb.reg_read("MISSES") == misses, "a buffered line went to the flash again"
    extra = r.start + 0x100 * verified_lines
    check_word(plain, extra, (await tb.read(extra)).data[0])
    assert (await tb.read(lines[0] + 8)).cycles > 1, "the oldest line was not evicted"
    for a in lines[2:]:
        assert (await tb.read(a)).cycles == 1
    await tb.reg_write("CTRL", field("CTRL.flush", 1))
    assert (await tb.read(lines[-1] + 4)).cycles > 1, "a flush left a verified line"
    # A failed line: ERR on every read, never answered from the buffer.
    await tb.reset()
    bad = r.start + 0x40
    img[phys(r, bad) + 3] ^= 0x01
    tb.load_flash(bytes(img))
    await set_integ_context(tb, r)
    for _ in range(3):
        assert (await tb.read(bad + 4)).err
        check_word(plain, r.start + 0x400, (await tb.read(r.start + 0x400)).data[0])
    assert tb.flash_errors() == 0


@cocotb.test()
async def integ_separate_tag_runs(dut: Any) -> None:
    """SEPARATE, a linear stream of uncached word reads from an idle controller: the first run
    after the miss reads 2 tags, every later run TagRun, so the flash sees one data transaction
    plus a tag transaction and a data restart per run, and no beat outlasts the crossbar."""
    tb, r, plain, _ = await setup(dut, SEPARATE)
    cfg = await tb.reg_read("CFG")
    await tb.reg_write("CFG", cfg | field("CFG.cont", 1))
    await go_idle(tb)
    spans: list[list[int]] = []  # [CS# fall, CS# rise] of each flash transaction

    async def count() -> None:
        while True:
            await FallingEdge(dut.cs_n)
            spans.append([tb.now()])
            await RisingEdge(dut.cs_n)
            spans[-1].append(tb.now())

    counter = cocotb.start_soon(count())
    lines, base, worst = 24, r.start + 0x400, 0
    t0 = tb.now()
    for a in range(base, base + lines * LINE, 4):
        acc = await tb.read(a, gap=3)
        assert not acc.err
        check_word(plain, a, acc.data[0])
        worst = max(worst, *acc.beats)
    counter.kill()
    run = tag_run()
    run_starts = [0, *range(2, lines, run)]
    lengths = [b - a for a, b in (s for s in spans if len(s) == 2)]
    dut._log.info(f"TagRun {run}: {lines} lines in {tb.now() - t0} cycles, {len(spans)} flash "
                  f"transactions ({lengths} cycles), slowest beat {worst} cycles")
    assert len(spans) == 1 + 2 * len(run_starts), f"{len(spans)} flash transactions for runs at {run_starts}"
    # The data transactions of the whole runs (the 3rd, 5th ...; the first run holds 2 lines) stream
    # their lines without a stop, no longer than a miss reading their words in continuous-read mode:
    # the next line's first word waits in the skid, not in the flash.
    bound = miss_cycles(get_field("CFG.div", cfg), get_field("CFG.cmd", cfg), get_field("CFG.dummy", cfg),
                        with_command=False, words=8 * run)
    for n in lengths[4:-1:2]:
        assert n <= bound, f"a run's data transaction took {n} cycles, over {bound}: {lengths}"
    assert_within_timeout(worst)
    assert tb.flash_errors() == 0
