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
    integrity = true                           # optional: per-line tags (default false)
    mac_key = "000102030405060708090a0b0c0d0e0f"   # with integrity: the tag key
    version = 3                                # with integrity: the image version in every tag
    layout = "interleaved"                     # optional: or "separate" with tag_base

Counter layout (the hardware's, xip_otfad.sv): the 16-byte block at flash offset A is XORed with
AES(key, nonce || be64(A / 16)), so a region [S, E) is plain AES-128-CTR over its bytes with the
one IV nonce || be64(S / 16): `openssl enc -aes-128-ctr -K key -iv IV` gives the same bytes.

Integrity (docs/xip.md, "Integrity"): each 32-byte line at flash offset A of an integrity
context has the tag MSB_64(AES-CMAC(mac_key, nonce || be32(version) || be32(A) || ciphertext)),
stored after the line (interleaved: the line at START + (A - START) * 5 / 4, its tag after it) or
in a separate tag area (at tag_base + (A - START) / 4, the line at A).

Key table (header integers little-endian, so boot code copies words straight into registers):
    +0   "OTFK", version (3), context count, 0
    +16  per context c, 72 bytes (KEYBLOB0..17): the RFC 3394 wrap under the KEK of the 64-byte
         context description key || MAC key (zero without integrity) || nonce || be32 start, end,
         flags (bit 0 enable, bit 1 lock, bit 2 integrity, bit 3 separate tag area), version,
         tag base, slot (= c). The controller loads the context from what it unwraps, so any
         changed byte of an entry, or an entry moved to another slot, fails the unwrap.
"""

from __future__ import annotations

import struct
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.cmac import CMAC
from cryptography.hazmat.primitives.keywrap import InvalidUnwrap, aes_key_unwrap, aes_key_wrap
from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile

from aesoc.common.toolchain import ToolError, write_atomic
from aesoc.soc.description import UNCACHED_BIT, elaborate

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
TABLE_VERSION = 3
TABLE_HEADER = 16
DESCRIPTION_BYTES = 64  # a context description: eight 64-bit blocks (RFC 3394 n = 8)
TABLE_ENTRY = DESCRIPTION_BYTES + 8  # its wrap
FLAG_ENABLE = 1
FLAG_LOCK = 2
FLAG_INTEGRITY = 4
FLAG_SEPARATE = 8
ERASED = 0xFF
LINE = 32  # bytes covered by one tag: a CPU cache line
TAG = 8  # bytes of a tag: AES-CMAC truncated to 64 bits
LAYOUTS = ("interleaved", "separate")
# The tag layout a description gets when it names none: the faster one in the xip-read benchmark.
DEFAULT_LAYOUT = "interleaved"

_TOP_KEYS = {"flash_size", "kek", "key_table", "binary_offset", "context"}
_CONTEXT_KEYS = {"start", "end", "key", "nonce", "lock", "integrity", "mac_key", "version", "layout", "tag_base"}
_INTEGRITY_KEYS = {"mac_key", "version", "layout", "tag_base"}


class ImageError(ToolError):
    """A description, firmware file or image is not usable; the message says what and where."""


@dataclass(frozen=True)
class Integrity:
    """A context's per-line tags: their key, the image version they bind, where they are stored."""

    mac_key: bytes
    version: int
    layout: str  # one of LAYOUTS
    tag_base: int  # flash offset of the tag area (separate layout; 0 when interleaved)


@dataclass(frozen=True)
class Context:
    index: int
    start: int
    end: int
    key: bytes
    nonce: bytes
    lock: bool
    integrity: Integrity | None = None

    @property
    def iv(self) -> bytes:
        return region_iv(self.nonce, self.start)

    @property
    def flags(self) -> int:
        flags = FLAG_ENABLE | (FLAG_LOCK if self.lock else 0)
        if self.integrity is not None:
            flags |= FLAG_INTEGRITY | (FLAG_SEPARATE if self.integrity.layout == "separate" else 0)
        return flags

    @property
    def stored(self) -> tuple[int, int]:
        """The flash bytes that hold the region: its lines, and with interleaved tags the tags too."""
        if self.integrity is not None and self.integrity.layout == "interleaved":
            return self.start, self.start + (self.end - self.start) // LINE * (LINE + TAG)
        return self.start, self.end

    @property
    def tag_area(self) -> tuple[int, int] | None:
        """The separate tag area, if the context has one."""
        if self.integrity is None or self.integrity.layout != "separate":
            return None
        base = self.integrity.tag_base
        return base, base + (self.end - self.start) // LINE * TAG

    def spans(self) -> list[tuple[int, int]]:
        """Every flash span the context writes: its stored region and its tag area."""
        area = self.tag_area
        return [self.stored] + ([area] if area else [])

    def describe(self) -> str:
        return f"context {self.index} [{self.start:#x}, {self.end:#x})"

    @property
    def fields(self) -> ContextFields:
        i = self.integrity
        if i is None:
            return ContextFields(self.index, self.key, self.nonce, self.start, self.end, self.flags)
        return ContextFields(self.index, self.key, self.nonce, self.start, self.end, self.flags,
                             i.mac_key, i.version, i.tag_base)


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
    """RFC 3394 AES key wrap (a multiple of 8 bytes, at least 16)."""
    return aes_key_wrap(kek, key)


@dataclass(frozen=True)
class ContextFields:
    """Everything a context blob binds: the controller loads the context from these."""

    slot: int
    key: bytes
    nonce: bytes
    start: int
    end: int
    flags: int
    mac_key: bytes = bytes(16)
    version: int = 0
    tag_base: int = 0

    def description(self) -> bytes:
        """The 64-byte plaintext: key, MAC key, nonce, then big-endian start, end, flags,
        version, tag base and slot."""
        return (self.key + self.mac_key + self.nonce
                + struct.pack(">6I", self.start, self.end, self.flags, self.version, self.tag_base, self.slot))

    def blob(self, kek: bytes) -> bytes:
        """The 72-byte key table entry: the RFC 3394 wrap of the description under the KEK."""
        return wrap_key(kek, self.description())

    @classmethod
    def parse(cls, description: bytes) -> ContextFields:
        start, end, flags, version, tag_base, slot = struct.unpack_from(">6I", description, 40)
        return cls(slot, description[:16], description[32:40], start, end, flags, description[16:32],
                   version, tag_base)


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
                      _hex_bytes(raw["nonce"], f"{where}: nonce", 8), lock, _parse_integrity(raw, where))
        for s0, s1 in ctx.spans():
            if s1 > flash_size:
                raise ImageError(f"{where}: stores bytes up to {s1:#x}, outside the flash (size {flash_size:#x})")
        for other in contexts:
            if any(_overlap(*a, *b) for a in ctx.spans() for b in other.spans()):
                raise ImageError(f"{source}: {ctx.describe()} overlaps {other.describe()}"
                                 f"{_spans_note(ctx, other)}")
        area = ctx.tag_area
        if area and _overlap(*area, *ctx.stored):
            raise ImageError(f"{where}: tag area [{area[0]:#x}, {area[1]:#x}) lies in the region")
        contexts.append(ctx)

    desc = Description(flash_size, kek, key_table, binary_offset, tuple(contexts))
    if key_table % 4:
        raise ImageError(f"{source}: key_table {key_table:#x} must be 4-byte aligned")
    if desc.table_end > flash_size:
        raise ImageError(f"{source}: key table [{key_table:#x}, {desc.table_end:#x}) is outside the flash")
    for ctx in contexts:
        if any(_overlap(key_table, desc.table_end, *span) for span in ctx.spans()):
            raise ImageError(f"{source}: key table [{key_table:#x}, {desc.table_end:#x}) lies in "
                             f"{ctx.describe()}{_spans_note(ctx)}; it must stay plaintext")
    return desc


