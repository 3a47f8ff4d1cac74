"""FuseSoC CAPI2 cores of the aesoc IP, committed beside their files and rendered from the manifests.

`python3 -m aesoc shells --fusesoc` (`generate()`) writes them; tests/test_fusesoc.py checks the
committed ones equal what `render_all()` gives. Every path in a core lies in the core's own folder
(FuseSoC warns about others): each IP with a register map has `ip/<block>/<block>.core`
(`aesoc:ip:<block>`), the shared bus bridges `ip/reg_bridge/reg_bridge.core`, and a named source
set another block takes from this one (`@aes:cipher_port` in ip/xip/ip.toml) its own core
(`ip/aes/aes_cipher_port.core`, `aesoc:ip:aes_cipher_port`).

The generated files (the PeakRDL register block, the four bus shells, the lint waivers rewritten
for FuseSoC's paths, one cocotb module per shell) come from a FuseSoC generator, `aesoc_shells`,
declared by the bridges' core: FuseSoC runs this file as a script in a folder of its own, and the
script writes there the files and a core (`aesoc:gen:<block>`) that lists them. So a fresh clone
needs no aesoc command before `fusesoc run`. A block core's targets: `default` (the core and,
generated, every shell and the waivers, so that a core depending on this one lints clean),
`lint` (the Wishbone classic shell) and `lint_<bus>`: edalize's lint flow, `verilator
--lint-only -Wall`; `lint_top_<NAME>` for each alternative top; `sim` (Wishbone classic) and
`sim_<bus>`: edalize's sim flow with Verilator and cocotb, running the shell tests of
ip/reg_bridge/tests/cocotb_shells.py on that shell.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__":
    # Run by FuseSoC as the generator: import the aesoc of this checkout, and not this folder's
    # modules (fusesoc, litex) in place of the packages of those names.
    sys.path[0] = str(Path(__file__).resolve().parents[2])

import os  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import tomllib  # noqa: E402

import yaml  # noqa: E402

from aesoc.common.toolchain import BUILD, REPO, ToolError, write_if_changed  # noqa: E402
from aesoc.sim.cocotb_flow import TEST_MODEL_ARGS, model_make_vars  # noqa: E402
from aesoc.soc import ipblock, lint, shells, sources  # noqa: E402
from aesoc.soc.sources import reg_block  # noqa: E402

# What `fusesoc library add` takes: the checkout (FuseSoC finds the cores under ip/).
LIBRARY_ROOT = REPO
VENDOR = "aesoc"
LIBRARY = "ip"
BRIDGES = "reg_bridge"
GENERATOR = "aesoc_shells"
# The generator's output folder inside FuseSoC's: the waivers of the generated files name it.
GEN_DIR = "aesoc_gen"
SHELL_TESTS = REPO / "ip" / "reg_bridge" / "tests"
# The sim targets' model is built as aesoc's own block-test models are (aesoc.sim.cocotb_flow): modules
# not inlined, one compile unit. Measured on the XIP controller's sim target without ccache: 33
# CPU-seconds and 27 s wall against 56 and 32 for edalize's default (inlined, an object per file
# compiled on both cores). Two make jobs still compile Verilator's runtime side by side (a
# committed core cannot name the cores of the machine it runs on). And at the block tests' C++
# optimisation: at edalize's default -Os, GCC took about 9 minutes over the XIP controller's
# one compile unit once its S-boxes sat a module deeper (aes_sbox_sel), against 6 s at -Og.
SIM_MAKE_OPTIONS = ", ".join(["-j2", *model_make_vars()])
SIM_VERILATOR_OPTIONS = ", ".join(TEST_MODEL_ARGS)


def version() -> str:
    """The aesoc package version (pyproject.toml), the version of every core."""
    return tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]


def vlnv(block: ipblock.IpBlock) -> str:
    return f"{VENDOR}:{LIBRARY}:{block.name}:{version()}"


def core_path(block: ipblock.IpBlock) -> Path:
    return block.folder / f"{block.name}.core"


def sim_module_name(block: ipblock.IpBlock, bus: str) -> str:
    return f"aesoc_sim_{block.name}_{bus}"


def _own(paths: list[Path] | tuple[Path, ...], folder: Path, where: str) -> list[str]:
    """Paths relative to a core's folder; a path outside it is an error (FuseSoC deprecates them)."""
    outside = [str(p) for p in paths if not p.is_relative_to(folder)]
    if outside:
        raise ToolError(f"{where}: file(s) outside {folder}: {', '.join(outside)}")
    return [str(p.relative_to(folder)) for p in paths]


