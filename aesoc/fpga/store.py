"""The placement store of the repository (placements/): what survives the build cache.

Each seed's outcome is kept twice: in the build cache, and, inside `store_at(STORE)`, in the
placement store (one small record per design, device and seed, keyed as the cache is). A SoC's
seed takes hours here, more than one working session on a fresh machine; the store lets
placements made at different times add up, and lets a fresh clone state its clocks from them. A
record counts as the current design's only while its key matches the current sources and tools;
the report falls back on an earlier design's records, saying so. Benchmarks' cell counts
(aesoc.fpga.synth_cache) are kept the same way under `placements/synth/`, named by the content
digest of their cache entry, so a fresh clone does not run Yosys on unchanged sources.
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from aesoc.common.toolchain import BUILD, REPO, write_atomic
from aesoc.fpga.design import Design, DoesNotFit, TARGET_MHZ, Target, tool_versions
from aesoc.fpga.synth import SynthResult, script_fingerprint

STORE = REPO / "placements"
# The store whose placement and synthesis records are read; written only when _writes.
_store: Path | None = None
_writes = False


@contextmanager
def store_at(folder: Path | None, read_only: bool = False) -> Iterator[None]:
    """Read and write placement and synthesis records in `folder` while in this block (None: the
    build cache alone, as tests have it, so that they run the tools they check); `read_only`: read
    them, write none (smoke runs)."""
    global _store, _writes
    before = _store, _writes
    _store, _writes = folder, folder is not None and not read_only
    try:
        yield
    finally:
        _store, _writes = before


def _record_path(t: Target, seed: int) -> Path | None:
    return None if _store is None else _store / f"{t.design.slug}-{t.device}-seed{seed}.json"


def _record(t: Target, seed: int) -> dict[str, Any] | None:
    """The store's record of this design, device and seed, whatever sources and tools it placed."""
    path = _record_path(t, seed)
    if path is None or not path.is_file():
        return None
    record: dict[str, Any] = json.loads(path.read_text())
    return record


def stored_record(t: Target, seed: int) -> dict[str, Any] | None:
    """The store's record of this run, if it holds one for the current key."""
    record = _record(t, seed)
    return record if record is not None and record.get("key") == t.key(seed) else None


def earlier_record(t: Target, seed: int) -> dict[str, Any] | None:
    """The store's record of this design, device and seed placed from other sources or tools."""
    record = _record(t, seed)
    return record if record is not None and record.get("key") != t.key(seed) else None


def changed_since(t: Target, records: Sequence[dict[str, Any]]) -> str:
    """'placed at 1234abc (2026-11-27) from earlier sources: ip/x.sv changed since' for the records
    of an earlier placement: what a reader needs to weigh figures that are not of the current design."""
    revisions = sorted({r["placed"]["revision"] for r in records})
    when = sorted({r["placed"]["recorded_utc"][:10] for r in records})
    changes = []
    if any(r["tools"] != tool_versions() for r in records):
        changes.append("the tools")
    if any(r["target_mhz"] != TARGET_MHZ[t.family] for r in records):
        changes.append("the timing target")
    if any(r["netlist"] != t.netlist for r in records):
        tracked = [str(src.relative_to(REPO)) for src in t.design.sources if src.is_relative_to(REPO)
                   and not src.is_relative_to(BUILD)]
        files = sorted({f for rev in revisions for f in _git_lines("diff", "--name-only", rev.rstrip("+"), "--",
                                                                   *tracked)})
        changes.append(", ".join(files[:4]) + (f" and {len(files) - 4} more" if len(files) > 4 else "")
                       if files else "its generated sources or parameters")
    return (f"placed at {', '.join(revisions)} ({', '.join(when)}) from an earlier design: "
            f"{' and '.join(changes)} changed since; not yet placed as it is now")


def _git_lines(*args: str) -> list[str]:
    proc = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, check=False)
    return proc.stdout.split() if proc.returncode == 0 else []


def store_record(t: Target, seed: int, outcome: dict[str, Any], bits: tuple[int, int],
                  seconds: float | None, revision: str) -> None:
    """Write this run's record (replacing one of older sources: one record per design, device and seed)."""
    path = _record_path(t, seed)
    if path is None or not _writes:
        return
    record = {
        "design": t.design.name, "top": t.design.top, "parameters": dict(t.design.parameters),
        "device": t.device, "seed": seed, "key": t.key(seed), "netlist": t.netlist,
        "tools": tool_versions(), "target_mhz": TARGET_MHZ[t.family],
        "harness_bits": {"in": bits[0], "out": bits[1]},
        "outcome": essentials(outcome),
        "placed": {"recorded_utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime()), "revision": revision,
                   **({"seconds": round(seconds)} if seconds is not None else {})},
    }
    write_atomic(path, json.dumps(record, indent=1, sort_keys=True) + "\n")


