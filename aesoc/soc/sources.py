"""The RTL of the SoC and of each IP in compile order, from the IP manifests: packages first, the
generated register blocks (their package first), then the modules, generated shells and tops."""

from __future__ import annotations

from pathlib import Path

from aesoc.common.toolchain import ToolError, vexriscv_verilog
from aesoc.soc import generate, ipblock, regs, shells
from aesoc.soc.description import Soc

TOP = "aesoc_top"


def _split(paths: list[Path]) -> tuple[list[Path], list[Path]]:
    """Unique paths in order, as (packages, modules): every package goes before any module."""
    unique = list(dict.fromkeys(paths))
    return [p for p in unique if p.name.endswith("_pkg.sv")], [p for p in unique if not p.name.endswith("_pkg.sv")]


def rtl_sources(config: Soc, sim: bool = False) -> list[Path]:
    """Every RTL file of the SoC: the CPU, the generated package, IP blocks (from their manifests)
    and their generated register blocks, the generated top; with `sim`, also the simulation
    models and the simulation top."""
    gen = generate.generate(config)
    used = [inst.block for inst in config.instances]
    used.append(ipblock.block("wb_xbar"))
    if any(inst.block.idle for inst in config.instances):
        used.append(ipblock.block("clock_gate"))
    if sim:
        used.append(ipblock.block("qspi_flash"))
    used = list({b.name: b for b in used}.values())
    packages, modules = _split([p for b in used for p in _block_rtl(b)])
    # Generated register blocks (their package first) before the IP modules that use them.
    generated = [f for b in used if b.rdl is not None for f in reg_block(b).sv_files]
    tops = [gen["top"], *([gen["sim_top"]] if sim else [])]
    return [vexriscv_verilog(), gen["pkg"], *packages, *generated, *modules, *tops]


def _block_rtl(block: ipblock.IpBlock) -> list[Path]:
    """The manifest's RTL, and for a block whose top is a generated shell, its bridge and shell."""
    if not block.shell:
        return list(block.rtl)
    bus = shells.bus(block.shell)
    return [*block.rtl, *bus.bridge_files, shells.generate(block, bus.name)]


def ip_sources(block: ipblock.IpBlock) -> list[Path]:
    """One IP's RTL in compile order, from its manifest: packages, its generated register block
    (package first), then the modules (the generated shell last where the block has one)."""
    gen = reg_block(block).sv_files if block.rdl is not None else []
    packages, modules = _split(_block_rtl(block))
    return [*packages, *gen, *modules]


def reg_block(block: ipblock.IpBlock) -> regs.RegBlock:
    """The generated register block of an IP with a register map (generated when stale)."""
    assert block.rdl is not None
    reg = regs.RegBlock(block.rdl.stem, block.rdl)
    regs.generate(reg)
    return reg


def top_parameters(config: Soc) -> dict[str, int]:
    """Parameters to set on the top (TOP) of `rtl_sources(config)`: none, the generated top has the
    configuration built in."""
    del config
    return {}


def alt_top_sources(block: ipblock.IpBlock, name: str) -> list[Path]:
    """An alternative top's RTL in compile order: the block's core (its generated register block
    included), then the top's own files."""
    if name not in block.tops:
        raise ToolError(f"block '{block.name}' has no top '{name}' (has: {', '.join(block.tops) or 'none'})")
    return [*core_sources(block), *block.tops[name].rtl]


def core_sources(block: ipblock.IpBlock) -> list[Path]:
    """The block's RTL in compile order without its aesoc Wishbone shell (the manifest's module)
    and the bridge that shell uses."""
    return [p for p in ip_sources(block) if p.stem != block.module and not p.is_relative_to(shells.BRIDGE)]


def shell_sources(block: ipblock.IpBlock, bus_name: str, out_dir: Path = shells.OUT_DIR) -> list[Path]:
    """Everything a shell needs, in compile order: the core, the bridge, the shell."""
    return [*core_sources(block), *shells.bus(bus_name).bridge_files, shells.generate(block, bus_name, out_dir)]
