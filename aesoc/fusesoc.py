"""FuseSoC CAPI2 cores of the aesoc IP, generated from the manifests (ip/<block>/ip.toml).

One core per IP with a register map, VLNV `aesoc:ip:<block>:<version>`, written to
build/fusesoc/<block>/<block>.core next to nothing else: its file paths point into the checkout
(ip/...) and at the generated register blocks and bus shells (build/gen/...), which is why the
cores are generated with those files rather than committed (`python3 -m aesoc shells` writes
all three). Filesets: the core RTL, the shared bridges, one per bus shell, and the lint waivers.
Parameters: the manifest's (vlogparam, with their defaults and docs). Targets: `default` (every
file, with the waivers so that a core depending on this one lints clean under Verilator), `lint` (the Wishbone classic shell under `verilator --lint-only -Wall`) and `lint_<bus>`
for each bus shell.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from aesoc import ipblock, shells
from aesoc.toolchain import BUILD, REPO, write_if_changed

OUT_DIR = BUILD / "fusesoc"
VENDOR = "aesoc"
LIBRARY = "ip"


def version() -> str:
    """The aesoc package version (pyproject.toml), the version of every core."""
    return tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]


def vlnv(block: ipblock.IpBlock) -> str:
    return f"{VENDOR}:{LIBRARY}:{block.name}:{version()}"


def _rel(path: Path, core_dir: Path) -> str:
    return os.path.relpath(path, core_dir)


def _files(paths: list[Path], core_dir: Path, file_type: str) -> list[str]:
    return ["    files:", *[f"      - {_rel(p, core_dir)}" for p in paths], f"    file_type: {file_type}"]


def _waivers(block: ipblock.IpBlock, core_dir: Path) -> Path:
    """The block's lint waivers for a FuseSoC build: FuseSoC names the generated files by their
    path relative to the core (.../gen/<block>/...), not under build/gen, so the file patterns
    are rewritten to match both."""
    text = "\n".join(p.read_text().replace('"*/build/gen/*"', '"*/gen/*"')
                     for p in shells.lint_waivers(block))
    return write_if_changed(core_dir / f"{block.name}_waivers.vlt", text)


def render(block: ipblock.IpBlock, out_dir: Path = OUT_DIR) -> str:
    core_dir = out_dir / block.name
    lines = ["CAPI=2:", "", f"name: {vlnv(block)}",
             f"description: \"{block.description}, with AXI4-Lite, APB4 and Wishbone shells\"", "",
             "filesets:", "  rtl:", *_files(shells.core_sources(block), core_dir, "systemVerilogSource")]
    buses = list(shells.BUSES)
    bridge_files = list(dict.fromkeys(f for b in buses for f in shells.bus(b).bridge_files))
    lines += ["  bridges:", *_files(bridge_files, core_dir, "systemVerilogSource")]
    for bus in buses:
        lines += [f"  shell_{bus}:", *_files([shells.generate(block, bus)], core_dir, "systemVerilogSource")]
    lines += ["  waivers:", *_files([_waivers(block, core_dir)], core_dir, "vlt")]
    lines += ["", "parameters:"]
    for name, param in block.params.items():
        lines += [f"  {name}:", "    datatype: int", f"    default: {param.default}",
                  f"    description: \"{param.doc}\"", "    paramtype: vlogparam"]
    shell_params = list(dict.fromkeys(p for b in buses for p in shells.bus(b).params))
    for sp in shell_params:
        users = ", ".join(shells.bus(b).title for b in buses if sp in shells.bus(b).params)
        lines += [f"  {sp.name}:", "    datatype: int", f"    default: {sp.default}",
                  f"    description: \"{users} shells: {sp.doc}\"", "    paramtype: vlogparam"]
    shell_sets = [f"shell_{b}" for b in buses]
    lines += ["", "targets:", "  default:",
              f"    filesets: [waivers, rtl, bridges, {', '.join(shell_sets)}]"]
    params = ", ".join(block.params)
    for target, bus in [("lint", "wbc"), *[(f"lint_{b}", b) for b in buses]]:
        bus_params = ", ".join(p for p in [params, *[sp.name for sp in shells.bus(bus).params]] if p)
        lines += [f"  {target}:", "    default_tool: verilator", f"    filesets: [waivers, rtl, bridges, shell_{bus}]",
                  f"    toplevel: {shells.shell_module(block, bus)}",
                  *([f"    parameters: [{bus_params}]"] if bus_params else []),
                  "    tools:", "      verilator:", "        mode: lint-only", "        verilator_options: [-Wall]"]
    return "\n".join(lines) + "\n"


def generate(out_dir: Path = OUT_DIR) -> list[Path]:
    """Write one core per IP with a register map; return their paths."""
    paths = []
    for block in shells.shell_blocks():
        paths.append(write_if_changed(out_dir / block.name / f"{block.name}.core", render(block, out_dir)))
    return paths
