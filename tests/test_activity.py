"""Switching activity from the activity model (docs/aes_interfaces.md): the interfaces benchmark
run in smoke mode, its activity figures checked against what its runs reported."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from aesoc.bench.interfaces import WAYS
from aesoc.sim.harness import ActivityWindow, parse_activity


@pytest.fixture(scope="module")
def interfaces(bench_smoke: Callable[[str], Path]) -> dict[str, Any]:
    return json.loads((bench_smoke("interfaces") / "interfaces.json").read_text())


def _activity(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["way"]: r for r in data["records"] if r.get("kind") == "activity"}


def test_parse_activity_sums_scopes_below_a_scope() -> None:
    line = ('AESOC_ACTIVITY {"window":0,"from":10,"to":20,"toggles":{"TOP.s":1,"TOP.s.u_a":2,'
            '"TOP.s.u_a.x":4,"TOP.s.u_ab":8}}')
    [w] = parse_activity(f"noise\n{line}\nAESOC_SIM {{}}\n")
    assert w == ActivityWindow(0, 10, 20, {"TOP.s": 1, "TOP.s.u_a": 2, "TOP.s.u_a.x": 4, "TOP.s.u_ab": 8})
    assert (w.under("TOP.s"), w.under("TOP.s.u_a"), w.under("TOP.s.u_ab")) == (15, 6, 8)


def test_activity_model_runs_the_same_cycles(interfaces: dict[str, Any]) -> None:
    """Toggle counting must not change what the SoC does: the two runs end on the same cycle."""
    timing, act = interfaces["runs"][:2]
    assert "(activity model)" in act and "(activity model)" not in timing
    cycles = [int(re.search(r"after (\d+) cycles", line).group(1)) for line in (timing, act)]
    assert cycles[0] == cycles[1] > 0


def test_one_window_per_way_over_the_timed_stream(interfaces: dict[str, Any]) -> None:
    act = _activity(interfaces)
    assert list(act) == WAYS
    stream = {r["way"]: r for r in interfaces["records"]
              if r.get("kind") == "interfaces" and r["measure"] == "ecb_1k"}
    for way, r in act.items():
        # The window holds the timed stream and the marks around it, nothing more.
        assert r["blocks"] == stream[way]["blocks"]
        assert stream[way]["cycles"] <= r["cycles"] <= stream[way]["cycles"] + 40, (way, r["cycles"])


def test_aes_block_toggles_are_part_of_the_socs(interfaces: dict[str, Any]) -> None:
    for way, r in _activity(interfaces).items():
        assert isinstance(r["soc"], int) and r["soc"] > 0, way
        assert isinstance(r["cpu"], int) and 0 < r["cpu"] < r["soc"], way
        assert r["aes_block"] < r["soc"], way


def test_idle_engines(interfaces: dict[str, Any]) -> None:
    """The memory-mapped engine, behind its bus interface, is silent unless used. The CFU is not
    (its S-box follows the CPU's operand bus), but per cycle it switches far less idle, in
    software, than when the coarse ops drive it."""
    act = _activity(interfaces)
    for way, r in act.items():
        assert (r["engines"]["aes"] > 0) == (way == "mmio"), (way, r["engines"])
    per_cycle = {way: r["engines"]["aes_cfu"] / r["cycles"] for way, r in act.items()}
    assert max(per_cycle, key=per_cycle.get) == "cfu", per_cycle
    assert per_cycle["software"] < 0.1 * per_cycle["cfu"], per_cycle


def test_table_prints_the_records(interfaces: dict[str, Any]) -> None:
    [table] = [t for t in interfaces["tables"] if t["title"].startswith("Switching activity")]
    act = _activity(interfaces)
    assert interfaces["runs"][1] in " ".join(table["notes"])
    for row, way in zip(table["rows"], WAYS):
        r = act[way]
        soc, aes = row[table["columns"].index("SoC toggles / block")], row[table["columns"].index(
            "AES block toggles / block")]
        assert (soc, aes) == (round(r["soc"] / r["blocks"], 1), round(r["aes_block"] / r["blocks"], 1))
