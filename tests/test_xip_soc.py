"""Execute in place in the SoC: boot from the flash, plaintext and OTFAD-encrypted, on the `full`
model. fw/tests/xip_boot checks itself (AES and SHA-256 against NIST answers with tables in the
flash, a ramp table through the cached and uncached views, .data/.bss/.ramfunc, locked contexts);
the tests choose the images: no image, plaintext image, random contexts over code and read-only
data, a part whose OTP KEK differs from the one the blobs were wrapped under."""

from __future__ import annotations

import random
import re
import struct
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from aesoc.common import outcome
from aesoc.common.toolchain import REPO, ToolError, riscv_tool
from aesoc.sim import firmware, model
from aesoc.sim.harness import RunResult, run
from aesoc.sim.run import build_and_run, flash_image_path
from aesoc.soc import description
from aesoc.soc.description import UNCACHED_BIT
from aesoc.xip import image
from test_image_tool import doc_script, run_doc_script

PROGRAM = REPO / "fw" / "tests" / "xip_boot"
CONFIG = "full"
CFLAGS = ("-O2", "-DSWC_AES_TTABLE")  # T-tables: 4 KB of lookups in the flash's .rodata
LIBS = ("crypto",)
MAX_CYCLES = 5_000_000
# A boot that stops at an unwrap: configuration, up to four ~1,070-cycle unwraps, a record and a
# message on the console; the self test itself takes ~360 000 cycles.
BOOT_FAILURE_CYCLES = 20_000


@pytest.fixture(scope="module")
def xip_elf() -> Path:
    model.build_model(description.load_config(CONFIG))
    return firmware.build(PROGRAM, description.load_config(CONFIG), cflags=CFLAGS, libs=LIBS, placement="xip").elf


def go(image_desc: Path | None = None, kek: bytes | None = None,
       otp: tuple[tuple[str, int], ...] = ()) -> tuple[RunResult, str]:
    return build_and_run(PROGRAM, CONFIG, cflags=CFLAGS, libs=LIBS, placement="xip", image=image_desc,
                         kek=kek, otp=otp, max_cycles=MAX_CYCLES)


def random_description(rng: random.Random, layout: image.XipLayout, kek: bytes) -> dict[str, Any]:
    """One to four adjoining contexts with random bounds (1 KB steps), keys and nonces over the
    whole program, one of them locked at random."""
    lo, hi = layout.program_span
    blocks = (hi - lo) // image.REGION_ALIGN
    count = rng.randint(1, min(4, blocks))
    cuts = sorted(rng.sample(range(1, blocks), count - 1))
    bounds = [lo] + [lo + c * image.REGION_ALIGN for c in cuts] + [hi]
    locked = rng.randrange(count)
    return {
        "kek": kek.hex(), "key_table": layout.key_table,
        "context": [{"start": a, "end": b, "key": rng.randbytes(16).hex(), "nonce": rng.randbytes(8).hex(),
                     "lock": i == locked} for i, (a, b) in enumerate(zip(bounds, bounds[1:]))],
    }


def integrity_description(rng: random.Random, layout: image.XipLayout, kek: bytes, tags: str,
                          version: int = 9) -> dict[str, Any]:
    """Integrity over the whole program: one interleaved context (its stored lines run a quarter
    past its end, so interleaved contexts cannot adjoin), or one to four adjoining contexts with
    their separate tag areas one after another behind the program."""
    data = random_description(rng, layout, kek)
    if tags == "interleaved":
        lo, hi = layout.program_span
        data["context"] = [{**data["context"][0], "start": lo, "end": hi}]
    tag_base = layout.program_span[1]
    for ctx in data["context"]:
        ctx.update(integrity=True, mac_key=rng.randbytes(16).hex(), version=version, layout=tags)
        if tags == "separate":
            ctx["tag_base"] = tag_base
            tag_base += (ctx["end"] - ctx["start"]) // image.LINE * image.TAG
    return data


