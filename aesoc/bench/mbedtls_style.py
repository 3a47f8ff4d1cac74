"""Benchmark `mbedtls-style`: SHA-1/256/512 and AES-CBC-128/192/256 over 1 KB buffers in KB/s and
cycles/byte, at -O0, -O2 and -O3, in the layout of seed 002's mbedtls_benchmark tables (its
i.MX RT software figures beside ours), plus hardware rows: AES-CBC through the DMA-fed AES
peripheral (fw/bench/mbedtls_hw) with the iterative and the unrolled engine, beside the seed's
DCP and CAAM figures.
"""

from __future__ import annotations

from typing import Any

from aesoc.bench import BenchContext, BenchResult, Benchmark, Table, Verdict, published, run_line, side_by_side
from aesoc.bench.clock import Clock, soc_clock
from aesoc.bench.sw_aes import CONFIG, Variant, count_instructions, run_variant, variant
from aesoc.common.toolchain import REPO, ToolError
from aesoc.sim.firmware import elf_path
from aesoc.sim.run import build_and_run

PROGRAM = REPO / "fw" / "bench" / "mbedtls_style"
HW_PROGRAM = REPO / "fw" / "bench" / "mbedtls_hw"
# SoC configurations of the hardware rows: the DMA-fed peripheral with each engine.
HW_CONFIGS = {"iterative engine": "full", "unrolled pipelined engine": "dma-unrolled"}
KB = 1024  # mbedtls_benchmark's KiB
ALGORITHMS = ("SHA-1", "SHA-256", "SHA-512", "AES-CBC-128", "AES-CBC-192", "AES-CBC-256")
OPTS = ("-O0", "-O2", "-O3")
TARGET_SHA256_CPB = 55.0  # project issue 17 (issue 5 asked for 40)
# mbedtls 3.6 on this SoC, same compiler and flags, -O2 (shared/anchors.md): the peer row beside ours.
MBEDTLS = "mbedtls"  # the peer whose hashes the issue target compares against (published toml's peers)
# mbedtls' aes.c is a 4-table T-table loop: our closest variant; the constant-time one is added at -O2.
TABLE_VARIANT = "ttable"
CT_VARIANT = "fixslice"
ASM_VARIANT = "asm-ttable"  # the T-table AES in hand-written RV32IM assembly


def _kbps(clock: Clock, cpb: float) -> float:
    return round(clock.mhz * 1e6 / cpb / KB, 1)


def _o2_row(label: str, clock: Clock, cpb: float, opts: tuple[str, ...], tail: list[Any]) -> list[Any]:
    """A row with figures in the -O2 columns only."""
    at = opts.index("-O2")
    return [label, *[""] * (2 * at), _kbps(clock, cpb), round(cpb, 2), *[""] * (2 * (len(opts) - at - 1)), *tail]