def _files(paths: list[str], file_type: str) -> list[str]:
    return ["    files:", *[f"      - {p}" for p in paths], f"    file_type: {file_type}"]


def _foreign_sets(block: ipblock.IpBlock) -> list[tuple[str, str]]:
    """The other blocks' named source sets the manifest takes ("@BLOCK:NAME"), bridges left out
    (their core holds every bridge)."""
    data = tomllib.loads((block.folder / "ip.toml").read_text())
    entries = [*data["rtl"], *(e for top in data.get("top", {}).values() for e in top["rtl"])]
    found = [tuple(e[1:].split(":", 1)) for e in entries if e.startswith("@") and ":" in e]
    return list(dict.fromkeys((owner, name) for owner, name in found if owner != BRIDGES))


def _set_vlnv(owner: str, name: str) -> str:
    return f"{VENDOR}:{LIBRARY}:{owner}_{name}:{version()}"


def render_set(owner: str, name: str) -> str:
    """The core of one named source set of a block (for another block's core to depend on)."""
    block = ipblock.block(owner)
    files = _own(block.filesets[name], block.folder, f"fileset {owner}:{name}")
    return "\n".join(["CAPI=2:", "", f"name: {_set_vlnv(owner, name)}",
                      f"description: \"{owner}'s source set '{name}', as ip/{owner}/ip.toml lists it\"", "",
                      "filesets:", "  rtl:", *_files(files, "systemVerilogSource"), "",
                      "targets:", "  default:", "    filesets: [rtl]", ""])


def render_bridges() -> str:
    """The bus bridges' core, which also declares the generator of the register blocks and shells."""
    block = ipblock.block(BRIDGES)
    here = os.path.relpath(Path(__file__).resolve(), block.folder)
    return "\n".join([
        "CAPI=2:", "", f"name: {VENDOR}:{LIBRARY}:{BRIDGES}:{version()}",
        f"description: \"{block.description}\"", "",
        "filesets:", "  rtl:", *_files(_own(block.rtl, block.folder, BRIDGES), "systemVerilogSource"), "",
        "generators:", f"  {GENERATOR}:", "    interpreter: python3", f"    command: {here}",
        "    description: \"an aesoc IP's PeakRDL register block, its AXI4-Lite, APB4 and Wishbone shells, "
        "lint waivers and cocotb modules (parameter: block)\"", "",
        "targets:", "  default:", "    filesets: [rtl]", ""])


def _shell_params(block: ipblock.IpBlock, bus: str) -> list[str]:
    """The parameters a target of the block's `bus` shell passes: the block's, then the shell's."""
    return [*block.params, *[sp.name for sp in shells.bus(bus).params]]


def _parameters(names: list[str]) -> list[str]:
    return [f"    parameters: [{', '.join(names)}]"] if names else []


def _lint_target(target: str, filesets: str, toplevel: str, params: list[str]) -> list[str]:
    """A `verilator --lint-only -Wall` target (edalize's lint flow)."""
    return [f"  {target}:", "    flow: lint", "    flow_options:", "      tool: verilator",
            "      verilator_options: [-Wall]", f"    filesets: [{filesets}]", "    generate: [shells]",
            f"    toplevel: {toplevel}", *_parameters(params)]


