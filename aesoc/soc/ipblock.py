"""IP manifests: ip/<block>/ip.toml says what a block is made of and how it connects.

A manifest names the SoC-facing module and its RTL in compile order (or, with `shell = "BUS"`, the
bus whose generated shell `<block>_<BUS>` (aesoc.soc.shells) is that module: then `rtl` lists the core
alone), the SystemRDL register map,
the driver folder, the parameters (default and legal values), the bus slave and master ports (by
signal prefix), IRQ outputs, DMA request outputs or the DMA request input, and ports that leave
the SoC, and the output (`idle`) that says a clock edge would change nothing, on which the SoC's
simulation model stops the block's clock (docs/ARCHITECTURE.md, "Idle clock gating"). The SoC
generator, synthesis, lint and the block tests take their file lists from here.

Named source sets (`[fileset.NAME]`) let a list say "@NAME" (this manifest) or "@BLOCK:NAME"
(another block's) instead of repeating files, so each file is listed once. A unit
(`[unit.NAME]`) is a module inside the block that is tested and synthesised on its own, with its
testbench and named parameter sets (variants), e.g. the AES engine under the AES peripheral.
An alternative top (`[top.NAME]`: module, rtl, doc) is another bus shell of the same core for
systems other than aesoc (the DMA's AXI4 one): its `rtl` replaces the SoC-facing module and its
bridge (whatever `rtl` lists from ip/reg_bridge) after the rest of `rtl`; lint covers it.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from aesoc.common.toolchain import REPO, ToolError

IP_DIR = REPO / "ip"
ROLES = ("peripheral", "cfu", "sysctrl", "memory", "interconnect", "sim_model", "primitive")


@dataclass(frozen=True)
class Param:
    name: str
    default: int
    values: tuple[int, ...] = ()
    range: tuple[int, int] | None = None
    doc: str = ""

    def check(self, value: object, where: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise ToolError(f"{where}: parameter {self.name} must be an integer, got {value!r}")
        if self.values and value not in self.values:
            raise ToolError(f"{where}: parameter {self.name} = {value} is not one of {list(self.values)}")
        if self.range and not self.range[0] <= value <= self.range[1]:
            raise ToolError(f"{where}: parameter {self.name} = {value} is outside {list(self.range)}")
        return value


@dataclass(frozen=True)
class SlavePort:
    name: str
    prefix: str
    addr_bits: int  # word-address bits the module takes
    bytes: int = 0  # fixed window size, or 0 with bytes_param
    bytes_param: str = ""
    memory: bool = False  # decoded without the uncached bit; cached by the CPU
    burst: bool = False  # has CTI/BTE inputs


@dataclass(frozen=True)
class MasterPort:
    name: str
    prefix: str
    prio: str = ""  # output that asks for the crossbar's high-priority class


@dataclass(frozen=True)
class ExternalPort:
    port: str
    dir: str
    width: int
    idle: str = ""  # value of an output when the block is absent
    secret: bool = False  # never traced


@dataclass(frozen=True)
class Unit:
    """A module of the block tested and synthesised on its own."""
    name: str
    module: str
    rtl: tuple[Path, ...]
    testbench: Path | None
    verilator_args: tuple[str, ...]
    variants: dict[str, dict[str, int]]  # name -> parameter overrides
    benchmark_variants: tuple[str, ...]
    # Simulation-only defines -> the variants whose block tests and cycle measurements use them
    # (e.g. an S-box read as a table where it changes no cycle and no result; see ip/aes/ip.toml).
    sim_defines: dict[str, tuple[str, ...]]

    def defines_of(self, variant: str) -> dict[str, int]:
        """The simulation defines a variant is built with (+define+NAME=1 each)."""
        return {define: 1 for define, names in sorted(self.sim_defines.items()) if variant in names}


@dataclass(frozen=True)
class AltTop:
    """Another top of the block's core, not used by the SoC generator."""
    name: str
    module: str
    rtl: tuple[Path, ...]  # the files after the core (bridge, shell), in compile order
    doc: str = ""


