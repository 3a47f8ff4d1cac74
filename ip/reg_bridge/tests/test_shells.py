"""Every register-bearing IP under every generated bus shell (aesoc.soc.shells), with bus models
from PyPI: registers, write-only keys, unmapped offsets, the AES vectors, the bounded wait, held
accesses given up and the recovery after them, byte strobes, unaligned addresses and writes to
read-only registers (docs/integration.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from aesoc.sim.cocotb_flow import run_cocotb
from aesoc.soc import lint, shells, sources

HERE = Path(__file__).resolve().parent
CASES = [(b.name, bus) for b in shells.shell_blocks() for bus in shells.BUSES]
# SHA holds a DATA_IN write at most one block compression (tens of cycles), never up to the
# default bound: its APB4 / AXI4-Lite builds bound the wait at cocotb_shells.SHA_GIVE_UP cycles,
# so that the test's held write is given up.
SHA_MAX_WAIT = 8


@pytest.mark.parametrize(("block", "bus"), CASES, ids=[f"{b}-{s}" for b, s in CASES])
def test_shell(block: str, bus: str) -> None:
    blk = next(b for b in shells.shell_blocks() if b.name == block)
    short = block == "sha" and shells.bus(bus).clocked
    run_cocotb(
        toplevel=shells.shell_module(blk, bus),
        sources=[*lint.lint_waivers(blk), *sources.shell_sources(blk, bus)],
        test_module="cocotb_shells",
        test_dir=HERE,
        parameters={"MaxWait": SHA_MAX_WAIT} if short else None,
        extra_env={"SHELL_BLOCK": block, "SHELL_BUS": bus, **({"SHELL_MAX_WAIT": str(SHA_MAX_WAIT)} if short else {})},
        defines=blk.test_define_values,
    )


def test_every_register_ip_has_shells() -> None:
    """Each IP with a register map gets shells (a new one in the same shape joins by itself)."""
    from aesoc.soc import ipblock
    with_regs = {b.name for b in ipblock.blocks().values() if b.rdl is not None}
    assert with_regs == {b.name for b in shells.shell_blocks()}
