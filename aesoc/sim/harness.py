"""Run one ELF on a built model of the SoC (the C++ harness, sim/main.cpp) and collect what the
program printed and measured: the harness's summary, the firmware's records, activity windows."""

from __future__ import annotations

import hashlib
import json
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aesoc.common import outcome
from aesoc.common.toolchain import BUILD, ToolError, tool_slot, write_atomic
from aesoc.sim.power import regs_file

RECORD_PREFIX = "@@AESOC "
SUMMARY_PREFIX = "AESOC_SIM "
ACTIVITY_PREFIX = "AESOC_ACTIVITY "
POWER_PREFIX = "AESOC_POWER "
# Outputs of finished simulations, by the digest of everything the run reads (see `run`).
REUSED_RUNS = BUILD / "runs"
_reuse = False


def set_reuse(on: bool) -> None:
    """Whether `run` may answer from REUSED_RUNS (`aesoc bench` turns it on): a simulation is
    deterministic, so the same model binary, ELF, flash image, KEK and cycle limit give the same
    output; anything that differs (a rebuilt model, a changed program) runs again."""
    global _reuse
    _reuse = on


def reuse_on() -> bool:
    """Whether deterministic results may be answered from an identical earlier run (set_reuse)."""
    return _reuse


@dataclass(frozen=True)
class ActivityWindow:
    """Toggles of one firmware-marked window (activity model only): cycles [start, end] and, per
    hierarchy scope of the model, the toggles of that scope's own signal bits (clock left out)."""
    index: int
    start: int
    end: int
    toggles: dict[str, int]

    def under(self, scope: str) -> int:
        """Toggles of `scope` and everything below it."""
        return sum(n for s, n in self.toggles.items() if s == scope or s.startswith(scope + "."))


@dataclass(frozen=True)
class PowerCapture:
    """A power capture request (power model only; sim/main.cpp's PowerCapture): one trace of
    `samples` samples per window the program marks, written to `out` (class byte + uint16 samples)."""
    out: Path
    samples: int


@dataclass(frozen=True)
class PowerSummary:
    """What a power capture recorded: windows, samples per trace, flip-flops summed, the shortest
    and longest window in cycles (opening to closing store) and how many were longer than a trace."""
    windows: int
    samples: int
    flip_flops: int
    shortest: int
    longest: int
    cropped: int


@dataclass
class RunResult:
    status: str  # "exit", "timeout" or "error" (the harness's summary)
    code: int
    cycles: int
    seconds: float
    khz: float
    console: str
    stderr: str
    records: list[dict[str, Any]] = field(default_factory=list)
    activity: list[ActivityWindow] = field(default_factory=list)
    power: PowerSummary | None = None
    reused: bool = False  # the output of an identical earlier run (set_reuse), not simulated now

    @property
    def outcome(self) -> str:
        """What the exit status means (aesoc.common.outcome.classify): 'program', 'trap', 'timeout', ..."""
        return outcome.classify(self.code)

    def records_of(self, kind: str) -> list[dict[str, Any]]:
        return [r for r in self.records if r.get("kind") == kind]


def parse_records(console: str) -> list[dict[str, Any]]:
    records = []
    for line in console.splitlines():
        if line.startswith(RECORD_PREFIX):
            try:
                records.append(json.loads(line[len(RECORD_PREFIX):]))
            except json.JSONDecodeError as exc:
                raise ToolError(f"malformed firmware record: {line!r} ({exc})") from exc
    return records


def parse_activity(stderr: str) -> list[ActivityWindow]:
    windows = []
    for line in stderr.splitlines():
        if line.startswith(ACTIVITY_PREFIX):
            w = json.loads(line[len(ACTIVITY_PREFIX):])
            windows.append(ActivityWindow(w["window"], w["from"], w["to"], w["toggles"]))
    return windows


def parse_power(stderr: str) -> PowerSummary | None:
    lines = [ln for ln in stderr.splitlines() if ln.startswith(POWER_PREFIX)]
    return PowerSummary(**json.loads(lines[-1][len(POWER_PREFIX):])) if lines else None


# The cycle limit bounds a run; the wall-clock limit only catches a harness that stopped
# simulating. It allows a run to use all its cycles at 20 kHz, a fifth of the dma-unrolled SoC's
# speed on an idle machine (90-100 kHz), which ran out of a fixed 1,800 s under a loaded
# `aesoc bench`; the activity model (11-18 kHz) runs only short programs.
SLOWEST_KHZ = 20


