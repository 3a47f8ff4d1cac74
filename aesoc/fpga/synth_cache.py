"""A design's cell counts for a family: from the build cache, from the synthesis store
(placements/synth/), else from a Yosys run, which both then keep."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from aesoc.common.toolchain import ToolError, tool_slot
from aesoc.fpga import workspace
from aesoc.fpga.design import Design
from aesoc.fpga.store import keep_synthesis, stored_synthesis
from aesoc.fpga.synth import FAMILIES, SynthResult, script_fingerprint, synthesize, tool_version


def synth(design: Design, family: str) -> SynthResult:
    """Cell counts of `design` for `family` (cached by sources, parameters and Yosys version; inside
    `store_at(STORE)` also kept in, and read from, the synthesis store)."""
    if family not in FAMILIES:
        raise ToolError(f"unknown family '{family}'; known: {', '.join(FAMILIES)}")
    cached = _synth_cache(design, family)
    with workspace.once(cached):
        result = _synth_cached(cached, family)
        if result is None:
            result = stored_synthesis(cached.name, family)
            if result is None:
                with tool_slot():
                    result = synthesize(design.top, design.sources, dict(design.parameters), family=family,
                                        flatten=design.flatten, work=workspace.FPGA_BUILD / f"{design.slug}-{family}",
                                        open_outputs=design.open_outputs)
            workspace.CACHE.mkdir(parents=True, exist_ok=True)
            cached.write_text(json.dumps(asdict(result)))
        keep_synthesis(design, cached.name, result)
        return result


def synth_known(design: Design, family: str) -> SynthResult | None:
    """synth's counts where the build cache or the synthesis store holds them; runs no tool."""
    cached = _synth_cache(design, family)
    return _synth_cached(cached, family) or stored_synthesis(cached.name, family)


def _synth_cached(cached: Path, family: str) -> SynthResult | None:
    """A build-cache entry's counts, if the current commands made them."""
    entry = json.loads(cached.read_text()) if cached.is_file() else {}
    return SynthResult(**entry) if entry.get("script") == script_fingerprint(family) else None


def _synth_cache(design: Design, family: str) -> Path:
    # Named by content alone: benchmarks name one block differently ("xbar", "wb_xbar-full"), and a
    # block synthesised under one name is not synthesised again under another.
    return workspace.CACHE / f"synth-{family}-{design.digest(family, tool_version())}.json"
