"""Every register-bearing IP under every generated bus shell (aesoc.shells), with bus models
from PyPI: registers, write-only keys, unmapped offsets, the AES vectors and the bounded wait."""

from __future__ import annotations

from pathlib import Path

import pytest

from aesoc import shells
from aesoc.cocotb_flow import run_cocotb

HERE = Path(__file__).resolve().parent
CASES = [(b.name, bus) for b in shells.shell_blocks() for bus in shells.BUSES]


@pytest.mark.parametrize(("block", "bus"), CASES, ids=[f"{b}-{s}" for b, s in CASES])
def test_shell(block: str, bus: str) -> None:
    blk = next(b for b in shells.shell_blocks() if b.name == block)
    run_cocotb(
        toplevel=shells.shell_module(blk, bus),
        sources=[*shells.lint_waivers(blk), *shells.sources(blk, bus)],
        test_module="cocotb_shells",
        test_dir=HERE,
        extra_env={"SHELL_BLOCK": block, "SHELL_BUS": bus},
        defines=blk.test_define_values,
    )


def test_every_register_ip_has_shells() -> None:
    """Each IP with a register map gets shells (a new one in the same shape joins by itself)."""
    from aesoc import ipblock
    with_regs = {b.name for b in ipblock.blocks().values() if b.rdl is not None}
    assert with_regs == {b.name for b in shells.shell_blocks()}
