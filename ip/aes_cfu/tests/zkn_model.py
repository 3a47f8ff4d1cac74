"""Reference model of the RISC-V scalar AES instructions, written from the specifications.

The S-box is computed from its definition in FIPS-197 section 5.1.1 (multiplicative inverse in
GF(2^8) followed by the affine transformation), not taken from the RTL's table; aes32* follow the
pseudo-code of the RISC-V scalar cryptography extension (Zkne/Zknd, v1.0).
"""

from __future__ import annotations


def gf_mul(a: int, b: int) -> int:
    product = 0
    for _ in range(8):
        if b & 1:
            product ^= a
        carry = a & 0x80
        a = (a << 1) & 0xFF
        if carry:
            a ^= 0x1B
        b >>= 1
    return product


def _inverse(x: int) -> int:
    if x == 0:
        return 0
    return next(y for y in range(1, 256) if gf_mul(x, y) == 1)


def _affine(b: int) -> int:
    out = 0
    for i in range(8):
        bit = (b >> i) ^ (b >> ((i + 4) % 8)) ^ (b >> ((i + 5) % 8)) ^ (b >> ((i + 6) % 8)) ^ (b >> ((i + 7) % 8))
        bit ^= 0x63 >> i
        out |= (bit & 1) << i
    return out


SBOX = [_affine(_inverse(x)) for x in range(256)]
INV_SBOX = [0] * 256
for _x, _y in enumerate(SBOX):
    INV_SBOX[_y] = _x


def _rol32(w: int, n: int) -> int:
    return ((w << n) | (w >> (32 - n))) & 0xFFFFFFFF if n else w


def aes32(op: str, rs1: int, rs2: int, bs: int) -> int:
    shamt = 8 * bs
    si = (rs2 >> shamt) & 0xFF
    if op in ("esi", "esmi"):
        so = SBOX[si]
        if op == "esmi":
            mixed = (gf_mul(so, 3) << 24) | (so << 16) | (so << 8) | gf_mul(so, 2)
        else:
            mixed = so
    else:
        so = INV_SBOX[si]
        if op == "dsmi":
            mixed = (gf_mul(so, 0xB) << 24) | (gf_mul(so, 0xD) << 16) | (gf_mul(so, 0x9) << 8) | gf_mul(so, 0xE)
        else:
            mixed = so
    return rs1 ^ _rol32(mixed, shamt)
