"""The GCM reference model (gcm_ref.py, written from SP 800-38D) against `cryptography`'s AESGCM
and the CAVP GCM files, so the RTL tests rest on a checked model."""

from __future__ import annotations

import random

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from gcm_ref import gcm_decrypt, gcm_encrypt, gf_mult, read_gcm_rsp


def test_gf_mult_identity_and_commutes() -> None:
    one = 1 << 127  # the field's 1: x^0 is the most significant bit
    rng = random.Random(7)
    for _ in range(50):
        a, b = rng.getrandbits(128), rng.getrandbits(128)
        assert gf_mult(a, one) == a
        assert gf_mult(a, b) == gf_mult(b, a)


def test_model_matches_aesgcm_random() -> None:
    rng = random.Random(2024)
    for _ in range(200):
        key = rng.randbytes(rng.choice((16, 24, 32)))
        iv = rng.randbytes(rng.choice((12, 12, 8, 13, 16, 60)))
        aad, pt = rng.randbytes(rng.randrange(0, 70)), rng.randbytes(rng.randrange(0, 90))
        ct, tag = gcm_encrypt(key, iv, aad, pt)
        assert ct + tag == AESGCM(key).encrypt(iv, pt, aad)
        assert gcm_decrypt(key, iv, aad, ct, tag) == pt


def test_model_matches_cavp_sample() -> None:
    for bits in (128, 192, 256):
        for vec in read_gcm_rsp(f"gcmEncryptExtIV{bits}.rsp")[::97]:
            ct, tag = gcm_encrypt(vec.key, vec.iv, vec.aad, vec.plaintext or b"")
            assert (ct, tag[: len(vec.tag)]) == (vec.ciphertext, vec.tag)
        for vec in read_gcm_rsp(f"gcmDecrypt{bits}.rsp")[::97]:
            assert gcm_decrypt(vec.key, vec.iv, vec.aad, vec.ciphertext, vec.tag) == vec.plaintext
