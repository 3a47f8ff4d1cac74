"""Bus shells: every register-bearing IP under a Wishbone, APB4 or AXI4-Lite slave, generated.

Each IP with a register map has a bus-neutral core `<block>_periph` whose register port `reg_*`
is peakrdl-regblock's `passthrough` CPU interface. A shell `<block>_<bus>` instantiates the core
and one shared bridge of ip/reg_bridge (the bus to that port), keeps the core's parameters and
passes every other core port through under its own name. The core's header is the source: its
parameter and port declarations are read from the SystemVerilog (house style, ANSI ports), so a
new IP in the same shape gets its shells without any entry here.

Buses: `wbc` Wishbone B4 classic (what the aesoc crossbar speaks), `wbp` Wishbone B4 pipelined
(with STALL), `apb4`, `axil` AXI4-Lite. The APB4 and AXI4-Lite shells add the parameter MaxWait
(the bound on a held access) and the output timeout_o (reg_bridge_core). Non-register ports stay
as the core has them: the DMA's read/write masters and the XIP flash window keep their bus-neutral
request/acknowledge ports in these shells (the SoC's own Wishbone shells, dma_wb and xip, add the
Wishbone master and window glue).

`render_side_by_side` puts a block's four shells into one module, a single test model for all of
them (ip/reg_bridge/tests/test_shells.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from aesoc.common.toolchain import BUILD, ToolError, write_if_changed
from aesoc.soc import ipblock
from aesoc.soc.regs import ADDR_WIDTH

OUT_DIR = BUILD / "gen" / "shells"
BRIDGE = ipblock.IP_DIR / "reg_bridge" / "rtl"
# The register port: the bridge's reg_*_o drive the core's reg_*_i and the other way round.
REG_PORT = ("req", "req_is_wr", "addr", "wr_data", "wr_biten", "req_stall_wr", "req_stall_rd",
            "rd_ack", "rd_err", "rd_data", "wr_ack", "wr_err")
# The bridges' reg_abort_o (the bus gave up a held access) goes to the core's reg_abort_i, which
# completes that access without effect. Only cores that hold accesses (external registers that
# wait: AES, SHA) have the input; for the others the bridge's output is left unused.
ABORT_CORE, ABORT_BRIDGE = "reg_abort_i", "reg_abort_o"
# Below cocotbext-apb's default timeout (1,000 cycles), above the aesoc crossbar's (256) and any
# legitimate wait of a held access (a block through the slowest AES or SHA engine).
MAX_WAIT_DEFAULT = 512


@dataclass(frozen=True)
class ShellParam:
    """A parameter of the shell handed on to its bridge."""
    name: str
    kind: str  # SystemVerilog type
    default: int
    doc: str

    def declaration(self) -> str:
        value = f"1'b{self.default}" if self.kind == "bit" else str(self.default)
        return f"parameter {self.kind} {self.name} = {value}  // {self.doc}"


MAX_WAIT = ShellParam("MaxWait", "int unsigned", MAX_WAIT_DEFAULT, "bound of a held access, 0: none")
# The aesoc crossbar raises STB only at the selected slave, so its shells take STB alone
# (reg_bridge_wbc says why); any other Wishbone interconnect keeps the B4 default.
CYC_GATED = ShellParam("CycGated", "bit", 1, "0: STB alone is the request (reg_bridge_wbc)")


@dataclass(frozen=True)
class Bus:
    name: str
    title: str
    clocked: bool  # the bridge has a clock, a reset and a bounded wait (reg_bridge_core)
    ports: tuple[tuple[str, str, str], ...]  # (direction, packed range or "", name)
    params: tuple[ShellParam, ...] = ()

    @property
    def bridge(self) -> str:
        return f"reg_bridge_{self.name}"

    @property
    def bridge_files(self) -> list[Path]:
        core = [BRIDGE / "reg_bridge_core.sv"] if self.clocked else []
        return [*core, BRIDGE / f"{self.bridge}.sv"]


_A = f"[{ADDR_WIDTH - 1}:0]"
_W = f"[{ADDR_WIDTH - 3}:0]"
_WB = (("input", "", "wb_cyc_i"), ("input", "", "wb_stb_i"), ("input", "", "wb_we_i"),
       ("input", _W, "wb_adr_i"), ("input", "[31:0]", "wb_dat_i"), ("input", "[3:0]", "wb_sel_i"),
       ("output", "[31:0]", "wb_dat_o"), ("output", "", "wb_ack_o"), ("output", "", "wb_err_o"))
BUSES = {
    "wbc": Bus("wbc", "Wishbone B4 classic", False, _WB, (CYC_GATED,)),
    "wbp": Bus("wbp", "Wishbone B4 pipelined", False, (*_WB, ("output", "", "wb_stall_o"))),
    "apb4": Bus("apb4", "APB4", True, (
        ("input", "", "s_apb_psel"), ("input", "", "s_apb_penable"), ("input", "", "s_apb_pwrite"),
        ("input", _A, "s_apb_paddr"), ("input", "[31:0]", "s_apb_pwdata"), ("input", "[3:0]", "s_apb_pstrb"),
        ("input", "[2:0]", "s_apb_pprot"), ("output", "[31:0]", "s_apb_prdata"), ("output", "", "s_apb_pready"),
        ("output", "", "s_apb_pslverr"), ("output", "", "timeout_o")), (MAX_WAIT,)),
    "axil": Bus("axil", "AXI4-Lite", True, (
        ("input", "", "s_axil_awvalid"), ("output", "", "s_axil_awready"), ("input", _A, "s_axil_awaddr"),
        ("input", "[2:0]", "s_axil_awprot"), ("input", "", "s_axil_wvalid"), ("output", "", "s_axil_wready"),
        ("input", "[31:0]", "s_axil_wdata"), ("input", "[3:0]", "s_axil_wstrb"), ("output", "", "s_axil_bvalid"),
        ("input", "", "s_axil_bready"), ("output", "[1:0]", "s_axil_bresp"), ("input", "", "s_axil_arvalid"),
        ("output", "", "s_axil_arready"), ("input", _A, "s_axil_araddr"), ("input", "[2:0]", "s_axil_arprot"),
        ("output", "", "s_axil_rvalid"), ("input", "", "s_axil_rready"), ("output", "[31:0]", "s_axil_rdata"),
        ("output", "[1:0]", "s_axil_rresp"), ("output", "", "timeout_o")), (MAX_WAIT,)),
}


@dataclass(frozen=True)
class Decl:
    name: str
    text: str  # the declaration as written, comments removed


@dataclass(frozen=True)
class CoreHeader:
    module: str
    file: Path
    params: tuple[Decl, ...]
    ports: tuple[Decl, ...]


def shell_blocks() -> list[ipblock.IpBlock]:
    """Every IP with a register map and a bus-neutral core, in name order."""
    return [b for b in ipblock.blocks().values() if b.rdl is not None and _core_file(b) is not None]


def bus(name: str) -> Bus:
    if name not in BUSES:
        raise ToolError(f"no bus '{name}' (have: {', '.join(BUSES)})")
    return BUSES[name]


def shell_module(block: ipblock.IpBlock, bus_name: str) -> str:
    return f"{block.name}_{bus(bus_name).name}"


def _core_file(block: ipblock.IpBlock) -> Path | None:
    found = [p for p in block.rtl if p.stem == f"{block.name}_periph"]
    return found[0] if found else None


def _split_top(text: str) -> list[str]:
    """Split on commas outside brackets, braces and parentheses."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    return [p.strip() for p in [*parts, cur] if p.strip()]


