"""The summary's decision table (aesoc.report._decisions) from points, as any benchmark gives
them: which option wins each need, ties said, missing figures leaving an option out, and the
area budgets along the area / speed front."""

from __future__ import annotations

from aesoc.bench import Point
from aesoc.report import _decisions


def _by_option(points: list[Point]) -> dict[str, dict[int, tuple[str, Point]]]:
    by: dict[str, dict[int, tuple[str, Point]]] = {}
    for p in points:
        by.setdefault(p.option, {})[p.nbytes] = ("bench", p)
    return by


POINTS = [
    Point("sw", 16, 100.0, "run", software=True, key_cycles=500),
    Point("sw", 1024, 60.0, "run", software=True, key_cycles=500),
    Point("mmio", 16, 15.0, "run", area_lut4=20_000, key_cycles=190),
    Point("mmio", 1024, 4.0, "run", area_lut4=20_000, key_cycles=190),
    Point("small", 1024, 30.0, "run", area_lut4=11_000),
    Point("big", 1024, 5.0, "run", area_lut4=40_000),  # more area than mmio and slower: off the front
    Point("dma", 16, 40.0, "run", area_lut4=30_000, cpu_cycles_per_byte=38.0),
    Point("dma", 1024, 1.5, "run", area_lut4=30_000, cpu_cycles_per_byte=0.5),
    Point("dma2", 1024, 1.5, "run", cpu_cycles_per_byte=0.25),
    Point("otfad", 1024, 0.0, "run", added_cost=True),
]


def test_each_need_names_its_winner_and_runner_up() -> None:
    table = _decisions(_by_option(POINTS), [16, 1024])
    rows = {row[0]: row[1:] for row in table["rows"]}
    assert rows["short messages (16 B)"][:4] == ["mmio", "15 c/B", "dma", "40 c/B"]
    # Equal figures: the runner-up says it is a tie; a cost line (otfad, 0 c/B) is no option.
    assert rows["bulk data (1,024 B)"][:4] == ["dma", "1.50 c/B", "dma2", "1.50 c/B (tie)"]
    # The CPU's own cycles: DMA options give theirs, the others spend all of them.
    assert rows["the CPU free for other work (1,024 B)"][:4] == ["dma2", "0.25 CPU c/B", "dma", "0.50 CPU c/B"]
    # Only options that measured a key change.
    assert rows["keys that change often"][:4] == ["mmio", "190 cycles per new key", "sw", "500 cycles per new key"]


def test_area_budgets_follow_the_front() -> None:
    table = _decisions(_by_option(POINTS), [16, 1024])
    budgets = [row[:4] for row in table["rows"] if row[0].startswith("a SoC of at most")]
    assert budgets == [
        ["a SoC of at most 11,000 LUT4 (iCE40), 1,024 B messages", "small", "30 c/B at 11,000 LUT4", "mmio"],
        ["a SoC of at most 20,000 LUT4 (iCE40), 1,024 B messages", "mmio", "4 c/B at 20,000 LUT4", "dma"],
        ["a SoC of at most 30,000 LUT4 (iCE40), 1,024 B messages", "dma", "1.50 c/B at 30,000 LUT4", "—"],
    ]


def test_no_shared_size_no_size_rows() -> None:
    table = _decisions(_by_option([Point("a", 16, 1.0, "run"), Point("b", 64, 2.0, "run")]), [16, 64])
    assert table["rows"] == []
