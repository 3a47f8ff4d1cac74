"""The aesoc command: argument errors are clear, benchmarks produce a report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aesoc import cli
from aesoc.bench.registry import benchmarks
from aesoc.cli import main
from aesoc.common import outcome


def test_unknown_benchmark(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "no-such-bench"]) == 2
    assert "unknown benchmark(s) no-such-bench" in capsys.readouterr().err


def test_bench_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--list"]) == 0
    assert "platform" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "place", "expected"), [
    ([], False, [n for n in benchmarks() if n not in ("fpga", "fpga-soc")]),
    (["--place"], True, list(benchmarks())),
    (["fpga-soc"], False, ["fpga-soc"]),
])
def test_bench_places_only_when_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str],
                                      place: bool, expected: list[str]) -> None:
    """`aesoc bench` leaves out the placement benchmarks (hours on a fresh machine) unless named
    or run with --place, which also lets the others place what is not cached."""
    seen: dict[str, object] = {}
    monkeypatch.setattr(cli, "run_all", lambda _reg, names, _dir, **kw: seen.update(names=names, **kw))
    assert main(["bench", *argv, "--results", str(tmp_path)]) == 0
    assert seen["names"] == expected and seen["place"] is place


def test_run_missing_firmware(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "/nonexistent/thing"]) == outcome.HARNESS_ERROR
    assert "no such firmware file or folder" in capsys.readouterr().err


def test_unknown_config(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "fw/tests/hello", "--config", "nope"]) == outcome.HARNESS_ERROR
    assert "no SoC configuration 'nope'" in capsys.readouterr().err


def test_run_returns_firmware_status(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "fw/tests/hello"]) == 7
    out = capsys.readouterr()
    assert "hello from aesoc" in out.out
    assert "exit 7 (program) after" in out.err


def test_platform_bench_writes_result_and_report(tmp_path: Path) -> None:
    # The plain models, as every test has them: the profile-guided ones are tests/test_profile_guided.py's.
    # A smoke run: the full run only adds the same 3-million-cycle program on the three larger
    # configurations for their simulation speed (45 CPU-seconds; `make bench` runs them).
    assert main(["bench", "platform", "--smoke", "--no-pgo", "--results", str(tmp_path)]) == 0
    data = json.loads((tmp_path / "platform.json").read_text())
    assert data["smoke"] is True
    assert data["runs"] and "platform.elf" in data["runs"][0]
    (memory, speed) = data["tables"]
    metrics = {row[0]: row for row in memory["rows"]}
    hit = metrics["Dependent load, D-cache hit"][3]
    miss = metrics["Dependent load, D-cache miss (32-byte line refill)"][3]
    uncached = metrics["Dependent load, uncached alias (single bus read)"][3]
    assert hit < uncached < miss  # the memory hierarchy orders as it must
    # The smoke run's speed row: the base model, really simulating millions of cycles.
    assert [row[0] for row in speed["rows"]] == ["base"]
    assert speed["rows"][0][1] > 1_000_000 and speed["rows"][0][3] > 0
    report = (tmp_path / "report.md").read_text()
    assert "## platform" in report and "Simulation runs:" in report
    assert (tmp_path / "platform_memory.png").stat().st_size > 1000
    assert "<table>" in (tmp_path / "report.html").read_text()


def test_synth_unknown_block(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["synth", "no-such-block"]) == 2
    err = capsys.readouterr().err
    assert "unknown block 'no-such-block'; known: aes, soc, cpu, xbar" in err


def test_synth_variant_only_for_aes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["synth", "xbar", "--variant", "r1"]) == 2
    assert "block 'xbar' has no variants" in capsys.readouterr().err
    assert main(["synth", "aes", "--variant", "r9"]) == 2
    assert "unknown AES variant(s) r9" in capsys.readouterr().err


def test_synth_small_block(capsys: pytest.CaptureFixture[str]) -> None:
    """The crossbar synthesises in seconds (or comes from the cache): one row with its counts."""
    assert main(["synth", "xbar"]) == 0
    row = capsys.readouterr().out.splitlines()[1].split()
    assert row[:2] == ["xbar-full", "ice40"]  # the crossbar as the default configuration builds it
    lut4, ff = int(row[2]), int(row[3])
    assert 200 < lut4 < 8000 and 20 < ff < 500  # a 4x7 Wishbone crossbar, not an empty module