def _strip_comments(text: str) -> str:
    return re.sub(r"//[^\n]*", "", re.sub(r"/\*.*?\*/", "", text, flags=re.S))


def core_header(block: ipblock.IpBlock) -> CoreHeader:
    """The parameter and port declarations of the block's core, read from its source."""
    path = _core_file(block)
    if path is None:
        raise ToolError(f"block '{block.name}' has no bus-neutral core rtl/{block.name}_periph.sv in its manifest")
    module = path.stem
    header = module_header(path, module)
    names = {p.name for p in header.ports}
    missing = [f"reg_{s}_{'i' if i < 5 else 'o'}" for i, s in enumerate(REG_PORT)
               if f"reg_{s}_{'i' if i < 5 else 'o'}" not in names]
    if missing or not {"clk_i", "rst_ni"} <= names:
        raise ToolError(f"{path}: module {module} lacks the register port or clock/reset "
                        f"({', '.join(missing) or 'clk_i/rst_ni'})")
    return header


def module_header(path: Path, module: str) -> CoreHeader:
    """The parameter and port declarations of `module`'s ANSI header in `path`."""
    text = _strip_comments(path.read_text())
    head = re.search(rf"\bmodule\s+{module}\s*(#\s*\((?P<params>.*?)\)\s*)?\((?P<ports>.*?)\)\s*;", text, re.S)
    if head is None:
        raise ToolError(f"{path}: no ANSI header for module {module}")
    params = []
    for decl in _split_top(head["params"] or ""):
        m = re.match(r"parameter\b[^=]*?\b(\w+)\s*=", decl)
        if m is None:
            raise ToolError(f"{path}: cannot read parameter declaration '{decl}'")
        params.append(Decl(m.group(1), " ".join(decl.split())))
    ports = []
    for decl in _split_top(head["ports"]):
        m = re.match(r"(input|output|inout)\b.*?\b(\w+)$", decl, re.S)
        if m is None:
            raise ToolError(f"{path}: cannot read port declaration '{decl}'")
        ports.append(Decl(m.group(2), " ".join(decl.split())))
    return CoreHeader(module, path, tuple(params), tuple(ports))


