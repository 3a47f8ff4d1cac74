"""Generate register blocks, C headers and register docs from each IP's SystemRDL file.

One SystemRDL file per peripheral (ip/<block>/data/<block>.rdl) is the single source. PeakRDL
writes, for each block:
- `<block>_reg_pkg.sv` and `<block>_reg.sv` (peakrdl-regblock, `passthrough` CPU interface): the
  register file with struct hardware ports and a bus-neutral request/response port; each IP's
  bus-neutral core instantiates it and a thin Wishbone shell drives the port (docs/registers/
  README.md says why regblock and why passthrough);
- `<block>_regs.h` (peakrdl-cheader) plus `<block>_enums.h` (written here: peakrdl-cheader does
  not export SystemRDL enums) for drivers and firmware;
- docs/registers/<block>.md (peakrdl-markdown's exporter, each enum field followed by a table of
  its encodings: value, name, description).

Python tests read fields, arrays and enums from the RDL through `regmap(block)`, never retyped.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from dataclasses import asdict, dataclass
from functools import cache
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING

from aesoc.common.toolchain import BUILD, REPO, ToolError, generation_lock, write_atomic

if TYPE_CHECKING:
    from systemrdl.node import AddrmapNode, FieldNode, RegNode

GEN = BUILD / "gen"
DOCS = REPO / "docs" / "registers"
# Every peripheral gets a 4 KB window; the register block answers ERR outside its registers
# and for a write to a read-only register (--err-if-bad-rw). That option also refuses reads of
# write-only registers; those read as zero instead (_write_only_reads_zero), the documented
# behaviour of the key registers that firmware and tests rely on (docs/integration.md).
ADDR_WIDTH = 12
# The bus-neutral register port of every core (see module docstring).
CPUIF = "passthrough"
EXPORTER = "regblock"
# Outputs depend on these as much as on the RDL: a new exporter version or option regenerates.
TOOLS = ("peakrdl-regblock", "peakrdl-cheader", "peakrdl-markdown", "systemrdl-compiler")


@dataclass(frozen=True)
class RegBlock:
    name: str
    rdl: Path

    @property
    def out_dir(self) -> Path:
        return GEN / self.name

    @property
    def sv_package(self) -> Path:
        return self.out_dir / f"{self.name}_reg_pkg.sv"

    @property
    def sv(self) -> Path:
        return self.out_dir / f"{self.name}_reg.sv"

    @property
    def sv_files(self) -> list[Path]:
        """The generated SystemVerilog, in compile order (package first)."""
        return [self.sv_package, self.sv]

    @property
    def header(self) -> Path:
        return self.out_dir / f"{self.name}_regs.h"

    @property
    def enum_header(self) -> Path:
        return self.out_dir / f"{self.name}_enums.h"

    @property
    def doc(self) -> Path:
        """docs/registers/ for the repository's IP; beside the generated files for IP outside it."""
        return DOCS / f"{self.name}.md" if self.rdl.resolve().is_relative_to(REPO / "ip") else self.out_dir / f"{self.name}.md"


def reg_blocks() -> list[RegBlock]:
    return [RegBlock(rdl.stem, rdl) for rdl in sorted(REPO.glob("ip/*/data/*.rdl"))]


def block(name: str) -> RegBlock:
    found = [b for b in reg_blocks() if b.name == name]
    if not found:
        raise ToolError(f"no register block '{name}' (ip/*/data/{name}.rdl)")
    return found[0]


def _peakrdl(*args: str) -> None:
    cmd = [sys.executable, "-m", "peakrdl", *args]
    # From the repository root with relative paths: the generated files name their source, and
    # must read the same in every checkout.
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO)
    if proc.returncode != 0:
        raise ToolError(f"peakrdl failed: {' '.join(args)}\n{proc.stdout}{proc.stderr}")


def _regblock_args(block: RegBlock, rdl: str) -> list[str]:
    return [EXPORTER, rdl, "-o", str(block.out_dir), "--cpuif", CPUIF,
            "--default-reset", "arst_n", "--err-if-bad-addr", "--err-if-bad-rw", "--addr-width", str(ADDR_WIDTH),
            "--module-name", f"{block.name}_reg", "--package-name", f"{block.name}_reg_pkg"]


def _stamp(block: RegBlock) -> str:
    """What the outputs depend on: the RDL, this generator, the tool versions and the options."""
    inputs = {
        "rdl": hashlib.sha256(block.rdl.read_bytes()).hexdigest(),
        "generator": hashlib.sha256(Path(__file__).read_bytes()).hexdigest(),
        "tools": {tool: version(tool) for tool in TOOLS},
        "args": _regblock_args(block, "RDL"),
    }
    return json.dumps(inputs, sort_keys=True)


