"""References for the SHA tests: algorithm table (codes from the register map), NIST CAVP files
from the `cryptography_vectors` package, and the SHAVS Monte Carlo recurrence."""

from __future__ import annotations

import hashlib
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import cryptography_vectors

# This checkout's aesoc, even where the simulator's Python would find another installed copy.
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from aesoc.soc.regs import regmap  # noqa: E402

_ENUMS = regmap("sha").enums
ALG_CODE: dict[str, int] = _ENUMS["sha_alg_e"]
ERR_CODE: dict[str, int] = _ENUMS["sha_err_e"]


@dataclass(frozen=True)
class Alg:
    name: str  # the register map's enum member
    hashlib_name: str
    cavp: str  # CAVP file prefix under hashes/
    digest_bytes: int
    block_bytes: int
    word_bytes: int  # 4, or 8 for the SHA-512 family
    rounds: int

    @property
    def code(self) -> int:
        return ALG_CODE[self.name]

    def cycles_per_block(self, sha256_rounds: int = 1) -> int:
        """The engine's promise back to back: its rounds (SHA-1 two per cycle, SHA-224/256
        `sha256_rounds` per cycle) plus one cycle."""
        per_cycle = 2 if self.name == "SHA1" else 1 if self.wide else sha256_rounds
        return self.rounds // per_cycle + 1

    @property
    def wide(self) -> bool:
        return self.word_bytes == 8

    def digest(self, msg: bytes) -> bytes:
        return hashlib.new(self.hashlib_name, msg).digest()


ALGS: dict[str, Alg] = {a.name: a for a in (
    Alg("SHA1", "sha1", "SHA1/SHA1", 20, 64, 4, 80),
    Alg("SHA224", "sha224", "SHA2/SHA224", 28, 64, 4, 64),
    Alg("SHA256", "sha256", "SHA2/SHA256", 32, 64, 4, 64),
    Alg("SHA384", "sha384", "SHA2/SHA384", 48, 128, 8, 80),
    Alg("SHA512", "sha512", "SHA2/SHA512", 64, 128, 8, 80),
    Alg("SHA512_256", "sha512_256", "SHA2/SHA512_256", 32, 128, 8, 80),
)}


def algs_for(sha512: bool) -> list[Alg]:
    return [a for a in ALGS.values() if sha512 or not a.wide]


def _read(alg: Alg, kind: str) -> str:
    with cryptography_vectors.open_vector_file(f"hashes/{alg.cavp}{kind}.rsp", "r") as f:
        return f.read()


def msg_vectors(alg: Alg, kind: str) -> list[tuple[bytes, bytes]]:
    """(message, digest) pairs of a ShortMsg or LongMsg file (Len in bits; Len = 0 has Msg = 00)."""
    text = _read(alg, kind)
    out = []
    for length, msg, md in re.findall(r"Len = (\d+)\s+Msg = ([0-9a-fA-F]+)\s+MD = ([0-9a-fA-F]+)", text):
        out.append((bytes.fromhex(msg)[: int(length) // 8], bytes.fromhex(md)))
    if not out:
        raise ValueError(f"no vectors in {alg.cavp}{kind}.rsp")
    return out


def monte_vectors(alg: Alg) -> tuple[bytes, list[bytes]]:
    """The Monte Carlo seed and the checkpoint digests (COUNT 0..99)."""
    text = _read(alg, "Monte")
    seed = bytes.fromhex(re.search(r"Seed = ([0-9a-fA-F]+)", text).group(1))
    return seed, [bytes.fromhex(m) for m in re.findall(r"MD = ([0-9a-fA-F]+)", text)]



class CBlob:
    """The bytes of a generated C case header, each piece at a 4-byte aligned offset (the drivers
    take word-aligned buffers)."""

    def __init__(self) -> None:
        self.data = bytearray()

    def put(self, piece: bytes) -> int:
        self.data.extend(bytes(-len(self.data) % 4))
        offset = len(self.data)
        self.data.extend(piece)
        return offset

    def c_array(self, name: str) -> str:
        body = ",".join(("\n  " if i % 24 == 0 else "") + f"0x{b:02x}" for i, b in enumerate(self.data))
        return f"static const uint8_t {name}[{max(len(self.data), 1)}] __attribute__((aligned(4))) = {{{body or '0'}\n}};"
