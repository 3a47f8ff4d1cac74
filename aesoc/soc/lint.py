"""`verilator --lint-only -Wall` over the SoC, over an IP's alternative tops and over its bus shells,
with the project's waivers of the generated register blocks (sim/waivers.vlt)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from aesoc.common.toolchain import REPO, ToolError, verilator_bin
from aesoc.soc import ipblock, shells
from aesoc.soc.description import Soc
from aesoc.soc.sources import TOP, alt_top_sources, rtl_sources, shell_sources, top_parameters

LINT_WAIVERS = REPO / "sim" / "waivers.vlt"


def verilator_common_args(config: Soc, top: str = TOP) -> list[str]:
    args = ["--top-module", top, "-Wall", "--timescale", "1ns/1ps"]
    args += [f"-G{k}={v}" for k, v in sorted(top_parameters(config).items())]
    return args


def lint_soc(config: Soc) -> None:
    """verilator --lint-only -Wall over the whole SoC (only the shipped CPU file is waived), then
    over every alternative top of its blocks (the SoC does not instantiate those)."""
    cmd = [verilator_bin(), "--lint-only", *verilator_common_args(config), str(LINT_WAIVERS)]
    cmd += [str(s) for s in rtl_sources(config)]
    # Not under verilator_lock: a lint is one short single-threaded process, not a build.
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise ToolError(f"lint of SoC configuration '{config.name}' failed:\n{proc.stdout}{proc.stderr}")
    for block in {inst.block.name: inst.block for inst in config.instances}.values():
        for name in block.tops:
            lint_alt_top(block, name)


def lint_alt_top(block: ipblock.IpBlock, name: str, params: dict[str, int] | None = None) -> None:
    """verilator --lint-only -Wall over one alternative top, with the project's and the block's waivers."""
    cmd = [verilator_bin(), "--lint-only", "-Wall", "--timescale", "1ns/1ps", "--top-module", block.tops[name].module,
           *(f"-G{k}={v}" for k, v in sorted((params or {}).items())), *map(str, lint_waivers(block)),
           *map(str, alt_top_sources(block, name))]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise ToolError(f"lint of {block.name} top '{name}' failed:\n{proc.stdout}{proc.stderr}")


def lint_waivers(block: ipblock.IpBlock) -> list[Path]:
    """Verilator configuration for a block built alone: the SoC's waivers of the generated register
    blocks, and the block's own (ip/<block>/tests/waivers.vlt) where it has one."""
    own = block.folder / "tests" / "waivers.vlt"
    return [LINT_WAIVERS, *([own] if own.is_file() else [])]


def listed_sources(block: ipblock.IpBlock, bus_name: str, out_dir: Path = shells.OUT_DIR) -> list[Path]:
    """What `aesoc shells --sources` prints: the Verilator waivers first (the generated register
    block is not lint-clean under -Wall without them), then everything the shell needs."""
    return [*lint_waivers(block), *shell_sources(block, bus_name, out_dir)]


def lint_shell(block: ipblock.IpBlock, bus_name: str) -> subprocess.CompletedProcess[str]:
    """`verilator --lint-only -Wall` over one shell with everything under it."""
    cmd = [verilator_bin(), "--lint-only", "-Wall", "--top-module", shells.shell_module(block, bus_name),
           *map(str, listed_sources(block, bus_name))]
    # Not under verilator_lock: a lint is one short single-threaded process, not a build.
    return subprocess.run(cmd, capture_output=True, text=True, check=False)
