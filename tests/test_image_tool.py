"""The flash image tool (aesoc.image): layout, AES-CTR regions, key table, ELF input, errors."""

from __future__ import annotations

import random
import struct
import subprocess
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.keywrap import aes_key_unwrap

from aesoc import image
from aesoc.toolchain import riscv_tool

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
    desc = image.parse_description(description())
    table = image.key_table(desc)
    assert table[:4] == b"OTFK" and struct.unpack_from("<III", table, 4) == (1, 2, 0)
    for ctx in desc.contexts:
        entry = table[16 + 48 * ctx.index:][:48]
        assert aes_key_unwrap(KEK, entry[:24]) == ctx.key
        assert entry[24:32] == ctx.nonce
        assert struct.unpack_from("<IIII", entry, 32) == (ctx.start, ctx.end, 1 | (2 if ctx.lock else 0), 0)
    assert all(ctx.key not in table for ctx in desc.contexts)


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
     r"key table \[0x400, 0x440\) lies in context 0"),
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
    with pytest.raises(image.ImageError, match="entry of context 1 .* has nonce 0011223344556677"):
        image.verify(good, write_toml(tmp_path / "n.toml", other_nonce))
    short = tmp_path / "short.bin"
    short.write_bytes(data[:0x3100])
    with pytest.raises(image.ImageError, match="ends at 0x3100, before the table does"):
        image.verify(short, desc)
