"""Render results/*.json into results/report.md and results/report.html."""

from __future__ import annotations

import html
import json
from collections import Counter
from pathlib import Path
from typing import Any

import markdown

from aesoc.bench import Point
from aesoc.bench.plots import loglog_chart
from aesoc.bench.registry import benchmarks

SUMMARY_PLOT = "summary_cpb.png"
# `aesoc sweep` stores its result beside the benchmarks' (aesoc.bench.sweep), rendered after them.
SWEEP = "sweep"
SWEEP_SUMMARY = "design-space sweep of RTL parameters on Dask (`aesoc sweep`)"


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:,.2f}" if abs(value) < 1000 else f"{value:,.0f}"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value).replace("|", "\\|")


SUMMARY_TITLE = "Summary"


def _anchor(name: str) -> str:
    """The id a section heading gets (Python-Markdown's toc slugs and GitHub's agree for our names)."""
    return name.lower()


def _stored(results_dir: Path) -> dict[str, dict[str, Any]]:
    return {name: json.loads((results_dir / f"{name}.json").read_text())
            for name in benchmarks() if (results_dir / f"{name}.json").is_file()}


def _family(by_size: dict[int, tuple[str, Point]]) -> str:
    """How the summary chart draws an option: a cost added to other work, software, or hardware."""
    first = next(iter(by_size.values()))[1]
    return "cost" if first.added_cost else "software" if first.software else "hardware"


def _summary(results_dir: Path) -> list[str]:
    """The report's opening: every benchmark's summary points (Benchmark.points) in one log-log
    chart and one table, each figure naming its run."""
    points: list[tuple[str, Point]] = []
    for name, data in _stored(results_dir).items():
        bench = benchmarks()[name]
        if bench.points is not None:
            points += [(name, p) for p in bench.points(data)]
    md = [f"## {SUMMARY_TITLE}", ""]
    if not points:
        return md + ["_No summary yet: it is drawn from the results of `aesoc bench`._", ""]
    options = list(dict.fromkeys(p.option for _, p in points))
    sizes = sorted({p.nbytes for _, p in points})
    runs = list(dict.fromkeys(f"{name}: {p.run}" for name, p in points))
    by_option = {o: {p.nbytes: (name, p) for name, p in points if p.option == o} for o in options}
    loglog_chart(results_dir / SUMMARY_PLOT,
                 {o: [(n, p.cycles_per_byte) for n, (_, p) in by.items()] for o, by in by_option.items()},
                 title="AES-128 on this SoC: cycles per byte by message size", xlabel="message bytes",
                 ylabel="cycles per byte (log)", families={o: _family(by) for o, by in by_option.items()})
    md += ["Cycles per byte of AES-128 against message size for every way this SoC runs it, each "
           "figure from the benchmark run named in the last column (runs listed below the table). "
           "Lower is better; a line that falls with size carries a fixed per-request cost. A cost line "
           "at zero (nothing added) has no place on the log axis and shows in the table only. Below it: "
           "the fastest option at each size, which option wins for which need, and each seed study's "
           "headline beside ours.", "",
           f"![AES-128 cycles per byte by message size]({SUMMARY_PLOT})", ""]
    table = {"title": "Cycles per byte by message size (the chart's figures)",
             "columns": ["option", *[f"{n:,} B" for n in sizes], "area", "runs"],
             "rows": [], "notes": [f"[{i}] `{r}`" for i, r in enumerate(runs, 1)]}
    for o, by in by_option.items():
        cells = [round(by[n][1].cycles_per_byte, 2) if n in by else "—" for n in sizes]
        area = next((p.area for _, p in by.values() if p.area), "—")
        used = sorted({runs.index(f"{name}: {p.run}") + 1 for name, p in by.values()})
        table["rows"].append([o, *cells, area, " ".join(f"[{i}]" for i in used)])
    md += _table_md(table)
    fastest = {"title": "Fastest option at each measured message size",
               "columns": ["message bytes", "fastest", "cycles/byte", "runner-up", "cycles/byte"], "rows": [],
               "notes": ["Among the options measured at that size (the table above); '—' where only one was."]}
    for n in sizes:
        ranked = sorted((by[n][1].cycles_per_byte, o) for o, by in by_option.items()
                        if n in by and not by[n][1].added_cost)
        if not ranked:
            continue
        second = [ranked[1][1], round(ranked[1][0], 2)] if len(ranked) > 1 else ["—", "—"]
        fastest["rows"].append([n, ranked[0][1], round(ranked[0][0], 2), *second])
    return md + _table_md(fastest) + _table_md(_decisions(by_option, sizes)) + _verdicts(results_dir)


