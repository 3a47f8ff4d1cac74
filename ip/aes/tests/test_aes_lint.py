"""Static checks of the AES RTL per variant: Verilator -Wall lint (no waivers) and a Yosys parse."""

from __future__ import annotations

import subprocess

import pytest

from aes_ip import RTL_SOURCES, TB_SOURCES, VARIANTS, defines_of
from aesoc.common.toolchain import BUILD, verilator_bin
from aesoc.fpga.synth import elaborate_check

pytestmark = pytest.mark.no_model


def _params(variant: str) -> list[str]:
    return [f"-G{name}={value}" for name, value in VARIANTS[variant].items()]


@pytest.mark.parametrize("variant", VARIANTS)
def test_aes_verilator_lint(variant: str) -> None:
    """aes_engine lint-clean under -Wall, with and without assertions; the harness too. Each
    variant as its block tests build it: the multi-round datapaths with the table S-box
    (defines_of), the others with the tower field, so both of aes_sbox's forms are linted; the
    Yosys parse below elaborates every variant as synthesised (the tower field)."""
    for top, sources, extra in (
        ("aes_engine", RTL_SOURCES, []),
        ("aes_engine", RTL_SOURCES, ["--assert", "-DASSERT_ON"]),
        ("tb_aes_engine", TB_SOURCES, ["--assert", "-DASSERT_ON"]),
    ):
        defines = [f"-D{name}={value}" for name, value in defines_of(variant).items()]
        cmd = [verilator_bin(), "--lint-only", "-Wall", *extra, *defines, *_params(variant), "--top-module", top]
        # Not under verilator_lock: a lint is one short single-threaded process, not a build.
        proc = subprocess.run([*cmd, *map(str, sources)], capture_output=True, text=True, check=False)
        assert proc.returncode == 0, f"{top} {extra}:\n{proc.stderr}"


@pytest.mark.parametrize("variant", VARIANTS)
def test_aes_yosys_parse(variant: str) -> None:
    """The pinned Yosys reads and elaborates aes_engine for the variant (synthesis runs in the benchmark)."""
    elaborate_check("aes_engine", RTL_SOURCES, VARIANTS[variant], BUILD / "yosys-check" / "aes" / variant)
