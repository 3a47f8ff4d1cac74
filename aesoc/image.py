"""Flash images for execute-in-place with on-the-fly decryption (OTFAD).

`encrypt` places a firmware ELF (its PT_LOAD segments, by load address in the flash window) or a
raw binary into a flash image, encrypts each context's region with AES-128-CTR and writes the key
table that boot code copies into the XIP controller; `verify` checks an image against its
description. The description is TOML (docs/xip.md has the format and an example):

    flash_size = 16777216                      # optional, bytes (default 16 MiB)
    kek = "000102030405060708090a0b0c0d0e0f"   # key-encryption key, as in the OTP
    key_table = 0x400                          # flash offset of the key table
    binary_offset = 0                          # optional: where a raw binary goes

    [[context]]                                # up to four, in context order
    start = 0x10000                            # flash offsets, 1 KB aligned, end exclusive
    end = 0x20000
    key = "2b7e151628aed2a6abf7158809cf4f3c"
    nonce = "f0f1f2f3f4f5f6f7"
    lock = true                                # optional (default false)

Counter layout (the hardware's, xip_otfad.sv): the 16-byte block at flash offset A is XORed with
AES(key, nonce || be64(A / 16)), so a region [S, E) is plain AES-128-CTR over its bytes with the
one IV nonce || be64(S / 16): `openssl enc -aes-128-ctr -K key -iv IV` gives the same bytes.

Key table (all integers little-endian, so boot code copies words straight into registers):
    +0   "OTFK", version (1), context count, 0
    +16  per context, 48 bytes: RFC 3394 wrapped key (24 bytes: KEYBLOB0..5), nonce (8 bytes:
         NONCE0/1), start, end, flags (bit 0 enable, bit 1 lock), 0
"""

from __future__ import annotations

import struct
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.keywrap import InvalidUnwrap, aes_key_unwrap, aes_key_wrap
from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile

from aesoc.socdesc import UNCACHED_BIT, elaborate
from aesoc.toolchain import ToolError, write_atomic

# Images are for the XIP controller of this SoC configuration (the flash window's base comes from it).
IMAGE_CONFIG = "full"


def _flash_window() -> int:
    flash = elaborate(IMAGE_CONFIG).xip_flash
    if flash is None:
        raise ToolError(f"SoC configuration '{IMAGE_CONFIG}' has no XIP flash window")
    return flash.base


FLASH_WINDOW = _flash_window()  # bit 31 set is the uncached alias
MAX_FLASH = 16 * 1024 * 1024  # 24-bit flash addresses
REGION_ALIGN = 1024
MAX_CONTEXTS = 4
TABLE_MAGIC = b"OTFK"
TABLE_VERSION = 1
TABLE_HEADER = 16
TABLE_ENTRY = 48
FLAG_ENABLE = 1
FLAG_LOCK = 2
ERASED = 0xFF

_TOP_KEYS = {"flash_size", "kek", "key_table", "binary_offset", "context"}
_CONTEXT_KEYS = {"start", "end", "key", "nonce", "lock"}


class ImageError(ToolError):
    """A description, firmware file or image is not usable; the message says what and where."""


@dataclass(frozen=True)
class Context:
    index: int
    start: int
    end: int
    key: bytes
    nonce: bytes
    lock: bool

    @property
    def iv(self) -> bytes:
        return region_iv(self.nonce, self.start)

    def describe(self) -> str:
        return f"context {self.index} [{self.start:#x}, {self.end:#x})"


@dataclass(frozen=True)
class Description:
    flash_size: int
    kek: bytes
    key_table: int
    binary_offset: int
    contexts: tuple[Context, ...]

    @property
    def table_end(self) -> int:
        return self.key_table + TABLE_HEADER + TABLE_ENTRY * len(self.contexts)


@dataclass(frozen=True)
class Report:
    """What an image holds: its size, the firmware bytes placed, the encrypted regions."""

    image_bytes: int
    firmware_bytes: int
    contexts: tuple[Context, ...]
    checked_firmware: bool