def _spans_note(*contexts: Context) -> str:
    """Names the flash a context stores beyond its region (interleaved tags, a tag area)."""
    notes = [f"{c.describe()} stores [{s0:#x}, {s1:#x})" for c in contexts for s0, s1 in c.spans()
             if (s0, s1) != (c.start, c.end)]
    return f" ({'; '.join(notes)})" if notes else ""


def _parse_integrity(raw: Mapping[str, Any], where: str) -> Integrity | None:
    on = raw.get("integrity", False)
    if not isinstance(on, bool):
        raise ImageError(f"{where}: integrity must be true or false")
    if not on:
        given = sorted(_INTEGRITY_KEYS & set(raw))
        if given:
            raise ImageError(f"{where}: {', '.join(given)} only apply with integrity = true")
        return None
    for needed in ("mac_key", "version"):
        if needed not in raw:
            raise ImageError(f"{where}: integrity needs {needed}")
    version = _int(raw["version"], f"{where}: version")
    if version >= 1 << 32:
        raise ImageError(f"{where}: version {version} does not fit in 32 bits")
    layout = raw.get("layout", DEFAULT_LAYOUT)
    if layout not in LAYOUTS:
        raise ImageError(f"{where}: layout {layout!r} must be one of {', '.join(LAYOUTS)}")
    if (layout == "separate") != ("tag_base" in raw):
        raise ImageError(f"{where}: tag_base is needed with layout = \"separate\" and only there")
    tag_base = _int(raw.get("tag_base", 0), f"{where}: tag_base")
    if tag_base % TAG:
        raise ImageError(f"{where}: tag_base {tag_base:#x} must be a multiple of {TAG}")
    return Integrity(_hex_bytes(raw["mac_key"], f"{where}: mac_key", 16), version, layout, tag_base)


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


