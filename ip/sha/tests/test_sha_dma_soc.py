"""DMA-fed SHA in the SoC through the sha_dma driver: "abc", pseudo-random messages of every
built algorithm (0..4 KB) and one of 16 KB, by polling and by interrupt, against hashlib; the DMA
error path is self-checked in firmware."""

from __future__ import annotations

from aesoc.common.toolchain import REPO
from aesoc.sim.run import build_and_run
from sha_ref import ALG_CODE, ALGS

BY_CODE = {code: ALGS[name] for name, code in ALG_CODE.items()}
RECORDS = 1 + 10 + 1 + 1  # as fw/tests/sha_dma/main.c: abc, random, 16 KB, abc after the DMA error


def test_sha_dma_in_soc() -> None:
    result, line = build_and_run(REPO / "fw" / "tests" / "sha_dma")
    assert result.status == "exit" and result.code == 0, f"{line}\n{result.console[-3000:]}"
    records = result.records_of("sha_dma_md")
    assert len(records) == RECORDS
    for i, rec in enumerate(records):
        alg = BY_CODE[rec["alg"]]
        msg = bytes.fromhex(rec["msg"])
        assert bytes.fromhex(rec["md"]) == alg.digest(msg), f"record {i}: {alg.name} of {len(msg)} bytes ({line})"
        if msg:
            assert rec["msg_cycles"] > 0 and rec["engine_busy"] > 0
    assert {r["irq"] for r in records} == {0, 1}
    assert len(bytes.fromhex(records[-2]["msg"])) == 16384