def wall_limit_s(max_cycles: int) -> float:
    return max(1800.0, max_cycles / (SLOWEST_KHZ * 1000))


def run(sim: Path, elf: Path, *, max_cycles: int = outcome.DEFAULT_MAX_CYCLES, trace: Path | None = None,
        trace_from: int = 0, trace_to: int | None = None, timeout_s: float | None = None,
        flash_image: Path | None = None, kek: bytes | None = None, otp: tuple[tuple[str, int], ...] = (),
        power: PowerCapture | None = None, reuse: bool = True) -> RunResult:
    """Run one ELF to completion; never raises for a firmware failure, only for harness faults.

    `flash_image` fills the flash (the ELF's own flash segments are then not loaded); `kek` is the
    part's OTP key-encryption key (default: the harness's). Neither appears in any output.
    `otp` programs OTP fuses other than the description's (("integ_req", 1), ("min_version", N)).
    `timeout_s` (default: wall_limit_s(max_cycles)) ends a run that takes longer as an error.
    `power` (on a power model) records power traces of the marked windows (RunResult.power).
    With `set_reuse(True)` and `reuse`, an identical earlier run's output answers (RunResult.reused)."""
    cmd = [str(sim), "--max-cycles", str(max_cycles)]
    if flash_image is not None:
        cmd += ["--flash-image", str(flash_image)]
    if kek is not None:
        if len(kek) != 16:
            raise ToolError(f"the KEK must be 16 bytes, got {len(kek)}")
        cmd += ["--kek", kek.hex()]
    for fuse, value in otp:
        cmd += [f"--otp-{fuse.replace('_', '-')}", str(value)]
    if trace is not None:
        cmd += ["--trace", str(trace), "--trace-from", str(trace_from)]
        if trace_to is not None:
            cmd += ["--trace-to", str(trace_to)]
    if power is not None:
        cmd += ["--power", str(power.out), "--power-regs", str(regs_file(sim)), "--power-samples", str(power.samples)]
    cmd.append(str(elf))
    limit = wall_limit_s(max_cycles) if timeout_s is None else timeout_s
    # Never reused: a traced or power-captured run (its file is an output) or one a caller wants timed.
    fresh = trace is not None or power is not None
    saved = _saved_run(sim, elf, flash_image, (kek, otp), max_cycles) if _reuse and reuse and not fresh else None
    if saved is not None and saved.is_file():
        stdout, stderr = json.loads(saved.read_text())
        return _result(stdout, stderr, reused=True)
    with tool_slot():
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=limit)
        except subprocess.TimeoutExpired as exc:
            raise ToolError(f"{elf.name} on {sim}: the simulation ran past its wall-clock limit of {limit:.0f} s "
                            f"(--max-cycles {max_cycles}) and was stopped; a loaded machine simulates slower, "
                            "so run it with fewer jobs (-j) or on an idle machine") from exc
    result = _result(proc.stdout, proc.stderr, returncode=proc.returncode)
    if saved is not None:
        saved.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(saved, json.dumps([proc.stdout, proc.stderr]))
    return result


def _saved_run(sim: Path, elf: Path, flash_image: Path | None, part: object, max_cycles: int) -> Path:
    digest = hashlib.sha256(repr((max_cycles, part)).encode())
    for path in (sim, elf, flash_image):
        digest.update(hashlib.sha256(path.read_bytes()).digest() if path is not None else b"-")
    return REUSED_RUNS / f"run-{digest.hexdigest()[:24]}.json"


def _result(stdout: str, stderr: str, returncode: int | None = None, reused: bool = False) -> RunResult:
    summary_lines = [ln for ln in stderr.splitlines() if ln.startswith(SUMMARY_PREFIX)]
    if not summary_lines:
        raise ToolError(f"simulator ended without a summary (exit {returncode}):\n{stderr[-2000:]}")
    summary = json.loads(summary_lines[-1][len(SUMMARY_PREFIX):])
    return RunResult(
        status=summary["status"],
        code=int(summary["code"]),
        cycles=int(summary["cycles"]),
        seconds=float(summary["seconds"]),
        khz=float(summary["khz"]),
        console=stdout,
        stderr=stderr,
        records=parse_records(stdout),
        activity=parse_activity(stderr),
        power=parse_power(stderr),
        reused=reused,
    )
