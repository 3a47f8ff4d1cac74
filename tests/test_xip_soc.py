"""Execute in place in the SoC: boot from the flash, plaintext and OTFAD-encrypted, on the `full`
model. fw/tests/xip_boot checks itself (AES and SHA-256 against NIST answers with tables in the
flash, a ramp table through the cached and uncached views, .data/.bss/.ramfunc, locked contexts);
the tests choose the images: no image, plaintext image, random contexts over code and read-only
data, a part whose OTP KEK differs from the one the blobs were wrapped under."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from aesoc import firmware, image, outcome, soc
from aesoc.run import RunResult, build_and_run, flash_image_path, run
from aesoc.toolchain import REPO, ToolError

PROGRAM = REPO / "fw" / "tests" / "xip_boot"
CONFIG = "full"
CFLAGS = ("-O2", "-DSWC_AES_TTABLE")  # T-tables: 4 KB of lookups in the flash's .rodata
LIBS = ("crypto",)
MAX_CYCLES = 5_000_000
# A boot that stops at the first unwrap: configuration, one ~160-cycle unwrap, a record and a
# message on the console; the self test itself takes ~360 000 cycles.
BOOT_FAILURE_CYCLES = 20_000


@pytest.fixture(scope="module")
def xip_elf() -> Path:
    soc.build_model(soc.load_config(CONFIG))
    return firmware.build(PROGRAM, soc.load_config(CONFIG), cflags=CFLAGS, libs=LIBS, placement="xip").elf


def go(image_desc: Path | None = None, kek: bytes | None = None) -> tuple[RunResult, str]:
    return build_and_run(PROGRAM, CONFIG, cflags=CFLAGS, libs=LIBS, placement="xip", image=image_desc,
                         kek=kek, max_cycles=MAX_CYCLES)


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


def boot_record(result: RunResult) -> dict[str, Any]:
    boots = result.records_of("xip_boot")
    assert len(boots) == 1, result.console
    return boots[0]


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
                                   "active": 0}


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
                                   "key_valid": (1 << n) - 1, "active": (1 << n) - 1}
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
    data[4] ^= 0x02  # version 1 -> 3
    flash.write_bytes(bytes(data))
    result = run(soc.build_model(soc.load_config(CONFIG)), xip_elf, max_cycles=MAX_CYCLES, flash_image=flash, kek=kek)
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
        firmware.build(PROGRAM, soc.load_config("base"), placement="xip")
    sram_elf = firmware.build(REPO / "fw" / "tests" / "hello", soc.load_config(CONFIG)).elf
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
