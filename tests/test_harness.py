"""The simulation harness refuses bad input with a clear message and a non-zero status."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from aesoc.common import outcome
from aesoc.common.toolchain import REPO, ToolError, riscv_tool
from aesoc.sim import model
from aesoc.sim.harness import run, wall_limit_s
from aesoc.soc import description, lint


def _sim(sim: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(sim), *args], capture_output=True, text=True, timeout=60)


def test_missing_file(sim: Path) -> None:
    proc = _sim(sim, "/nonexistent/fw.elf")
    assert proc.returncode == outcome.HARNESS_ERROR
    assert "cannot open firmware '/nonexistent/fw.elf'" in proc.stderr


def test_not_an_elf(sim: Path, tmp_path: Path) -> None:
    junk = tmp_path / "junk.elf"
    junk.write_bytes(b"this is not an ELF file at all")
    proc = _sim(sim, str(junk))
    assert proc.returncode == outcome.HARNESS_ERROR
    assert "is not an ELF file" in proc.stderr


def test_not_riscv(sim: Path) -> None:
    proc = _sim(sim, "/bin/sh")
    assert proc.returncode == outcome.HARNESS_ERROR
    assert "is not a 32-bit RISC-V ELF" in proc.stderr


def test_segment_outside_memory(sim: Path, build_fw: Callable[..., Path], tmp_path: Path) -> None:
    elf = build_fw("tests/hello")
    moved = tmp_path / "moved.elf"
    # Relocate .data's load address into the unmapped hole above SRAM1.
    subprocess.run([riscv_tool("objcopy"), "--change-section-lma", ".data=0x50000000", str(elf), str(moved)],
                   check=True, capture_output=True)
    proc = _sim(sim, str(moved))
    assert proc.returncode == outcome.HARNESS_ERROR
    assert "is outside every memory bank" in proc.stderr


def test_bad_arguments(sim: Path) -> None:
    assert "unknown option '--bogus'" in _sim(sim, "--bogus").stderr
    assert "bad number for --max-cycles" in _sim(sim, "--max-cycles", "ten", "x.elf").stderr
    assert _sim(sim).returncode == outcome.HARNESS_ERROR


def test_trace_window(build_fw: Callable[..., Path], tmp_path: Path) -> None:
    traced = model.build_model(description.load_config("base"), trace=True)
    fst = tmp_path / "hello.fst"
    result = run(traced, build_fw("tests/hello"), trace=fst, trace_from=100, trace_to=300)
    assert result.status == "exit" and result.code == 7
    assert fst.is_file() and fst.stat().st_size > 1000


def test_untraced_model_refuses_trace(sim: Path, build_fw: Callable[..., Path], tmp_path: Path) -> None:
    proc = _sim(sim, "--trace", str(tmp_path / "x.fst"), str(build_fw("tests/hello")))
    assert proc.returncode == outcome.HARNESS_ERROR
    assert "built without tracing" in proc.stderr


@pytest.mark.no_model
@pytest.mark.parametrize("config", description.config_names())
def test_soc_lint_clean(config: str) -> None:
    lint.lint_soc(description.load_config(config))  # raises with Verilator's messages on any warning


def test_repo_root_is_checkout() -> None:
    assert (REPO / "soc" / "configs" / "base.toml").is_file()


def test_wall_clock_limit_is_a_clear_error(sim: Path, build_fw: Callable[..., Path]) -> None:
    """A run past its wall-clock limit (here a program that never ends, given a tiny limit) is
    stopped and reported as a ToolError naming the limit, never left running."""
    with pytest.raises(ToolError, match=r"wall-clock limit of 1 s"):
        run(sim, build_fw("tests/spin"), max_cycles=10**12, timeout_s=1.0)


def test_wall_limit_follows_max_cycles() -> None:
    # dma-aes's 400 M-cycle runs on the dma-unrolled SoC (90-100 kHz idle) outlived a fixed 1,800 s.
    assert wall_limit_s(400_000_000) >= 400_000_000 / 90_000 * 4
    assert wall_limit_s(1000) == 1800.0  # short runs keep the floor


def test_bench_reuses_identical_runs_only(sim: Path, build_fw: Callable[..., Path], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """With reuse on (`aesoc bench`), a run whose model, ELF, image, KEK and cycle limit are all
    unchanged answers from the saved output; any change, or a caller that times the run, simulates."""
    from aesoc.sim import harness

    monkeypatch.setattr(harness, "REUSED_RUNS", tmp_path / "runs")
    monkeypatch.setattr(harness, "_reuse", True)
    elf = build_fw("tests/hello")
    first = run(sim, elf)
    assert not first.reused and first.code == 7
    again = run(sim, elf)
    assert again.reused and (again.code, again.cycles, again.console) == (first.code, first.cycles, first.console)
    assert not run(sim, elf, max_cycles=outcome.DEFAULT_MAX_CYCLES - 1).reused
    assert not run(sim, elf, reuse=False).reused
    copy = tmp_path / "hello.elf"
    copy.write_bytes(elf.read_bytes()[:-1] + bytes([elf.read_bytes()[-1] ^ 1]))  # another program
    assert not run(sim, copy).reused
    monkeypatch.setattr(harness, "_reuse", False)
    assert not run(sim, elf).reused  # outside `aesoc bench`, every run simulates
