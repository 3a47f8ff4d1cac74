"""The SoC description: soc/configs/NAME.toml, elaborated into masters, slaves, IRQ and DMA lines.

A configuration names its memories and IP instances (block = folder under ip/, parameters, bus
bases); `inherits = "other"` takes another configuration and overrides only what it names (tables
merge key by key). Elaboration checks every parameter against the block's manifest, assigns the
bases that were not given (the next free 4 KB window from PERIPH_FIRST), numbers crossbar masters
and slaves, IRQ lines and DMA request lines in instance order, and refuses overlaps. Everything
generated (SoC top, simulation top, SV package, firmware header, linker memory map, doc tables)
comes from the elaborated `Soc`.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from aesoc.common.toolchain import REPO, ToolError
from aesoc.soc.ipblock import IpBlock, MasterPort, SlavePort, block

CONFIG_DIR = REPO / "soc" / "configs"
# Bit 31 selects the core's uncached (IO) view: memories decode without it.
UNCACHED_BIT = 0x8000_0000
PERIPH_BYTES = 0x1000
PERIPH_FIRST = 0xF000_0000
IRQ_LINES = 31  # external lines 0..30: bit 31 of the mask CSR is the CFU enable (docs/ARCHITECTURE.md)
IRQ_BUS_ERR = 0  # raised inside sysctrl
MAX_MASTERS = 8  # sysctrl.BUS_PRIO has a bit per master
CPU_MASTERS = ("cpu_i", "cpu_d")
MEMORY_BLOCK = "wb_sram"


@dataclass(frozen=True)
class Slave:
    index: int
    region: str  # name in the map and the header (sram0, aes, flash, ...)
    instance: str
    port: SlavePort
    base: int
    bytes: int
    memory: bool

    @property
    def mask(self) -> int:
        mask = ~(self.bytes - 1) & 0xFFFF_FFFF
        return mask & ~UNCACHED_BIT if self.memory else mask


@dataclass(frozen=True)
class Master:
    index: int
    name: str  # cpu_i, cpu_d, dma_rd, ...
    instance: str  # "cpu" for the core's buses
    port: MasterPort | None


@dataclass(frozen=True)
class Instance:
    name: str
    block: IpBlock
    params: dict[str, int]  # every parameter, defaults filled in
    irqs: dict[str, int]  # irq name -> line
    dma_requests: dict[str, int]  # request name -> line
    windows: tuple[str, ...]  # regions a DMA may address
    doc: str = ""


@dataclass(frozen=True)
class Soc:
    name: str
    description: str
    clock_mhz: float
    cpu_core: str
    reset_region: str
    instances: tuple[Instance, ...]  # memories first, then IP, in description order
    masters: tuple[Master, ...]
    slaves: tuple[Slave, ...]
    sources: tuple[Path, ...]  # the configuration files read, the inherited ones first
    ip_dirs: tuple[Path, ...] = ()  # IP folders outside ip/ that the description names
    otp: tuple[tuple[str, int], ...] = ()  # OTP fuses as shipped ([otp]: name, value)
    # The crossbar's parameters ([xbar] params, checked against ip/wb_xbar/ip.toml; defaults filled in).
    xbar_params: dict[str, int] = field(default_factory=dict)

    def instance(self, name: str) -> Instance:
        for inst in self.instances:
            if inst.name == name:
                return inst
        raise ToolError(f"SoC configuration '{self.name}' has no instance '{name}'")

    def has(self, block_name: str) -> bool:
        return any(inst.block.name == block_name for inst in self.instances)

    def of_block(self, block_name: str) -> Instance:
        found = [inst for inst in self.instances if inst.block.name == block_name]
        if len(found) != 1:
            raise ToolError(f"SoC configuration '{self.name}' has {len(found)} instances of '{block_name}', "
                            "expected one")
        return found[0]

    def region(self, name: str) -> Slave:
        for slave in self.slaves:
            if slave.region == name:
                return slave
        raise ToolError(f"SoC configuration '{self.name}' has no region '{name}' "
                        f"(has: {', '.join(s.region for s in self.slaves)})")

    @property
    def irq_lines(self) -> dict[str, int]:
        """Header name -> line: BUS_ERR, then each instance's lines."""
        lines = {"BUS_ERR": IRQ_BUS_ERR}
        for inst in self.instances:
            for irq, line in inst.irqs.items():
                lines[irq_line_name(inst, irq)] = line
        return lines

    @property
    def dma_request_lines(self) -> dict[str, int]:
        return {f"{inst.name}_{req}".upper(): line for inst in self.instances for req, line in inst.dma_requests.items()}

    @property
    def params(self) -> dict[str, dict[str, int]]:
        """Every instance's parameters, for the record of a run."""
        return {inst.name: dict(inst.params) for inst in self.instances}

    @property
    def xip_flash(self) -> Slave | None:
        """The XIP controller's flash window, or None when the SoC has none."""
        found = [s for s in self.slaves if s.memory and self.instance(s.instance).block.name == "xip"]
        return found[0] if found else None

    @property
    def memories(self) -> tuple[Slave, ...]:
        return tuple(s for s in self.slaves if s.memory)


