"""Area estimates: synthesise a top with Yosys `synth_ice40` and count LUT4s and flip-flops.

Uses Debian's yosys on PATH. A run holds the Verilator lock, so it never competes with a
Verilator build for the two cores.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from aesoc.toolchain import ToolError, verilator_lock


@dataclass(frozen=True)
class SynthResult:
    top: str
    parameters: dict[str, int]
    lut4: int  # SB_LUT4 cells
    ff: int  # every SB_DFF* cell
    carry: int  # SB_CARRY cells (adders), reported beside the LUTs
    cells: dict[str, int]  # all cells by type, as Yosys counted them
    seconds: float


def synth_ice40(
    top: str,
    sources: Sequence[Path],
    parameters: Mapping[str, int] | None = None,
    timeout_s: float = 3600.0,
) -> SynthResult:
    """Synthesise `top` from SystemVerilog `sources` with `parameters` overridden; count cells."""
    yosys = shutil.which("yosys")
    if yosys is None:
        raise ToolError("yosys not found: install Debian's yosys (apt-get install yosys)")
    params = dict(parameters or {})
    with tempfile.TemporaryDirectory(prefix="aesoc_synth_") as tmp:
        stat_file = Path(tmp) / "stat.json"
        script = Path(tmp) / "synth.ys"
        if any(" " in str(s) for s in sources):
            raise ToolError(f"yosys scripts cannot name source paths with spaces: {sources}")
        lines = [f"read_verilog -sv {' '.join(str(s) for s in sources)}"]
        lines += [f"chparam -set {name} {value} {top}" for name, value in sorted(params.items())]
        lines += [
            f"synth_ice40 -top {top}",
            f"tee -q -o {stat_file} stat -json",
        ]
        script.write_text("\n".join(lines) + "\n")
        import time

        start = time.monotonic()
        with verilator_lock():
            proc = subprocess.run(
                [yosys, "-q", "-s", str(script)],
                capture_output=True,
                text=True,
                timeout=timeout_s,
                check=False,
            )
        seconds = time.monotonic() - start
        if proc.returncode != 0:
            raise ToolError(f"yosys failed on {top} {params}:\n{proc.stdout[-4000:]}{proc.stderr[-4000:]}")
        cells: dict[str, int] = {
            str(k): int(v) for k, v in json.loads(stat_file.read_text())["design"]["num_cells_by_type"].items()
        }
    return SynthResult(
        top=top,
        parameters=params,
        lut4=cells.get("SB_LUT4", 0),
        ff=sum(n for cell, n in cells.items() if cell.startswith("SB_DFF")),
        carry=cells.get("SB_CARRY", 0),
        cells=cells,
        seconds=seconds,
    )