def render(block: ipblock.IpBlock) -> str:
    """The block's core, ip/<block>/<block>.core."""
    folder = block.folder
    own = [p for p in sources.core_sources(block) if not p.is_relative_to(reg_block(block).out_dir)]
    # Its files that another block takes as a set come through that set's core, so that a system
    # with both blocks compiles them once.
    lent = [s for b in shells.shell_blocks() if b != block for s in _foreign_sets(b) if s[0] == block.name]
    sets = list(dict.fromkeys([*_foreign_sets(block), *lent]))
    set_files = {p for owner, name in sets for p in ipblock.block(owner).filesets[name]}
    depend = ", ".join([f"\"{VENDOR}:{LIBRARY}:{BRIDGES}\"",
                        *(f"\"{_set_vlnv(o, n).rsplit(':', 1)[0]}\"" for o, n in sets)])
    lines = ["CAPI=2:", "", f"name: {vlnv(block)}",
             f"description: \"{block.description}, with AXI4-Lite, APB4 and Wishbone shells\"", "",
             "filesets:", "  rtl:", f"    depend: [{depend}]",
             *_files(_own([p for p in own if p not in set_files], folder, block.name), "systemVerilogSource")]
    bridge_files = set(ipblock.block(BRIDGES).rtl)
    for name, top in block.tops.items():
        lines += [f"  top_{name}:",
                  *_files(_own([f for f in top.rtl if f not in bridge_files | set_files], folder, block.name),
                          "systemVerilogSource")]
    lines += ["", "generate:", "  shells:", f"    generator: {GENERATOR}", f"    parameters: {{block: {block.name}}}",
              "    position: prepend", "", "parameters:"]
    for name, param in block.params.items():
        lines += [f"  {name}:", "    datatype: int", f"    default: {param.default}",
                  f"    description: \"{param.doc}\"", "    paramtype: vlogparam"]
    buses = list(shells.BUSES)
    for sp in dict.fromkeys(p for b in buses for p in shells.bus(b).params):
        users = ", ".join(shells.bus(b).title for b in buses if sp in shells.bus(b).params)
        lines += [f"  {sp.name}:", "    datatype: int", f"    default: {sp.default}",
                  f"    description: \"{users} shells: {sp.doc}\"", "    paramtype: vlogparam"]
    lines += ["", "targets:", "  default:", "    filesets: [rtl]", "    generate: [shells]"]
    for target, bus in [("lint", "wbc"), *[(f"lint_{b}", b) for b in buses]]:
        lines += _lint_target(target, "rtl", shells.shell_module(block, bus), _shell_params(block, bus))
    for name, top in block.tops.items():
        lines += _lint_target(f"lint_top_{name}", f"rtl, top_{name}", top.module, list(block.params))
    for target, bus in [("sim", "wbc"), *[(f"sim_{b}", b) for b in buses]]:
        lines += [f"  {target}:", "    flow: sim", "    flow_options:", "      tool: verilator",
                  f"      cocotb_module: {sim_module_name(block, bus)}", f"      make_options: [{SIM_MAKE_OPTIONS}]",
                  f"      verilator_options: [{SIM_VERILATOR_OPTIONS}]", "    filesets: [rtl]",
                  "    generate: [shells]", f"    toplevel: {shells.shell_module(block, bus)}",
                  *_parameters(_shell_params(block, bus))]
    return "\n".join(lines) + "\n"


def render_all() -> dict[Path, str]:
    """Every core's path and text."""
    cores = {ipblock.block(BRIDGES).folder / f"{BRIDGES}.core": render_bridges()}
    for block in shells.shell_blocks():
        cores[core_path(block)] = render(block)
        for owner, name in _foreign_sets(block):
            cores[ipblock.block(owner).folder / f"{owner}_{name}.core"] = render_set(owner, name)
    return cores


