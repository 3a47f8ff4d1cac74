"""Firmware self-tests on the whole SoC: counters, timer and external interrupts, caches, bus errors."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from aesoc.common import outcome
from aesoc.sim.harness import RunResult


@pytest.mark.parametrize("program", ["counter", "timer_irq", "soft_irq", "cache"])
def test_selftest_passes(run_fw: Callable[..., RunResult], program: str) -> None:
    result = run_fw(f"tests/{program}")
    assert result.status == "exit", result.stderr
    assert result.code == 0, result.console
    assert "CHECK FAILED" not in result.console
    assert result.records_of(program), "self-test must report its record"


def test_exit_code_console_and_records(run_fw: Callable[..., RunResult]) -> None:
    result = run_fw("tests/hello")
    assert result.status == "exit"
    assert result.code == 7
    assert "hello from aesoc" in result.console
    assert result.records_of("hello") == [{"kind": "hello", "answer": 42, "quote": 'say "hi"'}]
    assert result.cycles > 0


def test_timer_interrupt_count(run_fw: Callable[..., RunResult]) -> None:
    (rec,) = run_fw("tests/timer_irq").records_of("timer_irq")
    assert rec["ticks"] == 3


def test_unmapped_access_reports_bus_error(run_fw: Callable[..., RunResult]) -> None:
    result = run_fw("tests/bus_error")
    assert result.status == "exit"
    assert result.code == outcome.BUS_ERROR and result.outcome == "bus_error", result.console
    assert "bus error: master 1 address 0xe0000000" in result.console
    assert "no trap" not in result.console


def test_cfu_ops_answer_zero_without_coprocessor(run_fw: Callable[..., RunResult]) -> None:
    """The base configuration has no CFU: a stray CFU op must answer 0, not hang the core."""
    result = run_fw("tests/no_cfu")
    assert result.status == "exit" and result.code == 0, result.console
    assert result.records_of("no_cfu") == [{"kind": "no_cfu", "value": 0}]


def test_runaway_firmware_is_stopped(run_fw: Callable[..., RunResult]) -> None:
    result = run_fw("tests/spin", max_cycles=20_000)
    assert result.status == "timeout"
    assert result.code == outcome.HARNESS_TIMEOUT and result.outcome == "timeout"
    assert result.cycles == 20_000
    assert "did not exit within 20000 cycles" in result.stderr