def essentials(outcome: dict[str, Any]) -> dict[str, Any]:
    """What a record keeps of nextpnr's report: utilisation, clocks, and each critical path's ends,
    delay and length (the whole path runs to megabytes for a SoC)."""
    if "misfit" in outcome:
        misfit = outcome["misfit"]
        if isinstance(misfit, DoesNotFit):  # nextpnr's own counts are recorded as they always were
            misfit = {k: v for k, v in asdict(misfit).items() if k not in ("at_least", "part") or v}
        return {"misfit": misfit}
    if "unrouted" in outcome:
        return {"unrouted": outcome["unrouted"]}
    paths = []
    for path in outcome.get("critical_paths", []):
        steps = path.get("path", [])
        nets = [s for s in steps if s.get("type") == "routing"]
        paths.append({"from": path.get("from"), "to": path.get("to"),
                      "delay_ns": round(sum(s.get("delay", 0.0) for s in steps), 3), "nets": len(nets),
                      "start": steps[0]["from"]["cell"] if steps else "",
                      "end": steps[-1]["to"]["cell"] if steps else ""})
    return {"utilization": outcome["utilization"], "fmax": outcome["fmax"], "critical_paths": paths}


def record_provenance(t: Target, seeds: Sequence[int], earlier: bool = False) -> str:
    """'placements/X.json: recorded 2026-11-27 16:20 UTC at 1234abc (7,310 s)' for each seed the
    store records (the seconds of the nextpnr run, when the record was made by it); '' without a
    store. `earlier`: the records of earlier sources or tools instead of the current ones."""
    lines = []
    for seed in seeds:
        record, path = (earlier_record if earlier else stored_record)(t, seed), _record_path(t, seed)
        if record is not None and path is not None:
            placed = record["placed"]
            took = f" ({placed['seconds']:,} s)" if "seconds" in placed else ""
            lines.append(f"{path.parent.name}/{path.name}: recorded {placed['recorded_utc']} UTC at "
                         f"{placed['revision']}{took}")
    return "; ".join(lines)


def checkout_revision() -> str:
    """The checkout's revision, '+' when it has uncommitted changes ('unknown' outside git)."""
    def git(*args: str) -> str:
        proc = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, check=False)
        return proc.stdout.strip() if proc.returncode == 0 else ""
    head = git("rev-parse", "--short", "HEAD")
    return head + ("+" if git("status", "--porcelain", "--untracked-files=no") else "") if head else "unknown"


def _synth_record_path(name: str) -> Path | None:
    return None if _store is None else _store / "synth" / name


def stored_synthesis(name: str, family: str) -> SynthResult | None:
    """The store's counts for this cache entry's name (the same content digest), saying where they
    came from; None outside the store, without a record, or for a record that other synthesis
    commands made."""
    path = _synth_record_path(name)
    if path is None or not path.is_file():
        return None
    record = json.loads(path.read_text())
    if record["result"].get("script") != script_fingerprint(family):
        return None
    result, recorded = SynthResult(**record["result"]), record["recorded"]
    return replace(result, stored=f"{path.parent.parent.name}/synth/{name}: synthesised by {result.tool} in "
                                  f"{result.seconds:.0f} s, recorded {recorded['utc']} UTC at {recorded['revision']}")


def keep_synthesis(design: Design, name: str, result: SynthResult) -> None:
    """Add this synthesis to the store (when in use) unless it holds a current record of it (one
    that other synthesis commands made is replaced)."""
    path = _synth_record_path(name)
    if path is None or not _writes or (path.is_file() and stored_synthesis(name, result.family) is not None):
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {"design": design.name, "top": design.top, "flatten": design.flatten,
              "result": {k: v for k, v in asdict(result).items() if k != "stored"},
              "recorded": {"utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime()), "revision": checkout_revision()}}
    write_atomic(path, json.dumps(record, indent=1, sort_keys=True) + "\n")


def stored_synth_runs(results: Iterable[SynthResult]) -> list[str]:
    """A benchmark's run lines for the counts the synthesis store gave instead of a Yosys run here."""
    return [f"{r.family} {r.top} {r.parameters}: {r.stored}" for r in results if r.stored]