def _figure(value: float, unit: str) -> str:
    return f"{value:,.0f} {unit}" if float(value).is_integer() else f"{value:,.2f} {unit}"


def _ranked_row(need: str, figures: dict[str, float], unit: str, basis: str) -> list[Any] | None:
    """A decision row: the option with the lowest figure, the runner-up (a tie says so), and what
    the figure is."""
    ranked = sorted((value, option) for option, value in figures.items())
    if not ranked:
        return None
    second = ["—", "—"]
    if len(ranked) > 1:
        tie = " (tie)" if round(ranked[1][0], 2) == round(ranked[0][0], 2) else ""
        second = [ranked[1][1], _figure(ranked[1][0], unit) + tie]
    return [need, ranked[0][1], _figure(ranked[0][0], unit), *second, basis]


def _decisions(by_option: dict[str, dict[int, tuple[str, Point]]], sizes: list[int]) -> dict[str, Any]:
    """Which option wins for which need (message size, key-change rate, CPU involvement, area
    budget), computed from the points' figures, so a benchmark that adds points joins the table."""
    ways = {o: {n: p for n, (_, p) in by.items()} for o, by in by_option.items() if _family(by) != "cost"}
    shared = _shared_sizes(ways)
    rows: list[list[Any] | None] = []
    if shared:
        small, bulk = shared[0], shared[-1]
        rows.append(_ranked_row(f"short messages ({small:,} B)", {o: by[small].cycles_per_byte for o, by in ways.items()
                                                                 if small in by}, "c/B", "cycles per byte, this size"))
        rows.append(_ranked_row(f"bulk data ({bulk:,} B)", {o: by[bulk].cycles_per_byte for o, by in ways.items()
                                                            if bulk in by}, "c/B", "cycles per byte, this size"))
        rows.append(_ranked_row(
            f"the CPU free for other work ({bulk:,} B)",
            {o: (by[bulk].cpu_cycles_per_byte if by[bulk].cpu_cycles_per_byte is not None else by[bulk].cycles_per_byte)
             for o, by in ways.items() if bulk in by}, "CPU c/B",
            "cycles per byte the CPU spends: a DMA-fed request costs it the driver's fixed cost only (completion by "
            "interrupt); every other option keeps it busy throughout"))
    firsts = {o: next(iter(by.values())) for o, by in ways.items()}
    keys = {o: float(p.key_cycles) for o, p in firsts.items() if p.key_cycles is not None}
    rows.append(_ranked_row("keys that change often", keys, "cycles per new key",
                            "cycles a new key costs (software: key expansion; hardware: loading the key registers, "
                            "the engine's key schedule included); options whose benchmark measures it"))
    rows += _area_rows(ways)
    return {"title": "Which option for which need",
            "columns": ["if you need", "choose", "its figure", "runner-up", "its figure", "measured as"],
            "rows": [r for r in rows if r is not None],
            "notes": ["Computed from the figures above (and the points' key-change, CPU and area figures, each "
                      "from the same run); an option missing from a row did not measure that figure."]}


def _shared_sizes(ways: dict[str, dict[int, Point]]) -> list[int]:
    """The message sizes measured by two options or more, smallest first."""
    counts = Counter(n for by in ways.values() for n in by)
    return sorted(n for n, count in counts.items() if count >= 2)


def _area_rows(ways: dict[str, dict[int, Point]]) -> list[list[Any] | None]:
    """Area budgets: the options that no smaller one beats (the area / speed Pareto front), at the
    largest message size measured by two or more options with an area figure."""
    sized = {o: {n: p for n, p in by.items() if p.area_lut4 is not None} for o, by in ways.items()}
    shared = _shared_sizes(sized)
    if not shared:
        return []
    n = shared[-1]
    front: list[tuple[int, float, str]] = []
    for area, cpb, option in sorted((by[n].area_lut4, by[n].cycles_per_byte, o) for o, by in sized.items()
                                    if n in by):
        if not front or cpb < front[-1][1]:
            front.append((area, cpb, option))
    rows: list[list[Any] | None] = []
    for i, (area, cpb, option) in enumerate(front):
        nxt = [front[i + 1][2], f"{_figure(front[i + 1][1], 'c/B')} at {front[i + 1][0]:,} LUT4"] \
            if i + 1 < len(front) else ["—", "—"]
        rows.append([f"a SoC of at most {area:,} LUT4 (iCE40), {n:,} B messages", option,
                     f"{_figure(cpb, 'c/B')} at {area:,} LUT4", *nxt,
                     "fastest option within the budget; runner-up: the next faster one, which needs more area"])
    return rows


