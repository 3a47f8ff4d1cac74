"""DMA-fed AES in the SoC through the aes_dma driver: pseudo-random requests (every mode, key
size, direction and DMA knob; queued, chained, with key reuse, by interrupt and by polling; short
ones fed by the CPU below a random opts.dma_min, mixed in the same queue)
against the `cryptography` package, and the driver's error paths (self-checked in firmware)."""

from __future__ import annotations

from test_aes_dev_soc import _reference, _take, _words

from aesoc.common.toolchain import REPO
from aesoc.sim.run import build_and_run

CASES = 24
MAX_BLOCKS = 24
DMA_MINS = (0, 64, 160, 1 << 20)


def test_aes_dma_requests() -> None:
    result, line = build_and_run(REPO / "fw" / "tests" / "aes_dma", libs=("crypto",))
    assert result.status == "exit" and result.code == 0, f"{line}\n{result.console[-3000:]}"
    cases = {r["case"]: r for r in result.records_of("aes_dma_case")}
    outs = {(r["case"], r["part"]): r for r in result.records_of("aes_dma_out")}
    assert sorted(cases) == list(range(CASES))
    keys: dict[int, bytes] = {}
    seen_modes: set[tuple[int, int, int]] = set()
    paths: set[bool] = set()
    for c in range(CASES):
        draw = _words((0x2545F491 * (c + 1)) & 0xFFFFFFFF)
        burst = (1, 4, 8)[next(draw) % 3]
        for _ in range(6):  # prefetch, FIFO, early start, IRQ, bus priority, channel priority
            next(draw)
        dma_min = DMA_MINS[next(draw) % 4]
        key_case = c
        if c > 0 and next(draw) & 1:
            key_case = next(draw) % c
        if key_case not in keys:  # that case used another's key: set none
            key_case = c
        key_len = 16 + 8 * (next(draw) % 3)
        mode = next(draw) % 3
        decrypt = next(draw) & 1
        blocks = [1 + next(draw) % MAX_BLOCKS for _ in range(3)]
        in_place = next(draw) % 4 == 0
        key_words = _take(draw, 8)
        if key_case == c:
            keys[c] = key_words[:key_len]
        key = keys[key_case]
        rec = cases[c]
        assert (rec["key_case"], rec["key_len"], rec["mode"], rec["dir"], rec["in_place"], rec["burst"],
                rec["dma_min"]) == (key_case, len(key), mode, decrypt, in_place, burst, dma_min), (
            f"case {c}: firmware and test disagree on inputs")
        ivs, msgs = [], []
        for i in range(3):
            ivs.append(_take(draw, 4))
            msgs.append(_take(draw, 4 * blocks[i]))
        expect_a, iv_a = _reference(mode, decrypt, key, ivs[0], msgs[0])
        expect_b, iv_b = _reference(mode, decrypt, key, ivs[1], msgs[1])
        # C continues A's chain from the IV the driver handed back.
        expect_c, iv_c = _reference(mode, decrypt, key, iv_a if mode else ivs[2], msgs[2])
        for i, (part, expect, iv_after) in enumerate((("a", expect_a, iv_a), ("b", expect_b, iv_b),
                                                       ("c", expect_c, iv_c))):
            got = outs[(c, part)]
            assert bytes.fromhex(got["out"]) == expect, f"case {c} request {part}: wrong output ({line})"
            if iv_after is not None:
                assert bytes.fromhex(got["iv_out"]) == iv_after, f"case {c} request {part}: wrong IV out"
            by_cpu = 16 * blocks[i] < dma_min  # fed through the registers: no channel counters
            assert (got["hw_cycles"] > 0 and got["engine_busy"] > 0) != by_cpu, f"case {c} request {part}"
            paths.add(by_cpu)
        seen_modes.add((mode, decrypt, len(key)))
    assert len({m for m, _, _ in seen_modes}) == 3 and len({k for _, _, k in seen_modes}) == 3
    assert paths == {True, False}, "both the channels and the CPU fed some request"