def line_tag(mac_key: bytes, nonce: bytes, version: int, offset: int, line: bytes) -> bytes:
    """The tag of the 32-byte ciphertext line at flash offset `offset`: AES-CMAC (SP 800-38B)
    over nonce || be32(version) || be32(offset) || line, truncated to its first 8 bytes."""
    mac = CMAC(algorithms.AES(mac_key))
    mac.update(nonce + version.to_bytes(4, "big") + offset.to_bytes(4, "big") + line)
    return mac.finalize()[:TAG]


def _tags(ctx: Context, ciphertext: bytes) -> list[bytes]:
    assert ctx.integrity is not None
    i = ctx.integrity
    return [line_tag(i.mac_key, ctx.nonce, i.version, ctx.start + o, ciphertext[o:o + LINE])
            for o in range(0, len(ciphertext), LINE)]


def _store(image: bytearray, ctx: Context, ciphertext: bytes) -> None:
    """Write a context's ciphertext (and tags) where the controller fetches them."""
    if ctx.integrity is None:
        image[ctx.start:ctx.end] = ciphertext
        return
    tags = _tags(ctx, ciphertext)
    if ctx.integrity.layout == "interleaved":
        image[slice(*ctx.stored)] = b"".join(ciphertext[k * LINE:(k + 1) * LINE] + t for k, t in enumerate(tags))
    else:
        image[ctx.start:ctx.end] = ciphertext
        image[slice(*ctx.tag_area)] = b"".join(tags)


def _stored_lines(image: bytes, ctx: Context) -> tuple[bytes, list[bytes]]:
    """A context's ciphertext and tags as stored in `image` (the inverse of _store)."""
    assert ctx.integrity is not None
    lines = (ctx.end - ctx.start) // LINE
    if ctx.integrity.layout == "interleaved":
        records = [image[ctx.start + k * (LINE + TAG):][:LINE + TAG] for k in range(lines)]
        return b"".join(r[:LINE] for r in records), [r[LINE:] for r in records]
    base = ctx.integrity.tag_base
    return image[ctx.start:ctx.end], [image[base + k * TAG:][:TAG] for k in range(lines)]


def key_table(desc: Description) -> bytes:
    """The key table that boot code reads: a header and one wrapped description per context."""
    header = TABLE_MAGIC + struct.pack("<III", TABLE_VERSION, len(desc.contexts), 0)
    return header + b"".join(ctx.fields.blob(desc.kek) for ctx in desc.contexts)


