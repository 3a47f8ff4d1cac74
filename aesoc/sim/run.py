"""Run firmware on the simulated SoC and collect what it printed and measured."""

from __future__ import annotations

import hashlib
import json
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aesoc import outcome
from aesoc.firmware import Placement
from aesoc.toolchain import BUILD, ToolError, tool_slot, write_atomic

RECORD_PREFIX = "@@AESOC "
SUMMARY_PREFIX = "AESOC_SIM "
ACTIVITY_PREFIX = "AESOC_ACTIVITY "
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
    reused: bool = False  # the output of an identical earlier run (set_reuse), not simulated now

    @property
    def outcome(self) -> str:
        """What the exit status means (aesoc.outcome.classify): 'program', 'trap', 'timeout', ..."""
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
        reuse: bool = True) -> RunResult:
    """Run one ELF to completion; never raises for a firmware failure, only for harness faults.

    `flash_image` fills the flash (the ELF's own flash segments are then not loaded); `kek` is the
    part's OTP key-encryption key (default: the harness's). Neither appears in any output.
    `otp` programs OTP fuses other than the description's (("integ_req", 1), ("min_version", N)).
    `timeout_s` (default: wall_limit_s(max_cycles)) ends a run that takes longer as an error.
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
    cmd.append(str(elf))
    limit = wall_limit_s(max_cycles) if timeout_s is None else timeout_s
    # Never reused: a traced run (its waveform file is an output) or one a caller wants timed.
    saved = _saved_run(sim, elf, flash_image, (kek, otp), max_cycles) if _reuse and reuse and trace is None else None
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
        reused=reused,
    )


def check_flash_args(placement: Placement, image: Path | None, kek: bytes | None) -> None:
    """Refuse, before anything is built, a flash image without XIP placement or a KEK without image."""
    if image is not None and placement != "xip":
        raise ToolError("a flash image description needs placement 'xip'")
    if kek is not None and image is None:
        raise ToolError("a KEK only matters with a flash image description")


def flash_image_path(elf: Path, image: Path) -> Path:
    """Where the flash image of `elf` under the description `image` is built: next to the ELF,
    named by the description's stem and its path, so that runs with different descriptions of
    the same name (parallel tests each with their own folder) never share a file."""
    where = hashlib.sha256(str(image.resolve()).encode()).hexdigest()[:10]
    return elf.parent / f"{image.stem}-{where}.bin"


def prepare_flash(elf: Path, placement: Placement, image: Path | None,
                  kek: bytes | None) -> tuple[Path | None, bytes | None, str]:
    """For an XIP run with a flash image description: build the image next to the ELF and pick the
    part's KEK (the description's, or `kek` for a part whose KEK differs). Returns the image file,
    the KEK and words naming them for the run's description line (None, None, "" without image)."""
    from aesoc import image as flash_image
    from aesoc.toolchain import REPO

    check_flash_args(placement, image, kek)
    if image is None:
        return None, None, ""
    where = elf.relative_to(REPO) if elf.is_relative_to(REPO) else elf
    desc = flash_image.load_description(image)
    layout = flash_image.xip_layout(elf)
    if desc.key_table != layout.key_table:
        raise ToolError(f"{image}: key_table {desc.key_table:#x}, but the boot stub of {where} reads the "
                        f"table at flash offset {layout.key_table:#x}")
    bin_path = flash_image_path(elf, image)
    flash_image.encrypt(elf, image, bin_path)
    part_kek = desc.kek if kek is None else kek
    n = len(desc.contexts)
    return bin_path, part_kek, (f" in flash image '{image.name}' ({n} OTFAD context{'' if n == 1 else 's'}"
                                f"{', part with another KEK' if kek is not None and kek != desc.kek else ''})")


def build_and_run(program: Path, config_name: str = "full", *, name: str | None = None,
                  cflags: tuple[str, ...] = ("-O2",), libs: tuple[str, ...] = (),
                  max_cycles: int = outcome.DEFAULT_MAX_CYCLES, placement: Placement = "sram",
                  image: Path | None = None, kek: bytes | None = None, otp: tuple[tuple[str, int], ...] = (),
                  trace: Path | None = None,
                  trace_from: int = 0, trace_to: int | None = None, activity: bool = False,
                  reuse: bool = True, clock_gates: bool = True, pgo: bool | None = None) -> tuple[RunResult, str]:
    """Build the SoC model and one program (a firmware folder, or an ELF file as it is), run it;
    return the result and a line naming the run.

    With placement "xip" the program executes in place from the flash. `image` is then a flash
    image description (TOML, docs/xip.md; key_table = 0 as fw/link_xip.ld reserves it): the image
    is built from the ELF (aesoc.image.encrypt) and the part's OTP KEK is the description's, or
    `kek` to simulate a part whose KEK differs, `otp` a part with other OTP fuses. Without `image`
    the ELF's flash segments are loaded as they are (plaintext, no key table). `trace` writes an FST waveform of cycles
    [trace_from, trace_to] (the model is built with tracing). `activity` runs on the activity model,
    which reports the toggles of each window the firmware marks (RunResult.activity). `reuse`:
    False for a run whose wall time is the measure (see set_reuse); the line says when it was reused.
    `clock_gates` False runs on the model without idle clock gating (aesoc.soc.build_model).
    `pgo` runs on the profile-guided model (same cycles and output; default: whether
    aesoc.soc.set_profile_guided is on, as under `aesoc bench`); never with `trace` or `activity`.
    """
    from aesoc import firmware, soc
    from aesoc.toolchain import REPO

    check_flash_args(placement, image, kek)
    config = soc.load_config(config_name)
    if program.is_dir():
        elf = firmware.build(program.resolve(), config, name=name, cflags=cflags, libs=libs, placement=placement).elf
        flags = f" ({' '.join(cflags)})"
    elif program.is_file():
        elf, flags = program, ""
    else:
        raise ToolError(f"no such firmware file or folder: {program}")
    if pgo is None:
        pgo = soc.profile_guided_on() and trace is None and not activity
    sim = soc.build_model(config, trace=trace is not None, activity=activity, clock_gates=clock_gates, pgo=pgo)
    where = elf.relative_to(REPO) if elf.is_relative_to(REPO) else elf
    bin_path, part_kek, image_what = prepare_flash(elf, placement, image, kek)
    result = run(sim, elf, max_cycles=max_cycles, flash_image=bin_path, kek=part_kek, otp=otp, trace=trace,
                 trace_from=trace_from, trace_to=trace_to, reuse=reuse)
    kinds = ["activity model"] if activity else [kind for kind, on in (("model without clock gates", not clock_gates),
                                                                       ("profile-guided model", pgo)) if on]
    model = f" ({', '.join(kinds)})" if kinds else ""
    reused = "; output reused from an identical earlier run (same model, program, image)" if result.reused else ""
    line = (f"{where}{flags}{image_what} on SoC config '{config_name}'{model}: {result.status} "
            f"{result.code} ({result.outcome}) after {result.cycles} cycles at {result.khz:.0f} kHz simulated{reused}")
    return result, line