@dataclass(frozen=True)
class IpBlock:
    name: str
    folder: Path
    module: str
    role: str
    description: str
    rtl: tuple[Path, ...]
    rdl: Path | None
    sw: Path | None
    params: dict[str, Param]
    slaves: tuple[SlavePort, ...]
    masters: tuple[MasterPort, ...]
    irqs: dict[str, str]  # name -> output port
    dma_requests: dict[str, str]  # name -> output port, in numbering order
    dma_sink: dict[str, str] = field(default_factory=dict)  # port, count_param
    windows: dict[str, str] = field(default_factory=dict)  # count_param, base_param, size_param
    unused: dict[str, int] = field(default_factory=dict)  # outputs left open: port -> width
    external: tuple[ExternalPort, ...] = ()
    sim_model: str = ""
    filesets: dict[str, tuple[Path, ...]] = field(default_factory=dict)
    units: dict[str, Unit] = field(default_factory=dict)
    uses: tuple[str, ...] = ()  # other blocks whose filesets this one takes
    shell: str = ""  # the bus of the generated shell that is `module`; "" for a hand-written module
    tops: dict[str, AltTop] = field(default_factory=dict)  # alternative tops by name
    idle: str = ""  # output that is high while a clock edge would change nothing (simulation clock gating)
    # Simulation-only defines of the block's own tests and shell tests (not its units' tests).
    test_defines: tuple[str, ...] = ()
    # Ceiling of LUT levels between registers on ECP5 with the `full` configuration's parameters
    # ([timing] max_lut_levels; aesoc.fpga.depth, docs/fpga.md "Logic depth"); None: no ceiling.
    max_lut_levels: int | None = None

    @property
    def test_define_values(self) -> dict[str, int]:
        return {name: 1 for name in self.test_defines}

    def param_values(self, given: dict[str, Any], where: str) -> dict[str, int]:
        """Every parameter of the block: defaults, overridden by `given` (checked)."""
        unknown = sorted(set(given) - set(self.params))
        if unknown:
            raise ToolError(f"{where}: block '{self.name}' has no parameter {', '.join(unknown)} "
                            f"(has: {', '.join(self.params) or 'none'})")
        return {name: p.check(given.get(name, p.default), where) for name, p in self.params.items()}


def _max_lut_levels(spec: dict[str, Any], where: str) -> int | None:
    unknown = sorted(set(spec) - {"max_lut_levels"})
    if unknown:
        raise ToolError(f"{where}: timing: unknown key(s) {', '.join(unknown)} (known: max_lut_levels)")
    value = spec.get("max_lut_levels")
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
        raise ToolError(f"{where}: timing.max_lut_levels must be a positive integer, got {value!r}")
    return value


def _param(name: str, spec: dict[str, Any], where: str) -> Param:
    if "default" not in spec:
        raise ToolError(f"{where}: parameter {name} has no default")
    rng = spec.get("range")
    param = Param(name, spec["default"], tuple(spec.get("values", ())), tuple(rng) if rng else None,
                  str(spec.get("doc", "")))
    param.check(param.default, where)
    return param


def _read(path: Path) -> tuple[dict[str, Any], str]:
    where = str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path)
    if not path.is_file():
        raise ToolError(f"{where}: no such manifest")
    try:
        return tomllib.loads(path.read_text()), where
    except tomllib.TOMLDecodeError as exc:
        raise ToolError(f"{where}: {exc}") from exc


class _Files:
    """Expands "@NAME" and "@BLOCK:NAME" in a manifest's source lists; a sibling block's manifest
    is looked up next to this one's folder."""

    def __init__(self) -> None:
        self.uses: list[str] = []
        self._stack: list[str] = []

    def expand(self, entries: list[str], folder: Path, where: str) -> tuple[Path, ...]:
        out: list[Path] = []
        for entry in entries:
            if not entry.startswith("@"):
                if (folder / entry).resolve() not in out:
                    out.append((folder / entry).resolve())
                continue
            owner, _, name = entry[1:].rpartition(":")
            other = folder.parent / owner if owner else folder
            if owner and owner not in self.uses:
                self.uses.append(owner)
            key = f"{other.name}:{name}"
            if key in self._stack:
                raise ToolError(f"{where}: fileset {key} includes itself")
            data, other_where = _read(other / "ip.toml")
            sets = data.get("fileset", {})
            if name not in sets or "rtl" not in sets[name]:
                raise ToolError(f"{where}: no fileset '{name}' in {other_where} (has: {', '.join(sets) or 'none'})")
            self._stack.append(key)
            out += [p for p in self.expand(list(sets[name]["rtl"]), other, other_where) if p not in out]
            self._stack.pop()
        missing = [str(p) for p in out if not p.is_file()]
        if missing:
            raise ToolError(f"{where}: no such file(s): {', '.join(missing)}")
        return tuple(out)


_KEYS = {"name", "module", "shell", "role", "description", "rtl", "regs", "sw", "params", "slave", "master", "irq",
         "dma_request", "dma_sink", "windows", "unused", "external", "sim_model", "fileset", "unit", "top", "idle",
         "test_defines", "timing"}


