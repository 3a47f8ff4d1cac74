"""cocotb tests of aes_engine's GCM (variants with GhashBits > 0): the CAVP GCM files, random
differential tests against `cryptography`'s AESGCM, cycles per block, errors and clear."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import cocotb
from cocotb.utils import get_sim_time
from cocotb.triggers import RisingEdge
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from aes_tb import CLOCK_NS, DEC, ENC, GCM_AAD, GCM_IV, GCM_TEXT, MODE_CTR, MODE_GCM, AesTb, block_ints, registers
from gcm_ref import GcmVector, gcm_encrypt, pad16, read_gcm_rsp

# Every CAVP_STRIDE-th vector of each CAVP GCM file (1: all 7,875 per file). Each file is 525
# groups of 15 consecutive vectors, one per (key, IV, AAD, text, tag) length; any stride up to 15
# takes at least one vector of every group, which gcm_cavp asserts. 15: one of each group (r1-gcm8:
# 3,150 vectors, 778 of them FAIL, in 7.3 CPU-s against 5,910 in 13.2 with a stride of 8).
CAVP_STRIDE = int(os.environ.get("AES_GCM_CAVP_STRIDE", "15"))


def sampled(vectors: list[GcmVector]) -> list[GcmVector]:
    """Every CAVP_STRIDE-th vector, checked to include each length group of the file."""
    def group(v: GcmVector) -> tuple[int, ...]:
        return len(v.key), len(v.iv), len(v.aad), len(v.ciphertext), len(v.tag)
    taken = vectors[::CAVP_STRIDE]
    missing = {group(v) for v in vectors} - {group(v) for v in taken}
    assert not missing, f"stride {CAVP_STRIDE} leaves {len(missing)} length groups untested"
    return taken
DIFF_MESSAGES = int(os.environ.get("AES_GCM_DIFF_MESSAGES", "60"))


class GcmResult:
    def __init__(self, out: bytes, tag: bytes, mismatch: bool) -> None:
        self.out, self.tag, self.mismatch = out, tag, mismatch


async def feed(tb: AesTb, phase: int, data: bytes, results: bool, gap: int, stall: int, seed: int) -> bytes:
    """Offer `data` as blocks of one phase: whole blocks, then the partial last one on its own
    (gcm_bytes_i is the offered block's count). Returns the results, cut to len(data)."""
    dut = tb.dut
    dut.gcm_phase_i.value = phase
    out = b""
    whole = len(data) // 16 * 16
    for chunk, nbytes in ((data[:whole], 0), (data[whole:], len(data) % 16)):
        if not chunk:
            continue
        dut.gcm_bytes_i.value = nbytes
        res = await tb.stream(block_ints(pad16(chunk)), in_gap=gap, out_stall=stall, seed=seed, results=results)
        out += b"".join(b.to_bytes(16, "big") for b in res.outputs)
    dut.gcm_bytes_i.value = 0
    return out[: len(data)] if results else b""


async def wait_tag(tb: AesTb, bound: int = 2000) -> None:
    await tb.until_high(tb.dut.gcm_tag_valid_o, tb.dut.err_o, cycles=bound, what="tag never became valid")
    assert tb.dut.err_o.value == 0, "err_o raised during the message"
    await RisingEdge(tb.dut.clk_i)


async def gcm_run(
    tb: AesTb, key: bytes, iv: bytes, aad: bytes, text: bytes, direction: int,
    tag: bytes = b"", gap: int = 0, stall: int = 0, seed: int = 1,
) -> GcmResult:
    """One whole GCM message through the engine; `tag` is the expected tag on decryption."""
    dut = tb.dut
    await tb.load_key(key)
    tb.configure(MODE_GCM, direction, len(key) * 8)
    if len(iv) == 12:
        await tb.load_iv(int.from_bytes(iv + bytes(4), "big"))
        dut.gcm_phase_i.value = GCM_AAD
        await tb.pulse("gcm_start_i")
    else:
        dut.gcm_phase_i.value = GCM_IV
        await tb.pulse("gcm_start_i")
        await feed(tb, GCM_IV, iv, False, gap, stall, seed)
    await feed(tb, GCM_AAD, aad, False, gap, stall, seed)
    out = await feed(tb, GCM_TEXT, text, True, gap, stall, seed)
    dut.gcm_tag_i.value = int.from_bytes(tag.ljust(16, b"\0"), "big")
    dut.gcm_tag_len_i.value = len(tag) % 16
    await tb.pulse("gcm_final_i")
    await wait_tag(tb)
    got_tag = int(dut.gcm_tag_o.value).to_bytes(16, "big")
    return GcmResult(out, got_tag, dut.gcm_tag_mismatch_o.value == 1)


def key_sizes_of(tb: AesTb) -> tuple[int, ...]:
    return tb.variant.key_sizes


@cocotb.test()
async def gcm_cavp(dut: Any) -> None:
    """CAVP gcmEncryptExtIV128/192/256 (ciphertext and tag, every tag length) and gcmDecrypt128/
    192/256 (plaintext, or the mismatch flag for the FAIL vectors), every CAVP_STRIDE-th vector."""
    tb = AesTb(dut)
    await tb.start()
    checked = fails = 0
    for bits in key_sizes_of(tb):
        for vec in sampled(read_gcm_rsp(f"gcmEncryptExtIV{bits}.rsp")):
            res = await gcm_run(tb, vec.key, vec.iv, vec.aad, vec.plaintext or b"", ENC)
            what = f"gcmEncryptExtIV{bits} Count {vec.count} IV {len(vec.iv)} B"
            assert res.out == vec.ciphertext, f"{what}: ciphertext"
            assert res.tag[: len(vec.tag)] == vec.tag, f"{what}: tag {res.tag.hex()} want {vec.tag.hex()}"
            assert not res.mismatch, what
            checked += 1
        for vec in sampled(read_gcm_rsp(f"gcmDecrypt{bits}.rsp")):
            res = await gcm_run(tb, vec.key, vec.iv, vec.aad, vec.ciphertext, DEC, tag=vec.tag)
            what = f"gcmDecrypt{bits} Count {vec.count}"
            assert res.tag == bytes(16), f"{what}: the computed tag must not be shown on decryption"
            if vec.plaintext is None:
                assert res.mismatch, f"{what}: FAIL vector passed"
                fails += 1
            else:
                assert not res.mismatch and res.out == vec.plaintext, f"{what}: plaintext or tag check"
            checked += 1
    dut._log.info("GCM CAVP: %d vectors (%d FAIL), 1 in %d of each file", checked, fails, CAVP_STRIDE)
    assert fails > 0 and checked > 0


@cocotb.test()
async def gcm_differential(dut: Any) -> None:
    """Random keys, IV lengths (12 bytes mostly, 8..64 otherwise), AAD and payload of 0..600 bytes,
    with input gaps and output stalls, against AESGCM; each ciphertext decrypted back with the
    right tag (no mismatch) and with one tag bit flipped (mismatch, and the same plaintext out)."""
    tb = AesTb(dut)
    await tb.start()
    rng = random.Random(0x6C3)
    for i in range(DIFF_MESSAGES):
        bits = rng.choice(key_sizes_of(tb))
        key = rng.randbytes(bits // 8)
        iv = rng.randbytes(12 if rng.random() < 0.6 else rng.randrange(8, 65))
        aad = rng.randbytes(rng.randrange(0, 601) if rng.random() < 0.7 else rng.randrange(0, 40))
        text = rng.randbytes(rng.randrange(0, 601))
        gap, stall = rng.choice(((0, 0), (40, 40), (128, 0), (0, 200)))
        sealed = AESGCM(key).encrypt(iv, text, aad)
        ct, tag = sealed[:-16], sealed[-16:]
        what = f"message {i}: AES-{bits} IV {len(iv)} B AAD {len(aad)} B text {len(text)} B"
        res = await gcm_run(tb, key, iv, aad, text, ENC, gap=gap, stall=stall, seed=i + 1)
        assert res.out == ct and res.tag == tag, what
        res = await gcm_run(tb, key, iv, aad, ct, DEC, tag=tag, gap=gap, stall=stall, seed=i + 7)
        assert res.out == text and not res.mismatch, what + " decrypt"
        bad = bytearray(tag)
        bad[rng.randrange(16)] ^= 1 << rng.randrange(8)
        res = await gcm_run(tb, key, iv, aad, ct, DEC, tag=bytes(bad), seed=i + 9)
        assert res.out == text and res.mismatch, what + " decrypt with a wrong tag"


@cocotb.test()
async def gcm_cycles_per_block(dut: Any) -> None:
    """Steady-state cycles per TEXT block, encryption and decryption: the larger of the cipher's
    cycles per block and the GHASH multiply (128 / GhashBits); logged for the documentation."""
    tb = AesTb(dut)
    await tb.start()
    v = tb.variant
    n = 64
    for bits in key_sizes_of(tb):
        key, iv = bytes(range(bits // 8)), bytes(12)
        for direction in (ENC, DEC):
            await tb.load_key(key)
            tb.configure(MODE_GCM, direction, bits)
            await tb.load_iv(0)
            dut.gcm_phase_i.value = GCM_TEXT
            await tb.pulse("gcm_start_i")
            text = bytes(16 * n)
            dut.gcm_bytes_i.value = 0
            res = await tb.stream(block_ints(text))
            per_block = (res.last_out - res.first_in - v.latency(bits)) / (n - 1)
            want = max(v.period(MODE_CTR, ENC, bits), v.ghash_cycles)
            dut._log.info("GCM AES-%d %s: %.2f cycles/block (cipher %d, GHASH %d)", bits,
                          "enc" if direction == ENC else "dec", per_block, v.period(MODE_CTR, ENC, bits),
                          v.ghash_cycles)
            await tb.pulse("gcm_final_i")
            await wait_tag(tb)
            ct, tag = gcm_encrypt(key, iv, b"", text)
            if direction == ENC:
                assert bytes.fromhex("".join(f"{b:032x}" for b in res.outputs)) == ct
                assert int(dut.gcm_tag_o.value).to_bytes(16, "big") == tag
            assert abs(per_block - want) < 1, f"AES-{bits} dir {direction}: {per_block} cycles/block, want {want}"


async def expect_err(tb: AesTb, what: str) -> None:
    dut = tb.dut
    await tb.settle()
    assert dut.err_o.value == 1, f"{what}: err_o not raised"
    assert dut.out_valid_o.value == 0 and dut.in_ready_o.value == 0, what
    await RisingEdge(dut.clk_i)
    await tb.clear()
    await tb.settle()
    assert dut.err_o.value == 0 and dut.gcm_tag_valid_o.value == 0, f"{what}: clear did not recover"
    await RisingEdge(dut.clk_i)


async def begin(tb: AesTb, direction: int = ENC) -> None:
    await tb.load_key(bytes(16))
    tb.configure(MODE_GCM, direction, 128)
    await tb.load_iv(0)
    tb.dut.gcm_phase_i.value = GCM_AAD
    await tb.pulse("gcm_start_i")
    for _ in range(tb.variant.latency(128) * 2 + 4):  # H and E_K(J0)
        await RisingEdge(tb.dut.clk_i)


async def offer(tb: AesTb, phase: int, nbytes: int = 0) -> None:
    tb.dut.gcm_phase_i.value = phase
    tb.dut.gcm_bytes_i.value = nbytes
    tb.offer(0x55, out_ready=True)
    await RisingEdge(tb.dut.clk_i)
    tb.offer(None, out_ready=True)
    tb.dut.gcm_bytes_i.value = 0
    for _ in range(tb.variant.latency(128) + tb.variant.ghash_cycles + 2):
        await RisingEdge(tb.dut.clk_i)


@cocotb.test()
async def gcm_errors(dut: Any) -> None:
    """Out-of-order GCM use raises err_o, gives nothing, and clear recovers: a block outside a
    message, AAD after TEXT, TEXT after a partial TEXT block, an IV block in a 96-bit-IV message,
    gcm_final_i outside a message, a key or IV write or another mode within one, a direction change."""
    tb = AesTb(dut)
    await tb.start()
    await tb.load_key(bytes(16))
    tb.configure(MODE_GCM, ENC, 128)
    await offer(tb, GCM_TEXT)
    await expect_err(tb, "block outside a message")
    await tb.pulse("gcm_final_i")
    await expect_err(tb, "final outside a message")
    await begin(tb)
    await offer(tb, GCM_TEXT)
    await offer(tb, GCM_AAD)
    await expect_err(tb, "AAD after TEXT")
    await begin(tb)
    await offer(tb, GCM_TEXT, 5)
    await offer(tb, GCM_TEXT)
    await expect_err(tb, "TEXT after a partial TEXT block")
    await begin(tb)
    await offer(tb, GCM_IV)
    await expect_err(tb, "IV block in a 96-bit-IV message")
    await begin(tb)
    dut.key_i.value = 1
    await tb.pulse("key_we_i")
    await expect_err(tb, "key write within a message")
    await begin(tb)
    await tb.load_iv(5)
    await expect_err(tb, "IV write within a message")
    await begin(tb)
    tb.configure(MODE_CTR, ENC, 128)
    await offer(tb, GCM_TEXT)
    await expect_err(tb, "CTR block within a GCM message")
    await begin(tb, ENC)
    dut.dir_i.value = DEC
    await offer(tb, GCM_TEXT)
    await expect_err(tb, "direction change within a message")


@cocotb.test()
async def gcm_clear_zeroises(dut: Any) -> None:
    """clear_i in the middle of a GCM message (H, E_K(J0), GHASH state, lengths held) zeroises every
    register of the engine, the core and the GHASH in one cycle."""
    tb = AesTb(dut)
    await tb.start()
    await begin(tb)
    await offer(tb, GCM_AAD, 3)
    assert int(dut.u_dut.h_q.value) != 0
    await tb.pulse("clear_i")
    await tb.settle()
    regs = registers(dut.u_dut)
    dirty = [r._path for r in regs if int(r.value) != 0 and not r._name.startswith("klen")]
    assert not dirty, f"registers not zeroised: {dirty}"
    assert any(r._name == "y_q" for r in regs), "the GHASH registers were not walked"


MEASURE_ENV = "AES_GCM_MEASURE_JSON"
MEASURE_BLOCKS = (0, 1, 64)


def cycle_now() -> int:
    return int(get_sim_time(unit="ns")) // CLOCK_NS


async def timed_message(tb: AesTb, key: bytes, iv: bytes, aad: bytes, text: bytes, direction: int,
                        tag: bytes = b"") -> tuple[int, int, GcmResult]:
    """A message after a fresh key load: (key write to ready, gcm_start to the tag, result)."""
    dut = tb.dut
    key_ready = await tb.load_key(key)
    tb.configure(MODE_GCM, direction, len(key) * 8)
    await tb.load_iv(int.from_bytes(iv + bytes(4), "big"))
    dut.gcm_phase_i.value = GCM_AAD
    start = cycle_now()
    await tb.pulse("gcm_start_i")
    await feed(tb, GCM_AAD, aad, False, 0, 0, 1)
    out = await feed(tb, GCM_TEXT, text, True, 0, 0, 1)
    dut.gcm_tag_i.value = int.from_bytes(tag.ljust(16, b"\0"), "big")
    dut.gcm_tag_len_i.value = 0
    await tb.pulse("gcm_final_i")
    await wait_tag(tb)
    cycles = cycle_now() - start
    got = int(dut.gcm_tag_o.value).to_bytes(16, "big")
    return key_ready, cycles, GcmResult(out, got, dut.gcm_tag_mismatch_o.value == 1)


@cocotb.test()
async def gcm_measure(dut: Any) -> None:
    """The gcm benchmark's engine figures, AES-128, no gaps or stalls: whole messages of one AAD
    block and 0, 1 and 64 TEXT blocks, gcm_start to the tag (H, E_K(J0), AAD, text, length block,
    tag), each checked against AESGCM; written to the JSON file named by AES_GCM_MEASURE_JSON."""
    tb = AesTb(dut)
    await tb.start()
    rng = random.Random(16)
    key, iv, aad = rng.randbytes(16), rng.randbytes(12), rng.randbytes(16)
    records: list[dict[str, Any]] = []
    for direction, name in ((ENC, "encrypt"), (DEC, "decrypt")):
        for blocks in MEASURE_BLOCKS:
            pt = rng.randbytes(16 * blocks)
            sealed = AESGCM(key).encrypt(iv, pt, aad)
            ct, want_tag = sealed[:-16], sealed[-16:]
            text, tag = (pt, b"") if direction == ENC else (ct, want_tag)
            key_ready, cycles, res = await timed_message(tb, key, iv, aad, text, direction, tag)
            assert res.out == (ct if direction == ENC else pt), f"{name} {blocks} blocks"
            assert (res.tag == want_tag) if direction == ENC else not res.mismatch, f"{name} {blocks}: tag"
            records.append({"op": name, "key_bits": 128, "aad_blocks": 1, "blocks": blocks,
                            "key_to_ready": key_ready, "cycles": cycles})
    Path(os.environ[MEASURE_ENV]).write_text(json.dumps(records, indent=1))
