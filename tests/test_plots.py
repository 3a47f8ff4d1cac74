"""The report's Pareto plot: which points form the front, and that the chart is drawn."""

from __future__ import annotations

from pathlib import Path

from aesoc.bench.plots import pareto_chart, pareto_front


def test_front_keeps_only_points_nothing_beats() -> None:
    points = [("big-fast", 9000.0, 100.0), ("small-slow", 1000.0, 900.0), ("mid", 3000.0, 300.0),
              ("dominated", 4000.0, 400.0), ("same-size-slower", 3000.0, 350.0)]
    assert [p[0] for p in pareto_front(points)] == ["small-slow", "mid", "big-fast"]


def test_chart_is_written(tmp_path: Path) -> None:
    name = pareto_chart(tmp_path / "p.png", {"ours": [("a", 1000.0, 500.0), ("b", 4000.0, 150.0)],
                                             "published": [("c", 12000.0, 970.0)], "none placed": []},
                        title="t", xlabel="x", ylabel="y")
    assert name == "p.png"
    assert (tmp_path / "p.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