def _reg_port_names() -> list[tuple[str, str, str]]:
    """(core port, bridge port, wire) of the register port."""
    return [(f"reg_{s}_{'i' if i < 5 else 'o'}", f"reg_{s}_{'o' if i < 5 else 'i'}", f"reg_{s}")
            for i, s in enumerate(REG_PORT)]


def _wire_decls(header: CoreHeader) -> list[str]:
    by_name = {p.name: p.text for p in header.ports}
    lines = []
    for core_port, _, wire in _reg_port_names():
        rng = re.search(r"(\[[^\]]+\])\s*\w+$", by_name[core_port])
        lines.append(f"  logic {rng.group(1) + ' ' if rng else ''}{wire};")
    return lines


def _connections(pairs: list[tuple[str, str]]) -> str:
    width = max(len(a) for a, _ in pairs)
    return ",\n".join(f"    .{a:<{width}} ({b})" for a, b in pairs)


def _hidden(block: ipblock.IpBlock, b: Bus) -> set[str]:
    # The core's idle output speaks for the core alone: a clocked bridge has state of its own, so
    # only a shell whose bridge has none (the Wishbone ones) passes it on (docs/ARCHITECTURE.md).
    return {block.idle} if block.idle and b.clocked else set()


def _core_ports_passed(block: ipblock.IpBlock, b: Bus, header: CoreHeader) -> list[Decl]:
    """The core's ports that the shell passes through under their own name."""
    reg_core = {c for c, _, _ in _reg_port_names()} | {ABORT_CORE}
    return [p for p in header.ports if p.name not in reg_core | _hidden(block, b)]


def shell_ports(block: ipblock.IpBlock, bus_name: str) -> list[Decl]:
    """The ports of shell `<block>_<bus>` in header order: the core's passed ports, with the bus's
    own after rst_ni."""
    b = bus(bus_name)
    ports: list[Decl] = []
    for p in _core_ports_passed(block, b, core_header(block)):
        ports.append(p)
        if p.name == "rst_ni":
            ports += [Decl(n, f"{d} {'wire logic' if d == 'input' else 'logic'} {r + ' ' if r else ''}{n}")
                      for d, r, n in b.ports]
    return ports


def _secret(block: ipblock.IpBlock) -> set[str]:
    return {e.port for e in block.external if e.secret}


def _port_lines(decls: list[str], secret: set[str]) -> list[str]:
    """A module header's port lines; secret inputs (the XIP key-encryption key) stay out of
    waveforms, as in the core."""
    lines = []
    for i, text in enumerate(decls):
        line = f"  {text}{',' if i < len(decls) - 1 else ''}"
        secret_port = re.search(r"(\w+)$", text).group(1) in secret
        lines += ["  /* verilator tracing_off */", line, "  /* verilator tracing_on */"] if secret_port else [line]
    return lines


