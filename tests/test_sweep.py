"""`aesoc sweep` on a Dask LocalCluster of two worker processes: a small sweep (the AES engine's
masking × DMA FIFO depth, two points) runs each point on a worker, and its table and chart land in
the report. Both points elaborate to named configurations (`full`, `full-masked`), so each runs
on the model other tests build: a generated point's own model (a build of about 45 CPU-s, the
largest part of this test) would test nothing the rest does not. A point that names no
configuration is written as a description and elaborated by
test_point_gets_a_named_configuration_or_a_generated_description, and a model is built from a
description file by tests/test_socgen.py's example SoC."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aesoc import report
from aesoc.bench import sweep
from aesoc.bench.runner import payload
from aesoc.common.toolchain import ToolError
from aesoc.soc.description import config_names, load_config

AXES = ("aes.Masking=0,1", "dma.FifoDepth=64")


def test_axes_are_checked_before_any_task() -> None:
    with pytest.raises(ToolError, match="expected INSTANCE.PARAM"):
        sweep.parse_axis("RoundsPerCycle=1")
    with pytest.raises(ToolError, match="has no parameter"):
        sweep.point_config("full", (("aes", "NoSuchParam", 1),))
    # A value the manifest does not allow fails when the point's description is elaborated.
    with pytest.raises(ToolError, match="RoundsPerCycle"):
        sweep.point_config("full", (("aes", "RoundsPerCycle", 4),))
    point = (("aes", "RoundsPerCycle", 1), ("dma", "FifoDepth", 64))
    assert sweep.point_config("full", point) == "full", "a point that changes nothing shares the base's model"


def test_point_gets_a_named_configuration_or_a_generated_description() -> None:
    fifo = ("dma", "FifoDepth", 64)
    assert sweep.point_config("full", (("aes", "Masking", 1), fifo)) == "full-masked"
    path = sweep.point_config("full", (("aes", "RoundsPerCycle", 2), fifo))
    assert path.endswith("full-aes-RoundsPerCycle2-dma-FifoDepth64.toml"), path
    generated = load_config(path)
    assert generated.of_block("aes").params["RoundsPerCycle"] == 2
    assert generated.params == {**load_config("full").params,
                                "aes": {**load_config("full").params["aes"], "RoundsPerCycle": 2}}
    assert not any(load_config(name).params == generated.params for name in config_names())


def test_sweep_on_two_workers_renders_table_and_plot(tmp_path: Path) -> None:
    axes = [sweep.parse_axis(a) for a in AXES]
    with sweep.client(workers=2) as c:
        assert len(c.scheduler_info()["workers"]) == 2
        result = sweep.run_sweep(c, "full", axes, tmp_path)
    (table,) = result.tables
    assert len(table.rows) == 2 and all(len(r) == len(table.columns) for r in table.rows)
    by_masking = {row[0]: row for row in table.rows}
    assert set(by_masking) == {0, 1}
    ops = [table.columns.index(f"{op} c/B") for op in sweep.OPS]
    # Every figure is a request the firmware measured: total cycles over bytes of a record.
    for row in table.rows:
        point = f"aes.Masking={row[0]}, dma.FifoDepth=64"
        recs = [r for r in result.records if r["point"] == point]
        for op, col in zip(sweep.OPS, ops):
            rec = max((r for r in recs if r["op"] == op), key=lambda r: r["bytes"])
            assert row[col] == round(rec["total"] / rec["bytes"], 2) > 0
    # Each point ran on the model of the configuration it elaborates to.
    conf = table.columns.index("configuration")
    assert by_masking[0][conf] == "full" and by_masking[1][conf] == "full-masked"
    assert any("on SoC config 'full'" in line for line in result.runs)
    assert any("on SoC config 'full-masked'" in line for line in result.runs)
    for line in result.runs:
        assert ": exit 0 (" in line, line

    data = payload(sweep.RESULT, result, 0.0, smoke=False)
    (tmp_path / f"{sweep.RESULT}.json").write_text(json.dumps(data))
    md = report.render(tmp_path).read_text()
    assert f"## {report.SWEEP}" in md and f"(#{report.SWEEP})" in md and table.title in md
    assert (tmp_path / result.plots[0]).stat().st_size > 0 and f"]({result.plots[0]})" in md
