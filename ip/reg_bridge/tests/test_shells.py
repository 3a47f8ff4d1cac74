"""Every register-bearing IP under every generated bus shell (aesoc.soc.shells), with bus models
from PyPI: registers, write-only keys, unmapped offsets, the AES vectors, the bounded wait, held
accesses given up and the recovery after them, byte strobes, unaligned addresses and writes to
read-only registers (docs/integration.md).

One Verilator model per block holds its four shells side by side (shells.render_side_by_side):
built with -fno-inline, the core is compiled once for all four instead of once per shell. Each
block-bus pair stays a test of its own, running the cocotb module on that model with SHELL_BUS
naming the shell it drives; the other three idle (inputs at 0)."""

from __future__ import annotations

from pathlib import Path

import pytest

from aesoc.sim.cocotb_flow import build_dir_for, run_cocotb
from aesoc.soc import ipblock, lint, shells, sources

HERE = Path(__file__).resolve().parent
CASES = [(b.name, bus) for b in shells.shell_blocks() for bus in shells.BUSES]
# SHA holds a DATA_IN write at most one block compression (tens of cycles), never up to the
# default bound: its APB4 / AXI4-Lite shells bound the wait at cocotb_shells.SHA_GIVE_UP cycles,
# so that the test's held write is given up.
SHA_MAX_WAIT = 8


def _max_wait(block: str, bus: str) -> int | None:
    return SHA_MAX_WAIT if block == "sha" and shells.bus(bus).clocked else None


def _model_sources(blk: ipblock.IpBlock) -> list[Path]:
    """The waivers, every shell's sources (each file once) and the side-by-side top."""
    overrides = {bus: {"MaxWait": wait} for bus in shells.BUSES if (wait := _max_wait(blk.name, bus))}
    shared = dict.fromkeys(p for bus in shells.BUSES for p in sources.shell_sources(blk, bus))
    return [*lint.lint_waivers(blk), *shared, shells.generate_side_by_side(blk, overrides)]


@pytest.mark.parametrize(("block", "bus"), CASES, ids=[f"{b}-{s}" for b, s in CASES])
def test_shell(block: str, bus: str) -> None:
    blk = next(b for b in shells.shell_blocks() if b.name == block)
    wait = _max_wait(block, bus)
    run_cocotb(
        toplevel=shells.side_by_side_module(blk),
        sources=_model_sources(blk),
        test_module="cocotb_shells",
        test_dir=HERE,
        extra_env={"SHELL_BLOCK": block, "SHELL_BUS": bus, **({"SHELL_MAX_WAIT": str(wait)} if wait else {})},
        defines=blk.test_define_values,
    )
    # The largest block-test models: compiled as one unit (cocotb_flow.model_make_vars), not an
    # object per generated file.
    built = build_dir_for(shells.side_by_side_module(blk), {}, blk.test_define_values)
    assert {p.name for p in built.glob("Vtop*.o")} == {"Vtop__ALL.o"}


def test_every_register_ip_has_shells() -> None:
    """Each IP with a register map gets shells (a new one in the same shape joins by itself)."""
    with_regs = {b.name for b in ipblock.blocks().values() if b.rdl is not None}
    assert with_regs == {b.name for b in shells.shell_blocks()}