def region_iv(nonce: bytes, start: int) -> bytes:
    """The AES-CTR initial counter block of a region that starts at flash offset `start`."""
    return nonce + (start // 16).to_bytes(8, "big")


def ctr_crypt(key: bytes, iv: bytes, data: bytes) -> bytes:
    """AES-128-CTR (encryption and decryption are the same operation)."""
    enc = Cipher(algorithms.AES(key), modes.CTR(iv)).encryptor()
    return enc.update(data) + enc.finalize()


def wrap_key(kek: bytes, key: bytes) -> bytes:
    """RFC 3394 AES key wrap: the 24-byte blob the XIP controller unwraps."""
    return aes_key_wrap(kek, key)


def _hex_bytes(value: object, what: str, length: int) -> bytes:
    if not isinstance(value, str):
        raise ImageError(f"{what} must be a hex string of {length} bytes ({2 * length} hex digits)")
    text = value.replace("_", "").replace(" ", "")
    try:
        raw = bytes.fromhex(text)
    except ValueError as exc:
        raise ImageError(f"{what} is not valid hex: {value!r}") from exc
    if len(raw) != length:
        raise ImageError(f"{what} must be {length} bytes ({2 * length} hex digits), got {len(raw)} bytes")
    return raw


def _int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ImageError(f"{what} must be an integer, got {value!r}")
    if value < 0:
        raise ImageError(f"{what} must not be negative, got {value}")
    return value


def _no_unknown(table: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise ImageError(f"{where}: unknown key(s) {', '.join(unknown)} (allowed: {', '.join(sorted(allowed))})")


def _overlap(a0: int, a1: int, b0: int, b1: int) -> bool:
    return a0 < b1 and b0 < a1


def parse_description(data: Mapping[str, Any], source: str = "description") -> Description:
    """Check a parsed description and turn it into a Description; ImageError says what is wrong."""
    _no_unknown(data, _TOP_KEYS, source)
    flash_size = _int(data.get("flash_size", MAX_FLASH), f"{source}: flash_size")
    if flash_size == 0 or flash_size > MAX_FLASH or flash_size % REGION_ALIGN:
        raise ImageError(f"{source}: flash_size {flash_size:#x} must be a multiple of 1 KB up to "
                         f"{MAX_FLASH:#x} (24-bit flash addresses)")
    if "kek" not in data:
        raise ImageError(f"{source}: missing kek (the 16-byte key-encryption key)")
    kek = _hex_bytes(data["kek"], f"{source}: kek", 16)
    if "key_table" not in data:
        raise ImageError(f"{source}: missing key_table (flash offset of the key table)")
    key_table = _int(data["key_table"], f"{source}: key_table")
    binary_offset = _int(data.get("binary_offset", 0), f"{source}: binary_offset")
    if binary_offset >= flash_size:
        raise ImageError(f"{source}: binary_offset {binary_offset:#x} is outside the flash (size {flash_size:#x})")
    raw_contexts = data.get("context", [])
    if not isinstance(raw_contexts, list):
        raise ImageError(f"{source}: context must be an array of tables ([[context]])")
    if len(raw_contexts) > MAX_CONTEXTS:
        raise ImageError(f"{source}: {len(raw_contexts)} contexts, the controller has {MAX_CONTEXTS}")

    contexts: list[Context] = []
    for index, raw in enumerate(raw_contexts):
        where = f"{source}: context {index}"
        if not isinstance(raw, dict):
            raise ImageError(f"{where} must be a table")
        _no_unknown(raw, _CONTEXT_KEYS, where)
        for needed in ("start", "end", "key", "nonce"):
            if needed not in raw:
                raise ImageError(f"{where}: missing {needed}")
        start = _int(raw["start"], f"{where}: start")
        end = _int(raw["end"], f"{where}: end")
        for name, value in (("start", start), ("end", end)):
            if value % REGION_ALIGN:
                raise ImageError(f"{where}: {name} {value:#x} is not a multiple of 1 KB ({REGION_ALIGN:#x})")
        if start >= end:
            raise ImageError(f"{where}: start {start:#x} must be below end {end:#x}")
        if end > flash_size:
            raise ImageError(f"{where}: region [{start:#x}, {end:#x}) is outside the flash (size {flash_size:#x})")
        lock = raw.get("lock", False)
        if not isinstance(lock, bool):
            raise ImageError(f"{where}: lock must be true or false")
        ctx = Context(index, start, end, _hex_bytes(raw["key"], f"{where}: key", 16),
                      _hex_bytes(raw["nonce"], f"{where}: nonce", 8), lock)
        for other in contexts:
            if _overlap(ctx.start, ctx.end, other.start, other.end):
                raise ImageError(f"{source}: {ctx.describe()} overlaps {other.describe()}")
        contexts.append(ctx)

    desc = Description(flash_size, kek, key_table, binary_offset, tuple(contexts))
    if key_table % 4:
        raise ImageError(f"{source}: key_table {key_table:#x} must be 4-byte aligned")
    if desc.table_end > flash_size:
        raise ImageError(f"{source}: key table [{key_table:#x}, {desc.table_end:#x}) is outside the flash")
    for ctx in contexts:
        if _overlap(key_table, desc.table_end, ctx.start, ctx.end):
            raise ImageError(f"{source}: key table [{key_table:#x}, {desc.table_end:#x}) lies in "
                             f"{ctx.describe()}; it must stay plaintext")
    return desc


def load_description(path: Path) -> Description:
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError as exc:
        raise ImageError(f"no description file {path}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ImageError(f"{path}: not valid TOML: {exc}") from exc
    return parse_description(data, str(path))


def load_firmware(path: Path, desc: Description) -> dict[int, bytes]:
    """Firmware bytes by flash offset: an ELF's PT_LOAD segments at their load addresses in the
    flash window (cached or uncached view), or a raw binary at binary_offset. Segments below the
    flash window are SRAM (the boot stub of an XIP program, fw/link_xip.ld): the boot loader, not
    the flash, holds them, so they are left out; an ELF with nothing in the flash is an error."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError as exc:
        raise ImageError(f"no firmware file {path}") from exc
    if raw[:4] != b"\x7fELF":
        if desc.binary_offset + len(raw) > desc.flash_size:
            raise ImageError(f"{path}: {len(raw)} bytes at {desc.binary_offset:#x} do not fit in the flash "
                             f"(size {desc.flash_size:#x})")
        return {desc.binary_offset: raw} if raw else {}
    segments: dict[int, bytes] = {}
    with open(path, "rb") as handle:
        try:
            elf = ELFFile(handle)
        except ELFError as exc:
            raise ImageError(f"{path}: not a readable ELF file: {exc}") from exc
        if elf["e_machine"] != "EM_RISCV":
            raise ImageError(f"{path}: not a RISC-V ELF (machine {elf['e_machine']})")
        for seg in elf.iter_segments():
            if seg["p_type"] != "PT_LOAD" or seg["p_filesz"] == 0:
                continue
            addr = seg["p_paddr"] & ~UNCACHED_BIT
            size = seg["p_filesz"]
            if addr + size <= FLASH_WINDOW:
                continue
            offset = addr - FLASH_WINDOW
            if offset < 0 or offset + size > desc.flash_size:
                raise ImageError(f"{path}: segment at {seg['p_paddr']:#010x} ({size} bytes) is outside the "
                                 f"flash window [{FLASH_WINDOW:#010x}, {FLASH_WINDOW + desc.flash_size:#010x})")
            segments[offset] = seg.data()[:size]
    if not segments:
        raise ImageError(f"{path}: no segment in the flash window {FLASH_WINDOW:#010x} (an SRAM program? "
                         "link it to execute in place: placement 'xip')")
    return segments


@dataclass(frozen=True)
class XipLayout:
    """Flash offsets of a program linked with fw/link_xip.ld: where its boot stub looks for the
    key table, and the span [code_start, image_end) that holds its code, read-only data and the
    load image of .data (what OTFAD contexts must cover to encrypt the whole program)."""

    key_table: int
    code_start: int
    image_end: int

    @property
    def program_span(self) -> tuple[int, int]:
        """[code_start, image_end) widened to OTFAD's 1 KB granularity: what contexts cover to
        encrypt the whole program."""
        return self.code_start, -(-self.image_end // REGION_ALIGN) * REGION_ALIGN


def xip_layout(elf: Path) -> XipLayout:
    """The layout symbols of an XIP-linked ELF; ImageError if it was not linked that way."""
    names = ("__xip_key_table", "__xip_code_start", "__xip_image_end")
    try:
        with open(elf, "rb") as handle:
            symtab = ELFFile(handle).get_section_by_name(".symtab")
            found = {n: symtab.get_symbol_by_name(n) for n in names} if symtab else {}
    except (FileNotFoundError, ELFError) as exc:
        raise ImageError(f"{elf}: not a readable ELF file: {exc}") from exc
    missing = [n for n in names if not found.get(n)]
    if missing:
        raise ImageError(f"{elf}: no {', '.join(missing)}: not linked to execute in place (fw/link_xip.ld)")
    key_table, code_start, image_end = ((found[n][0]["st_value"] & ~UNCACHED_BIT) - FLASH_WINDOW for n in names)
    return XipLayout(key_table, code_start, image_end)


def description_toml(data: Mapping[str, Any]) -> str:
    """A description given as data (the TOML's shape) as TOML text, unchecked."""
    def value(v: object) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, int):
            return hex(v)
        return f'"{v}"'

    lines = [f"{k} = {value(v)}" for k, v in data.items() if k != "context"]
    for ctx in data.get("context", []):
        lines += ["", "[[context]]", *(f"{k} = {value(v)}" for k, v in ctx.items())]
    return "\n".join(lines) + "\n"


def write_description(path: Path, data: Mapping[str, Any]) -> Description:
    """Check a description given as data (the TOML's shape) and write it as TOML to `path`."""
    desc = parse_description(data, str(path))
    write_atomic(path, description_toml(data))
    return desc


def key_table(desc: Description) -> bytes:
    """The plaintext key table that boot code reads (wrapped keys only: no key in clear)."""
    out = bytearray(TABLE_MAGIC + struct.pack("<III", TABLE_VERSION, len(desc.contexts), 0))
    for ctx in desc.contexts:
        flags = FLAG_ENABLE | (FLAG_LOCK if ctx.lock else 0)
        out += wrap_key(desc.kek, ctx.key) + ctx.nonce + struct.pack("<IIII", ctx.start, ctx.end, flags, 0)
    return bytes(out)


def build_image(desc: Description, segments: Mapping[int, bytes]) -> bytes:
    """Firmware placed, key table written, every context's region encrypted; unused bytes 0xFF."""
    spans = sorted((off, off + len(data)) for off, data in segments.items())
    for (a0, a1), (b0, b1) in zip(spans, spans[1:]):
        if _overlap(a0, a1, b0, b1):
            raise ImageError(f"firmware segments [{a0:#x}, {a1:#x}) and [{b0:#x}, {b1:#x}) overlap")
    for s0, s1 in spans:
        if _overlap(s0, s1, desc.key_table, desc.table_end):
            raise ImageError(f"firmware bytes [{s0:#x}, {s1:#x}) overlap the key table "
                             f"[{desc.key_table:#x}, {desc.table_end:#x})")
    size = max([desc.table_end, *(s1 for _, s1 in spans), *(c.end for c in desc.contexts)])
    image = bytearray([ERASED]) * size
    for off, data in segments.items():
        image[off:off + len(data)] = data
    image[desc.key_table:desc.table_end] = key_table(desc)
    for ctx in desc.contexts:
        image[ctx.start:ctx.end] = ctr_crypt(ctx.key, ctx.iv, bytes(image[ctx.start:ctx.end]))
    return bytes(image)


def _check_table(image: bytes, desc: Description) -> None:
    """The image's key table says what the description says, and its blobs unwrap under the KEK."""
    where = f"key table at {desc.key_table:#x}"
    table = image[desc.key_table:desc.table_end]
    if len(table) < desc.table_end - desc.key_table:
        raise ImageError(f"{where}: the image ends at {len(image):#x}, before the table does")
    if table[:4] != TABLE_MAGIC:
        raise ImageError(f"{where}: magic {table[:4]!r}, want {TABLE_MAGIC!r}")
    version, count, _ = struct.unpack_from("<III", table, 4)
    if version != TABLE_VERSION or count != len(desc.contexts):
        raise ImageError(f"{where}: version {version}, {count} contexts; the description has "
                         f"version {TABLE_VERSION}, {len(desc.contexts)} contexts")
    for ctx in desc.contexts:
        entry = table[TABLE_HEADER + TABLE_ENTRY * ctx.index:][:TABLE_ENTRY]
        try:
            key = aes_key_unwrap(desc.kek, entry[:24])
        except InvalidUnwrap as exc:
            raise ImageError(f"{where}: the key blob of {ctx.describe()} fails the RFC 3394 integrity "
                             "check under the description's KEK") from exc
        if key != ctx.key:
            raise ImageError(f"{where}: the key blob of {ctx.describe()} holds a different key")
        start, end, flags, _ = struct.unpack_from("<IIII", entry, 32)
        want_flags = FLAG_ENABLE | (FLAG_LOCK if ctx.lock else 0)
        if entry[24:32] != ctx.nonce or (start, end, flags) != (ctx.start, ctx.end, want_flags):
            raise ImageError(f"{where}: the entry of {ctx.describe()} has nonce {entry[24:32].hex()}, "
                             f"[{start:#x}, {end:#x}), flags {flags}; want {ctx.nonce.hex()}, "
                             f"[{ctx.start:#x}, {ctx.end:#x}), flags {want_flags}")


def _first_difference(a: bytes, b: bytes, lo: int, hi: int) -> int | None:
    if a[lo:hi] == b[lo:hi]:
        return None
    return next(i for i in range(lo, hi) if a[i] != b[i])


def encrypt(firmware: Path, description: Path, output: Path) -> Report:
    """Write the flash image for `firmware` under `description` to `output`."""
    desc = load_description(description)
    segments = load_firmware(firmware, desc)
    image = build_image(desc, segments)
    write_atomic(output, image)
    return Report(len(image), sum(len(d) for d in segments.values()), desc.contexts, True)


def verify(image_path: Path, description: Path, firmware: Path | None = None) -> Report:
    """Check an image against its description: the key table (blobs unwrap under the KEK to the
    described keys, nonces, bounds and flags) and that every region is inside the image; with the
    firmware too, every byte (each region decrypts to the firmware). Raises ImageError."""
    desc = load_description(description)
    try:
        image = image_path.read_bytes()
    except FileNotFoundError as exc:
        raise ImageError(f"no image file {image_path}") from exc
    _check_table(image, desc)
    for ctx in desc.contexts:
        if ctx.end > len(image):
            raise ImageError(f"{image_path}: {ctx.describe()} runs past the end of the image ({len(image):#x})")
    if firmware is None:
        return Report(len(image), 0, desc.contexts, False)
    segments = load_firmware(firmware, desc)
    expected = build_image(desc, segments)
    if len(image) != len(expected):
        raise ImageError(f"{image_path}: {len(image)} bytes, expected {len(expected)}")
    for ctx in desc.contexts:
        bad = _first_difference(image, expected, ctx.start, ctx.end)
        if bad is not None:
            raise ImageError(f"{image_path}: {ctx.describe()} does not decrypt to the firmware "
                             f"(first difference at {bad:#x})")
    bad = _first_difference(image, expected, 0, len(image))
    if bad is not None:
        raise ImageError(f"{image_path}: plaintext byte at {bad:#x} differs from the firmware")
    return Report(len(image), sum(len(d) for d in segments.values()), desc.contexts, True)
