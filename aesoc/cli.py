"""The `aesoc` command: build, run, bench, report, synth, lint."""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import subprocess
import sys
import time
from pathlib import Path

from aesoc import area, firmware, image, outcome, report, soc, socgen
from aesoc.bench import BenchContext
from aesoc.bench.registry import benchmarks
from aesoc.run import build_and_run
from aesoc.toolchain import REPO, ToolError

RESULTS = REPO / "results"


def _git(*args: str) -> str:
    proc = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True)
    return proc.stdout.strip() if proc.returncode == 0 else ""


def _progress(done: int, total: int, what: str) -> None:
    print(f"  [{done}/{total}] {what}", file=sys.stderr, flush=True)


def _program_dirs() -> list[Path]:
    return sorted(p for p in [*REPO.glob("fw/tests/*"), *REPO.glob("fw/bench/*")] if p.is_dir())


def cmd_build(args: argparse.Namespace) -> int:
    config = soc.load_config(args.config)
    exe = soc.build_model(config, trace=args.trace)
    print(f"model: {exe}")
    for program in [Path(p) for p in args.programs] or _program_dirs():
        print(f"firmware: {firmware.build(program.resolve(), config).elf}")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    """Exit status: the firmware's, or the harness's own (aesoc.outcome); a tool error (missing
    file, bad option) exits with the harness-error status too, never with a program status."""
    try:
        result, line = build_and_run(Path(args.firmware), args.config, cflags=tuple(args.cflags.split()),
                                     libs=tuple(args.lib), max_cycles=args.max_cycles, placement=args.placement,
                                     image=args.image, trace=args.trace, trace_from=args.trace_from,
                                     trace_to=args.trace_to)
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
            print(f"{name:14} {bench.summary}")
        return 0
    names = args.names or list(registry)
    unknown = [n for n in names if n not in registry]
    if unknown:
        raise ToolError(f"unknown benchmark(s) {', '.join(unknown)}; known: {', '.join(registry)}")
    results_dir = Path(args.results)
    results_dir.mkdir(parents=True, exist_ok=True)
    for index, name in enumerate(names, 1):
        print(f"[{index}/{len(names)}] bench {name}", file=sys.stderr, flush=True)
        start = time.monotonic()
        result = registry[name].run(BenchContext(results_dir=results_dir, progress=_progress))
        payload = {
            "name": name,
            "git_revision": _git("rev-parse", "--short", "HEAD") or "unknown",
            "git_dirty": bool(_git("status", "--porcelain")),
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "wall_seconds": round(time.monotonic() - start, 1),
            **dataclasses.asdict(result),
        }
        (results_dir / f"{name}.json").write_text(json.dumps(payload, indent=1) + "\n")
    out = report.render(results_dir)
    print(f"report: {out} and {out.with_suffix('.html')}")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    out = report.render(Path(args.results))
    print(f"report: {out} and {out.with_suffix('.html')}")
    return 0


def cmd_soc(args: argparse.Namespace) -> int:
    """Print the elaborated description (or write its tables into docs/ARCHITECTURE.md)."""
    config = soc.load_config(args.config)
    tables = socgen.doc_tables(config)
    if args.update_docs:
        doc = REPO / "docs" / "ARCHITECTURE.md"
        start, end = f"<!-- soc-tables: {config.name} -->\n", "<!-- /soc-tables -->"
        text = doc.read_text()
        if start not in text or end not in text:
            raise ToolError(f"{doc} has no '{start.strip()}' ... '{end}' block")
        head, rest = text.split(start, 1)
        doc.write_text(head + start + tables + end + rest.split(end, 1)[1])
        print(f"updated {doc.relative_to(REPO)}")
        return 0
    print(f"SoC '{config.name}': {config.description}\nfrom: "
          + ", ".join(str(p.relative_to(REPO) if p.is_relative_to(REPO) else p) for p in config.sources))
    print(tables)
    for inst in config.instances:
        print(f"{inst.name:10} {inst.block.name:10} " + " ".join(f"{k}={v}" for k, v in inst.params.items()))
    return 0


def cmd_lint(args: argparse.Namespace) -> int:
    soc.lint(soc.load_config(args.config))
    print("lint clean")
    return 0


def cmd_synth(args: argparse.Namespace) -> int:
    blocks = area.soc_blocks(soc.load_config(args.config))
    known = ["aes", *blocks]
    if args.block not in known:
        raise ToolError(f"unknown block '{args.block}'; known: {', '.join(known)}")
    if args.block != "aes":
        if args.variant:
            raise ToolError(f"block '{args.block}' has no variants (only 'aes' has)")
        r = area.area(blocks[args.block])
        params = " ".join(f"{k}={v}" for k, v in r.parameters.items()) or "-"
        print(f"{'block':22} {'top':10} {'LUT4':>7} {'FF':>6} {'CARRY':>6}  parameters")
        print(f"{args.block:22} {r.top:10} {r.lut4:>7} {r.ff:>6} {r.carry:>6}  {params}")
        return 0
    engine = area.aes_engine_blocks(args.variant)
    print("aes_engine, synth_ice40 -noflatten (hierarchy kept); enc+dec: DecEnable=1, enc-only: DecEnable=0")
    print(f"{'variant':18} {'LUT4 enc+dec':>12} {'FF enc+dec':>10} {'LUT4 enc-only':>13} {'FF enc-only':>11}  parameters")
    for name, by_label in engine.items():
        full, enc = area.area(by_label["enc+dec"]), area.area(by_label["enc-only"])
        params = " ".join(f"{k}={v}" for k, v in full.parameters.items() if k != "DecEnable")
        print(f"{name:18} {full.lut4:>12} {full.ff:>10} {enc.lut4:>13} {enc.ff:>11}  {params}", flush=True)
    return 0


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
    r.set_defaults(func=cmd_run)

    be = sub.add_parser("bench", help="run benchmarks, write results/NAME.json and the report")
    be.add_argument("names", nargs="*", help="benchmarks to run (default: all)")
    be.add_argument("--list", action="store_true", help="list the registered benchmarks")
    be.add_argument("--results", default=str(RESULTS))
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

    sy = sub.add_parser("synth", help="iCE40 area (Yosys synth_ice40): LUT4 and FF counts of a block")
    sy.add_argument("block", help="'aes' (the AES engine, per variant) or a SoC block of --config")
    sy.add_argument("--variant", action="append", default=[],
                    help="AES engine variant of ip/aes/aes_ip.json (repeatable; default: the benchmarked ones)")
    sy.add_argument("--config", default="full", help="SoC configuration whose block parameters to use")
    sy.set_defaults(func=cmd_synth)

    so = sub.add_parser("soc", help="the elaborated SoC description: map, IRQ and DMA lines, parameters")
    so.add_argument("--config", default="full", help="soc/configs/NAME.toml, or a path to a .toml")
    so.add_argument("--update-docs", action="store_true", help="write the tables into docs/ARCHITECTURE.md")
    so.set_defaults(func=cmd_soc)

    li = sub.add_parser("lint", help="verilator --lint-only -Wall over the SoC")
    li.add_argument("--config", default="full")
    li.set_defaults(func=cmd_lint)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return int(args.func(args))
    except ToolError as exc:
        print(f"aesoc: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