def run(ctx: BenchContext) -> BenchResult:
    # A smoke run: -O2 only, hardware rows on the iterative engine only.
    opts = ("-O2",) if ctx.smoke else OPTS
    hw_configs = dict(list(HW_CONFIGS.items())[:1]) if ctx.smoke else HW_CONFIGS
    builds: list[tuple[Variant, str]] = [(variant(TABLE_VARIANT), o) for o in opts] + [(variant(CT_VARIANT), "-O2"), (variant(ASM_VARIANT), "-O2")]
    cpb: dict[tuple[str, str], dict[str, float]] = {}
    runs: list[str] = []
    records: list[dict[str, Any]] = []
    outcomes = side_by_side(ctx, [
        *[(f"mbedtls-style {v.key} {opt}", lambda v=v, opt=opt: run_variant(PROGRAM, v, opt=opt)) for v, opt in builds],
        *[(f"mbedtls-style hardware rows on '{config}'",
           lambda config=config: build_and_run(HW_PROGRAM, config, libs=("crypto",)))
          for config in hw_configs.values()]])
    for (v, opt), (result, line) in zip(builds, outcomes):
        if result.status != "exit" or result.code != 0:
            raise ToolError(f"mbedtls-style firmware failed: {line}\n{result.console[-2000:]}")
        runs.append(line)
        recs = result.records_of("mbedtls_style")
        records += [{**r, "opt": opt} for r in recs]
        cpb[(v.key, opt)] = {r["alg"]: r["cycles"] / r["bytes"] for r in recs}
    hw_cpb: dict[str, dict[str, float]] = {}
    for engine, (result, line) in zip(hw_configs, outcomes[len(builds):]):
        if result.status != "exit" or result.code != 0:
            raise ToolError(f"mbedtls-style hardware firmware failed: {line}\n{result.console[-2000:]}")
        runs.append(line)
        recs = result.records_of("mbedtls_style_hw")
        records += recs
        hw_cpb[engine] = {r["alg"]: r["cycles"] / r["bytes"] for r in recs}
    sw_clock = soc_clock(ctx, CONFIG)
    hw_clocks = {engine: soc_clock(ctx, config) for engine, config in hw_configs.items()}
    pub = published("mbedtls-style")
    rows: list[list[Any]] = []
    for alg in ALGORITHMS:
        row: list[Any] = [alg]
        for opt in opts:
            c = cpb[(TABLE_VARIANT, opt)][alg]
            row += [_kbps(sw_clock, c), round(c, 2)]
        for board in ("rt1060", "rt1170"):
            for level in ("none", "high"):
                fig = pub.get(board, {}).get(level, {}).get(alg)
                row.append(f"{fig['kbps']:,.2f} / {fig['cpb']}" if fig else "—")
        rows.append(row)
    for alg in ALGORITHMS[3:]:
        c = cpb[(CT_VARIANT, "-O2")][alg]
        rows.append(_o2_row(f"{alg} (constant-time fixsliced)", sw_clock, c, opts, [""] * 4))
    for alg in ALGORITHMS[3:]:
        c = cpb[(ASM_VARIANT, "-O2")][alg]
        rows.append(_o2_row(f"{alg} (T-tables, RV32IM assembly)", sw_clock, c, opts, [""] * 4))
    for engine in hw_configs:
        for alg in ALGORITHMS[3:]:
            c = hw_cpb[engine][alg]
            figs = [pub.get(board, {}).get(level, {}).get(alg) for board in ("rt1060", "rt1170")
                    for level in ("hw_none", "hw_high")]
            rows.append(_o2_row(f"{alg} (hardware: DMA-fed AES peripheral, {engine})", hw_clocks[engine], c, opts,
                                [f"{fig['kbps']:,.2f} / {fig['cpb']}" if fig else "—" for fig in figs]))
    for peer in pub.get("peers", []):
        for alg in ALGORITHMS:
            peer_cpb = [peer["cpb"].get(opt, {}).get(alg) for opt in opts]
            if any(peer_cpb):
                rows.append([f"{alg} ({peer['library']}; published, measured on this SoC)",
                             *[cell for c in peer_cpb for cell in ((_kbps(sw_clock, c), c) if c else ("", ""))], *[""] * 4])
    main = Table(
        title=f"mbedtls_benchmark layout: KB/s at the SoC's clock ({sw_clock.short} for software) and cycles/byte, "
              "1 KB buffers",
        columns=["algorithm", *[f"{o} {unit}" for o in opts for unit in ("KB/s", "c/B")],
                 "RT1060 SW none KB/s / c/B", "RT1060 SW high KB/s / c/B", "RT1170 SW none KB/s / c/B",
                 "RT1170 SW high KB/s / c/B"],
        rows=rows,
        notes=[
            f"Ours: swcrypto on the aesoc SoC (VexRiscv RV32IM, 4 KB I$/D$, code and data in SRAM), warm caches, "
            f"measured with the SoC cycle counter; KB/s = clock / (c/B) / 1024, software and peer rows at "
            f"{sw_clock.label}; " + "; ".join(f"hardware rows ({e}) at {c.label}" for e, c in hw_clocks.items())
            + ". Clocks differ between the boards: compare cycles/byte.",
            "Hashes: one call over 1 KB including padding (like mbedtls_sha*()); AES-CBC: encryption of 1 KB with "
            f"the key set once; table rows use the '{TABLE_VARIANT}' variant (4 T-tables, rounds in a loop, like "
            "mbedtls' aes.c).",
            f"Seed figures: {pub.get('rt1060', {}).get('source', 'seed 002')} ({pub.get('rt1060', {}).get('core', '')}) "
            f"and {pub.get('rt1170', {}).get('source', 'seed 002')} ({pub.get('rt1170', {}).get('core', '')}); "
            "mbedtls 2.27.0, IAR 9.10, 'none' = Opt-None, 'high' = Opt-HighSpeed.",
            "Hardware rows: fw/bench/mbedtls_hw (-O2) through the aes_dma driver (8-beat bursts, prefetch, 64-word "
            "FIFO, high priority, polling), key loaded once, third of three requests; on the SoC configurations "
            f"{', '.join(f'{c!r} ({e})' for e, c in hw_configs.items())}. Their RT columns are the seed's hardware "
            "figures: DCP on the RT1060 (AES-CBC-128 only), CAAM on the RT1170.",
            "Peer rows: published c/B (KB/s at our software rows' clock), never from this run: " + "; ".join(
                f"{p['library']}: {p['source']}" for p in pub.get("peers", [])) + ".",
        ],
    )
    mbedtls_sha = {alg: c for p in pub.get("peers", []) if p["library"].startswith(MBEDTLS)
                   for alg, c in p["cpb"].get("-O2", {}).items() if alg.startswith("SHA")}
    sha256 = cpb[(TABLE_VARIANT, "-O2")]["SHA-256"]
    best_sha256 = min(cpb[(TABLE_VARIANT, o)]["SHA-256"] for o in opts)
    target = Table(
        title="Issue target",
        columns=["target", "goal", "measured", "verdict"],
        rows=[["SHA-256 over 1 KB (issue 17)", f"≤ {TARGET_SHA256_CPB:g} c/B",
               f"{sha256:.1f} c/B at -O2 (best {best_sha256:.1f}); mbedtls 3.6 -O2 on this SoC: "
               f"{mbedtls_sha['SHA-256']} c/B",
               "holds" if best_sha256 <= TARGET_SHA256_CPB else "missed"]]
             + [[f"{alg} against mbedtls 3.6 (-O2, same SoC)", "faster",
                 f"{cpb[(TABLE_VARIANT, '-O2')][alg]:.1f} vs {ref} c/B",
                 "holds" if cpb[(TABLE_VARIANT, "-O2")][alg] < ref else "missed"]
                for alg, ref in mbedtls_sha.items()],
        notes=["docs/swcrypto.md breaks the SHA-256 round down into RV32IM instructions and shows its instruction "
               "trace. mbedtls figures: shared/anchors.md (measured for this project on the aesoc SoC)."],
    )
    name = f"{PROGRAM.name}-{TABLE_VARIANT}_O2"
    ins = {r["alg"]: r["cycles"] / r["bytes"] for r in count_instructions(elf_path(CONFIG, name))
           if r["kind"] == "mbedtls_style"}
    where = Table(
        title="Where the cycles go (-O2): instructions executed per byte vs cycles per byte",
        columns=["algorithm", "instructions/B", "cycles/B", "cycles per instruction"],
        rows=[[alg, round(ins[alg], 2), round(cpb[(TABLE_VARIANT, "-O2")][alg], 2),
               round(cpb[(TABLE_VARIANT, "-O2")][alg] / ins[alg], 2)] for alg in ALGORITHMS],
        notes=["Instructions from the same ELF on aesoc.bench.sw_aes.count_instructions (an RV32IM instruction-set "
               "simulator whose cycle counter counts instructions). RV32IM has no rotate: each 32-bit rotation is "
               "three instructions, each 64-bit one six."],
    )
    return BenchResult(tables=[main, where, target], records=records, runs=runs,
                       config={"soc": CONFIG, "buffer_bytes": 1024, "clock_mhz": sw_clock.mhz, "clock": sw_clock.label,
                               "hw_clocks": {e: c.label for e, c in hw_clocks.items()}})