def render(block: ipblock.IpBlock, bus_name: str) -> str:
    """The SystemVerilog of one shell."""
    b = bus(bus_name)
    header = core_header(block)
    reg = _reg_port_names()
    aborts = any(p.name == ABORT_CORE for p in header.ports)
    abort_wire = "reg_abort" if aborts else "unused_reg_abort"
    hidden = _hidden(block, b)
    passed = _core_ports_passed(block, b, header)
    params = [p.text for p in header.params] + [p.declaration() for p in b.params]
    port_lines = _port_lines([d.text for d in shell_ports(block, bus_name)], _secret(block))
    bridge_params = f" #(\n{_connections([('AddrWidth', str(ADDR_WIDTH)), *[(p.name, p.name) for p in b.params]])}\n  )"
    bridge_conns = ([("clk_i", "clk_i"), ("rst_ni", "rst_ni")] if b.clocked else []) + \
        [(n, n) for _, _, n in b.ports] + [(bp, w) for _, bp, w in reg] + [(ABORT_BRIDGE, abort_wire)]
    core_params = f" #(\n{_connections([(p.name, p.name) for p in header.params])}\n  )" if header.params else ""
    core_conns = [(c, w) for c, _, w in reg] + [(p.name, p.name) for p in passed] + [(h, f"unused_{h}") for h in hidden] \
        + ([(ABORT_CORE, abort_wire)] if aborts else [])
    core_conns.sort(key=lambda cw: [p.name for p in header.ports].index(cw[0]))
    source = header.file.relative_to(ipblock.IP_DIR.parent) if header.file.is_relative_to(ipblock.IP_DIR.parent) \
        else header.file
    param_text = ",\n".join(f"  {p}" for p in params)
    return "\n".join([
        "// SPDX-License-Identifier: Apache-2.0",
        f"// {b.title} shell of {block.name}: {b.bridge} in front of {header.module}.",
        f"// Generated by aesoc.shells from {source}; do not edit (python3 -m aesoc shells).",
        "`default_nettype none",
        "",
        f"module {shell_module(block, bus_name)}" + (f" #(\n{param_text}\n)" if params else "") + " (",
        *port_lines,
        ");",
        "",
        *_wire_decls(header),
        f"  logic {abort_wire};",
        *[f"  logic unused_{h};" for h in sorted(hidden)],
        "",
        f"  {b.bridge}{bridge_params} u_bridge (",
        _connections(bridge_conns),
        "  );",
        "",
        f"  {header.module}{core_params} u_core (",
        _connections(core_conns),
        "  );",
        "",
        "endmodule",
        "",
        "`default_nettype wire",
        "",
    ])


def generate(block: ipblock.IpBlock, bus_name: str, out_dir: Path = OUT_DIR) -> Path:
    """Write `<block>_<bus>.sv` into out_dir (only when its text changed) and return its path."""
    path = out_dir / f"{shell_module(block, bus_name)}.sv"
    text = render(block, bus_name)
    return write_if_changed(path, text)


def side_by_side_module(block: ipblock.IpBlock) -> str:
    return f"{block.name}_shells"


def render_side_by_side(block: ipblock.IpBlock, overrides: dict[str, dict[str, int]] | None = None) -> str:
    """One module with the block's shells of every bus side by side (a single test model for all
    of them): clk_i and rst_ni shared, every other port of shell `<bus>` brought out as
    `<bus>_<port>`. The core's parameters apply to every shell; `overrides` sets a shell's own
    parameters per bus (e.g. {"apb4": {"MaxWait": 8}})."""
    header = core_header(block)
    shared = ("clk_i", "rst_ni")
    decls = [p.text for p in header.ports if p.name in shared]
    secret: set[str] = set()
    instances: list[str] = []
    for name in BUSES:
        own = [p for p in shell_ports(block, name) if p.name not in shared]
        decls += [re.sub(r"\w+$", f"{name}_{p.name}", p.text) for p in own]
        secret |= {f"{name}_{s}" for s in _secret(block)}
        own_params = (overrides or {}).get(name, {})
        params = [(p.name, p.name) for p in header.params] + [(k, str(v)) for k, v in own_params.items()]
        conns = [(s, s) for s in shared] + [(p.name, f"{name}_{p.name}") for p in own]
        instances += [f"  {shell_module(block, name)}" + (f" #(\n{_connections(params)}\n  )" if params else "")
                      + f" u_{name} (", _connections(conns), "  );", ""]
    param_text = ",\n".join(f"  {p.text}" for p in header.params)
    return "\n".join([
        "// SPDX-License-Identifier: Apache-2.0",
        f"// The bus shells of {block.name} side by side: one test model for all of them.",
        "// Generated by aesoc.shells.render_side_by_side; do not edit.",
        "`default_nettype none",
        "",
        f"module {side_by_side_module(block)}" + (f" #(\n{param_text}\n)" if param_text else "") + " (",
        *_port_lines(decls, secret),
        ");",
        "",
        *instances,
        "endmodule",
        "",
        "`default_nettype wire",
        "",
    ])


def generate_side_by_side(block: ipblock.IpBlock, overrides: dict[str, dict[str, int]] | None = None,
                          out_dir: Path = OUT_DIR) -> Path:
    """Write `<block>_shells.sv` (render_side_by_side) into out_dir, only when its text changed."""
    return write_if_changed(out_dir / f"{side_by_side_module(block)}.sv", render_side_by_side(block, overrides))
