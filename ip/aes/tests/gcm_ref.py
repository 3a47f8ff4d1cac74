"""GCM reference written from NIST SP 800-38D (GHASH, GCTR, J0, tag) and the CAVP GCM file reader.

The block cipher is the `cryptography` package's AES; everything else follows the standard's
algorithms so the RTL's GHASH can be checked step by step. test_gcm_ref.py checks this model
against `cryptography`'s AESGCM and the CAVP files.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cryptography_vectors
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

GCM_VECTORS = Path(cryptography_vectors.__file__).resolve().parent / "ciphers" / "AES" / "GCM"
R = 0xE1 << 120  # SP 800-38D 6.3: R = 11100001 || 0^120


def gf_mult(x: int, y: int) -> int:
    """X . Y in GF(2^128), SP 800-38D Algorithm 1 (bit 0 of a block is its most significant bit)."""
    z, v = 0, y
    for i in range(128):
        if (x >> (127 - i)) & 1:
            z ^= v
        v = (v >> 1) ^ R if v & 1 else v >> 1
    return z


def pad16(data: bytes) -> bytes:
    return data + bytes(-len(data) % 16)


def ghash(h: int, data: bytes, y: int = 0) -> int:
    """GHASH_H (SP 800-38D Algorithm 2) over `data` zero-padded to whole blocks, from Y = y."""
    padded = pad16(data)
    for i in range(0, len(padded), 16):
        y = gf_mult(y ^ int.from_bytes(padded[i : i + 16], "big"), h)
    return y


def aes_block(key: bytes, block: int) -> int:
    enc = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    return int.from_bytes(enc.update(block.to_bytes(16, "big")), "big")


def inc32(block: int) -> int:
    return (block & ~0xFFFFFFFF) | ((block + 1) & 0xFFFFFFFF)


def j0_of(h: int, iv: bytes) -> int:
    """Pre-counter block (SP 800-38D Algorithm 4 step 2)."""
    if len(iv) == 12:
        return (int.from_bytes(iv, "big") << 32) | 1
    return ghash(h, pad16(iv) + (len(iv) * 8).to_bytes(16, "big"))


def gctr(key: bytes, icb: int, data: bytes) -> bytes:
    out = bytearray()
    cb = icb
    for i in range(0, len(data), 16):
        chunk = data[i : i + 16]
        ks = aes_block(key, cb).to_bytes(16, "big")
        out += bytes(a ^ b for a, b in zip(chunk, ks))
        cb = inc32(cb)
    return bytes(out)


def length_block(aad_len: int, text_len: int) -> bytes:
    return (aad_len * 8).to_bytes(8, "big") + (text_len * 8).to_bytes(8, "big")


def gcm_encrypt(key: bytes, iv: bytes, aad: bytes, plaintext: bytes) -> tuple[bytes, bytes]:
    """GCM-AE (SP 800-38D Algorithm 4): ciphertext and the full 16-byte tag."""
    h = aes_block(key, 0)
    j0 = j0_of(h, iv)
    ct = gctr(key, inc32(j0), plaintext)
    s = ghash(h, pad16(aad) + pad16(ct) + length_block(len(aad), len(ct)))
    tag = aes_block(key, j0) ^ s
    return ct, tag.to_bytes(16, "big")


def gcm_decrypt(key: bytes, iv: bytes, aad: bytes, ciphertext: bytes, tag: bytes) -> bytes | None:
    """GCM-AD (SP 800-38D Algorithm 5): the plaintext, or None (FAIL) if the tag is wrong."""
    pt = gctr(key, inc32(j0_of(aes_block(key, 0), iv)), ciphertext)
    _, full = gcm_encrypt(key, iv, aad, pt)
    return pt if full[: len(tag)] == tag else None


@dataclass(frozen=True)
class GcmVector:
    key: bytes
    iv: bytes
    aad: bytes
    plaintext: bytes | None  # None: the file says FAIL (decrypt files)
    ciphertext: bytes
    tag: bytes
    count: int


def read_gcm_rsp(name: str) -> list[GcmVector]:
    """Parse a CAVP GCM file (gcmEncryptExtIV*.rsp, gcmDecrypt*.rsp) from cryptography-vectors."""
    vectors: list[GcmVector] = []
    fields: dict[str, str] = {}

    def flush() -> None:
        if "Key" in fields:
            pt = None if "FAIL" in fields else bytes.fromhex(fields.get("PT", ""))
            vectors.append(GcmVector(
                key=bytes.fromhex(fields["Key"]), iv=bytes.fromhex(fields["IV"]),
                aad=bytes.fromhex(fields.get("AAD", "")), plaintext=pt,
                ciphertext=bytes.fromhex(fields.get("CT", "")), tag=bytes.fromhex(fields["Tag"]),
                count=int(fields["Count"]),
            ))
        fields.clear()

    for raw in (GCM_VECTORS / name).read_text().splitlines():
        line = raw.strip()
        if line.startswith("Count"):
            flush()
        if "=" in line and not line.startswith(("[", "#")):
            k, _, v = line.partition("=")
            fields[k.strip()] = v.strip()
        elif line == "FAIL":
            fields["FAIL"] = ""
    flush()
    return vectors