def irq_line_name(inst: Instance, irq: str) -> str:
    """The name of an IRQ line in the header and package: the instance, or instance_irq when the
    instance has several."""
    return (inst.name if len(inst.irqs) == 1 else f"{inst.name}_{irq}").upper()


def config_names() -> list[str]:
    return sorted(p.stem for p in CONFIG_DIR.glob("*.toml"))


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def config_path(name: str, near: Path | None = None) -> Path:
    """soc/configs/NAME.toml, or a .toml file by path; `inherits` names look beside the inheriting
    file first."""
    if name.endswith(".toml"):
        path = Path(name) if near is None else near / name
        if not path.is_file():
            raise ToolError(f"no SoC configuration file {path}")
        return path.resolve()
    for folder in ((near,) if near is not None else ()) + (CONFIG_DIR,):
        if (folder / f"{name}.toml").is_file():
            return (folder / f"{name}.toml").resolve()
    raise ToolError(f"no SoC configuration '{name}' (have: {', '.join(config_names())})")


def _where(path: Path) -> str:
    return str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path)


def read_config(path: Path, _seen: tuple[Path, ...] = ()) -> tuple[dict[str, Any], tuple[Path, ...]]:
    """The configuration's table with everything it inherits merged in, and the files read.
    `ip_dirs` (folders of IP folders, relative to the file naming them) accumulate."""
    if path in _seen:
        raise ToolError(f"SoC configuration {_where(path)} inherits itself "
                        f"({' -> '.join(_where(p) for p in (*_seen, path))})")
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as exc:
        raise ToolError(f"{_where(path)}: {exc}") from exc
    dirs = [str((path.parent / d).resolve()) for d in data.pop("ip_dirs", [])]
    parent = data.pop("inherits", None)
    if parent is None:
        return {**data, "ip_dirs": dirs}, (path,)
    base, files = read_config(config_path(str(parent), path.parent), (*_seen, path))
    merged = _merge(base, data)
    merged["ip_dirs"] = [*base.get("ip_dirs", []), *dirs]
    return merged, (*files, path)


