"""pytest entry: aes_ghash's cocotb tests for every BitsPerCycle (one build each), and its lint."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from aesoc.common.toolchain import verilator_bin
from aesoc.sim.cocotb_flow import run_cocotb

HERE = Path(__file__).resolve().parent
SOURCES = [HERE.parent / "rtl" / "aes_ghash.sv"]
WIDTHS = [1, 2, 4, 8, 16, 32, 64, 128]


@pytest.mark.parametrize("bits", WIDTHS)
def test_aes_ghash(bits: int) -> None:
    run_cocotb(
        toplevel="aes_ghash",
        sources=SOURCES,
        test_module="cocotb_aes_ghash",
        test_dir=HERE,
        parameters={"BitsPerCycle": bits},
        extra_env={"GHASH_BITS": str(bits)},
        build_args=["--assert", "-DASSERT_ON", "--public-flat-rw"],
    )


@pytest.mark.parametrize("bits", WIDTHS)
def test_aes_ghash_lint(bits: int) -> None:
    for extra in ([], ["--assert", "-DASSERT_ON"]):
        cmd = [verilator_bin(), "--lint-only", "-Wall", *extra, f"-GBitsPerCycle={bits}", "--top-module", "aes_ghash"]
        # Not under verilator_lock: a lint is one short single-threaded process, not a build.
        proc = subprocess.run([*cmd, *map(str, SOURCES)], capture_output=True, text=True, check=False)
        assert proc.returncode == 0, f"{extra}:\n{proc.stderr}"
