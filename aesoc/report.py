"""Render results/*.json into results/report.md and results/report.html."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

import markdown

from aesoc.bench.registry import benchmarks


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:,.2f}" if abs(value) < 1000 else f"{value:,.0f}"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value).replace("|", "\\|")


def _table_md(table: dict[str, Any]) -> list[str]:
    lines = [f"#### {table['title']}", ""]
    lines.append("| " + " | ".join(table["columns"]) + " |")
    lines.append("|" + "|".join("---" for _ in table["columns"]) + "|")
    for row in table["rows"]:
        lines.append("| " + " | ".join(_cell(v) for v in row) + " |")
    lines.append("")
    lines += [f"- {note}" for note in table.get("notes", [])]
    lines.append("")
    return lines


def render(results_dir: Path) -> Path:
    """Write report.md and report.html from whatever benchmark results exist; return the .md path."""
    md: list[str] = [
        "# aesoc benchmark report",
        "",
        "Every figure below comes from a cycle-accurate Verilator simulation of the aesoc RTL; each "
        "section names the runs behind it. Published figures are printed beside ours with their "
        "sources; they are never used to tune anything.",
        "",
    ]
    found = 0
    for name, bench in benchmarks().items():
        path = results_dir / f"{name}.json"
        if not path.is_file():
            md += [f"## {name}", "", f"_Not run yet: `aesoc bench {name}`._", ""]
            continue
        found += 1
        data = json.loads(path.read_text())
        md += [f"## {name}", "", bench.summary, ""]
        md += [f"Revision `{data['git_revision']}`{' (with uncommitted changes)' if data['git_dirty'] else ''}, "
               f"run {data['date']}.", ""]
        for table in data["tables"]:
            md += _table_md(table)
        for plot in data.get("plots", []):
            md += [f"![{plot}]({plot})", ""]
        md += ["Simulation runs:", ""] + [f"- `{run}`" for run in data["runs"]] + [""]
    if found == 0:
        md += ["No results yet: run `aesoc bench`.", ""]
    out_md = results_dir / "report.md"
    results_dir.mkdir(parents=True, exist_ok=True)
    out_md.write_text("\n".join(md))
    body = markdown.markdown("\n".join(md), extensions=["tables"])
    style = ("body{font-family:sans-serif;max-width:1100px;margin:2em auto}"
             "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:3px 8px;"
             "text-align:right}td:first-child,th:first-child{text-align:left}img{max-width:100%}")
    (results_dir / "report.html").write_text(
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape('aesoc report')}</title>"
        f"<style>{style}</style></head><body>{body}</body></html>\n")
    return out_md