def generate() -> list[Path]:
    """Write every core (only where its text changed); return their paths."""
    return [write_if_changed(path, text) for path, text in render_all().items()]


# ---- the generator FuseSoC runs ----

def _waivers(block: ipblock.IpBlock) -> str:
    """The block's lint waivers with FuseSoC's paths: the generated files are in GEN_DIR, and a
    checkout file is named by its path in its core (`rtl/...`), not under ip/<block>/."""
    text = "\n".join(p.read_text() for p in lint.lint_waivers(block))
    text = text.replace('"*/build/gen/*"', f'"*/{GEN_DIR}/*"')
    return re.sub(r'"\*/ip/[^/"]+/', '"*/', text)


def _sim_module(block: ipblock.IpBlock, bus: str) -> str:
    """The cocotb module a sim target names: the shell tests, told which block and bus they drive
    (edalize's flow passes the simulator no environment of the core's own)."""
    return "\n".join([
        f'"""cocotb tests of {shells.shell_module(block, bus)} for FuseSoC\'s sim_{bus} target '
        '(aesoc.integrate.fusesoc)."""',
        "import os", "import sys", "",
        f'os.environ["SHELL_BLOCK"] = "{block.name}"',
        f'os.environ["SHELL_BUS"] = "{bus}"',
        f"sys.path.insert(0, {str(SHELL_TESTS)!r})",
        "from cocotb_shells import *  # noqa: E402,F401,F403  (the cocotb tests)", ""])


def write_generated(block: ipblock.IpBlock, out: Path) -> Path:
    """Write the block's generated files and the core listing them into `out`; return the core."""
    gen = out / GEN_DIR
    gen.mkdir(parents=True, exist_ok=True)
    # A library at the checkout must not find the cores of FuseSoC runs kept under build/.
    write_if_changed(BUILD / "FUSESOC_IGNORE", "FuseSoC skips this folder (aesoc.integrate.fusesoc).\n")
    rtl = [Path(shutil.copy(p, gen)) for p in reg_block(block).sv_files]
    rtl += [shells.generate(block, bus, gen) for bus in shells.BUSES]
    waivers = write_if_changed(gen / f"{block.name}_waivers.vlt", _waivers(block))
    lines = ["CAPI=2:", "", f"name: {VENDOR}:gen:{block.name}:{version()}",
             f"description: \"{block.name}: register block, shells, waivers, cocotb modules "
             "(aesoc.integrate.fusesoc)\"",
             "", "filesets:", "  waivers:", *_files([str(waivers.relative_to(out))], "vlt"),
             "  rtl:", *_files([str(p.relative_to(out)) for p in rtl], "systemVerilogSource"),
             "  cocotb:", "    files:"]
    for bus in shells.BUSES:
        module = write_if_changed(out / f"{sim_module_name(block, bus)}.py", _sim_module(block, bus))
        # Copied into the run folder, the simulator's working directory, where cocotb imports it.
        lines.append(f"      - {module.name}: {{copyto: {module.name}}}")
    lines += ["    file_type: user", "", "targets:", "  default:", "    filesets: [waivers, rtl, cocotb]", ""]
    return write_if_changed(out / f"{block.name}_gen.core", "\n".join(lines))


def main(argv: list[str]) -> int:
    """FuseSoC's generator call: `fusesoc.py INPUT.yml`, run in the folder to write to."""
    if len(argv) != 1:
        print("usage: fusesoc.py GENERATOR_INPUT.yml (run by FuseSoC)", file=sys.stderr)
        return 2
    params = (yaml.safe_load(Path(argv[0]).read_text()) or {}).get("parameters") or {}
    names = [b.name for b in shells.shell_blocks()]
    if params.get("block") not in names:
        print(f"error: generator parameter 'block' must be one of {', '.join(names)}, not {params.get('block')!r}",
              file=sys.stderr)
        return 2
    try:
        write_generated(ipblock.block(params["block"]), Path.cwd())
    except ToolError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
