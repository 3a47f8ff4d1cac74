"""The logic-depth guard (aesoc.fpga.depth, docs/fpga.md "Logic depth"): every IP block of the full
configuration stays at or under the LUT-level ceiling in its manifest, and the counting itself is
checked on a hand-built netlist and on a design made deeper on purpose."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from aesoc.common.toolchain import ToolError
from aesoc.fpga import depth
from aesoc.fpga.design import Design
from aesoc.soc import ipblock

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize("design", depth.guarded("full"), ids=lambda d: d.name)
def test_block_within_its_ceiling(design: Design) -> None:
    limit = depth.ceiling(design.top)
    assert limit is not None, f"{design.top}: no [timing] max_lut_levels in its manifest"
    found = depth.depth(design, write_store=False)
    assert found.levels <= limit, (
        f"{design.name}: {found.levels} LUT levels, ceiling {limit}: {found.start} -> {found.end} {found.cells} "
        "(a deeper path costs about 1.4 ns a level on ECP5, docs/fpga.md)")


def _cell(kind: str, **conns: list[Any]) -> dict[str, Any]:
    outputs = {"Z", "Q", "S0", "S1", "COUT", "DO"}
    return {"type": kind, "connections": conns,
            "port_directions": {p: "output" if p in outputs else "input" for p in conns}}


def test_levels_of_a_hand_built_netlist() -> None:
    # FF 2 -> LUT (3) -> PFUMX via ALUT, no level (4) -> LUT (5) -> CCU2C A0 (6), carry to the
    # next CCU2C, no level (7) -> its S1 into the FF: 3 levels. A second path from input bit 10
    # through one LUT is shallower.
    module = {
        "ports": {"d": {"direction": "input", "bits": [10]}, "q": {"direction": "output", "bits": [11]}},
        "cells": {
            "ff_a": _cell("TRELLIS_FF", CLK=[1], DI=[8], Q=[2]),
            "lut1": _cell("LUT4", A=[2], B=["0"], C=["0"], D=["0"], Z=[3]),
            "mux": _cell("PFUMX", ALUT=[3], BLUT=[3], C0=[2], Z=[4]),
            "lut2": _cell("LUT4", A=[4], B=[2], C=["1"], D=["0"], Z=[5]),
            "cc0": _cell("CCU2C", A0=[5], B0=["0"], C0=["0"], D0=["0"], A1=["0"], B1=["0"], C1=["0"],
                         D1=["0"], CIN=["0"], S0=[20], S1=[21], COUT=[6]),
            "cc1": _cell("CCU2C", A0=["0"], B0=["0"], C0=["0"], D0=["0"], A1=["0"], B1=["0"], C1=["0"],
                         D1=["0"], CIN=[6], S0=[22], S1=[7], COUT=[23]),
            "ff_b": _cell("TRELLIS_FF", CLK=[1], DI=[7], Q=[8]),
            "lut3": _cell("LUT4", A=[10], B=["0"], C=["0"], D=["0"], Z=[11]),
        },
        "netnames": {},
    }
    found = depth.deepest("hand", "hand", module)
    assert found.levels == 3
    assert found.cells == {"CCU2C": 2, "LUT4": 2, "PFUMX": 1}
    assert found.start.startswith("TRELLIS_FF") and found.end.startswith("TRELLIS_FF")
    assert found.cell_ns > 0


def test_unknown_cells_are_an_error() -> None:
    module = {"ports": {}, "cells": {"m": _cell("ALU54B", A0=[2], R0=[3])}, "netnames": {}}
    with pytest.raises(ToolError, match="no timing arcs for cell type.*ALU54B"):
        depth.deepest("m", "m", module)


def test_multiplier_splits_a_path() -> None:
    # FF -> LUT -> multiplier -> LUT -> LUT -> FF: the multiplier has no delay model, so its
    # input side (1 level) and output side (2 levels) count as two paths.
    module = {
        "ports": {},
        "cells": {
            "ff_a": _cell("TRELLIS_FF", CLK=[1], DI=[9], Q=[2]),
            "lut1": _cell("LUT4", A=[2], B=["0"], C=["0"], D=["0"], Z=[3]),
            "mul": {"type": "MULT18X18D", "connections": {"A0": [3], "B0": [2], "P0": [4]},
                    "port_directions": {"A0": "input", "B0": "input", "P0": "output"}},
            "lut2": _cell("LUT4", A=[4], B=["0"], C=["0"], D=["0"], Z=[5]),
            "lut3": _cell("LUT4", A=[5], B=[2], C=["0"], D=["0"], Z=[6]),
            "ff_b": _cell("TRELLIS_FF", CLK=[1], DI=[6], Q=[9]),
        },
        "netnames": {},
    }
    found = depth.deepest("mul", "mul", module)
    assert found.levels == 2 and found.start.startswith("MULT18X18D") and found.end.startswith("TRELLIS_FF")


def test_open_output_is_not_counted() -> None:
    """A block's simulation clock-gating hint is left open as the SoC leaves it: the deep logic
    only it needs is neither counted nor built."""
    design = Design("depth_hint", "depth_hint", (DATA / "depth_hint.sv",))
    hinted = depth.depth(design, read_store=False, write_store=False)
    opened = depth.depth(replace(design, open_outputs=("hint_o",)), read_store=False, write_store=False)
    assert hinted.end == "output hint_o" and hinted.levels >= 3
    assert opened.levels <= 1 and opened.end != "output hint_o"


def test_a_deeper_design_counts_more_levels() -> None:
    def levels(stages: int) -> int:
        design = Design(f"depth_chain-{stages}", "depth_chain", (DATA / "depth_chain.sv",), (("Stages", stages),))
        return depth.depth(design, read_store=False, write_store=False).levels

    shallow, deep = levels(1), levels(4)
    assert 1 <= shallow < deep


def test_manifest_ceiling_is_checked(tmp_path: Path) -> None:
    folder = tmp_path / "blk"
    folder.mkdir()
    (folder / "blk.sv").write_text("module blk; endmodule\n")
    (folder / "ip.toml").write_text('name = "blk"\nmodule = "blk"\nrtl = ["blk.sv"]\n[timing]\nmax_lut_levels = 0\n')
    ipblock.blocks.cache_clear()
    try:
        with pytest.raises(ToolError, match="max_lut_levels must be a positive integer"):
            ipblock.blocks((tmp_path,))
    finally:
        ipblock.blocks.cache_clear()
