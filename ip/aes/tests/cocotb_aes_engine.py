"""cocotb tests of aes_engine: standard vectors, CAVP files, differential, timing, clear, errors."""

from __future__ import annotations

import os
import random
from typing import Any

import cocotb
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge, Timer

from aes_ref import MODES, cavp_file, next_iv, read_ctr_txt, read_rsp, reference
from aes_tb import DEC, ENC, KEY_LEN_CODE, MODE_CBC, MODE_CTR, MODE_ECB, AesTb, block_ints, registers

# Random blocks per variant in the differential test, shared evenly by the variant's
# mode/direction/key-size combinations (four messages each, each with its own key, IV, gaps and
# stalls); AES_DIFF_BLOCKS sets more. The simulated cycles are most of the test's time: 5,000
# took about half the CPU of 10,000 (r1, c32, r1-masked, pipelined: 9.6 against 17.8 CPU-s).
DIFF_BLOCKS = int(os.environ.get("AES_DIFF_BLOCKS", "5000"))


async def started(dut: Any) -> AesTb:
    """The harness of one test, its clock running and the engine out of reset."""
    tb = AesTb(dut)
    await tb.start()
    return tb


def gf_mul(a: int, b: int) -> int:
    """Product in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1."""
    r = 0
    while b:
        if b & 1:
            r ^= a
        a = (a << 1) ^ 0x11B if a & 0x80 else a << 1
        b >>= 1
    return r


def fips197_sbox() -> list[int]:
    """S-box from its definition: multiplicative inverse ({00} -> {00}), then the affine map."""
    table = []
    for x in range(256):
        inv = next((y for y in range(1, 256) if gf_mul(x, y) == 1), 0)
        out = 0
        for i in range(8):
            bit = (inv >> i) ^ (inv >> (i + 4) % 8) ^ (inv >> (i + 5) % 8) ^ (inv >> (i + 6) % 8)
            bit ^= (inv >> (i + 7) % 8) ^ (0x63 >> i)
            out |= (bit & 1) << i
        table.append(out)
    return table


@cocotb.test()
async def sbox_exhaustive(dut: Any) -> None:
    """The variant's S-box (aes_sbox_sel: tower field or tables, the table read on the variants
    built with AESOC_SIM_SBOX_TABLE; aes_sbox_rom, read at a clock edge) equals the FIPS-197
    S-box and inverse S-box on all 256 inputs."""
    sbox = fips197_sbox()
    assert sbox[0x00] == 0x63 and sbox[0x53] == 0xED  # FIPS-197 figure 7 spot checks
    inverse = [0] * 256
    for x, y in enumerate(sbox):
        inverse[y] = x
    tb = AesTb(dut)
    clocked = tb.variant.sbox_impl == 2
    if clocked:
        await tb.start()
    for inv, table in ((0, sbox), (1, inverse)):
        dut.sbox_inv_i.value = inv
        for x in range(256):
            dut.sbox_data_i.value = x
            if clocked:
                await RisingEdge(dut.clk_i)
                await FallingEdge(dut.clk_i)
            else:
                await Timer(1, "ns")
            got = int(dut.sbox_data_o.value)
            assert got == table[x], f"inv={inv} x={x:02x}: got {got:02x}, want {table[x]:02x}"


# FIPS-197 Appendix C: plaintext 00112233..ff, key 000102..; (key, ciphertext) per key size.
FIPS197_PLAIN = "00112233445566778899aabbccddeeff"
FIPS197_C = {
    128: ("000102030405060708090a0b0c0d0e0f", "69c4e0d86a7b0430d8cdb78070b4c55a"),
    192: ("000102030405060708090a0b0c0d0e0f1011121314151617", "dda97ca4864cdfe06eaf70a0ec0d7191"),
    256: (
        "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
        "8ea2b7ca516745bfeafc49904b496089",
    ),
}

