"""One nextpnr run on a harness netlist: its report, or that the design does not fit, or that its
router stalled and was stopped; the Fmax a report gives."""

from __future__ import annotations

import json
import re
import subprocess
import time
from pathlib import Path
from typing import Any

from aesoc.common.toolchain import ToolError, tool_slot, yowasp_command, yowasp_env
from aesoc.fpga.design import DEVICES, DoesNotFit, TARGET_MHZ
from aesoc.fpga.synth import tail

_UTIL_RE = re.compile(r"^Info:\s+(\w+):\s+(\d+)/\s*(\d+)\s+\d+%", re.M)
# router1's progress line every 1000 iterations: iterations | routed, ripped | delta | remaining | times.
_ROUTER_RE = re.compile(r"^Info:\s+(\d+) \|[^|]*\|[^|]*\|\s*(\d+)\|", re.M)
_ARCS_RE = re.compile(r"^Info: Routing (\d+) arcs\.", re.M)
# A routing in its tail (at most 1 % of its arcs left to route) that finds no new minimum of them in
# this many iterations is stopped: router1 has no limit of its own, and xip's seed 2 on an
# LFE5U-25F oscillated between 39 and hundreds for hours (2026-11-28/29) where its other seeds
# routed in five minutes. Before the tail the count wanders for longer (the r5 engine's stayed
# above its minimum for 15,000 iterations at 90 % left, on its way to routing). nextpnr is
# deterministic for a seed, so the stop falls at the same iteration on every run.
ROUTER_STALL_ITERATIONS = 10_000
ROUTER_TAIL = 0.01


def run_nextpnr(netlist: Path, device: str, seed: int, work: Path) -> tuple[dict[str, Any], float]:
    """One nextpnr run; returns its JSON report, or {"misfit": DoesNotFit} when the design does
    not fit the device, and the run's wall seconds (not the wait for a tool slot)."""
    family, flags = DEVICES[device]
    log, report = work / f"nextpnr-seed{seed}.log", work / f"report-seed{seed}.json"
    report.unlink(missing_ok=True)
    cmd = yowasp_command(f"nextpnr_{family}",
                         [*flags, "--json", str(netlist), "--report", str(report), "--seed", str(seed),
                          "--freq", str(TARGET_MHZ[family]), "--timing-allow-fail", "-l", str(log), "-q"])
    stderr = work / f"nextpnr-seed{seed}.stderr"
    log.unlink(missing_ok=True)
    with tool_slot(), open(stderr, "w") as err:
        start = time.monotonic()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, text=True, env=yowasp_env())
        stall = _watch_routing(proc, log)
        seconds = time.monotonic() - start
    if stall is not None:
        return {"unrouted": stall}, seconds
    text = log.read_text(errors="replace") if log.is_file() else stderr.read_text(errors="replace")
    misfit = misfit_from_log(text)
    if misfit is not None:
        return {"misfit": misfit}, seconds
    if proc.returncode != 0 or not report.is_file():
        shown = log if log.is_file() else stderr
        raise ToolError(f"nextpnr-{family} failed (exit {proc.returncode}); log: {shown}\n{tail(shown)}")
    report_data: dict[str, Any] = json.loads(report.read_text())
    return report_data, seconds


def _watch_routing(proc: subprocess.Popen[str], log: Path) -> dict[str, int] | None:
    """Wait for nextpnr; stop it when its router stalls (routing_stall) and say where. nextpnr is
    stopped too when the wait is (an interrupt), as subprocess.run would."""
    try:
        while True:
            try:
                proc.wait(timeout=5.0)
                return None
            except subprocess.TimeoutExpired:
                stall = routing_stall(log.read_text(errors="replace")) if log.is_file() else None
                if stall is not None:
                    return stall
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def routing_stall(text: str) -> dict[str, int] | None:
    """Where router1's progress lines in a log show, in the routing's tail (ROUTER_TAIL of its
    arcs or fewer left), no new minimum of the arcs left for ROUTER_STALL_ITERATIONS: the
    iteration it stops at, the best count and where it was reached. None while it improves."""
    arcs = _ARCS_RE.search(text)
    if arcs is None:
        return None
    tail = ROUTER_TAIL * int(arcs.group(1))
    best, best_at = None, 0
    for iterations, remaining in ((int(i), int(r)) for i, r in _ROUTER_RE.findall(text[arcs.end():])):
        if remaining > tail and best is None:
            continue
        if best is None or remaining < best:
            best, best_at = remaining, iterations
        elif iterations - best_at >= ROUTER_STALL_ITERATIONS:
            return {"iterations": iterations, "best_remaining": best, "best_at": best_at}
    return None


def misfit_from_log(text: str) -> DoesNotFit | None:
    """The first resource that nextpnr's utilisation table shows over capacity, if any."""
    for name, used, available in _UTIL_RE.findall(text):
        if int(used) > int(available):
            return DoesNotFit(name, int(used), int(available))
    return None


def stall_text(stall: dict[str, int]) -> str:
    return (f"router1 stopped at iteration {stall['iterations']:,}, no fewer than {stall['best_remaining']:,} "
            f"arcs left to route since iteration {stall['best_at']:,} ({ROUTER_STALL_ITERATIONS:,} iterations "
            "without progress)")


def clock_fmax(report: dict[str, Any]) -> float:
    """Achieved Fmax (MHz) of the harness clock from a nextpnr JSON report."""
    clocks = report.get("fmax", {})
    if not clocks:
        raise ToolError("nextpnr reported no clock: the design has no registers on its clock")
    return float(min(c["achieved"] for c in clocks.values()))