def verdicts(data: dict[str, Any]) -> list[Verdict]:
    """Seed 002 (i.MX RT1060, mbedtls software, Opt-HighSpeed): AES-CBC-128 over 1 KB."""
    rt = published("mbedtls-style")["rt1060"]
    theirs = rt["high"]["AES-CBC-128"]["cpb"]
    mine = [r for r in data["records"] if r.get("kind") == "mbedtls_style" and r["alg"] == "AES-CBC-128"
            and r.get("variant") == TABLE_VARIANT and r.get("opt") == "-O2"]
    if not mine:
        return []
    ours = round(mine[0]["cycles"] / mine[0]["bytes"], 2)
    return [Verdict(rt["source"], "AES-CBC-128 in software over 1 KB (mbedtls_benchmark)", f"{theirs} c/B ({rt['core']})",
                    f"{ours} c/B (swcrypto T-tables, -O2)", round(theirs / ours, 2),
                    "cycles per byte compare the cores' work, not their clocks: a dual-issue Cortex-M7 with "
                    "code in TCM against single-issue RV32IM: section 'mbedtls-style'",
                    run_line(data, f"{PROGRAM.name}-{TABLE_VARIANT}_O2"))]


BENCHMARK = Benchmark(
    name="mbedtls-style",
    summary="SHA-1/256/512 and AES-CBC-128/192/256 over 1 KB in KB/s and cycles/byte at -O0/-O2/-O3, "
            "mbedtls_benchmark layout, seed 002's i.MX RT software figures beside.",
    run=run,
    verdicts=verdicts,
)