def _verdicts(results_dir: Path) -> list[str]:
    """One row per seed study a benchmark re-runs (Benchmark.verdicts): its headline beside ours."""
    rows = []
    runs: list[str] = []
    for name, data in _stored(results_dir).items():
        bench = benchmarks()[name]
        for v in bench.verdicts(data) if bench.verdicts is not None else []:
            run = f"{name}: {v.run}"
            if run not in runs:
                runs.append(run)
            rows.append([v.seed, v.measure, v.theirs, v.ours, v.ratio, v.why, f"[{runs.index(run) + 1}]"])
    if not rows:
        return []
    return _table_md({"title": "Verdicts: each seed study's headline beside ours",
                      "columns": ["study", "measure", "theirs", "ours", "theirs / ours", "what explains it", "run"],
                      "rows": rows, "notes": [f"[{i}] `{r}`" for i, r in enumerate(runs, 1)]})


def _table_md(table: dict[str, Any]) -> list[str]:
    lines = [f"#### {table['title']}", ""]
    lines.append("| " + " | ".join(_cell(c) for c in table["columns"]) + " |")
    lines.append("|" + "|".join("---" for _ in table["columns"]) + "|")
    for row in table["rows"]:
        lines.append("| " + " | ".join(_cell(v) for v in row) + " |")
    lines.append("")
    lines += [f"- {note}" for note in table.get("notes", [])]
    lines.append("")
    return lines


def _section(name: str, summary: str, data: dict[str, Any]) -> list[str]:
    """One stored result: its tables, plots and the runs behind them."""
    md = [f"## {name}", "", summary, ""]
    md += [f"Revision `{data['git_revision']}`{' (with uncommitted changes)' if data['git_dirty'] else ''}, "
           f"run {data['date']}"
           + (" (smoke run: smallest sizes, one configuration)." if data.get("smoke") else "."), ""]
    for table in data["tables"]:
        md += _table_md(table)
    for plot in data.get("plots", []):
        md += [f"![{plot}]({plot})", ""]
    return md + ["Simulation runs:", ""] + [f"- `{run}`" for run in data["runs"]] + [""]


def render(results_dir: Path) -> Path:
    """Write report.md and report.html from whatever benchmark results exist; return the .md path."""
    md: list[str] = [
        "# aesoc benchmark report",
        "",
        "Every figure below comes from a cycle-accurate Verilator simulation of the aesoc RTL; each "
        "section names the runs behind it. Published figures are printed beside ours with their "
        "sources; they are never used to tune anything.",
        "",
        "## Contents",
        "",
        f"- [Summary: every way to run AES-128 on this SoC](#{_anchor(SUMMARY_TITLE)})",
        *[f"- [{name}](#{_anchor(name)}): {bench.summary}" for name, bench in benchmarks().items()],
        *([f"- [{SWEEP}](#{_anchor(SWEEP)}): {SWEEP_SUMMARY}"] if (results_dir / f"{SWEEP}.json").is_file() else []),
        "",
    ]
    md += _summary(results_dir)
    found = 0
    for name, bench in benchmarks().items():
        path = results_dir / f"{name}.json"
        if not path.is_file():
            md += [f"## {name}", "", f"_Not run yet: `aesoc bench {name}`._", ""]
            continue
        found += 1
        md += _section(name, bench.summary, json.loads(path.read_text()))
    sweep = results_dir / f"{SWEEP}.json"
    if sweep.is_file():
        md += _section(SWEEP, SWEEP_SUMMARY, json.loads(sweep.read_text()))
    if found == 0:
        md += ["No results yet: run `aesoc bench`.", ""]
    out_md = results_dir / "report.md"
    results_dir.mkdir(parents=True, exist_ok=True)
    out_md.write_text("\n".join(md))
    body = markdown.markdown("\n".join(md), extensions=["tables", "toc"])
    style = ("body{font-family:sans-serif;max-width:1100px;margin:2em auto}"
             "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:3px 8px;"
             "text-align:right}td:first-child,th:first-child{text-align:left}img{max-width:100%}")
    (results_dir / "report.html").write_text(
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape('aesoc report')}</title>"
        f"<style>{style}</style></head><body>{body}</body></html>\n")
    return out_md
