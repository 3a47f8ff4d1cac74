"""Static checks of the AES RTL per variant: Verilator -Wall lint (no waivers) and Yosys 0.23 parse."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from aes_ip import RTL_SOURCES, TB_SOURCES, VARIANTS
from aesoc.toolchain import verilator_bin, verilator_lock


def _params(variant: str) -> list[str]:
    return [f"-G{name}={value}" for name, value in VARIANTS[variant].items()]


@pytest.mark.parametrize("variant", VARIANTS)
def test_aes_verilator_lint(variant: str) -> None:
    """aes_engine lint-clean under -Wall, with and without assertions; the harness too."""
    for top, sources, extra in (
        ("aes_engine", RTL_SOURCES, []),
        ("aes_engine", RTL_SOURCES, ["--assert", "-DASSERT_ON"]),
        ("tb_aes_engine", TB_SOURCES, ["--assert", "-DASSERT_ON"]),
    ):
        cmd = [verilator_bin(), "--lint-only", "-Wall", *extra, *_params(variant), "--top-module", top]
        with verilator_lock():
            proc = subprocess.run([*cmd, *map(str, sources)], capture_output=True, text=True, check=False)
        assert proc.returncode == 0, f"{top} {extra}:\n{proc.stderr}"


@pytest.mark.skipif(shutil.which("yosys") is None, reason="Debian's yosys is not installed")
@pytest.mark.parametrize("variant", VARIANTS)
def test_aes_yosys_parse(variant: str) -> None:
    """Yosys 0.23 reads and elaborates aes_engine for the variant (synthesis runs in the benchmark)."""
    chparam = " ".join(f"-set {name} {value}" for name, value in VARIANTS[variant].items())
    script = (
        f"read_verilog -sv {' '.join(map(str, RTL_SOURCES))}; "
        f"chparam {chparam} aes_engine; hierarchy -check -top aes_engine; proc; check -assert"
    )
    proc = subprocess.run(["yosys", "-q", "-p", script], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
