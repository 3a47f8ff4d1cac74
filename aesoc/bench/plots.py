"""Plots for the report (matplotlib, no display needed)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from functools import wraps
from pathlib import Path
from typing import Any

# matplotlib.pyplot, imported by the first drawing rather than with this module: importing it was
# most of the `aesoc` command's start-up (0.44 of 0.71 s), which every command paid.
plt: Any = None
# pyplot keeps global state: benchmarks that run side by side (aesoc bench -j) draw one at a time.
_pyplot = threading.Lock()


def _one_at_a_time(draw: Callable[..., str]) -> Callable[..., str]:
    @wraps(draw)
    def locked(*args: Any, **kwargs: Any) -> str:
        with _pyplot:
            _import_pyplot()
            return draw(*args, **kwargs)

    return locked


def _import_pyplot() -> None:
    global plt
    if plt is None:
        import matplotlib

        matplotlib.use("Agg")  # files only, no display
        import matplotlib.pyplot as pyplot

        plt = pyplot


@_one_at_a_time
def bar_chart(path: Path, labels: Sequence[str], values: Sequence[float], *, title: str, ylabel: str) -> str:
    """Horizontal bars, one per label; returns the file name for BenchResult.plots."""
    fig, ax = plt.subplots(figsize=(8, 0.45 * len(labels) + 1.2))
    ax.barh(list(labels), list(values), color="#3b6ea5")
    ax.invert_yaxis()
    ax.set_xlabel(ylabel)
    ax.set_title(title)
    for y, v in enumerate(values):
        ax.text(v, y, f" {v:g}", va="center", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path.name


@_one_at_a_time
def line_chart(path: Path, x: Sequence[float], series: dict[str, Sequence[float]], *, title: str,
               xlabel: str, ylabel: str, logx: bool = False) -> str:
    """One line per series over a shared x axis; returns the file name for BenchResult.plots."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for name, ys in series.items():
        ax.plot(list(x), list(ys), marker="o", label=name)
    if logx:
        ax.set_xscale("log", base=2)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path.name


@_one_at_a_time
def stacked_bars(path: Path, labels: Sequence[str], parts: dict[str, Sequence[float]], *, title: str,
                 ylabel: str) -> str:
    """One bar per label, split into the named parts stacked bottom to top; returns the file name."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    bottom = [0.0] * len(labels)
    for name, values in parts.items():
        ax.bar(list(labels), list(values), bottom=bottom, label=name)
        bottom = [b + v for b, v in zip(bottom, values)]
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=8)
    ax.tick_params(axis="x", labelrotation=30, labelsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path.name


# The summary chart's families: hardware ways in distinct solid colours, software variants dashed
# in greys with a marker each, added costs dotted; colours never repeat inside a family.
_SOFTWARE_MARKERS = ("s", "^", "v", "D", "P", "X", "<", ">", "*", "h")


def _family_styles(names: Sequence[str], families: dict[str, str]) -> dict[str, dict[str, Any]]:
    styles: dict[str, dict[str, Any]] = {}
    software = [n for n in names if families.get(n) == "software"]
    hardware = [n for n in names if families.get(n, "hardware") == "hardware"]
    cost = [n for n in names if families.get(n) == "cost"]
    greys = plt.get_cmap("Greys")
    for i, name in enumerate(software):
        styles[name] = {"color": greys(0.4 + 0.55 * i / max(1, len(software) - 1)), "linestyle": "--",
                        "marker": _SOFTWARE_MARKERS[i % len(_SOFTWARE_MARKERS)]}
    palette = plt.get_cmap("tab10" if len(hardware) <= 10 else "tab20")
    for i, name in enumerate(hardware):
        styles[name] = {"color": palette(i), "linestyle": "-", "marker": "o", "linewidth": 2}
    reds = plt.get_cmap("Reds")
    for i, name in enumerate(cost):
        styles[name] = {"color": reds(0.6 + 0.3 * i / max(1, len(cost) - 1)), "linestyle": ":", "marker": "x"}
    return styles


@_one_at_a_time
def loglog_chart(path: Path, series: dict[str, Sequence[tuple[float, float]]], *, title: str, xlabel: str,
                 ylabel: str, families: dict[str, str] | None = None) -> str:
    """One line per series of (x, y) points, both axes logarithmic; returns the file name.
    families: series name -> "hardware" (default), "software" or "cost"; the legend lists them in
    that order, each family styled apart."""
    families = families or {}
    order = {"hardware": 0, "software": 1, "cost": 2}
    names = sorted(series, key=lambda n: order[families.get(n, "hardware")])
    styles = _family_styles(names, families)
    fig, ax = plt.subplots(figsize=(10, 6))
    for name in names:
        positive = sorted(p for p in series[name] if p[1] > 0)  # a log axis has no zero: such lines stay in the table
        if not positive:
            continue
        xs, ys = zip(*positive)
        ax.plot(xs, ys, label=name, **styles[name])
    return _save_loglog(fig, ax, path, title=title, xlabel=xlabel, ylabel=ylabel, xbase=2, legend=bool(ax.lines))


def _save_loglog(fig: Any, ax: Any, path: Path, *, title: str, xlabel: str, ylabel: str, xbase: int,
                 legend: bool) -> str:
    """Both axes logarithmic, labels, grid and the legend outside on the right; writes the file."""
    ax.set_xscale("log", base=xbase)
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    if legend:
        ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path.name


def pareto_front(points: Sequence[tuple[str, float, float]]) -> list[tuple[str, float, float]]:
    """The points no other point beats on both axes (smaller x and smaller y), by increasing x."""
    front: list[tuple[str, float, float]] = []
    for point in sorted(points, key=lambda p: (p[1], p[2])):
        if not front or point[2] < front[-1][2]:
            front.append(point)
    return front


@_one_at_a_time
def pareto_chart(path: Path, groups: dict[str, Sequence[tuple[str, float, float]]], *, title: str, xlabel: str,
                 ylabel: str) -> str:
    """Labelled (name, x, y) points per group on log-log axes, each group's Pareto front joined by a
    step line (smaller is better on both axes); returns the file name."""
    fig, ax = plt.subplots(figsize=(10, 6))
    palette = plt.get_cmap("tab10")
    for i, (group, points) in enumerate(groups.items()):
        shown = [p for p in points if p[1] > 0 and p[2] > 0]
        if not shown:
            continue
        colour = palette(i % 10)
        ax.scatter([p[1] for p in shown], [p[2] for p in shown], color=colour, label=group, zorder=3)
        for name, x, y in shown:
            ax.annotate(name, (x, y), textcoords="offset points", xytext=(4, 4), fontsize=7, color=colour)
        front = pareto_front(shown)
        if len(front) > 1:
            ax.step([p[1] for p in front], [p[2] for p in front], where="post", color=colour, alpha=0.6,
                    linestyle="--", label=f"{group}: Pareto front")
    return _save_loglog(fig, ax, path, title=title, xlabel=xlabel, ylabel=ylabel, xbase=10,
                        legend=bool(ax.collections))
