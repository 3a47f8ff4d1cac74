"""Static checks of the AES RTL per variant: Verilator -Wall lint (no waivers) and a Yosys parse."""

from __future__ import annotations

import subprocess

import pytest

from aes_ip import RTL_SOURCES, TB_SOURCES, VARIANTS
from aesoc.synth import elaborate_check
from aesoc.toolchain import BUILD, verilator_bin

pytestmark = pytest.mark.no_model


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
        # Not under verilator_lock: a lint is one short single-threaded process, not a build.
        proc = subprocess.run([*cmd, *map(str, sources)], capture_output=True, text=True, check=False)
        assert proc.returncode == 0, f"{top} {extra}:\n{proc.stderr}"


@pytest.mark.parametrize("variant", VARIANTS)
def test_aes_yosys_parse(variant: str) -> None:
    """The pinned Yosys reads and elaborates aes_engine for the variant (synthesis runs in the benchmark)."""
    elaborate_check("aes_engine", RTL_SOURCES, VARIANTS[variant], BUILD / "yosys-check" / "aes" / variant)
