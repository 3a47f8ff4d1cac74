"""The AES CFU inside the SoC, driven by firmware: FIPS-197 self-checks, the back-to-back
dependent-op hazard, and pseudo-random blocks compared with the `cryptography` package."""

from __future__ import annotations

import struct
import sys
from pathlib import Path

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from aesoc.common.toolchain import REPO
from aesoc.sim.run import build_and_run

sys.path.insert(0, str(Path(__file__).resolve().parent))
from zkn_model import aes32  # noqa: E402

DIFF_BLOCKS = 8


def _xorshift32(state: int) -> int:
    state ^= (state << 13) & 0xFFFFFFFF
    state ^= state >> 17
    state ^= (state << 5) & 0xFFFFFFFF
    return state


def _stream(seed: int):
    while True:
        seed = _xorshift32(seed)
        yield seed


def test_aes_cfu_firmware() -> None:
    result, run_line = build_and_run(REPO / "fw" / "tests" / "aes_cfu")
    assert result.status == "exit" and result.code == 0, result.console + run_line

    # Back-to-back dependent round ops: each instruction must see the previous result.
    (chain,) = result.records_of("aes_cfu_chain")
    x, y = 0x89ABCDEF, 0x0F1E2D3C
    acc = 0x01234567
    for op, bs, rs2 in [("esmi", 0, x), ("esmi", 1, y), ("dsmi", 2, x), ("dsmi", 3, y)]:
        acc = aes32(op, acc, rs2, bs)
    for op, bs in [("esi", 0), ("dsi", 1), ("esmi", 2), ("dsmi", 3)]:
        acc = aes32(op, acc, acc, bs)
    assert chain["acc"] == acc
    assert chain["alu"] == (2 * aes32("esmi", x, y, 0)) & 0xFFFFFFFF

    # Differential: re-create the firmware's inputs and compare with cryptography.
    words = _stream(0x2545F491)
    diffs = result.records_of("aes_cfu_diff")
    assert len(diffs) == 12
    for k, key_len in enumerate((16, 24, 32)):
        key = struct.pack("<8I", *[next(words) for _ in range(8)])[:key_len]
        blocks = struct.pack(f"<{4 * DIFF_BLOCKS}I", *[next(words) for _ in range(4 * DIFF_BLOCKS)])
        for decrypt in (0, 1):
            ecb = Cipher(algorithms.AES(key), modes.ECB())
            ref = (ecb.decryptor() if decrypt else ecb.encryptor()).update(blocks)
            for rec in diffs[4 * k + 2 * decrypt: 4 * k + 2 * decrypt + 2]:
                assert (rec["key_len"], rec["decrypt"]) == (key_len, decrypt)
                assert bytes.fromhex(rec["out"]) == ref, f"{rec['style']} AES-{key_len * 8} decrypt={decrypt}"
    (cbc,) = result.records_of("aes_cfu_cbc")
    ref = Cipher(algorithms.AES(key), modes.CBC(blocks[:16])).encryptor().update(blocks)
    assert bytes.fromhex(cbc["out"]) == ref
    (summary,) = result.records_of("aes_cfu")
    assert summary["failures"] == 0
