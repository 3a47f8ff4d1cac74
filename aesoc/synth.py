"""Area estimates: synthesise a top with Yosys `synth_ice40` and count LUT4s and flip-flops.

Uses Debian's yosys on PATH. A run holds the Verilator lock, so it never competes with a
Verilator build for the two cores.
"""

from __future__ import annotations

import resource
import shutil
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from aesoc.toolchain import ToolError, verilator_lock


# SB_LUT4 as Yosys's $lut cell (same truth table, I0 the least significant index bit), which
# write_verilog prints as one expression.
_SB_LUT4_TO_LUT = """module SB_LUT4 (output O, input I0, input I1, input I2, input I3);
  parameter [15:0] LUT_INIT = 0;
  \\$lut #(.WIDTH(4), .LUT(LUT_INIT)) _TECHMAP_REPLACE_ (.A({I3, I2, I1, I0}), .Y(O));
endmodule
"""


# Verilator arguments for a netlist written by synth_ice40(netlist=...): Yosys netlists and the
# vendor cell models are not -Wall clean, and they are not our RTL.
GATE_SIM_ARGS = ("-Wno-fatal", "-Wno-lint", "-Wno-style")


@dataclass(frozen=True)
class SynthResult:
    top: str
    parameters: dict[str, int | str]
    lut4: int  # SB_LUT4 cells
    ff: int  # every SB_DFF* cell
    carry: int  # SB_CARRY cells (adders), reported beside the LUTs
    cells: dict[str, int]  # all cells by type, as Yosys counted them
    seconds: float


def synth_ice40(
    top: str,
    sources: Sequence[Path],
    parameters: Mapping[str, int | str] | None = None,
    timeout_s: float = 3600.0,
    flatten: bool = True,
    mem_limit_gb: int = 12,
    netlist: Path | None = None,
) -> SynthResult:
    """Synthesise `top` from SystemVerilog `sources` with `parameters` overridden; count cells.

    flatten=False keeps the hierarchy (`synth_ice40 -noflatten`): each module is mapped once per
    parameter set and the counts are summed over instances, which keeps deep unrolled designs
    within memory at the cost of optimisation across module boundaries. Yosys runs with its
    address space capped at mem_limit_gb, so a run that blows up fails instead of starving the
    machine. With `netlist`, the counted design is also written there as Verilog for gate-level
    simulation, flattened, internal names dropped and each SB_LUT4 as its truth table
    (`INIT >> {I3, I2, I1, I0}`): every netlist wire becomes a public signal of the cocotb model,
    and with the SB_LUT4 model's internal wires the model did not compile in 20 minutes.
    Flip-flops and carries stay iCE40 cells, simulated with `ice40_cells_sim()`.
    """
    yosys = shutil.which("yosys")
    if yosys is None:
        raise ToolError("yosys not found: install Debian's yosys (apt-get install yosys)")
    params = dict(parameters or {})
    with tempfile.TemporaryDirectory(prefix="aesoc_synth_") as tmp:
        stat_file = Path(tmp) / "stat.txt"
        script = Path(tmp) / "synth.ys"
        if any(" " in str(s) for s in [*sources, *([netlist] if netlist else [])]):
            raise ToolError(f"yosys scripts cannot name paths with spaces: {sources} {netlist}")
        lines = [f"read_verilog -sv {' '.join(str(s) for s in sources)}"]
        lines += [f"chparam -set {name} {value} {top}" for name, value in sorted(params.items())]
        lines += [
            f"synth_ice40 -top {top}{'' if flatten else ' -noflatten'}",
            f"tee -q -o {stat_file} stat",
        ]
        if netlist is not None:
            netlist.parent.mkdir(parents=True, exist_ok=True)
            lut_map = Path(tmp) / "lut_map.v"
            lut_map.write_text(_SB_LUT4_TO_LUT)
            lines += [f"techmap -map {lut_map}", "flatten", "opt_clean -purge", f"write_verilog -noattr {netlist}"]
        script.write_text("\n".join(lines) + "\n")
        limit = mem_limit_gb << 30
        start = time.monotonic()
        with verilator_lock():
            proc = subprocess.run(
                [yosys, "-q", "-s", str(script)],
                capture_output=True,
                text=True,
                timeout=timeout_s,
                check=False,
                preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit)),
            )
        seconds = time.monotonic() - start
        if proc.returncode != 0:
            raise ToolError(
                f"yosys failed (exit {proc.returncode}) on {top} {params}:\n{proc.stdout[-4000:]}{proc.stderr[-4000:]}"
            )
        cells = _cell_counts(stat_file.read_text())
    return SynthResult(
        top=top,
        parameters=params,
        lut4=cells.get("SB_LUT4", 0),
        ff=sum(n for cell, n in cells.items() if cell.startswith("SB_DFF")),
        carry=cells.get("SB_CARRY", 0),
        cells=cells,
        seconds=seconds,
    )


def ice40_cells_sim() -> Path:
    """Yosys's simulation models of the iCE40 cells (SB_LUT4, SB_DFF*, SB_CARRY, ...)."""
    yosys = shutil.which("yosys")
    if yosys is None:
        raise ToolError("yosys not found: install Debian's yosys (apt-get install yosys)")
    models = Path(yosys).resolve().parent.parent / "share" / "yosys" / "ice40" / "cells_sim.v"
    if not models.is_file():
        raise ToolError(f"iCE40 cell models not found at {models}")
    return models


def _cell_counts(stat_text: str) -> dict[str, int]:
    """Cells by type from `stat` text: its last block is the whole design (the hierarchy totals
    when the hierarchy is kept). Text, because Yosys 0.23 writes invalid `stat -json` for a
    hierarchical design."""
    if "Number of cells:" not in stat_text:
        raise ToolError("yosys stat printed no cell counts")
    cells: dict[str, int] = {}
    for line in stat_text.rsplit("Number of cells:", 1)[1].splitlines()[1:]:
        parts = line.split()
        if len(parts) != 2 or not parts[1].isdigit():
            break
        cells[parts[0]] = int(parts[1])
    return cells
