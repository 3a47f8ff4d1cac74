"""The memory-mapped AES peripheral in the SoC, driven by its C driver from firmware: every mode,
direction and key size against the `cryptography` package, plus register behaviour self-checks."""

from __future__ import annotations

import struct

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from aesoc.common import outcome
from aesoc.common.toolchain import REPO
from aesoc.sim.run import build_and_run
from aesoc.soc.description import load_config
from aesoc.soc.regs import regmap

DIFF_BLOCKS = 6
MODE = regmap("aes").enums["aes_mode_e"]  # name -> CTRL.MODE code
MODES = {code: name for name, code in MODE.items()}


def _words(seed: int):
    while True:
        seed ^= (seed << 13) & 0xFFFFFFFF
        seed ^= seed >> 17
        seed ^= (seed << 5) & 0xFFFFFFFF
        yield seed


def _take(gen, n: int) -> bytes:
    return struct.pack(f"<{n}I", *[next(gen) for _ in range(n)])


def _reference(mode: int, decrypt: int, key: bytes, iv: bytes, msg: bytes) -> tuple[bytes, bytes]:
    """Expected output and the IV register's value afterwards (chaining value / next counter)."""
    if mode == MODE["ECB"]:
        cipher = Cipher(algorithms.AES(key), modes.ECB())
    elif mode == MODE["CBC"]:
        cipher = Cipher(algorithms.AES(key), modes.CBC(iv))
    else:
        cipher = Cipher(algorithms.AES(key), modes.CTR(iv))
    out = (cipher.decryptor() if decrypt else cipher.encryptor()).update(msg)
    if mode == MODE["CBC"]:
        iv_after = (msg if decrypt else out)[-16:]
    elif mode == MODE["CTR"]:
        iv_after = ((int.from_bytes(iv, "big") + len(msg) // 16) % (1 << 128)).to_bytes(16, "big")
    else:
        iv_after = None
    return out, iv_after


def test_aes_dev_firmware() -> None:
    result, line = build_and_run(REPO / "fw" / "tests" / "aes_dev")
    assert result.status == "exit", line
    assert result.code == 0, result.console
    # The depth and datapath fields of HWCFG read back the parameters the SoC was built with.
    params = load_config("full").of_block("aes").params
    (hwcfg,) = result.records_of("aes_hwcfg")
    assert (hwcfg["in_depth"], hwcfg["out_depth"]) == (params["InDepth"], params["OutDepth"]), hwcfg
    assert hwcfg["rounds_per_cycle"] == params["RoundsPerCycle"], hwcfg
    words = _words(0x1D872B41)
    records = iter(result.records_of("aes_dev_diff"))
    checked = 0
    for mode in (MODE["ECB"], MODE["CBC"], MODE["CTR"]):
        for key_len in (16, 24, 32):
            for decrypt in ((0,) if mode == MODE["CTR"] else (0, 1)):
                key = _take(words, 8)[:key_len]
                iv = _take(words, 4)
                msg = _take(words, 4 * DIFF_BLOCKS)
                rec = next(records)
                assert (rec["mode"], rec["key_len"], rec["decrypt"]) == (mode, key_len, decrypt)
                out, iv_after = _reference(mode, decrypt, key, iv, msg)
                label = f"{MODES[mode]} AES-{key_len * 8} decrypt={decrypt}"
                assert bytes.fromhex(rec["out"]) == out, label
                if iv_after is not None:
                    assert bytes.fromhex(rec["iv_after"]) == iv_after, label + " IV readback"
                checked += 1
    assert checked == 15
    (stall,) = result.records_of("aes_dev_stall")
    key, block = struct.pack("<4I", 1, 2, 3, 4), struct.pack("<4I", 5, 6, 7, 8)
    assert bytes.fromhex(stall["out"]) == Cipher(algorithms.AES(key), modes.ECB()).encryptor().update(block)
    (summary,) = result.records_of("aes_dev")
    assert summary["failures"] == 0


def test_result_read_with_nothing_queued_is_a_bus_error() -> None:
    result, line = build_and_run(REPO / "fw" / "tests" / "aes_dev_hang")
    assert result.status == "exit", line
    assert result.code == outcome.BUS_ERROR
    assert "bus error: master 1 address 0xf0001090" in result.console
    assert "no bus error" not in result.console