# NIST SP 800-38A Appendix F: one plaintext for all, keys F.1.1/F.1.3/F.1.5, CBC IV, CTR init counter.
SP800_38A_PLAIN = (
    "6bc1bee22e409f96e93d7e117393172a" "ae2d8a571e03ac9c9eb76fac45af8e51"
    "30c81c46a35ce411e5fbc1191a0a52ef" "f69f2445df4f9b17ad2b417be66c3710"
)
SP800_38A_KEY = {
    128: "2b7e151628aed2a6abf7158809cf4f3c",
    192: "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
    256: "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
}
SP800_38A_IV = {MODE_ECB: 0, MODE_CBC: 0x000102030405060708090A0B0C0D0E0F, MODE_CTR: 0xF0F1F2F3F4F5F6F7F8F9FAFBFCFDFEFF}
SP800_38A_CIPHER = {
    (MODE_ECB, 128): "3ad77bb40d7a3660a89ecaf32466ef97f5d3d58503b9699de785895a96fdbaaf"
    "43b1cd7f598ece23881b00e3ed0306887b0c785e27e8ad3f8223207104725dd4",  # F.1.1
    (MODE_ECB, 192): "bd334f1d6e45f25ff712a214571fa5cc974104846d0ad3ad7734ecb3ecee4eef"
    "ef7afd2270e2e60adce0ba2face6444e9a4b41ba738d6c72fb16691603c18e0e",  # F.1.3
    (MODE_ECB, 256): "f3eed1bdb5d2a03c064b5a7e3db181f8591ccb10d410ed26dc5ba74a31362870"
    "b6ed21b99ca6f4f9f153e7b1beafed1d23304b7a39f9f3ff067d8d8f9e24ecc7",  # F.1.5
    (MODE_CBC, 128): "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2"
    "73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7",  # F.2.1
    (MODE_CBC, 192): "4f021db243bc633d7178183a9fa071e8b4d9ada9ad7dedf4e5e738763f69145a"
    "571b242012fb7ae07fa9baac3df102e008b0e27988598881d920a9e64f5615cd",  # F.2.3
    (MODE_CBC, 256): "f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d"
    "39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b",  # F.2.5
    (MODE_CTR, 128): "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff"
    "5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee",  # F.5.1
    (MODE_CTR, 192): "1abc932417521ca24f2b0459fe7e6e0b090339ec0aa6faefd5ccc2c6f4ce8e94"
    "1e36b26bd1ebc670d1bd1d665620abf74f78a7f6d29809585a97daec58c6b050",  # F.5.3
    (MODE_CTR, 256): "601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c5"
    "2b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6",  # F.5.5
}


async def run_message(
    tb: AesTb, mode: int, direction: int, key: bytes, iv: int, blocks: list[int], expected: list[int],
    ctr_width: int | None = None, in_gap: int = 0, out_stall: int = 0, seed: int = 1, what: str = "",
) -> None:
    """Load key and IV, stream one message, compare the output and the chaining value (CTR: with the
    widest counter the variant builds unless ctr_width says)."""
    ctr_width = tb.variant.ctr_bits if ctr_width is None else ctr_width
    await tb.load_key(key)
    await tb.load_iv(iv)
    tb.configure(mode, direction, len(key) * 8, ctr_width)
    res = await tb.stream(blocks, in_gap=in_gap, out_stall=out_stall, seed=seed)
    if res.outputs != expected:
        bad = next(i for i, (a, b) in enumerate(zip(res.outputs, expected)) if a != b)
        raise AssertionError(
            f"{what}: block {bad} of {len(blocks)}: got {res.outputs[bad]:032x}, want {expected[bad]:032x}"
        )
    want_iv = next_iv(mode, direction, iv, blocks, res.outputs, ctr_width)
    got_iv = int(tb.dut.iv_o.value)
    assert got_iv == want_iv, f"{what}: iv_o {got_iv:032x}, want {want_iv:032x}"
    assert tb.dut.err_o.value == 0, f"{what}: err_o raised"


@cocotb.test()
async def fips197_appendix_c(dut: Any) -> None:
    """FIPS-197 Appendix C.1-C.3 example vectors, encrypt and decrypt."""
    tb = await started(dut)
    for key_bits in tb.variant.key_sizes:
        key_hex, ct_hex = FIPS197_C[key_bits]
        pt, ct = block_ints(bytes.fromhex(FIPS197_PLAIN)), block_ints(bytes.fromhex(ct_hex))
        await run_message(tb, MODE_ECB, ENC, bytes.fromhex(key_hex), 0, pt, ct, what=f"C AES-{key_bits} enc")
        if tb.variant.dec_enable:
            await run_message(tb, MODE_ECB, DEC, bytes.fromhex(key_hex), 0, ct, pt, what=f"C AES-{key_bits} dec")