def boot_record(result: RunResult) -> dict[str, Any]:
    """The boot's record without its cycle count (cycles from reset to the record)."""
    boots = result.records_of("xip_boot")
    assert len(boots) == 1, result.console
    assert 0 < boots[0]["cycles"] < BOOT_FAILURE_CYCLES, boots[0]
    return {k: v for k, v in boots[0].items() if k != "cycles"}


def passed(result: RunResult, line: str) -> dict[str, Any]:
    assert result.status == "exit" and result.code == 0, f"{line}\n{result.console}"
    (rec,) = result.records_of("xip_soc")
    assert rec["failures"] == 0 and rec["ramp_errors"] == 0
    assert rec["main"] >> 24 == 0x20 and rec["ramp"] >> 24 == 0x20  # both in the cached flash window
    return rec


def test_elf_layout(xip_elf: Path) -> None:
    """Only the boot stub is in SRAM at the reset vector; the rest is in the flash."""
    layout = image.xip_layout(xip_elf)
    assert layout.key_table == 0 and layout.code_start == image.REGION_ALIGN
    desc = image.parse_description({"kek": "00" * 16, "key_table": 0})
    segments = image.load_firmware(xip_elf, desc)
    assert min(segments) == layout.code_start
    assert max(off + len(data) for off, data in segments.items()) == layout.image_end


def test_no_image_boots_plaintext(xip_elf: Path) -> None:
    result, line = go()
    passed(result, line)
    assert boot_record(result) == {"kind": "xip_boot", "status": "no-table", "contexts": 0, "key_valid": 0,
                                   "active": 0, "integ_required": 0, "min_version": 0}


