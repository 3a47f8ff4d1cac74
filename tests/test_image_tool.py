"""The flash image tool (aesoc.xip.image): layout, AES-CTR regions, key table, ELF input, errors."""

from __future__ import annotations

import random
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.cmac import CMAC
from cryptography.hazmat.primitives.keywrap import aes_key_unwrap

from aesoc.common.toolchain import REPO, riscv_tool
from aesoc.xip import image

KEK = bytes(range(16))

# RFC 3394 section 4.1: wrap 128 bits of key data with a 128-bit KEK.
RFC3394_KEK = bytes.fromhex("000102030405060708090A0B0C0D0E0F")
RFC3394_KEY = bytes.fromhex("00112233445566778899AABBCCDDEEFF")
RFC3394_WRAPPED = bytes.fromhex("1FA68B0A8112B447AEF34BD8FB5A7B829D3E862371D2CFE5")


def description(**over: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "flash_size": 1 << 20,
        "kek": KEK.hex(),
        "key_table": 0x400,
        "context": [
            {"start": 0x1000, "end": 0x3000, "key": "2b7e151628aed2a6abf7158809cf4f3c", "nonce": "f0f1f2f3f4f5f6f7"},
            {"start": 0x3000, "end": 0x3400, "key": "000102030405060708090a0b0c0d0e0f",
             "nonce": "0011223344556677", "lock": True},
        ],
    }
    data.update(over)
    return data


# A third context with per-line tags in a separate tag area (after the two above).
INTEGRITY_CONTEXT: dict[str, Any] = {
    "start": 0x4000, "end": 0x5000, "key": "11" * 16, "nonce": "a0a1a2a3a4a5a6a7", "integrity": True,
    "mac_key": "22" * 16, "version": 7, "layout": "separate", "tag_base": 0x8000}


def write_toml(path: Path, data: dict[str, Any]) -> Path:
    """Write a description unchecked, so the tool's own checks can be tested on bad ones."""
    path.write_text(image.description_toml(data))
    return path


def aes_block(key: bytes, block: bytes) -> bytes:
    enc = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    return enc.update(block) + enc.finalize()


def test_rfc3394_vector() -> None:
    assert image.wrap_key(RFC3394_KEK, RFC3394_KEY) == RFC3394_WRAPPED


