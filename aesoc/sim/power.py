"""The CPU-side power model of the SoC simulation: the flip-flops of the VexRiscv core whose
transitions the harness's power capture sums per cycle (aesoc-sim --power; docs/masking.md).

The set: every variable of the core's three modules (VexRiscv, DataCache, InstructionCache) that
the shipped Verilog assigns in a clocked `always @(posedge clk)` block, memories left out (the
register file and the caches' tag and data arrays are RAMs: block or distributed RAM on an FPGA,
not flip-flops). The core file is pre-generated (SpinalHDL), where only clocked blocks use
non-blocking assignments, so the set is the left-hand sides of `<=` that are not memories.

The power model is the SoC model built with these variables made readable (a Verilator
configuration file of public_flat_rd lines, generated here), a separate cached model variant:
every other model keeps Verilator free to optimise them away.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from aesoc.common.toolchain import ToolError, vexriscv_verilog, write_if_changed
from aesoc.soc import generate

# The core's modules and the instance path of each below the core's own scope ("" is the core).
CPU_MODULES = {"VexRiscv": "", "InstructionCache": "IBusCachedPlugin_cache", "DataCache": "dataCache_1"}
_MODULE = re.compile(r"^module\s+(\w+)", re.M)
_NONBLOCKING = re.compile(r"^\s*(\w+)\s*(?:\[[^\]]*\])?\s*<=", re.M)
_MEMORY = re.compile(r"^\s*(?:\(\*[^*]*\*\)\s*)?reg\s*(?:\[[^\]]*\])?\s*(\w+)\s*\[[^\]]*\]", re.M)
_INSTANCE = re.compile(r"^\s*(\w+)\s+(\w+)\s*\(", re.M)


@dataclass(frozen=True)
class CpuRegisters:
    """The flip-flops of the power model: (module, instance scope, variable) per register."""
    registers: tuple[tuple[str, str, str], ...]

    def vlt(self) -> str:
        """Verilator configuration: each register readable by name."""
        lines = [f'public_flat_rd -module "{m}" -var "{v}"' for m, _, v in self.registers]
        return "\n".join(["`verilator_config", *lines, ""])

    def names(self) -> str:
        """The harness's --power-regs file: one `SCOPE VARIABLE` per line, scopes as the model names them."""
        cpu = generate.scope("cpu")
        return "".join(f"{cpu}{'.' + s if s else ''} {v}\n" for _, s, v in self.registers)


def _modules(text: str) -> dict[str, str]:
    starts = [(m.group(1), m.start()) for m in _MODULE.finditer(text)]
    return {name: text[at:(starts[i + 1][1] if i + 1 < len(starts) else len(text))]
            for i, (name, at) in enumerate(starts)}


def cpu_registers(verilog: Path | None = None) -> CpuRegisters:
    """Parse the shipped core (default: the one the SoC instantiates) for its flip-flops."""
    modules = _modules((verilog or vexriscv_verilog()).read_text())
    missing = sorted(set(CPU_MODULES) - set(modules))
    if missing:
        raise ToolError(f"power model: modules {missing} not found in the CPU Verilog")
    core_instances = {inst: mod for mod, inst in _INSTANCE.findall(modules["VexRiscv"]) if mod in CPU_MODULES}
    registers: list[tuple[str, str, str]] = []
    for module, scope in CPU_MODULES.items():
        if scope and core_instances.get(scope) != module:
            raise ToolError(f"power model: VexRiscv has no {module} instance named {scope}")
        body = modules[module]
        memories = set(_MEMORY.findall(body))
        names = sorted({n for n in _NONBLOCKING.findall(body) if n not in memories})
        registers += [(module, scope, n) for n in names]
    return CpuRegisters(tuple(registers))


VLT_FILE = "cpu_power.vlt"
REGS_FILE = "cpu_power_regs.txt"


def write_files(out_dir: Path) -> tuple[Path, Path]:
    """The configuration file the power model is built with and the harness's register list, in
    the model's folder."""
    regs = cpu_registers()
    out_dir.mkdir(parents=True, exist_ok=True)
    return write_if_changed(out_dir / VLT_FILE, regs.vlt()), write_if_changed(out_dir / REGS_FILE, regs.names())


def regs_file(model: Path) -> Path:
    """The --power-regs list of the power model executable `model` (written when it was built)."""
    path = model.parent / REGS_FILE
    if not path.is_file():
        raise ToolError(f"{model} has no {REGS_FILE} beside it: not a power model (build_model(power=True))")
    return path