def test_plaintext_image(xip_elf: Path, tmp_path: Path) -> None:
    desc = tmp_path / "plain.toml"
    image.write_description(desc, {"kek": random.Random(1).randbytes(16).hex(), "key_table": 0})
    result, line = go(desc)
    rec = passed(result, line)
    assert boot_record(result)["status"] == "ok" and boot_record(result)["contexts"] == 0
    assert rec["locked_checked"] == 0


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_encrypted_image(xip_elf: Path, tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    kek = rng.randbytes(16)
    data = random_description(rng, image.xip_layout(xip_elf), kek)
    desc_path = tmp_path / "enc.toml"
    desc = image.write_description(desc_path, data)
    result, line = go(desc_path, kek=None)
    # The flash really holds ciphertext: no 16-byte block of the program's flash part is stored in clear.
    flash = flash_image_path(xip_elf, desc_path).read_bytes()
    segments = image.load_firmware(xip_elf, desc)
    for off, plain in segments.items():
        clear = [off + b for b in range(0, len(plain) - 15, 16) if flash[off + b:off + b + 16] == plain[b:b + 16]]
        assert not clear, f"plaintext at flash offsets {clear[:4]}"
    rec = passed(result, line)
    n = len(desc.contexts)
    assert boot_record(result) == {"kind": "xip_boot", "status": "ok", "contexts": n,
                                   "key_valid": (1 << n) - 1, "active": (1 << n) - 1, "integ_required": 0,
                                   "min_version": 0}
    assert rec["locked_checked"] == sum(c.lock for c in desc.contexts) == 1
    # Keys and the KEK stay out of everything the run prints.
    for secret in [kek, *(c.key for c in desc.contexts)]:
        for text in (line, result.console, result.stderr):
            assert secret.hex() not in text.lower()


def test_wrong_kek_stops_at_boot(xip_elf: Path, tmp_path: Path) -> None:
    """A part whose OTP KEK is not the one the blobs were wrapped under: the first unwrap fails,
    the boot reports it and exits with its own status; no flash instruction runs."""
    rng = random.Random(21)
    kek = rng.randbytes(16)
    desc_path = tmp_path / "enc.toml"
    image.write_description(desc_path, random_description(rng, image.xip_layout(xip_elf), kek))
    other = bytes(b ^ 0x80 for b in kek)
    result, line = go(desc_path, kek=other)
    assert result.status == "exit" and result.code == firmware.XIP_BOOT_EXIT["unwrap"], f"{line}\n{result.console}"
    rec = boot_record(result)
    assert rec["status"] == "unwrap-error" and rec["key_valid"] == 0 and rec["active"] == 0
    assert "RFC 3394 integrity check" in result.console
    assert not result.records_of("xip_soc")
    assert result.cycles < BOOT_FAILURE_CYCLES
    assert other.hex() not in line + result.console + result.stderr


def test_corrupted_table_stops_at_boot(xip_elf: Path, tmp_path: Path) -> None:
    """A key table whose header is damaged (version word) is refused with its own status."""
    rng = random.Random(31)
    kek = rng.randbytes(16)
    desc_path = tmp_path / "enc.toml"
    image.write_description(desc_path, random_description(rng, image.xip_layout(xip_elf), kek))
    flash = tmp_path / "flash.bin"
    image.encrypt(xip_elf, desc_path, flash)
    data = bytearray(flash.read_bytes())
    data[4] ^= 0x02  # version 3 -> 1
    flash.write_bytes(bytes(data))
    result = run(model.build_model(description.load_config(CONFIG)), xip_elf, max_cycles=MAX_CYCLES, flash_image=flash,
                 kek=kek)
    assert result.status == "exit" and result.code == firmware.XIP_BOOT_EXIT["table"], result.console
    assert boot_record(result)["status"] == "bad-table" and not result.records_of("xip_soc")


def test_bad_requests(xip_elf: Path, tmp_path: Path) -> None:
    desc = tmp_path / "elsewhere.toml"
    image.write_description(desc, {"kek": "00" * 16, "key_table": 0x800})
    with pytest.raises(ToolError, match=r"key_table 0x800, but the boot stub .* reads the table at flash offset 0x0"):
        go(desc)
    with pytest.raises(ToolError, match="needs placement 'xip'"):
        build_and_run(PROGRAM, CONFIG, image=desc)
    with pytest.raises(ToolError, match="has no XIP controller"):
        firmware.build(PROGRAM, description.load_config("base"), placement="xip")
    sram_elf = firmware.build(REPO / "fw" / "tests" / "hello", description.load_config(CONFIG)).elf
    with pytest.raises(image.ImageError, match="no segment in the flash window"):
        image.load_firmware(sram_elf, image.parse_description({"kek": "00" * 16, "key_table": 0}))


def test_cli_runs_in_place_from_an_encrypted_image(xip_elf: Path, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """`aesoc run --placement xip --image` builds the image from the description and boots it."""
    from aesoc.cli import main

    rng = random.Random(31)
    desc_path = tmp_path / "cli.toml"
    image.write_description(desc_path, random_description(rng, image.xip_layout(xip_elf), rng.randbytes(16)))
    args = ["run", str(PROGRAM), "--placement", "xip", "--image", str(desc_path), "--cflags", " ".join(CFLAGS),
            "--lib", *LIBS, "--max-cycles", str(MAX_CYCLES)]
    assert main(args) == 0, capsys.readouterr().err
    assert '"kind":"xip_boot","status":"ok"' in capsys.readouterr().out


def test_cli_image_needs_xip_placement(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from aesoc.cli import main

    assert main(["run", "fw/tests/hello", "--image", str(tmp_path / "any.toml")]) == outcome.HARNESS_ERROR
    assert "needs placement 'xip'" in capsys.readouterr().err


@pytest.mark.parametrize("tags", image.LAYOUTS)
def test_integrity_image(xip_elf: Path, tmp_path: Path, tags: str) -> None:
    """The self test runs from an image whose every line is checked against its tag."""
    rng = random.Random(tags)
    kek = rng.randbytes(16)
    desc_path = tmp_path / f"integ-{tags}.toml"
    desc = image.write_description(desc_path, integrity_description(rng, image.xip_layout(xip_elf), kek, tags))
    result, line = go(desc_path)
    passed(result, line)
    n = len(desc.contexts)
    assert boot_record(result) == {"kind": "xip_boot", "status": "ok", "contexts": n,
                                   "key_valid": (1 << n) - 1, "active": (1 << n) - 1, "integ_required": 0,
                                   "min_version": 9}  # the boot's anti-rollback step: the image's version
    for secret in [kek, *(c.key for c in desc.contexts), *(c.integrity.mac_key for c in desc.contexts if c.integrity)]:
        assert secret.hex() not in (line + result.console + result.stderr).lower()


def symbol_offset(elf: Path, name: str) -> int:
    """Flash offset of a symbol of the XIP program."""
    from elftools.elf.elffile import ELFFile

    with open(elf, "rb") as handle:
        (sym,) = ELFFile(handle).get_section_by_name(".symtab").get_symbol_by_name(name)
    return (sym["st_value"] & ~UNCACHED_BIT) - image.FLASH_WINDOW


def stored_at(ctx: image.Context, offset: int) -> tuple[int, int]:
    """Where the line holding flash offset `offset` and its tag are stored."""
    assert ctx.integrity is not None
    k = (offset - ctx.start) // image.LINE
    if ctx.integrity.layout == "interleaved":
        at = ctx.start + k * (image.LINE + image.TAG)
        return at, at + image.LINE
    return ctx.start + k * image.LINE, ctx.integrity.tag_base + k * image.TAG


def tampered_run(xip_elf: Path, tmp_path: Path, tags: str, tamper: str) -> tuple[RunResult, int]:
    """Build an integrity image, change it the way `tamper` says around main()'s first line, boot
    it; return the run and the flash offset of that line."""
    rng = random.Random(f"{tags}-{tamper}")
    kek = rng.randbytes(16)
    layout = image.xip_layout(xip_elf)
    desc_path = tmp_path / "integ.toml"
    desc = image.write_description(desc_path, integrity_description(rng, layout, kek, tags))
    flash = tmp_path / "flash.bin"
    image.encrypt(xip_elf, desc_path, flash)
    data = bytearray(flash.read_bytes())
    target = symbol_offset(xip_elf, "main") & ~(image.LINE - 1)
    (ctx,) = [c for c in desc.contexts if c.start <= target < c.end]
    line_at, tag_at = stored_at(ctx, target)
    if tamper == "ciphertext":
        data[line_at + 5] ^= 0x04
    elif tamper == "tag":
        data[tag_at + 7] ^= 0x80
    elif tamper == "moved":  # the line after main's, with its own tag, put in main's place
        next_at, next_tag = stored_at(ctx, target + image.LINE)
        data[line_at:line_at + image.LINE] = data[next_at:next_at + image.LINE]
        data[tag_at:tag_at + image.TAG] = data[next_tag:next_tag + image.TAG]
    elif tamper == "rollback":  # the same program as an older image version of the same context
        old_path = tmp_path / "old.toml"
        old = integrity_description(random.Random(f"{tags}-{tamper}"), layout, kek, tags, version=8)
        image.write_description(old_path, old)
        older = tmp_path / "older.bin"
        image.encrypt(xip_elf, old_path, older)
        old_data = older.read_bytes()
        data[line_at:line_at + image.LINE] = old_data[line_at:line_at + image.LINE]
        data[tag_at:tag_at + image.TAG] = old_data[tag_at:tag_at + image.TAG]
    else:
        raise AssertionError(tamper)
    flash.write_bytes(bytes(data))
    result = run(model.build_model(description.load_config(CONFIG)), xip_elf, max_cycles=MAX_CYCLES, flash_image=flash,
                 kek=kek)
    return result, target


@pytest.mark.parametrize(("tags", "tamper"), [
    ("interleaved", "ciphertext"), ("interleaved", "tag"), ("interleaved", "moved"), ("interleaved", "rollback"),
    ("separate", "ciphertext"),
])
def test_tampered_flash_never_runs(xip_elf: Path, tmp_path: Path, tags: str, tamper: str) -> None:
    """A changed line or tag, a line moved from another address, a line from an older image version:
    the fetch of main()'s line ends in the platform's bus error at that line, before any of its
    instructions runs. (A changed key table stops earlier, at boot: test_key_table_attacks.)"""
    result, target = tampered_run(xip_elf, tmp_path, tags, tamper)
    assert result.outcome == "bus_error" and result.code == outcome.BUS_ERROR, result.console
    assert boot_record(result)["status"] == "ok" and not result.records_of("xip_soc")
    match = re.search(r"\*\*\* bus error: master \d+ address 0x([0-9a-f]{8})", result.console)
    assert match, result.console
    failed = int(match.group(1), 16)
    assert (failed & 0x7FFFFFFF) - image.FLASH_WINDOW >> 5 == target >> 5, hex(failed)


def test_image_from_the_doc_script_boots(xip_elf: Path, tmp_path: Path) -> None:
    """docs/xip.md's cryptography-only script, fed the program's flash bytes as objcopy writes them
    (not through aesoc), builds an image the SoC boots and runs the self test from."""
    layout = image.xip_layout(xip_elf)
    rng = random.Random(5)
    kek = rng.randbytes(16)
    data = integrity_description(rng, layout, kek, "interleaved")
    desc = image.parse_description(data)
    body = tmp_path / "body.bin"
    subprocess.run([riscv_tool("objcopy"), "-O", "binary", "--gap-fill", "0xff", "-j", ".text", "-j", ".rodata",
                    "-j", ".data", str(xip_elf), str(body)], check=True, capture_output=True)
    plain = tmp_path / "plain.bin"
    plain.write_bytes(b"\xff" * layout.code_start + body.read_bytes())
    flash = tmp_path / "flash.bin"
    run_doc_script(doc_script(tmp_path), plain, flash, desc)
    result = run(model.build_model(description.load_config(CONFIG)), xip_elf, max_cycles=MAX_CYCLES, flash_image=flash,
                 kek=kek)
    passed(result, "image from docs/xip.md's script")
    assert boot_record(result)["status"] == "ok"


@pytest.mark.parametrize("tags", image.LAYOUTS)
def test_integrity_failure_seen_from_software(tmp_path: Path, tags: str) -> None:
    """fw/tests/xip_integ masks the bus-error line and reads a line the test damaged in the image:
    zeros come back (uncached and through a D-cache refill), the XIP controller records the
    failure (status, context, the line's offset) and raises its interrupt,
    and writing 1s clears it."""
    config = description.load_config(CONFIG)
    elf = firmware.build(REPO / "fw" / "tests" / "xip_integ", config, placement="xip").elf
    rng = random.Random(f"integ-{tags}")
    kek = rng.randbytes(16)
    desc_path = tmp_path / "integ.toml"
    desc = image.write_description(desc_path, integrity_description(rng, image.xip_layout(elf), kek, tags))
    flash = tmp_path / "flash.bin"
    image.encrypt(elf, desc_path, flash)
    data = bytearray(flash.read_bytes())
    target = symbol_offset(elf, "target")
    assert target % image.LINE == 0
    (ctx,) = [c for c in desc.contexts if c.start <= target < c.end]
    data[stored_at(ctx, target)[0] + 17] ^= 0x20
    flash.write_bytes(bytes(data))
    result = run(model.build_model(config), elf, max_cycles=MAX_CYCLES, flash_image=flash, kek=kek)
    assert result.status == "exit" and result.code == 0, result.console
    (rec,) = result.records_of("xip_integ")
    window = image.FLASH_WINDOW + target
    assert rec["target"] == window
    assert (rec["good_errors"], rec["uncached"], rec["cached"]) == (0, 0, 0)
    assert (rec["fail"], rec["overflow"], rec["ctx"], rec["addr"]) == (1, 0, ctx.index, target)
    assert rec["irqs"] == 1 and rec["bus_pending"] == 1
    assert rec["bus_addr"] & ~(image.LINE - 1) == window | UNCACHED_BIT
    # The same line failing again is not another failure: no overflow, the address held.
    assert (rec["fail2"], rec["overflow2"], rec["addr2"], rec["bus_pending2"]) == (1, 0, target, 1)
    assert rec["cleared"] == 0 and rec["irqs_after_clear"] == 1


# --- The key table as an attacker sees it (issue 45: k1-k4 and the other cases) ----------------
# The attacker can write every byte of the flash but does not know the part's KEK: all they can
# put in a table entry is a genuine blob (anywhere), a changed one, or one wrapped under a KEK of
# their own. Every such table ends at boot, before the first flash instruction, with the unwrap
# failure's status; the OTP policy and minimum version cases end with their own.
ATTACKER_KEK = bytes(range(0xA0, 0xB0))
POLICY_ON = (("integ_req", 1),)


def entry_offset(desc: image.Description, slot: int) -> int:
    return desc.key_table + image.TABLE_HEADER + image.TABLE_ENTRY * slot


def forged_table(desc: image.Description, fields: list[image.ContextFields]) -> bytes:
    """A well-formed table of blobs wrapped under the attacker's KEK."""
    header = image.TABLE_MAGIC + struct.pack("<III", image.TABLE_VERSION, len(fields), 0)
    return header + b"".join(f.blob(ATTACKER_KEK) for f in fields)


def attacked_image(xip_elf: Path, tmp_path: Path, attack: str) -> tuple[Path, bytes, int]:
    """An integrity image of the self test (separate tags, ciphertext at its own address) changed
    the way `attack` says; returns the flash file, the part's KEK and main()'s flash offset."""
    rng = random.Random(f"attack-{attack}")
    kek = rng.randbytes(16)
    layout = image.xip_layout(xip_elf)
    data = integrity_description(rng, layout, kek, "separate")
    if attack in ("copied-slot", "overlap"):  # two contexts, so a blob can move between them
        lo, hi = layout.program_span
        mid = lo + (hi - lo) // 2 // image.REGION_ALIGN * image.REGION_ALIGN
        base = {**data["context"][0], "lock": False}
        data["context"] = [{**base, "start": lo, "end": mid, "tag_base": hi},
                           {**base, "start": mid, "end": hi, "tag_base": hi + (mid - lo) // image.LINE * image.TAG,
                            "key": rng.randbytes(16).hex(), "nonce": rng.randbytes(8).hex()}]
    desc_path = tmp_path / f"{attack}.toml"
    desc = image.write_description(desc_path, data)
    flash = tmp_path / f"{attack}.bin"
    image.encrypt(xip_elf, desc_path, flash)
    raw = bytearray(flash.read_bytes())
    main = symbol_offset(xip_elf, "main")
    (ctx,) = [c for c in desc.contexts if c.start <= main < c.end]
    genuine = ctx.fields
    e0 = entry_offset(desc, 0)
    as_ctr = replace(genuine, flags=image.FLAG_ENABLE)
    if attack == "k1":  # INTEG cleared: the flag's byte of the description changed in the blob
        raw[e0 + 8 + 48 + 3] ^= image.FLAG_INTEGRITY
    elif attack == "k1-rewrapped":  # the same context described as plain CTR, wrapped anew
        raw[desc.key_table:desc.table_end] = forged_table(desc, [as_ctr])
    elif attack == "k2":  # k1 and an XOR patch of main's CTR ciphertext (its tag left as it was)
        raw[desc.key_table:desc.table_end] = forged_table(desc, [as_ctr])
        raw[main] ^= 0x10
    elif attack == "k3":  # END shortened to before main, main's code written in clear
        end = main // image.REGION_ALIGN * image.REGION_ALIGN
        raw[desc.key_table:desc.table_end] = forged_table(desc, [replace(genuine, end=end)])
        segments = image.load_firmware(xip_elf, desc)
        (base, code), = [(o, d) for o, d in segments.items() if o <= main < o + len(d)]
        raw[end:ctx.end] = code[end - base:ctx.end - base].ljust(ctx.end - end, b"\xff")
    elif attack == "k4":  # an extra context 0 before the genuine entry, reusing its blob
        blob = bytes(raw[e0:e0 + image.TABLE_ENTRY])
        raw[desc.key_table + 8:desc.key_table + 12] = (2).to_bytes(4, "little")
        raw[e0:e0 + 2 * image.TABLE_ENTRY] = blob + blob
    elif attack == "copied-slot":  # context 0's genuine blob in slot 1 as well
        raw[entry_offset(desc, 1):entry_offset(desc, 2)] = raw[e0:e0 + image.TABLE_ENTRY]
    elif attack == "overlap":  # context 1 stretched over context 0's region
        second = desc.contexts[1].fields
        raw[entry_offset(desc, 1):entry_offset(desc, 2)] = replace(second, start=desc.contexts[0].start).blob(
            ATTACKER_KEK)
    elif attack == "tag-base":  # the tag base's byte of the description changed in the blob
        raw[e0 + 8 + 56 + 2] ^= 0x01
    else:
        raise AssertionError(attack)
    flash.write_bytes(bytes(raw))
    return flash, kek, main


@pytest.mark.parametrize("policy", [(), POLICY_ON], ids=["policy-off", "policy-on"])
@pytest.mark.parametrize("attack", ["k1", "k1-rewrapped", "k2", "k3", "k4", "copied-slot", "overlap", "tag-base"])
def test_key_table_attacks(xip_elf: Path, tmp_path: Path, attack: str, policy: tuple[tuple[str, int], ...]) -> None:
    """Issue 45's k1-k4 and the other table attacks: the boot stops with the unwrap failure's
    status (0xE1) before any flash instruction runs, with or without the OTP policy."""
    flash, kek, _ = attacked_image(xip_elf, tmp_path, attack)
    result = run(model.build_model(description.load_config(CONFIG)), xip_elf, max_cycles=MAX_CYCLES, flash_image=flash,
                 kek=kek, otp=policy)
    assert result.status == "exit" and result.code == firmware.XIP_BOOT_EXIT["unwrap"], result.console
    assert boot_record(result)["status"] == "unwrap-error" and not result.records_of("xip_soc")
    assert result.cycles < BOOT_FAILURE_CYCLES


def test_rollback_below_the_otp_minimum(xip_elf: Path, tmp_path: Path) -> None:
    """A complete, genuine image of version 9 on a part whose OTP minimum is 10 stops at boot
    (0xE7); at minimum 9 it boots, and the boot's anti-rollback step leaves the minimum at 9."""
    rng = random.Random(45)
    kek = rng.randbytes(16)
    desc_path = tmp_path / "v9.toml"
    image.write_description(desc_path, integrity_description(rng, image.xip_layout(xip_elf), kek, "separate"))
    result, line = go(desc_path, otp=(("min_version", 10),))
    assert result.status == "exit" and result.code == firmware.XIP_BOOT_EXIT["version"], f"{line}\n{result.console}"
    rec = boot_record(result)
    assert rec["status"] == "rollback" and rec["key_valid"] == 0 and rec["min_version"] == 10
    assert not result.records_of("xip_soc") and result.cycles < BOOT_FAILURE_CYCLES
    result, line = go(desc_path, otp=(("min_version", 9),))
    passed(result, line)
    assert boot_record(result)["min_version"] == 9


@pytest.mark.parametrize("tags", image.LAYOUTS)
def test_policy_boots_integrity_images(xip_elf: Path, tmp_path: Path, tags: str) -> None:
    """With the OTP policy the self test runs from an integrity image: every fetch it makes is
    inside an armed integrity context."""
    rng = random.Random(f"policy-{tags}")
    kek = rng.randbytes(16)
    desc_path = tmp_path / "integ.toml"
    image.write_description(desc_path, integrity_description(rng, image.xip_layout(xip_elf), kek, tags))
    result, line = go(desc_path, otp=POLICY_ON)
    passed(result, line)
    assert boot_record(result)["status"] == "ok" and boot_record(result)["integ_required"] == 1


@pytest.mark.parametrize("kind", ["ctr", "plaintext", "no-image"])
def test_policy_refuses_images_without_integrity(xip_elf: Path, tmp_path: Path, kind: str) -> None:
    """With the OTP policy a CTR-only context is not armed, and a table without contexts or an
    erased one leaves nothing to run from: each stops at boot with the policy's status (0xE8).
    Without the policy the same images boot (test_encrypted_image, test_plaintext_image,
    test_no_image_boots_plaintext)."""
    rng = random.Random(f"refuse-{kind}")
    kek = rng.randbytes(16)
    desc_path = tmp_path / f"{kind}.toml"
    data = {"ctr": random_description(rng, image.xip_layout(xip_elf), kek),
            "plaintext": {"kek": kek.hex(), "key_table": 0}}.get(kind)
    if data is not None:
        image.write_description(desc_path, data)
    result, line = go(desc_path if data is not None else None, otp=POLICY_ON)
    assert result.status == "exit" and result.code == firmware.XIP_BOOT_EXIT["policy"], f"{line}\n{result.console}"
    rec = boot_record(result)
    assert rec["status"] == "policy" and rec["active"] == 0 and rec["integ_required"] == 1
    assert not result.records_of("xip_soc") and result.cycles < BOOT_FAILURE_CYCLES


def test_policy_refuses_code_outside_the_contexts(xip_elf: Path, tmp_path: Path) -> None:
    """The key holder's own mistake, or a plaintext patch where no context reaches: a genuine
    integrity context over the program's last kilobyte only, main() in clear below it. Without
    the policy it runs; with it the first fetch outside the context ends in the platform's bus
    error before main() runs."""
    layout = image.xip_layout(xip_elf)
    lo, hi = layout.program_span
    main = symbol_offset(xip_elf, "main")
    assert main < hi - image.REGION_ALIGN
    rng = random.Random(46)
    kek = rng.randbytes(16)
    data = integrity_description(rng, layout, kek, "separate")
    data["context"] = [{**data["context"][0], "start": hi - image.REGION_ALIGN, "end": hi, "tag_base": hi}]
    desc_path = tmp_path / "partial.toml"
    image.write_description(desc_path, data)
    result, line = go(desc_path)
    passed(result, line)
    result, line = go(desc_path, otp=POLICY_ON)
    assert result.outcome == "bus_error" and result.code == outcome.BUS_ERROR, f"{line}\n{result.console}"
    assert boot_record(result)["status"] == "ok" and not result.records_of("xip_soc")
    match = re.search(r"\*\*\* bus error: master \d+ address 0x([0-9a-f]{8})", result.console)
    assert match, result.console
    failed = (int(match.group(1), 16) & 0x7FFFFFFF) - image.FLASH_WINDOW
    assert lo <= failed < hi - image.REGION_ALIGN, hex(failed)


def test_harness_refuses_bad_fuses(xip_elf: Path) -> None:
    """aesoc-sim's OTP options take a fuse's values only, with a message naming the option."""
    sim = model.build_model(description.load_config(CONFIG))
    for args, message in ((["--otp-integ-req", "2"], "--otp-integ-req is a fuse: 0 or 1"),
                          (["--otp-min-version", "0x100000000"], "--otp-min-version needs a 32-bit value"),
                          (["--otp-min-version", "ten"], "bad number for --otp-min-version")):
        proc = subprocess.run([str(sim), *args, str(xip_elf)], capture_output=True, text=True, timeout=60)
        assert proc.returncode == outcome.HARNESS_ERROR and message in proc.stderr, proc.stderr