def _unit(name: str, spec: dict[str, Any], files: _Files, folder: Path, where: str) -> Unit:
    for key in ("module", "rtl"):
        if key not in spec:
            raise ToolError(f"{where}: unit {name} has no '{key}'")
    variants = {v: dict(p) for v, p in spec.get("variants", {}).items()}
    bench = tuple(spec.get("benchmark_variants", ()))
    unknown = [v for v in bench if v not in variants]
    if unknown:
        raise ToolError(f"{where}: unit {name}: benchmark variant(s) {', '.join(unknown)} are not variants")
    defines = {d: tuple(names) for d, names in spec.get("sim_defines", {}).items()}
    unknown = sorted({v for names in defines.values() for v in names if v not in variants})
    if unknown:
        raise ToolError(f"{where}: unit {name}: sim_defines name(s) {', '.join(unknown)} that are not variants")
    tb = folder / spec["testbench"] if "testbench" in spec else None
    if tb is not None and not tb.is_file():
        raise ToolError(f"{where}: no such file: {tb}")
    return Unit(name, spec["module"], files.expand(list(spec["rtl"]), folder, where), tb,
                tuple(spec.get("verilator_args", ())), variants, bench, defines)


def _top(name: str, spec: dict[str, Any], files: _Files, folder: Path, where: str) -> AltTop:
    for key in ("module", "rtl"):
        if key not in spec:
            raise ToolError(f"{where}: top {name} has no '{key}'")
    return AltTop(name, spec["module"], files.expand(list(spec["rtl"]), folder, where), str(spec.get("doc", "")))


def _load(path: Path) -> IpBlock:
    data, where = _read(path)
    folder = path.parent
    for key in ("name", "rtl"):
        if key not in data:
            raise ToolError(f"{where}: missing '{key}'")
    if ("module" in data) == ("shell" in data):
        raise ToolError(f"{where}: give either 'module' (a hand-written top) or 'shell' (a generated one)")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise ToolError(f"{where}: unknown key(s) {', '.join(unknown)}")
    if data["name"] != folder.name:
        raise ToolError(f"{where}: name '{data['name']}' differs from its folder '{folder.name}'")
    role = data.get("role", "peripheral")
    if role not in ROLES:
        raise ToolError(f"{where}: role '{role}' is not one of {', '.join(ROLES)}")
    files = _Files()
    rtl = files.expand(list(data["rtl"]), folder, where)
    filesets = {n: files.expand([f"@{n}"], folder, where) for n in data.get("fileset", {})}
    units = {n: _unit(n, s, files, folder, where) for n, s in data.get("unit", {}).items()}
    tops = {n: _top(n, s, files, folder, where) for n, s in data.get("top", {}).items()}
    rdl = folder / data["regs"] if "regs" in data else None
    sw = folder / data["sw"] if "sw" in data else None
    missing = [str(p) for p in (rdl, sw) if p is not None and not p.exists()]
    if missing:
        raise ToolError(f"{where}: no such file(s): {', '.join(missing)}")
    try:
        return IpBlock(
            name=data["name"], folder=folder, role=role,
            module=data.get("module") or f"{data['name']}_{data['shell']}", shell=str(data.get("shell", "")),
            description=str(data.get("description", "")), rtl=rtl, rdl=rdl, sw=sw,
            params={n: _param(n, s, where) for n, s in data.get("params", {}).items()},
            slaves=tuple(SlavePort(**s) for s in data.get("slave", [])),
            masters=tuple(MasterPort(**m) for m in data.get("master", [])),
            irqs=dict(data.get("irq", {})), dma_requests=dict(data.get("dma_request", {})),
            dma_sink=dict(data.get("dma_sink", {})), windows=dict(data.get("windows", {})),
            unused=dict(data.get("unused", {})),
            external=tuple(ExternalPort(**e) for e in data.get("external", [])),
            sim_model=str(data.get("sim_model", "")),
            filesets=filesets, units=units, uses=tuple(files.uses), tops=tops, idle=str(data.get("idle", "")),
            test_defines=tuple(data.get("test_defines", ())),
            max_lut_levels=_max_lut_levels(data.get("timing", {}), where),
        )
    except TypeError as exc:
        raise ToolError(f"{where}: {exc}") from exc


@cache
def blocks(extra_dirs: tuple[Path, ...] = ()) -> dict[str, IpBlock]:
    """Every IP block with a manifest, by folder name: ip/ and then `extra_dirs` (folders of IP
    folders outside this repository; a name there may not shadow one in ip/)."""
    found = {p.parent.name: _load(p) for p in sorted(IP_DIR.glob("*/ip.toml"))}
    for folder in extra_dirs:
        if not folder.is_dir():
            raise ToolError(f"IP folder {folder} does not exist")
        for path in sorted(folder.glob("*/ip.toml")):
            if path.parent.name in found:
                raise ToolError(f"{path}: block '{path.parent.name}' is already in {found[path.parent.name].folder}")
            found[path.parent.name] = _load(path)
    return found


def block(name: str, extra_dirs: tuple[Path, ...] = ()) -> IpBlock:
    found = blocks(extra_dirs)
    if name not in found:
        raise ToolError(f"no IP block '{name}' (ip/<block>/ip.toml; have: {', '.join(found)})")
    return found[name]