def generate(block: RegBlock) -> None:
    """Regenerate one block's outputs when the RDL, the tools or the options changed. PeakRDL
    writes in place, so the check and the writing happen under the generation lock, and the
    stamp, written last, says the outputs are whole."""
    stamp = block.out_dir / ".inputs.json"
    digest = _stamp(block)
    outputs = (*block.sv_files, block.header, block.enum_header, block.doc)
    with generation_lock:
        if stamp.is_file() and stamp.read_text() == digest and all(p.is_file() for p in outputs):
            return
        block.out_dir.mkdir(parents=True, exist_ok=True)
        DOCS.mkdir(parents=True, exist_ok=True)
        rdl = str(block.rdl.resolve().relative_to(REPO)) if block.rdl.resolve().is_relative_to(REPO) else str(block.rdl)
        _peakrdl(*_regblock_args(block, rdl))
        _write_only_reads_zero(block.sv)
        _peakrdl("c-header", rdl, "-o", str(block.header))
        write_doc(block, block.doc, rdl)
        write_atomic(block.enum_header, c_enum_header(block))
        write_atomic(stamp, digest)


def _encodings_md(field: FieldNode) -> str:
    """A field's enum encodings as a Markdown table (empty for a field without `encode`)."""
    encode = field.get_property("encode")
    if encode is None:
        return ""
    rows = ["|Value|Name|Description|", "|-----|----|-----------|"]
    for member in encode:
        desc = " ".join((member.rdl_desc or "—").split()).replace("|", "\\|")
        rows.append(f"|0x{member.value:X}|{member.name}|{desc}|")
    return f"\nEncodings ({encode.type_name}):\n\n" + "\n".join(rows) + "\n"


def write_doc(block: RegBlock, path: Path, rdl: str) -> None:
    """The block's register document (peakrdl-markdown), each enum field's section ending with
    its encodings; `rdl` is the source path the document names."""
    from peakrdl_markdown.exporter import MarkdownExporter
    from systemrdl import RDLCompiler

    class Exporter(MarkdownExporter):  # type: ignore[misc]
        def _add_field(self, node: FieldNode, msg: object) -> MarkdownExporter.GenStageOutput:
            out = super()._add_field(node, msg)
            table = _encodings_md(node)
            if table and not out.generated:  # peakrdl-markdown gives a field without desc no section
                out.generated = self._heading(4, f"{node.inst_name} field")
            out.generated += table
            return out

    rdlc = RDLCompiler()
    rdlc.compile_file(str(block.rdl))
    Exporter().export(rdlc.elaborate().top, str(path), input_files=[rdl])


# peakrdl-regblock 1.3's access check of a write-only register: valid only when writing.
_WO_CHECK = re.compile(r"^(\s*is_valid_rw \|= cpuif_req_masked & \(.*\)) & cpuif_req_is_wr;$", re.M)


def _write_only_reads_zero(sv: Path) -> None:
    """Make reads of write-only registers valid (they return 0, as without --err-if-bad-rw) while
    writes to read-only registers keep their error."""
    text = sv.read_text()
    if "is_valid_rw" not in text:
        raise ToolError(f"{sv}: no access check (is_valid_rw) from --err-if-bad-rw; peakrdl-regblock changed?")
    write_atomic(sv, _WO_CHECK.sub(r"\1;", text))


def generate_all() -> list[RegBlock]:
    blocks = reg_blocks()
    for b in blocks:
        generate(b)
    return blocks


# ---- the register map for Python (tests, tools) ----

@dataclass(frozen=True)
class Field:
    """`sw`: software's access ("rw", "r", "w", ...); `plain`: software reads back what it wrote
    (read-write, hardware neither writes it nor gates its writes, and an access has no side
    effect on its value; a `swmod` strobe to the core is allowed)."""
    lsb: int
    width: int
    reset: int | None
    sw: str
    plain: bool

    @property
    def mask(self) -> int:
        return ((1 << self.width) - 1) << self.lsb


@dataclass(frozen=True)
class RegMap:
    """A block's registers: byte offset of each register (array elements as NAME[i], registers
    of a regfile as FILE[i].NAME), fields by "REG.FIELD" (array index left out), enums by
    SystemRDL type name, each a {MEMBER: value} dict, and the registers the core implements
    itself (`external`, array index left out)."""
    name: str
    top: str
    offsets: dict[str, int]
    fields: dict[str, Field]
    enums: dict[str, dict[str, int]]
    stride: dict[str, int]
    external: list[str]

    def fields_of(self, reg: str) -> list[Field]:
        """The fields of register `reg` (an array element's name as in `offsets`)."""
        base = re.sub(r"\[\d+\]", "", reg)
        return [f for name, f in self.fields.items() if name.rsplit(".", 1)[0] == base]

    def field(self, name: str, value: int) -> int:
        f = self.fields[name]
        if not 0 <= value < (1 << f.width):
            raise ValueError(f"{name}: {value} does not fit {f.width} bits")
        return value << f.lsb

    def get(self, name: str, reg_value: int) -> int:
        f = self.fields[name]
        return (reg_value & f.mask) >> f.lsb


