# SPDX-License-Identifier: Apache-2.0
"""pytest entry for the qspi_flash model's cocotb tests."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from aesoc.common.toolchain import BUILD, verilator_bin, verilator_lock
from aesoc.sim.cocotb_flow import build_dir_for, run_cocotb

TESTS = Path(__file__).resolve().parent
RTL = TESTS.parent / "rtl"
SIZE = 65536


def _params(fatal: int) -> dict[str, int]:
    return {"SizeBytes": SIZE, "FatalOnError": fatal}


def _run(fatal: int, testcase: list[str] | None = None) -> None:
    run_cocotb(
        toplevel="qspi_flash",
        sources=[RTL / "qspi_flash.sv"],
        test_module="cocotb_qspi_flash",
        test_dir=TESTS,
        parameters=_params(fatal),
        extra_env={"QSPI_FLASH_SIZE": str(SIZE), "QSPI_FLASH_FATAL": str(fatal)},
        testcase=testcase,
    )


def test_qspi_flash_model() -> None:
    _run(0)


def test_protocol_error_ends_simulation() -> None:
    """In the default FatalOnError build a malformed transaction stops the simulation: the
    simulator exits non-zero and cocotb records the test as ended by the simulator."""
    with pytest.raises(RuntimeError, match="return code"):
        _run(1, ["fatal_on_error"])
    # run_cocotb gives each run its own results file (xdist workers share a build) and keeps it
    # when the simulator ends the run: the newest is this one.
    found = build_dir_for("qspi_flash", _params(1), sources=[RTL / "qspi_flash.sv"]).glob("results_cocotb_qspi_flash.*.xml")
    text = max(found, key=lambda p: p.stat().st_mtime).read_text()
    assert "fatal_on_error" in text and "SimFailure" in text


@pytest.mark.parametrize("order", ["before", "after"])
def test_backdoor_load_order(order: str) -> None:
    """The harness may load the image before Verilator's first eval() (which runs the model's
    erase) or after it: the loaded bytes survive and the rest reads as erased flash."""
    exe = _backdoor_model()
    proc = subprocess.run([str(exe), order], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _backdoor_model() -> Path:
    out = BUILD / "qspi_flash_backdoor"
    exe = out / "Vqspi_flash"
    with verilator_lock():
        if not exe.is_file() or exe.stat().st_mtime < max(p.stat().st_mtime for p in (RTL / "qspi_flash.sv",
                                                                                     TESTS / "backdoor_main.cpp")):
            subprocess.run([verilator_bin(), "--cc", "--exe", "--build", "-j", "2", "-Wall", "-GSizeBytes=4096",
                            "--top-module", "qspi_flash", "--Mdir", str(out), str(RTL / "qspi_flash.sv"),
                            str(TESTS / "backdoor_main.cpp")], check=True, capture_output=True, text=True)
    return exe
