"""Every registered benchmark, run short (`aesoc bench NAME --smoke`): its firmware and flows are
built and run for real, its tables rendered from that run, so a driver, record-field or table-code
change that breaks a benchmark fails here and not only in `aesoc bench`. Cell counts of sources the
synthesis store holds are read from it (placements/synth/, named in the run lines); Yosys runs for
the rest."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from aesoc.bench.registry import benchmarks


def _numbers(value: Any) -> set[float]:
    """Every number inside a record (nested dicts and lists included)."""
    if isinstance(value, bool):
        return set()
    if isinstance(value, (int, float)):
        return {float(value)}
    if isinstance(value, dict):
        return set().union(*map(_numbers, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(_numbers, value)) if value else set()
    return set()


def _is_number(cell: Any) -> bool:
    return isinstance(cell, (int, float)) and not isinstance(cell, bool)


def _traced(cells: list[float], measured: set[float], divisors: set[float]) -> bool:
    """Some cell is a measured number, or one divided by a recorded size, as the table rounds it."""
    if measured & set(cells):
        return True
    for cell in cells:
        places = len(repr(cell).partition(".")[2])
        if any(round(x / d, places) == cell for d in divisors for x in measured):
            return True
    return False


@pytest.mark.parametrize("name", list(benchmarks()))
def test_smoke_run_renders_measured_tables(name: str, bench_smoke: Callable[[str], Path]) -> None:
    results = bench_smoke(name)
    data = json.loads((results / f"{name}.json").read_text())
    assert data["smoke"] is True
    assert data["runs"], "a benchmark names the runs its figures came from"
    assert data["records"], "a benchmark keeps what its runs measured"
    for line in data["runs"]:
        if "on SoC config" in line:
            assert ": exit 0 (" in line, line
    # What the runs measured: the firmware's records and the harness's summary in each run line.
    measured = set().union(*map(_numbers, data["records"]))
    measured |= {float(n) for line in data["runs"] for n in re.findall(r"\b\d+\b", line)}
    divisors = {float(r[k]) for r in data["records"] for k in ("bytes", "blocks", "ops", "size")
                if _is_number(r.get(k)) and r[k] > 0}
    assert data["tables"]
    for table in data["tables"]:
        where = f"{name}: {table['title']}"
        assert table["columns"] and table["rows"], where
        cells = []
        for row in table["rows"]:
            assert len(row) == len(table["columns"]), f"{where}: row {row[:2]} has {len(row)} cells"
            for cell in row:
                assert cell is not None and str(cell) not in ("nan", "None", "inf"), f"{where}: {row}"
                if _is_number(cell):
                    assert math.isfinite(cell), f"{where}: {row}"
                    cells.append(float(cell))
        # Each table that prints figures prints at least one as a run recorded it, or per byte,
        # block or operation of a recorded size.
        if cells:
            assert _traced(cells, measured, divisors), f"{where}: no figure traces back to a record"
    for plot in data["plots"]:
        assert (results / plot).stat().st_size > 0
    report = (results / "report.md").read_text()
    assert data["tables"][0]["title"] in report
    # Its points for the report's summary: figures of this run, each naming a run line of it.
    bench = benchmarks()[name]
    if bench.points is not None:
        points = bench.points(data)
        assert points, f"{name} gives no summary point"
        for p in points:
            assert p.run in data["runs"] and math.isfinite(p.cycles_per_byte) and p.cycles_per_byte >= 0, p
        assert "summary_cpb.png" in report and (results / "summary_cpb.png").stat().st_size > 0
    if bench.verdicts is not None:
        verdicts = bench.verdicts(data)
        assert verdicts, f"{name} gives no verdict"
        for v in verdicts:
            assert v.run in data["runs"] and math.isfinite(v.ratio) and v.ratio > 0, v
            assert v.seed in report


def test_withdrawn_mbedtls_figure_stays_out() -> None:
    """shared/anchors.md withdrew "~697 cycles per block, ~54 c/B CBC-128" for mbedtls on this core
    (2026-11-24): no benchmark data, code or doc may print it again, the report snapshot in
    docs/report/ included."""
    from aesoc.common.toolchain import REPO

    places = [*REPO.glob("aesoc/**/*.py"), *REPO.glob("aesoc/data/**/*.toml"), REPO / "README.md",
              *REPO.glob("docs/**/*.md")]
    for path in places:
        text = path.read_text()
        assert not re.search(r"\b697 cycles|~54 c/B|\b54 c/B CBC", text), f"{path} prints the withdrawn figure"


def test_dma_fed_options_carry_their_soc_area(bench_smoke: Callable[[str], Path]) -> None:
    """The summary gives each DMA-fed option its SoC area, the sum of the blocks dma-aes
    synthesised for its configuration, as the area table prints it (the unrolled engine's
    peripheral with its hierarchy kept, the larger by far)."""
    from aesoc.bench import dma_aes

    data = json.loads((bench_smoke("dma-aes") / "dma-aes.json").read_text())
    per_engine: dict[str, int] = {}
    for r in data["records"]:
        if r["kind"] == "dma_aes_area":
            assert r["lut4"] > 0 and r["ff"] > 0, r
            per_engine[r["engine"]] = per_engine.get(r["engine"], 0) + r["lut4"]
    assert set(per_engine) == {"iterative", "unrolled"} and per_engine["unrolled"] > 2 * per_engine["iterative"]
    (table,) = [t for t in data["tables"] if t["title"].startswith("SoC area of each DMA-fed option")]
    assert {row[0]: row[2] for row in table["rows"]} == {f"DMA + {e} engine": n for e, n in per_engine.items()}
    areas = {p.option: p.area for p in dma_aes.points(data)}
    assert areas and all(area == f"{per_engine[engine]:,} LUT4 SoC (iCE40)"
                         for option, area in areas.items() for engine in per_engine if engine in option)