def _plain_path(node: RegNode | FieldNode, top: AddrmapNode, indexed: bool) -> str:
    path = node.get_path(hier_separator=".", array_suffix="[{index:d}]", empty_array_suffix="")
    path = path.split(".", 1)[1] if path.startswith(top.inst_name + ".") else path
    return path if indexed else re.sub(r"\[\d+\]", "", path)


def regmap(name: str) -> RegMap:
    """The register map of ip/*/data/NAME.rdl."""
    return regmap_of(block(name).rdl)


@cache
def regmap_of(rdl: Path) -> RegMap:
    """The register map of a SystemRDL file (any IP's, also outside ip/), kept in build/gen/regmap/
    under a hash of the RDL, this module and the compiler's version: importing and running the
    SystemRDL compiler takes about 0.7 s, which every cocotb simulation process (a few hundred in
    `make test`) paid to learn a few enum values."""
    data = rdl.read_bytes()
    key = hashlib.sha256(data + Path(__file__).read_bytes() + version("systemrdl-compiler").encode()).hexdigest()
    cached = GEN / "regmap" / f"{rdl.stem}-{key[:16]}.json"
    if cached.is_file():
        d = json.loads(cached.read_text())
        return RegMap(d["name"], d["top"], d["offsets"], {k: Field(**f) for k, f in d["fields"].items()},
                      d["enums"], d["stride"], d["external"])
    rm = _compile_regmap(rdl)
    write_atomic(cached, json.dumps(asdict(rm)))
    return rm


def _compile_regmap(rdl: Path) -> RegMap:
    from systemrdl import RDLCompiler
    from systemrdl.node import FieldNode, RegNode

    name = rdl.stem
    rdlc = RDLCompiler()
    rdlc.compile_file(str(rdl))
    top = rdlc.elaborate().top
    offsets: dict[str, int] = {}
    fields: dict[str, Field] = {}
    enums: dict[str, dict[str, int]] = {}
    stride: dict[str, int] = {}
    external: list[str] = []
    for node in top.descendants(unroll=True):
        if isinstance(node, RegNode):
            offsets[_plain_path(node, top, True)] = node.absolute_address - top.absolute_address
            if node.external and _plain_path(node, top, False) not in external:
                external.append(_plain_path(node, top, False))
        elif isinstance(node, FieldNode):
            sw = node.get_property("sw").name
            fields.setdefault(_plain_path(node, top, False),
                              Field(node.lsb, node.width, node.get_property("reset"), sw, _plain(node)))
            encode = node.get_property("encode")
            if encode is not None:
                enums[encode.type_name] = {m.name: m.value for m in encode}
    for node in top.descendants(unroll=False):
        if getattr(node, "is_array", False):
            stride[_plain_path(node, top, False)] = node.array_stride
    return RegMap(name, top.inst_name, offsets, fields, enums, stride, external)


def _plain(f: FieldNode) -> bool:
    return (f.get_property("sw").name == "rw" and not f.is_hw_writable
            and f.get_property("onwrite") is None and f.get_property("onread") is None
            and not f.get_property("singlepulse") and not f.get_property("swwe") and not f.get_property("swwel")
            and not f.get_property("hwclr") and not f.get_property("hwset"))


# ---- enums for C and SystemVerilog ----

def c_enum_header(b: RegBlock) -> str:
    """The RDL enums as C enums <TOP>__<ENUM>__<MEMBER> (cheader's naming, upper case, the enum
    type name without its "_e"), type <top>__<enum>_t."""
    rm = regmap_of(b.rdl)
    guard = f"{b.name.upper()}_ENUMS_H"
    source = b.rdl.resolve().relative_to(REPO) if b.rdl.resolve().is_relative_to(REPO) else b.rdl
    lines = [f"/* Generated by aesoc.soc.regs from {source}: do not edit. */",
             f"#ifndef {guard}", f"#define {guard}", ""]
    for enum, members in rm.enums.items():
        base = enum.removesuffix("_e")
        prefix = f"{rm.top}__{base}".upper()
        body = ", ".join(f"{prefix}__{m.upper()} = {v}" for m, v in members.items())
        lines.append(f"typedef enum {{ {body} }} {rm.top}__{base}_t;")
    return "\n".join([*lines, "", f"#endif /* {guard} */", ""])


SV_BEGIN = "// BEGIN generated by aesoc.regs from {rdl}: do not edit."
SV_END = "// END generated."


def sv_enum_constants(name: str, prefixes: dict[str, str]) -> str:
    """The RDL enums as SystemVerilog localparams named <prefix><MEMBER>, for a package that the
    engine compiles without the generated register package (e.g. aes_pkg.sv)."""
    rm = regmap(name)
    lines = [SV_BEGIN.format(rdl=block(name).rdl.relative_to(REPO))]
    for enum, prefix in prefixes.items():
        members = rm.enums[enum]
        width = max(1, max(members.values()).bit_length())
        kind = "logic" if width == 1 else f"logic [{width - 1}:0]"
        for member, value in members.items():
            lines.append(f"  localparam {kind} {prefix}{member.upper()} = {width}'d{value};")
    lines.append(SV_END)
    return "\n".join(lines)
