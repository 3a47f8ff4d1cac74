"""Reference model (the Python `cryptography` package) and NIST CAVP file reader for the AES tests."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cryptography_vectors
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from aes_tb import DEC, ENC, MODE_CBC, MODE_CTR, MODE_ECB, block_ints, blocks_bytes

AES_VECTORS = Path(cryptography_vectors.__file__).resolve().parent / "ciphers" / "AES"


def ctr_blocks(iv: int, count: int, width: int) -> list[int]:
    """Counter blocks iv, iv+1, ... incrementing only the low `width` bits (wrapping there)."""
    mask = (1 << width) - 1
    return [(iv & ~mask) | ((iv + i) & mask) for i in range(count)]


def reference(mode: int, direction: int, key: bytes, iv: int, blocks: list[int], ctr_width: int = 128) -> list[int]:
    """What the engine must produce for `blocks` from a fresh IV/counter."""
    data = blocks_bytes(blocks)
    aes = algorithms.AES(key)
    if mode == MODE_ECB:
        cipher = Cipher(aes, modes.ECB())
    elif mode == MODE_CBC:
        cipher = Cipher(aes, modes.CBC(iv.to_bytes(16, "big")))
    else:
        stream = Cipher(aes, modes.ECB()).encryptor().update(blocks_bytes(ctr_blocks(iv, len(blocks), ctr_width)))
        return [a ^ b for a, b in zip(blocks, block_ints(stream))]
    ctx = cipher.encryptor() if direction == ENC or mode == MODE_CTR else cipher.decryptor()
    return block_ints(ctx.update(data) + ctx.finalize())


def next_iv(mode: int, direction: int, iv: int, inputs: list[int], outputs: list[int], ctr_width: int = 128) -> int:
    """The chaining value iv_o shows after the message."""
    if mode == MODE_CTR:
        mask = (1 << ctr_width) - 1
        return (iv & ~mask) | ((iv + len(inputs)) & mask)
    if mode == MODE_CBC:
        return outputs[-1] if direction == ENC else inputs[-1]
    return iv


@dataclass(frozen=True)
class CavpVector:
    direction: int
    key: bytes
    iv: int
    plaintext: list[int]
    ciphertext: list[int]


def read_rsp(path: Path) -> list[CavpVector]:
    """Parse a NIST CAVP .rsp file ([ENCRYPT]/[DECRYPT] sections of KEY/IV/PLAINTEXT/CIPHERTEXT)."""
    vectors: list[CavpVector] = []
    direction = ENC
    fields: dict[str, str] = {}

    def flush() -> None:
        if "KEY" in fields and "PLAINTEXT" in fields and "CIPHERTEXT" in fields:
            vectors.append(
                CavpVector(
                    direction=direction,
                    key=bytes.fromhex(fields["KEY"]),
                    iv=int(fields.get("IV", "0"), 16),
                    plaintext=block_ints(bytes.fromhex(fields["PLAINTEXT"])),
                    ciphertext=block_ints(bytes.fromhex(fields["CIPHERTEXT"])),
                )
            )
        fields.clear()

    for raw in path.read_text().splitlines():
        line = raw.strip()
        if line in ("[ENCRYPT]", "[DECRYPT]"):
            flush()
            direction = ENC if line == "[ENCRYPT]" else DEC
        elif line.startswith("COUNT"):
            flush()
        elif "=" in line and not line.startswith("#"):
            name, value = (part.strip() for part in line.split("=", 1))
            fields[name] = value
    flush()
    return vectors


def cavp_file(mode: int, kind: str, key_bits: int) -> Path:
    name = {MODE_ECB: "ECB", MODE_CBC: "CBC"}[mode]
    return AES_VECTORS / name / f"{name}{kind}{key_bits}.rsp"


@dataclass(frozen=True)
class CtrVector:
    key: bytes
    iv: int
    plaintext: bytes
    ciphertext: bytes


def read_ctr_txt(key_bits: int) -> list[CtrVector]:
    """The package's AES-CTR vectors (RFC 3686), whose messages may end in a partial block."""
    vectors: list[CtrVector] = []
    fields: dict[str, str] = {}
    lines = (AES_VECTORS / "CTR" / f"aes-{key_bits}-ctr.txt").read_text().splitlines() + ["COUNT = end"]
    for raw in lines:
        line = raw.strip()
        if line.startswith("COUNT") and fields:
            vectors.append(
                CtrVector(
                    key=bytes.fromhex(fields["KEY"]),
                    iv=int(fields["IV"], 16),
                    plaintext=bytes.fromhex(fields["PLAINTEXT"]),
                    ciphertext=bytes.fromhex(fields["CIPHERTEXT"]),
                )
            )
            fields = {}
        elif "=" in line and not line.startswith("#") and not line.startswith("COUNT"):
            name, value = (part.strip() for part in line.split("=", 1))
            fields[name] = value
    return vectors


MODES: tuple[tuple[str, int, int], ...] = (
    ("ecb-enc", MODE_ECB, ENC),
    ("ecb-dec", MODE_ECB, DEC),
    ("cbc-enc", MODE_CBC, ENC),
    ("cbc-dec", MODE_CBC, DEC),
    ("ctr", MODE_CTR, ENC),
)