def build_image(desc: Description, segments: Mapping[int, bytes]) -> bytes:
    """Firmware placed, key table written, every context's region encrypted and its tags stored;
    unused bytes 0xFF."""
    spans = sorted((off, off + len(data)) for off, data in segments.items())
    for (a0, a1), (b0, b1) in zip(spans, spans[1:]):
        if _overlap(a0, a1, b0, b1):
            raise ImageError(f"firmware segments [{a0:#x}, {a1:#x}) and [{b0:#x}, {b1:#x}) overlap")
    for s0, s1 in spans:
        if _overlap(s0, s1, desc.key_table, desc.table_end):
            raise ImageError(f"firmware bytes [{s0:#x}, {s1:#x}) overlap the key table "
                             f"[{desc.key_table:#x}, {desc.table_end:#x})")
        for ctx in desc.contexts:
            for t0, t1 in ctx.spans():
                for x0, x1 in ((t0, min(t1, ctx.start)), (max(t0, ctx.end), t1)):
                    if x0 < x1 and _overlap(s0, s1, x0, x1):
                        raise ImageError(f"firmware bytes [{s0:#x}, {s1:#x}) lie in [{x0:#x}, {x1:#x}), "
                                         f"where {ctx.describe()} stores its tags")
    size = max([desc.table_end, *(s1 for _, s1 in spans), *(t1 for c in desc.contexts for _, t1 in c.spans())])
    image = bytearray([ERASED]) * size
    for off, data in segments.items():
        image[off:off + len(data)] = data
    image[desc.key_table:desc.table_end] = key_table(desc)
    for ctx in desc.contexts:
        _store(image, ctx, ctr_crypt(ctx.key, ctx.iv, bytes(image[ctx.start:ctx.end])))
    return bytes(image)


def _check_table(image: bytes, desc: Description) -> None:
    """Each blob of the image's key table unwraps under the KEK to the described context."""
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
        what = f"{where}: the blob of {ctx.describe()}"
        try:
            got = ContextFields.parse(aes_key_unwrap(desc.kek, entry))
        except InvalidUnwrap as exc:
            raise ImageError(f"{what} fails the RFC 3394 integrity check under the description's KEK "
                             "(a changed entry, or a wrong KEK)") from exc
        want = ctx.fields
        for name in ("slot", "key", "mac_key", "nonce", "start", "end", "flags", "version", "tag_base"):
            g, w = getattr(got, name), getattr(want, name)
            if g != w:
                show = (lambda v: v.hex()) if isinstance(w, bytes) else hex
                raise ImageError(f"{what} unwraps to {name} {show(g)}, the description has {show(w)}")


def _check_tags(image: bytes, ctx: Context, where: str) -> None:
    """Every line of an integrity context carries the tag of its stored ciphertext."""
    ciphertext, stored = _stored_lines(image, ctx)
    for k, (want, got) in enumerate(zip(_tags(ctx, ciphertext), stored)):
        if want != got:
            offset = ctx.start + k * LINE
            raise ImageError(f"{where}: {ctx.describe()}: the line at {offset:#x} fails its tag (a changed "
                             "line or tag, a line from another address or image version, or another "
                             "nonce, version or MAC key)")


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
    described keys, nonces, bounds, flags, versions and tag bases), that every region is inside
    the image and that every line of an integrity context carries its tag; with the firmware
    too, every byte (each region decrypts to the firmware). Raises ImageError."""
    desc = load_description(description)
    try:
        image = image_path.read_bytes()
    except FileNotFoundError as exc:
        raise ImageError(f"no image file {image_path}") from exc
    _check_table(image, desc)
    for ctx in desc.contexts:
        last = max(t1 for _, t1 in ctx.spans())
        if last > len(image):
            raise ImageError(f"{image_path}: {ctx.describe()} runs past the end of the image ({len(image):#x}; "
                             f"it stores bytes up to {last:#x})")
        if ctx.integrity is not None:
            _check_tags(image, ctx, str(image_path))
    if firmware is None:
        return Report(len(image), 0, desc.contexts, False)
    segments = load_firmware(firmware, desc)
    expected = build_image(desc, segments)
    if len(image) != len(expected):
        raise ImageError(f"{image_path}: {len(image)} bytes, expected {len(expected)}")
    for ctx in desc.contexts:
        bad = _first_difference(image, expected, *ctx.stored)
        if bad is not None:
            raise ImageError(f"{image_path}: {ctx.describe()} does not decrypt to the firmware "
                             f"(first difference at {bad:#x})")
    bad = _first_difference(image, expected, 0, len(image))
    if bad is not None:
        raise ImageError(f"{image_path}: plaintext byte at {bad:#x} differs from the firmware")
    return Report(len(image), sum(len(d) for d in segments.values()), desc.contexts, True)
