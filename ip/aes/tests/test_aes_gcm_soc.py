"""AES-GCM through the memory-mapped peripheral in the SoC, driven by its C driver from firmware
(fw/tests/aes_gcm): the CAVP vectors it carries are checked against the CAVP files, its random
messages against `cryptography`'s AESGCM."""

from __future__ import annotations

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from aesoc.common.toolchain import REPO
from aesoc.sim.run import build_and_run
from aesoc.soc.description import load_config
from gcm_ref import read_gcm_rsp


def test_aes_gcm_firmware() -> None:
    result, line = build_and_run(REPO / "fw" / "tests" / "aes_gcm")
    assert result.status == "exit", line
    assert result.code == 0, result.console
    (hwcfg,) = result.records_of("aes_gcm_hwcfg")
    assert hwcfg["ghash_bits"] == load_config("full").of_block("aes").params["GhashBits"]

    cavp = result.records_of("aes_gcm_cavp")
    assert len(cavp) >= 6
    fails = 0
    for rec in cavp:
        key = bytes.fromhex(rec["key"])
        (vec,) = [v for v in read_gcm_rsp(rec["file"]) if v.key == key]
        if rec["file"].startswith("gcmDecrypt"):
            if vec.plaintext is None:
                assert rec["mismatch"] and not rec["ok"] and bytes.fromhex(rec["out"]) == bytes(len(vec.ciphertext))
                fails += 1
            else:
                assert rec["ok"] and bytes.fromhex(rec["out"]) == vec.plaintext, rec
        else:
            assert rec["ok"], rec
            assert bytes.fromhex(rec["out"]) == vec.ciphertext and bytes.fromhex(rec["tag"]) == vec.tag, rec
    assert fails == 1

    diff = result.records_of("aes_gcm_diff")
    assert len(diff) == 8
    lengths = set()
    for rec in diff:
        key, iv, aad, pt = (bytes.fromhex(rec[k]) for k in ("key", "iv", "aad", "pt"))
        sealed = AESGCM(key).encrypt(iv, pt, aad)
        assert bytes.fromhex(rec["ct"]) + bytes.fromhex(rec["tag"]) == sealed, f"IV {len(iv)} B AAD {len(aad)} B PT {len(pt)} B"
        lengths.add((len(iv) == 12, len(pt) % 16 != 0, len(pt) == 0))
    assert (False, True, False) in lengths or (False, False, False) in lengths, "no message with a hashed IV"
    (summary,) = result.records_of("aes_gcm")
    assert summary["failures"] == 0
