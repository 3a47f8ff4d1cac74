"""AES-GCM in the SoC with the payload moved by the DMA (fw/tests/aes_gcm_dma): synchronous
(aes_dma_gcm_blocks) and as queued aes_dma requests (several at once, polling and interrupt; any
length from 0, short text fed by the CPU within the request);
ciphertexts and tags against `cryptography`'s AESGCM; the decryptions back (and a forged tag's
refusal) are checked in firmware."""

from __future__ import annotations

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from aesoc.common.toolchain import REPO
from aesoc.sim.run import build_and_run


def test_aes_gcm_dma() -> None:
    result, line = build_and_run(REPO / "fw" / "tests" / "aes_gcm_dma")
    assert result.status == "exit" and result.code == 0, f"{line}\n{result.console[-3000:]}"
    recs = result.records_of("aes_gcm_dma")
    assert len(recs) == 4
    for rec in recs:
        key, iv, aad, pt = (bytes.fromhex(rec[k]) for k in ("key", "iv", "aad", "pt"))
        sealed = AESGCM(key).encrypt(iv, pt, aad)
        assert bytes.fromhex(rec["ct"]) + bytes.fromhex(rec["tag"]) == sealed, f"AAD {len(aad)} B PT {len(pt)} B"
    queued = result.records_of("aes_gcm_dma_queued")
    assert sorted(rec["irq"] for rec in queued) == [0] * 4 + [1] * 4
    for rec in queued:
        key, iv, aad, pt = (bytes.fromhex(rec[k]) for k in ("key", "iv", "aad", "pt"))
        sealed = AESGCM(key).encrypt(iv, pt, aad)
        assert bytes.fromhex(rec["ct"]) + bytes.fromhex(rec["tag"]) == sealed, (
            f"queued, irq {rec['irq']}: key {len(key)} B AAD {len(aad)} B PT {len(pt)} B")
    lengths = []
    for rec in result.records_of("aes_gcm_dma_any"):
        key, iv, aad, pt = (bytes.fromhex(rec[k]) for k in ("key", "iv", "aad", "pt"))
        sealed = AESGCM(key).encrypt(iv, pt, aad)
        assert bytes.fromhex(rec["ct"]) + bytes.fromhex(rec["tag"]) == sealed, f"any length: AAD {len(aad)} B PT {len(pt)} B"
        lengths.append(len(pt))
    # Empty (GMAC), under a block, the CPU-fed range and the first channel-fed lengths.
    assert lengths == [0, 1, 15, 16, 17, 64, 319, 320, 333]
    (done,) = result.records_of("aes_gcm_dma_done")
    assert done["failures"] == 0