def test_regions_are_plain_ctr_with_one_iv(tmp_path: Path) -> None:
    """Each region is AES-128-CTR with IV nonce || be64(start / 16), and block by block it is the
    hardware's counter (nonce || be64(offset / 16)); everything else is the firmware in clear."""
    rng = random.Random(7)
    firmware = rng.randbytes(0x3800)
    fw = tmp_path / "fw.bin"
    fw.write_bytes(firmware)
    desc = tmp_path / "desc.toml"
    write_toml(desc, description(key_table=0x3800 + 0x100))
    out = tmp_path / "flash.bin"
    report = image.encrypt(fw, desc, out)
    flash = out.read_bytes()
    assert report.image_bytes == len(flash) and report.firmware_bytes == len(firmware)
    parsed = image.load_description(desc)
    plain = bytearray(firmware + b"\xff" * (len(flash) - len(firmware)))
    plain[parsed.key_table:parsed.table_end] = image.key_table(parsed)
    for ctx in parsed.contexts:
        iv = ctx.nonce + (ctx.start // 16).to_bytes(8, "big")
        dec = Cipher(algorithms.AES(ctx.key), modes.CTR(iv)).decryptor()
        assert dec.update(flash[ctx.start:ctx.end]) + dec.finalize() == plain[ctx.start:ctx.end]
        for off in range(ctx.start, ctx.end, 16):
            ks = aes_block(ctx.key, ctx.nonce + (off // 16).to_bytes(8, "big"))
            assert bytes(a ^ b for a, b in zip(flash[off:off + 16], ks)) == plain[off:off + 16]
        plain[ctx.start:ctx.end] = flash[ctx.start:ctx.end]
    assert flash == bytes(plain)


def test_key_table_layout(tmp_path: Path) -> None:
    """Version 3: per context one RFC 3394 wrap of its whole description, slot included
    (docs/xip.md, "The key table"), written out here field by field."""
    desc = image.parse_description(description(context=[*description()["context"], INTEGRITY_CONTEXT]))
    table = image.key_table(desc)
    assert table[:4] == b"OTFK" and struct.unpack_from("<III", table, 4) == (3, 3, 0)
    assert len(table) == 16 + 72 * 3
    for ctx in desc.contexts:
        plain = aes_key_unwrap(KEK, table[16 + 72 * ctx.index:][:72])
        assert len(plain) == 64 and plain[:16] == ctx.key and plain[32:40] == ctx.nonce
        fields = struct.unpack_from(">6I", plain, 40)
        if ctx.integrity is None:
            assert plain[16:32] == bytes(16)
            assert fields == (ctx.start, ctx.end, 1 | (2 if ctx.lock else 0), 0, 0, ctx.index)
        else:
            assert plain[16:32] == ctx.integrity.mac_key
            # flags: enable, integrity, separate tag area; then version, tag base and slot
            assert fields == (ctx.start, ctx.end, 1 | 4 | 8, 7, 0x8000, ctx.index)
    assert all(ctx.key not in table for ctx in desc.contexts)
    assert bytes.fromhex(INTEGRITY_CONTEXT["mac_key"]) not in table


def test_blobs_are_bound_to_their_slot() -> None:
    """The same description in another slot is another blob: the slot is inside the wrap."""
    desc = image.parse_description(description())
    fields = desc.contexts[0].fields
    moved = image.ContextFields(1, fields.key, fields.nonce, fields.start, fields.end, fields.flags)
    assert moved.blob(KEK) != fields.blob(KEK)
    assert image.ContextFields.parse(aes_key_unwrap(KEK, fields.blob(KEK))) == fields


def build_elf(tmp_path: Path) -> Path:
    """A RISC-V ELF with code in the cached flash view, rodata in the uncached one, and .data
    whose load address is in flash and run address in SRAM."""
    src = tmp_path / "fw.S"
    src.write_text(
        ".section .text\n.globl _start\n_start: .word 0x11111111, 0x22222222\n"
        ".section .rodata\n.word 0x33333333\n"
        ".section .data\n.word 0x44444444, 0x55555555\n"
        ".section .bss\n.space 64\n"
    )
    lds = tmp_path / "fw.ld"
    lds.write_text(
        "MEMORY { FLASH (rx) : ORIGIN = 0x20000000, LENGTH = 1M\n"
        "         FLASHU (r) : ORIGIN = 0xA0001000, LENGTH = 4K\n"
        "         RAM (rw) : ORIGIN = 0x00000000, LENGTH = 64K }\n"
        "SECTIONS { .text 0x20002000 : { *(.text) } > FLASH\n"
        "           .rodata : { *(.rodata) } > FLASHU\n"
        "           .data : { *(.data) } > RAM AT > FLASH\n"
        "           .bss : { *(.bss) } > RAM }\n"
    )
    elf = tmp_path / "fw.elf"
    subprocess.run([riscv_tool("gcc"), "-march=rv32im", "-mabi=ilp32", "-nostdlib", "-T", str(lds),
                    str(src), "-o", str(elf)], check=True, capture_output=True)
    return elf


def test_elf_input(tmp_path: Path) -> None:
    elf = build_elf(tmp_path)
    desc = image.parse_description(description(context=[]))
    segments = image.load_firmware(elf, desc)
    words = {off: data for off, data in segments.items()}
    assert words[0x2000] == struct.pack("<II", 0x11111111, 0x22222222)
    assert words[0x1000] == struct.pack("<I", 0x33333333)
    assert words[0x2008] == struct.pack("<II", 0x44444444, 0x55555555)
    assert len(words) == 3  # .bss has no file bytes


def test_elf_segment_outside_window(tmp_path: Path) -> None:
    elf = build_elf(tmp_path)
    small = image.parse_description(description(context=[], flash_size=0x2000))
    with pytest.raises(image.ImageError, match="outside the flash window"):
        image.load_firmware(elf, small)


@pytest.mark.parametrize("change,message", [
    ({"context": [{"start": 0, "end": 0x2000, "key": "00" * 16, "nonce": "00" * 8},
                  {"start": 0x1c00, "end": 0x3000, "key": "00" * 16, "nonce": "00" * 8}]},
     r"context 1 \[0x1c00, 0x3000\) overlaps context 0"),
    ({"context": [{"start": 0x1200, "end": 0x2000, "key": "00" * 16, "nonce": "00" * 8}]},
     r"start 0x1200 is not a multiple of 1 KB"),
    ({"context": [{"start": 0x1000, "end": 0x2001, "key": "00" * 16, "nonce": "00" * 8}]},
     r"end 0x2001 is not a multiple of 1 KB"),
    ({"context": [{"start": 0x1000, "end": 0x2000, "key": "00" * 15, "nonce": "00" * 8}]},
     r"key must be 16 bytes \(32 hex digits\), got 15 bytes"),
    ({"context": [{"start": 0x1000, "end": 0x2000, "key": "00" * 32, "nonce": "00" * 8}]},
     r"key must be 16 bytes .* got 32 bytes"),
    ({"context": [{"start": 0x1000, "end": 0x2000, "key": "00" * 16, "nonce": "00" * 7}]},
     r"nonce must be 8 bytes"),
    ({"context": [{"start": 0x1000, "end": 0x2000, "key": "zz" * 16, "nonce": "00" * 8}]},
     r"key is not valid hex"),
    ({"kek": "00" * 24}, r"kek must be 16 bytes"),
    ({"context": [{"start": 0xFFC00, "end": 0x100400, "key": "00" * 16, "nonce": "00" * 8}]},
     r"is outside the flash \(size 0x100000\)"),
    ({"context": [{"start": 0x2000, "end": 0x2000, "key": "00" * 16, "nonce": "00" * 8}]},
     r"start 0x2000 must be below end 0x2000"),
    ({"context": [{"start": 0x400 * (i + 4), "end": 0x400 * (i + 5), "key": "00" * 16, "nonce": "00" * 8}
                  for i in range(5)]},
     r"5 contexts, the controller has 4"),
    ({"context": [{"start": 0, "end": 0x1000, "key": "00" * 16, "nonce": "00" * 8}]},
     r"key table \[0x400, 0x458\) lies in context 0"),
    ({"key_table": 0x402}, r"key_table 0x402 must be 4-byte aligned"),
    ({"colour": "red"}, r"unknown key\(s\) colour"),
    ({"context": [{"start": 0x1000, "end": 0x2000, "key": "00" * 16, "nonce": "00" * 8, "enable": True}]},
     r"context 0: unknown key\(s\) enable"),
    ({"flash_size": 32 << 20}, r"flash_size 0x2000000 must be a multiple of 1 KB up to 0x1000000"),
])
def test_bad_descriptions(tmp_path: Path, change: dict[str, Any], message: str) -> None:
    path = write_toml(tmp_path / "bad.toml", description(**change))
    with pytest.raises(image.ImageError, match=message):
        image.load_description(path)


def test_bad_inputs(tmp_path: Path) -> None:
    desc = write_toml(tmp_path / "d.toml", description(binary_offset=0x800))
    big = tmp_path / "big.bin"
    big.write_bytes(bytes(1 << 20))
    with pytest.raises(image.ImageError, match="do not fit in the flash"):
        image.encrypt(big, desc, tmp_path / "o.bin")
    over_table = tmp_path / "t.bin"
    write_toml(tmp_path / "d0.toml", description(context=[], binary_offset=0x300))
    over_table.write_bytes(bytes(0x200))
    with pytest.raises(image.ImageError, match=r"overlap the key table \[0x400, 0x410\)"):
        image.encrypt(over_table, tmp_path / "d0.toml", tmp_path / "o.bin")
    with pytest.raises(image.ImageError, match="no firmware file"):
        image.encrypt(tmp_path / "missing.elf", desc, tmp_path / "o.bin")
    (tmp_path / "broken.toml").write_text("kek = \n")
    with pytest.raises(image.ImageError, match="not valid TOML"):
        image.load_description(tmp_path / "broken.toml")
    with pytest.raises(image.ImageError, match="no description file"):
        image.load_description(tmp_path / "none.toml")


def test_verify(tmp_path: Path) -> None:
    rng = random.Random(3)
    fw = tmp_path / "fw.bin"
    fw.write_bytes(rng.randbytes(0x3200))
    desc = write_toml(tmp_path / "d.toml", description(key_table=0x3400))
    good = tmp_path / "flash.bin"
    image.encrypt(fw, desc, good)
    assert image.verify(good, desc, fw).checked_firmware
    assert not image.verify(good, desc).checked_firmware
    data = good.read_bytes()

    def tampered(offset: int) -> Path:
        bad = bytearray(data)
        bad[offset] ^= 0x01
        path = tmp_path / f"bad{offset:x}.bin"
        path.write_bytes(bytes(bad))
        return path

    with pytest.raises(image.ImageError, match=r"context 0 \[0x1000, 0x3000\) does not decrypt .* at 0x1234"):
        image.verify(tampered(0x1234), desc, fw)
    with pytest.raises(image.ImageError, match="plaintext byte at 0x20 differs"):
        image.verify(tampered(0x20), desc, fw)
    with pytest.raises(image.ImageError, match="fails the RFC 3394 integrity check"):
        image.verify(tampered(0x3400 + 16 + 3), desc, fw)
    with pytest.raises(image.ImageError, match="magic"):
        image.verify(tampered(0x3400), desc)
    other_kek = write_toml(tmp_path / "k.toml", description(key_table=0x3400, kek="ff" * 16))
    with pytest.raises(image.ImageError, match="fails the RFC 3394 integrity check"):
        image.verify(good, other_kek)
    other_nonce = description(key_table=0x3400)
    other_nonce["context"][1]["nonce"] = "77" * 8
    with pytest.raises(image.ImageError, match="blob of context 1 .* unwraps to nonce 0011223344556677, the "
                                               "description has 7777777777777777"):
        image.verify(good, write_toml(tmp_path / "n.toml", other_nonce))
    short = tmp_path / "short.bin"
    short.write_bytes(data[:0x3100])
    with pytest.raises(image.ImageError, match="ends at 0x3100, before the table does"):
        image.verify(short, desc)


def cmac_tag(mac_key: bytes, nonce: bytes, version: int, offset: int, line: bytes) -> bytes:
    """docs/xip.md's construction, written out from SP 800-38B with `cryptography`'s CMAC."""
    mac = CMAC(algorithms.AES(mac_key))
    mac.update(nonce + struct.pack(">II", version, offset) + line)
    return mac.finalize()[:8]


def integrity_description(layout: str, **over: Any) -> dict[str, Any]:
    ctx: dict[str, Any] = {"start": 0x1000, "end": 0x2000, "key": "2b7e151628aed2a6abf7158809cf4f3c",
                           "nonce": "f0f1f2f3f4f5f6f7", "integrity": True, "mac_key": "000102030405060708090a0b0c0d0e0f",
                           "version": 5, "layout": layout}
    if layout == "separate":
        ctx["tag_base"] = 0x3000
    ctx.update(over)
    return description(context=[ctx], binary_offset=0x1000)


@pytest.mark.parametrize("layout", image.LAYOUTS)
def test_integrity_layouts(tmp_path: Path, layout: str) -> None:
    """Each line is CTR ciphertext at its logical offset's counter; its tag binds nonce, version
    and offset; interleaved lines sit at START + 40 k with the tag after them, separate ones stay
    in place with the tags at tag_base + 8 k."""
    rng = random.Random(layout)
    fw = tmp_path / "fw.bin"
    fw.write_bytes(rng.randbytes(0x1000))
    desc_data = integrity_description(layout)
    desc = write_toml(tmp_path / "d.toml", desc_data)
    flash = tmp_path / "flash.bin"
    image.encrypt(fw, desc, flash)
    data = flash.read_bytes()
    ctx = desc_data["context"][0]
    key, nonce, mac_key = (bytes.fromhex(ctx[k]) for k in ("key", "nonce", "mac_key"))
    plain = fw.read_bytes()
    enc = Cipher(algorithms.AES(key), modes.CTR(nonce + (0x1000 // 16).to_bytes(8, "big"))).encryptor()
    ciphertext = enc.update(plain) + enc.finalize()
    for k in range(0x1000 // 32):
        line = ciphertext[32 * k:32 * k + 32]
        tag = cmac_tag(mac_key, nonce, 5, 0x1000 + 32 * k, line)
        if layout == "interleaved":
            at, tag_at = 0x1000 + 40 * k, 0x1000 + 40 * k + 32
        else:
            at, tag_at = 0x1000 + 32 * k, 0x3000 + 8 * k
        assert data[at:at + 32] == line and data[tag_at:tag_at + 8] == tag, f"line {k}"
    assert len(data) == (0x1000 + 0x1400 if layout == "interleaved" else 0x3000 + 0x400)
    assert image.verify(flash, desc, fw).checked_firmware


@pytest.mark.parametrize("layout", image.LAYOUTS)
def test_verify_finds_every_tamper(tmp_path: Path, layout: str) -> None:
    """`verify` (without the firmware) refuses a flipped ciphertext or tag bit, a line copied to
    another address, a line from an older image version, and a key table whose nonce or version
    was changed."""
    rng = random.Random(1)
    fw = tmp_path / "fw.bin"
    fw.write_bytes(rng.randbytes(0x1000))
    desc = write_toml(tmp_path / "d.toml", integrity_description(layout))
    good, old = tmp_path / "good.bin", tmp_path / "old.bin"
    image.encrypt(fw, desc, good)
    image.encrypt(fw, write_toml(tmp_path / "old.toml", integrity_description(layout, version=4)), old)
    data, older = good.read_bytes(), old.read_bytes()
    assert image.verify(good, desc).contexts
    stride = 40 if layout == "interleaved" else 32

    def changed(name: str, edit: Any) -> Path:
        bad = bytearray(data)
        edit(bad)
        path = tmp_path / f"{name}.bin"
        path.write_bytes(bytes(bad))
        return path

    def flip(offset: int) -> Any:
        return lambda b: b.__setitem__(offset, b[offset] ^ 0x10)

    def copy_line(b: bytearray) -> None:  # line 3 (with its tag) replaces line 5
        tag_of = (lambda k: 0x1000 + 40 * k + 32) if layout == "interleaved" else (lambda k: 0x3000 + 8 * k)
        b[0x1000 + stride * 5:][:32] = data[0x1000 + stride * 3:][:32]
        b[tag_of(5):tag_of(5) + 8] = data[tag_of(3):tag_of(3) + 8]

    def roll_back(b: bytearray) -> None:  # everything of the context from the version-4 image
        b[0x1000:] = older[0x1000:]

    tag_offset = 0x1000 + 40 * 2 + 32 if layout == "interleaved" else 0x3000 + 8 * 2
    for name, edit, line in (("ct", flip(0x1000 + stride * 9 + 7), 0x1000 + 32 * 9), ("tag", flip(tag_offset), 0x1040),
                             ("moved", copy_line, 0x10a0), ("rollback", roll_back, 0x1000)):
        with pytest.raises(image.ImageError, match=rf"the line at {line:#x} fails its tag"):
            image.verify(changed(name, edit), desc)
    # Every byte of the table's entry is inside the wrap: a change anywhere fails the unwrap.
    entry = 0x400 + 16
    for offset in range(entry, entry + image.TABLE_ENTRY, 9):
        with pytest.raises(image.ImageError, match=r"the blob of context 0 .* fails the RFC 3394 integrity check"):
            image.verify(changed(f"entry{offset:x}", flip(offset)), desc)
    # A description with another version accepts nothing of this image: its blob binds version 5.
    bumped = write_toml(tmp_path / "v6.toml", integrity_description(layout, version=6))
    with pytest.raises(image.ImageError, match="unwraps to version 0x5, the description has 0x6"):
        image.verify(good, bumped)


@pytest.mark.parametrize(("change", "message"), [
    ({"mac_key": None}, r"context 0: integrity needs mac_key"),
    ({"version": None}, r"context 0: integrity needs version"),
    ({"version": 1 << 32}, r"version 4294967296 does not fit in 32 bits"),
    ({"layout": "diagonal"}, r"layout 'diagonal' must be one of interleaved, separate"),
    ({"tag_base": 0x3000}, r"tag_base is needed with layout = \"separate\" and only there"),
    ({"mac_key": "00" * 8}, r"mac_key must be 16 bytes"),
    ({"end": 0xFF000}, r"stores bytes up to 0x13e800, outside the flash"),
])
def test_bad_integrity_descriptions(tmp_path: Path, change: dict[str, Any], message: str) -> None:
    data = integrity_description("interleaved")
    for k, v in change.items():
        if v is None:
            del data["context"][0][k]
        else:
            data["context"][0][k] = v
    with pytest.raises(image.ImageError, match=message):
        image.load_description(write_toml(tmp_path / "bad.toml", data))


@pytest.mark.parametrize(("data", "message"), [
    (integrity_description("separate", tag_base=0x3004), r"tag_base 0x3004 must be a multiple of 8"),
    (integrity_description("separate", tag_base=0x1800), r"tag area \[0x1800, 0x1c00\) lies in the region"),
    (integrity_description("separate", tag_base=0x200), r"key table \[0x400, 0x458\) lies in context 0 .*"
                                                        r"stores \[0x200, 0x600\)"),
    (description(context=[integrity_description("interleaved")["context"][0],
                          {"start": 0x2000, "end": 0x2400, "key": "00" * 16, "nonce": "00" * 8}]),
     r"context 1 \[0x2000, 0x2400\) overlaps context 0 \[0x1000, 0x2000\) \(context 0 .* stores \[0x1000, 0x2400\)\)"),
    ({**description(context=[]), "integrity": True}, r"unknown key\(s\) integrity"),
    (description(context=[{"start": 0x1000, "end": 0x2000, "key": "00" * 16, "nonce": "00" * 8, "version": 3}]),
     r"context 0: version only apply with integrity = true"),
])
def test_bad_integrity_layouts(tmp_path: Path, data: dict[str, Any], message: str) -> None:
    with pytest.raises(image.ImageError, match=message):
        image.load_description(write_toml(tmp_path / "bad.toml", data))


def test_firmware_in_the_tags_is_refused(tmp_path: Path) -> None:
    fw = tmp_path / "fw.bin"
    fw.write_bytes(bytes(0x1100))  # at 0x1000: past the region's end, where its interleaved tags go
    data = integrity_description("interleaved")
    with pytest.raises(image.ImageError, match=r"lie in \[0x2000, 0x2400\), where context 0 .* stores its tags"):
        image.encrypt(fw, write_toml(tmp_path / "d.toml", data), tmp_path / "o.bin")


def doc_script(tmp_path: Path) -> Path:
    """The image script of docs/xip.md ("Building an image without aesoc"), as the page prints it."""
    text = (REPO / "docs" / "xip.md").read_text()
    block = text.split("```python\n# make_image.py", 1)[1].split("```", 1)[0]
    script = tmp_path / "make_image.py"
    script.write_text("# make_image.py" + block)
    return script


def run_doc_script(script: Path, plain: Path, out: Path, desc: image.Description) -> None:
    (ctx,) = desc.contexts
    assert ctx.integrity is not None
    i = ctx.integrity
    args = [plain, out, desc.kek.hex(), ctx.key.hex(), i.mac_key.hex(), ctx.nonce.hex(), hex(i.version),
            hex(ctx.start), hex(ctx.end), hex(desc.key_table), i.layout]
    subprocess.run([sys.executable, str(script), *map(str, args), *([hex(i.tag_base)] if i.tag_base else [])],
                   check=True, capture_output=True)


@pytest.mark.parametrize("layout", image.LAYOUTS)
def test_doc_script_writes_what_the_tool_writes(tmp_path: Path, layout: str) -> None:
    rng = random.Random(layout)
    firmware = rng.randbytes(0xC00)  # shorter than the region: its erased tail is encrypted too
    plain = tmp_path / "plain.bin"
    plain.write_bytes(b"\xff" * 0x1000 + firmware)
    fw = tmp_path / "fw.bin"
    fw.write_bytes(firmware)
    desc_path = write_toml(tmp_path / "d.toml", integrity_description(layout))
    desc = image.load_description(desc_path)
    ours, theirs = tmp_path / "ours.bin", tmp_path / "theirs.bin"
    image.encrypt(fw, desc_path, ours)
    run_doc_script(doc_script(tmp_path), plain, theirs, desc)
    assert theirs.read_bytes() == ours.read_bytes()
    assert image.verify(theirs, desc_path, fw).checked_firmware