@cocotb.test()
async def sp800_38a(dut: Any) -> None:
    """SP 800-38A F.1 (ECB), F.2 (CBC), F.5 (CTR) vectors, encrypt and decrypt, every key size."""
    tb = await started(dut)
    plain = block_ints(bytes.fromhex(SP800_38A_PLAIN))
    for (mode, key_bits), ct_hex in SP800_38A_CIPHER.items():
        if key_bits not in tb.variant.key_sizes or not tb.variant.built(mode):
            continue
        key, iv, cipher = bytes.fromhex(SP800_38A_KEY[key_bits]), SP800_38A_IV[mode], block_ints(bytes.fromhex(ct_hex))
        await run_message(tb, mode, ENC, key, iv, plain, cipher, what=f"38A mode {mode} AES-{key_bits} enc")
        if tb.variant.supports(mode, DEC, key_bits):
            await run_message(tb, mode, DEC, key, iv, cipher, plain, what=f"38A mode {mode} AES-{key_bits} dec")


async def run_cavp(tb: AesTb, kinds: tuple[str, ...], modes: tuple[int, ...] = (MODE_ECB, MODE_CBC)) -> int:
    count = 0
    for mode in modes:
        for key_bits in tb.variant.key_sizes:
            for kind in kinds:
                path = cavp_file(mode, kind, key_bits)
                for n, vec in enumerate(read_rsp(path)):
                    if not tb.variant.supports(mode, vec.direction, key_bits):
                        continue
                    src, dst = vec.plaintext, vec.ciphertext
                    if vec.direction == DEC:
                        src, dst = dst, src
                    await run_message(tb, mode, vec.direction, vec.key, vec.iv, src, dst, what=f"{path.name} #{n}")
                    count += 1
    return count


@cocotb.test()
async def cavp_known_answer(dut: Any) -> None:
    """AESAVS known-answer files GFSbox, KeySbox, VarKey, VarTxt from cryptography-vectors, in ECB: the
    CBC files hold the same single blocks under a zero IV (every key, text and result equal), so CBC
    is checked by the multi-block files, SP 800-38A and the differential test instead."""
    tb = await started(dut)
    count = await run_cavp(tb, ("GFSbox", "KeySbox", "VarKey", "VarTxt"), (MODE_ECB,))
    dut._log.info("CAVP known-answer vectors passed: %d", count)


@cocotb.test()
async def cavp_multi_block(dut: Any) -> None:
    """AESAVS multi-block message tests (ECBMMT, CBCMMT) and the package's AES-CTR vectors."""
    tb = await started(dut)
    count = await run_cavp(tb, ("MMT",))
    for key_bits in tb.variant.key_sizes if tb.variant.built(MODE_CTR) else ():
        for n, vec in enumerate(read_ctr_txt(key_bits)):
            padded = vec.plaintext + bytes(-len(vec.plaintext) % 16)
            await tb.load_key(vec.key)
            await tb.load_iv(vec.iv)
            tb.configure(MODE_CTR, ENC, key_bits)
            res = await tb.stream(block_ints(padded))
            got = b"".join(b.to_bytes(16, "big") for b in res.outputs)[: len(vec.ciphertext)]
            assert got == vec.ciphertext, f"aes-{key_bits}-ctr.txt #{n}"
            count += 1
    dut._log.info("CAVP multi-block messages passed: %d", count)


