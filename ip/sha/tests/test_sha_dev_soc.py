"""The SHA peripheral in the SoC, driven by its C driver from firmware: FIPS 180-4 example
messages, pseudo-random messages (up to 4 KB), streaming and context switching, checked here
against hashlib; error cases and driver argument checks are self-checked in firmware."""

from __future__ import annotations

from aesoc.common.toolchain import REPO
from aesoc.sim.run import build_and_run
from aesoc.soc.description import load_config
from sha_ref import ALG_CODE, ALGS

FIPS_MSGS = [b"abc", b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
             b"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"]
RANDOM_MSGS = 13  # as fw/tests/sha_dev/main.c: 12 random lengths and one 4 KB message
BY_CODE = {code: ALGS[name] for name, code in ALG_CODE.items()}


def test_sha_dev_in_soc() -> None:
    result, line = build_and_run(REPO / "fw" / "tests" / "sha_dev")
    assert result.status == "exit" and result.code == 0, f"{line}\n{result.console[-3000:]}"
    params = next(i for i in load_config("full").instances if i.block.name == "sha").params
    (hw,) = result.records_of("sha_hwcfg")
    assert (hw["sha512"], hw["in_depth"], hw["dma_words"]) == (
        params["Sha512Enable"], params["InDepth"], params["InDepth"] // 2)
    records = result.records_of("sha_md")
    n_algs = 6 if hw["sha512"] else 3
    # FIPS messages x algorithms, random messages, one streamed message, two context-switched ones.
    assert len(records) == 3 * n_algs + RANDOM_MSGS + 1 + 2
    for i, rec in enumerate(records):
        alg = BY_CODE[rec["alg"]]
        msg = bytes.fromhex(rec["msg"])
        if i < 3 * n_algs:
            assert msg == FIPS_MSGS[i // n_algs]
        assert bytes.fromhex(rec["md"]) == alg.digest(msg), f"record {i}: {alg.name} of {len(msg)} bytes ({line})"
    assert max(len(r["msg"]) // 2 for r in records) == 4096
    assert {BY_CODE[r["alg"]].name for r in records} == {a.name for a in ALGS.values() if hw["sha512"] or not a.wide}