def _int(value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ToolError(f"{what} must be an integer, got {value!r}")
    return value


class _Elaborator:
    def __init__(self, path: Path, data: dict[str, Any]) -> None:
        self.name = path.stem
        self.data = data
        self.where = _where(path)
        self.ip_dirs = tuple(Path(d) for d in data.get("ip_dirs", []))
        self.instances: list[Instance] = []
        self.slaves: list[Slave] = []
        self.masters: list[Master] = [Master(i, m, "cpu", None) for i, m in enumerate(CPU_MASTERS)]
        self.taken_irqs = {IRQ_BUS_ERR}
        self.next_dma_req = 0

    def add_slave(self, region: str, inst: str, port: SlavePort, base: int | None, size: int, memory: bool) -> None:
        if base is None:
            base = self.free_window(size)
        if size <= 0 or size & (size - 1):
            raise ToolError(f"{self.where}: {region}: size {size} is not a power of two")
        if base % size:
            raise ToolError(f"{self.where}: {region}: base {base:#010x} is not aligned to its size {size:#x}")
        if base & UNCACHED_BIT and memory:
            raise ToolError(f"{self.where}: {region}: a memory's base must not set the uncached bit 31")
        new = Slave(len(self.slaves), region, inst, port, base, size, memory)
        for other in self.slaves:
            if other.region == region:
                raise ToolError(f"{self.where}: two regions named '{region}'")
            if _overlap(new, other):
                raise ToolError(f"{self.where}: {region} [{base:#010x}, +{size:#x}) overlaps {other.region} "
                                f"[{other.base:#010x}, +{other.bytes:#x})")
        self.slaves.append(new)

    def free_window(self, size: int) -> int:
        base = PERIPH_FIRST
        while any(_overlap(Slave(0, "", "", SlavePort("", "", 0), base, size, False), s) for s in self.slaves):
            base += max(size, PERIPH_BYTES)
        return base

    def memories(self) -> None:
        mems = self.data.get("memory", {})
        if not mems:
            raise ToolError(f"{self.where}: no [memory.NAME] table: the CPU needs a memory to boot from")
        mem_block = block(MEMORY_BLOCK)
        for name, spec in mems.items():
            what = f"{self.where}: memory {name}"
            base, size = _int(spec.get("base"), f"{what}: base"), _int(spec.get("bytes"), f"{what}: bytes")
            params = mem_block.param_values({"SizeBytes": size, "BaseAddr": base}, what)
            self.add_slave(name, name, mem_block.slaves[0], base, size, True)
            self.instances.append(Instance(name, mem_block, params, {}, {}, (), str(spec.get("doc", ""))))

    def ip(self, name: str, spec: dict[str, Any]) -> None:
        what = f"{self.where}: ip.{name}"
        known = {"block", "params", "base", "slave", "irq", "windows", "doc"}
        unknown = sorted(set(spec) - known)
        if unknown:
            raise ToolError(f"{what}: unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(known))})")
        if "block" not in spec:
            raise ToolError(f"{what}: missing 'block' (a folder under ip/)")
        blk = block(str(spec["block"]), self.ip_dirs)
        if blk.role in ("memory", "interconnect", "sim_model", "primitive"):
            raise ToolError(f"{what}: block '{blk.name}' ({blk.role}) is placed by the generator, not as an ip")
        params = blk.param_values(dict(spec.get("params", {})), what)
        slave_specs = dict(spec.get("slave", {}))
        extra = sorted(set(slave_specs) - {s.name for s in blk.slaves})
        if extra:
            raise ToolError(f"{what}: block '{blk.name}' has no slave port {', '.join(extra)}")
        if "base" in spec and len(blk.slaves) != 1:
            raise ToolError(f"{what}: 'base' needs a block with one slave port; give [ip.{name}.slave.PORT] base")
        for port in blk.slaves:
            pspec = dict(slave_specs.get(port.name, {}))
            base = spec.get("base", pspec.get("base"))
            size = params[port.bytes_param] if port.bytes_param else port.bytes
            region = str(pspec.get("name", name if port.name == "regs" or len(blk.slaves) == 1 else f"{name}_{port.name}"))
            self.add_slave(region, name, port, None if base is None else _int(base, f"{what}: base"), size, port.memory)
        for port in blk.masters:
            if len(self.masters) >= MAX_MASTERS:
                raise ToolError(f"{what}: more than {MAX_MASTERS} bus masters")
            self.masters.append(Master(len(self.masters), f"{name}_{port.name}", name, port))
        irqs = self.irqs(what, blk, spec.get("irq"))
        reqs = {req: self.next_dma_req + i for i, req in enumerate(blk.dma_requests)}
        self.next_dma_req += len(reqs)
        windows = tuple(spec.get("windows", ()))
        if windows and not blk.windows:
            raise ToolError(f"{what}: block '{blk.name}' takes no 'windows'")
        self.instances.append(Instance(name, blk, params, irqs, reqs, windows, str(spec.get("doc", ""))))

    def irqs(self, what: str, blk: IpBlock, given: object) -> dict[str, int]:
        lines: dict[str, int] = {}
        for irq in blk.irqs:
            if given is not None:
                if len(blk.irqs) != 1:
                    raise ToolError(f"{what}: 'irq' can only number a block with one IRQ output")
                line = _int(given, f"{what}: irq")
            else:
                line = next((n for n in range(IRQ_LINES) if n not in self.taken_irqs), IRQ_LINES)
            if not 0 <= line < IRQ_LINES:
                raise ToolError(f"{what}: IRQ line {line} is outside 1..{IRQ_LINES - 1} "
                                "(line 31 of the mask CSR is the CFU enable)")
            if line in self.taken_irqs:
                raise ToolError(f"{what}: IRQ line {line} is taken")
            self.taken_irqs.add(line)
            lines[irq] = line
        return lines

    def check(self) -> None:
        roles = [inst.block.role for inst in self.instances]
        for role in ("sysctrl",):
            if roles.count(role) != 1:
                raise ToolError(f"{self.where}: needs exactly one '{role}' instance, has {roles.count(role)}")
        if roles.count("cfu") > 1:
            raise ToolError(f"{self.where}: at most one CFU instance")
        regions = {s.region for s in self.slaves}
        for inst in self.instances:
            bad = [w for w in inst.windows if w not in regions]
            if bad:
                raise ToolError(f"{self.where}: ip.{inst.name}: window(s) {', '.join(bad)} name no region")

    def xbar(self) -> dict[str, int]:
        """The crossbar's parameters: its manifest's defaults, overridden by [xbar] params."""
        spec = dict(self.data.get("xbar", {}))
        unknown = sorted(set(spec) - {"params"})
        if unknown:
            raise ToolError(f"{self.where}: xbar: unknown key(s) {', '.join(unknown)} (known: params)")
        return block("wb_xbar").param_values(dict(spec.get("params", {})), f"{self.where}: xbar")

    def add_request_windows(self) -> None:
        """A DMA controller may always address the registers of every IP that has request lines
        for it, besides the regions its `windows` name."""
        paced = [s.region for s in self.slaves if not s.memory and any(
            i.name == s.instance and i.dma_requests for i in self.instances)]
        self.instances = [replace(i, windows=tuple(dict.fromkeys([*i.windows, *paced])))
                          if i.block.windows else i for i in self.instances]

    def soc(self, files: tuple[Path, ...]) -> Soc:
        self.memories()
        for name, spec in self.data.get("ip", {}).items():
            self.ip(name, dict(spec))
        self.check()
        self.add_request_windows()
        cpu = dict(self.data.get("cpu", {}))
        reset = str(cpu.get("reset", self.slaves[0].region))
        if not any(s.region == reset and s.memory for s in self.slaves):
            raise ToolError(f"{self.where}: cpu.reset '{reset}' is not a memory")
        return Soc(self.name, str(self.data.get("description", "")), float(self.data.get("clock_mhz", 100)),
                   str(cpu.get("core", "VexRiscv_FullCfu")), reset, tuple(self.instances), tuple(self.masters),
                   tuple(self.slaves), files, self.ip_dirs, _otp(self.data.get("otp", {}), self.where),
                   xbar_params=self.xbar())


def _overlap(a: Slave, b: Slave) -> bool:
    # Memories answer at both aliases; compare without the uncached bit when either is memory.
    strip = UNCACHED_BIT if (a.memory or b.memory) else 0
    a0, b0 = a.base & ~strip, b.base & ~strip
    return a0 < b0 + b.bytes and b0 < a0 + a.bytes


# OTP fuses of the simulated part (docs/xip.md, "OTP policy"): name -> largest value.
OTP_FUSES = {"integ_req": 1, "min_version": 0xFFFF_FFFF}


def _otp(spec: dict[str, Any], where: str) -> tuple[tuple[str, int], ...]:
    unknown = sorted(set(spec) - set(OTP_FUSES))
    if unknown:
        raise ToolError(f"{where}: otp: unknown fuse(s) {', '.join(unknown)} (known: {', '.join(OTP_FUSES)})")
    values = {name: _int(spec.get(name, 0), f"{where}: otp.{name}") for name in OTP_FUSES}
    for name, value in values.items():
        if not 0 <= value <= OTP_FUSES[name]:
            raise ToolError(f"{where}: otp.{name} = {value} is outside 0..{OTP_FUSES[name]}")
    return tuple(values.items())


def elaborate(name: str) -> Soc:
    """The elaborated SoC of configuration `name` (soc/configs/NAME.toml, or a path to a .toml)."""
    path = config_path(name)
    data, files = read_config(path)
    known = {"description", "clock_mhz", "cpu", "memory", "ip", "ip_dirs", "otp", "xbar"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ToolError(f"{_where(path)}: unknown key(s) {', '.join(unknown)} "
                        f"(known: inherits, {', '.join(sorted(known))})")
    return _Elaborator(path, data).soc(files)


# The elaborated description is the configuration.
SocConfig = Soc


def load_config(name: str) -> Soc:
    return elaborate(name)