@cocotb.test()
async def differential_random(dut: Any) -> None:
    """Random keys, IVs and data against `cryptography`, with random gaps and stalls on both sides."""
    tb = await started(dut)
    rng = random.Random(0xAE5)
    widths = [w for w in (32, 64, 128, 128) if w in tb.variant.ctr_widths]
    combos = [(name, mode, direction, key_bits) for name, mode, direction in MODES
              for key_bits in tb.variant.key_sizes if tb.variant.supports(mode, direction, key_bits)]
    per_message = max(2, DIFF_BLOCKS // (4 * len(combos)))  # >= 2: a CTR message crosses its wrap
    total = 0
    for name, mode, direction, key_bits in combos:
        for msg in range(4):
            key = rng.randbytes(key_bits // 8)
            width = widths[msg % len(widths)] if mode == MODE_CTR else 128
            iv = rng.getrandbits(128)
            if mode == MODE_CTR:
                # Start near the wrap of the incrementing part so carries and wraps are exercised.
                iv = (iv & ~((1 << width) - 1)) | ((1 << width) - rng.randrange(1, per_message))
            blocks = [rng.getrandbits(128) for _ in range(per_message)]
            expected = reference(mode, direction, key, iv, blocks, width)
            await run_message(
                tb, mode, direction, key, iv, blocks, expected, ctr_width=width,
                in_gap=rng.choice((0, 40, 128, 200)), out_stall=rng.choice((0, 40, 128, 200)),
                seed=rng.getrandbits(32) | 1, what=f"{name} AES-{key_bits} message {msg}",
            )
            total += per_message
    dut._log.info("differential blocks checked: %d", total)


@cocotb.test()
async def timing_constant(dut: Any) -> None:
    """Latency and throughput are exact per variant, and the same for every key and data value."""
    tb = await started(dut)
    rng = random.Random(7)
    v = tb.variant
    n = 24
    for key_bits in v.key_sizes:
        keys = [bytes(key_bits // 8), b"\xff" * (key_bits // 8)] + [rng.randbytes(key_bits // 8) for _ in range(3)]
        datas = [[0] * n, [(1 << 128) - 1] * n] + [[rng.getrandbits(128) for _ in range(n)] for _ in range(3)]
        for _, mode, direction in MODES:
            if not v.supports(mode, direction, key_bits):
                continue
            lat, period = v.latency(key_bits), v.period(mode, direction, key_bits)
            for key, data in zip(keys, datas):
                delay = await tb.load_key(key)
                want_delay = v.key_ready_delay(key_bits)
                assert delay == want_delay, f"AES-{key_bits}: key_ready after {delay}, want {want_delay}"
                await tb.load_iv(rng.getrandbits(128))
                tb.configure(mode, direction, key_bits)
                res = await tb.stream(data)
                assert res.lat_min == res.lat_max == lat, (
                    f"mode {mode} dir {direction} AES-{key_bits}: latency {res.lat_min}..{res.lat_max}, want {lat}"
                )
                span = res.last_out - res.first_in - lat
                assert span == (n - 1) * period, (
                    f"mode {mode} dir {direction} AES-{key_bits}: {span} cycles for {n - 1} blocks, want {period} each"
                )
    dut._log.info("timing as promised for %s", v)


# (row name, harness port) of the one-block traces; buses show a label, "-" while not valid.
WAVE_BITS = (("in_valid", "man_in_valid_i"), ("in_ready", "in_ready_o"), ("out_valid", "out_valid_o"),
             ("out_ready", "man_out_ready_i"), ("busy", "busy_o"))
WAVE_BUSES = (("in_data", "man_in_data_i", "in_valid"), ("out_data", "out_data_o", "out_valid"),
              ("iv_o", "iv_o", ""))


def wave_table(samples: list[dict[str, int]], labels: dict[int, str]) -> str:
    """Cycle-by-cycle text table of a trace (one column per cycle, bus values by label)."""
    rows = [("cycle", [str(c) for c in range(len(samples))])]
    rows += [(name, [str(s[name]) for s in samples]) for name, _ in WAVE_BITS]
    for name, _, valid in WAVE_BUSES:
        cells = [labels.get(s[name], f"{s[name]:032x}"[:8]) if not valid or s[valid] else "-" for s in samples]
        rows.append((name, cells))
    width = max(len(cell) for _, cells in rows for cell in cells) + 1
    return "\n".join(f"{name:10}" + "".join(f"{cell:>{width}}" for cell in cells) for name, cells in rows)


@cocotb.test()
async def one_block_per_mode(dut: Any) -> None:
    """One SP 800-38A AES-128 block through ECB, CBC encrypt, CBC decrypt and CTR with the ports
    driven directly: taken at once, result after exactly the latency, iv_o as the mode says. Logs
    the cycle table of each (docs/aes_engine.md shows them for RoundsPerCycle=1)."""
    tb = await started(dut)
    key = bytes.fromhex(SP800_38A_KEY[128])
    plain = block_ints(bytes.fromhex(SP800_38A_PLAIN))[0]
    latency = tb.variant.latency(128)
    for name, mode, direction in (("ECB encrypt", MODE_ECB, ENC), ("CBC encrypt", MODE_CBC, ENC),
                                  ("CBC decrypt", MODE_CBC, DEC), ("CTR", MODE_CTR, ENC)):
        if not tb.variant.supports(mode, direction, 128):
            continue
        iv = SP800_38A_IV[mode]
        cipher = reference(mode, ENC, key, iv, [plain])[0]
        block, result = (cipher, plain) if direction == DEC else (plain, cipher)
        await tb.load_key(key)
        await tb.load_iv(iv)
        tb.configure(mode, direction, 128)
        tb.offer(block, out_ready=True)
        samples: list[dict[str, int]] = []
        for _ in range(latency + 2):
            await ReadOnly()
            ports = [*WAVE_BITS, *((n, port) for n, port, _ in WAVE_BUSES)]
            samples.append({n: int(getattr(dut, port).value) for n, port in ports})
            taken = samples[-1]["in_valid"] and samples[-1]["in_ready"]
            await RisingEdge(dut.clk_i)
            if taken:
                tb.offer(None, out_ready=True)
        tb.offer(None)
        assert samples[0]["in_ready"] == 1, f"{name}: block not taken at once"
        valid = [c for c, s in enumerate(samples) if s["out_valid"]]
        assert valid == [latency], f"{name}: out_valid in cycles {valid}, want only {latency}"
        assert samples[latency]["out_data"] == result, f"{name}: wrong result"
        assert samples[-1]["iv_o"] == next_iv(mode, direction, iv, [block], [result]), f"{name}: iv_o"
        labels = {0: "0", iv: "IV", (iv + 1) % (1 << 128): "IV+1", plain: "P", cipher: "C"}
        dut._log.info("%s, AES-128, SP 800-38A block 1:\n%s", name, wave_table(samples, labels))


async def check_wiped(tb: AesTb, what: str) -> None:
    dut = tb.dut
    await tb.settle()
    assert dut.busy_o.value == 0 and dut.err_o.value == 0 and dut.key_ready_o.value == 0, what
    assert dut.out_valid_o.value == 0 and int(dut.iv_o.value) == 0, what
    regs = registers(dut.u_dut)
    assert len(regs) > 8, f"{what}: register walk found only {[r._name for r in regs]}"
    # The masked core's PRNG (u_prng) holds no key or data and keeps running (docs/masking.md).
    dirty = [r._path for r in regs if int(r.value) != 0 and not r._name.startswith("klen") and ".u_prng." not in r._path]
    assert not dirty, f"{what}: registers not zeroised: {dirty}"
    await RisingEdge(dut.clk_i)


async def fill_engine(tb: AesTb) -> None:
    """Load the largest key and an IV and leave blocks in flight with the output stalled."""
    v = tb.variant
    key_bits = max(v.key_sizes)
    await tb.load_key(bytes(range(1, key_bits // 8 + 1)))
    await tb.load_iv(0x0123456789ABCDEF0123456789ABCDEF)
    tb.configure(MODE_CTR if v.built(MODE_CTR) else MODE_ECB, ENC, key_bits)
    tb.offer(0xFEDCBA98765432100123456789ABCDEF)
    for _ in range(4):
        await RisingEdge(tb.dut.clk_i)
    tb.offer(None)
    await RisingEdge(tb.dut.clk_i)
    assert tb.dut.busy_o.value == 1


@cocotb.test()
async def clear_and_reset_zeroise(dut: Any) -> None:
    """clear_i wipes key, decryption key, round-key state, IV, data and error in one cycle; so does reset."""
    tb = await started(dut)
    await fill_engine(tb)
    await tb.pulse("clear_i")
    await check_wiped(tb, "after clear")
    # No key after clear: a block raises the error and nothing comes out.
    tb.configure(MODE_ECB, ENC, 128)
    tb.offer(1)
    await tb.settle()
    await RisingEdge(dut.clk_i)
    tb.offer(None)
    await tb.no_output_for(20)
    assert dut.err_o.value == 1
    await tb.clear()
    # Back in service after the clear.
    key_hex, ct_hex = FIPS197_C[128]
    pt = block_ints(bytes.fromhex(FIPS197_PLAIN))
    ct = block_ints(bytes.fromhex(ct_hex))
    await run_message(tb, MODE_ECB, ENC, bytes.fromhex(key_hex), 0, pt, ct, what="after clear")
    # Reset wipes everything too.
    await fill_engine(tb)
    dut.rst_ni.value = 0
    await RisingEdge(dut.clk_i)
    dut.rst_ni.value = 1
    await check_wiped(tb, "after reset")


async def expect_error(tb: AesTb, what: str) -> None:
    """The error flag is up, the engine takes and gives nothing, and clear brings it back."""
    dut = tb.dut
    await tb.settle()
    assert dut.err_o.value == 1, f"{what}: err_o not raised"
    assert dut.in_ready_o.value == 0, f"{what}: in_ready_o high in error"
    await RisingEdge(dut.clk_i)
    tb.offer(None)
    await tb.no_output_for(2 * tb.variant.latency(max(tb.variant.key_sizes)) + 4)
    await tb.clear()
    await tb.settle()
    assert dut.err_o.value == 0 and dut.busy_o.value == 0, f"{what}: clear did not recover"
    await RisingEdge(dut.clk_i)


async def offer_once(tb: AesTb, block: int) -> None:
    tb.offer(block)
    await RisingEdge(tb.dut.clk_i)
    tb.offer(None)


@cocotb.test()
async def error_cases(dut: Any) -> None:
    """Unsupported or inconsistent configurations raise err_o, produce no output, and clear recovers."""
    tb = await started(dut)
    v = tb.variant
    top = max(v.key_sizes)
    key = bytes(range(top // 8))

    # A block before any key.
    tb.configure(MODE_ECB, ENC, 128)
    await offer_once(tb, 5)
    await expect_error(tb, "block before key")

    # Mode encoding 3 is not a mode.
    await tb.load_key(key)
    tb.configure(MODE_ECB, ENC, top)
    dut.mode_i.value = 3
    await offer_once(tb, 5)
    await expect_error(tb, "mode 3")

    # Key length other than the loaded key's (a key size change mid-stream).
    await tb.load_key(bytes(16))
    tb.configure(MODE_ECB, ENC, 128)
    dut.key_len_i.value = KEY_LEN_CODE[256] if top == 256 else KEY_LEN_CODE[192]
    await offer_once(tb, 5)
    await expect_error(tb, "key length mismatch")

    # Key lengths the parameters removed, at key write.
    if top == 128:
        for bits in (192, 256):
            dut.key_len_i.value = KEY_LEN_CODE[bits]
            dut.key_i.value = 1
            await tb.pulse("key_we_i")
            await expect_error(tb, f"AES-{bits} key on an AES-128-only engine")
    dut.key_len_i.value = 3
    await tb.pulse("key_we_i")
    await expect_error(tb, "key length encoding 3")

    # Modes and counter widths the parameters left out: the same error as an unknown mode.
    for mode in (MODE_ECB, MODE_CBC, MODE_CTR):
        if not v.built(mode):
            await tb.load_key(key)
            tb.configure(mode, ENC, top)
            await offer_once(tb, 5)
            await expect_error(tb, f"mode {mode}, not built")
    if v.built(MODE_CTR):
        for width in (64, 128):
            if width not in v.ctr_widths:
                await tb.load_key(key)
                tb.configure(MODE_CTR, ENC, top, width)
                await offer_once(tb, 5)
                await expect_error(tb, f"CTR width {width}, not built")

    # Decryption on an encryption-only engine (CTR decryption is fine there).
    if not v.dec_enable:
        for mode in (MODE_ECB, MODE_CBC):
            await tb.load_key(key)
            tb.configure(mode, DEC, top)
            await offer_once(tb, 5)
            await expect_error(tb, f"mode {mode} decrypt on encrypt-only engine")

    # Configuration, key or IV changes while blocks are in flight (a block of another built mode,
    # or another direction, behind the first).
    first = next(m for m in (MODE_ECB, MODE_CBC, MODE_CTR) if v.built(m))
    other = next((m for m in (MODE_CTR, MODE_CBC) if m != first and v.built(m)), None)
    changes = (("mode",) if other is not None else ()) + (("dir",) if v.dec_enable and first != MODE_CTR else ())
    for change in (*changes, "key", "iv"):
        await tb.load_key(key)
        tb.configure(first, ENC, top)
        await offer_once(tb, 7)  # taken; its result waits (out_ready low)
        await RisingEdge(dut.clk_i)
        assert dut.busy_o.value == 1
        if change == "mode":
            tb.configure(other, ENC, top)
            await offer_once(tb, 8)
        elif change == "dir":
            tb.configure(first, DEC, top)
            await offer_once(tb, 8)
        elif change == "key":
            dut.key_i.value = 3
            await tb.pulse("key_we_i")
        else:
            dut.iv_i.value = 3
            await tb.pulse("iv_we_i")
        await expect_error(tb, f"{change} change while busy")
