"""SoC configurations and the Verilator model of the SoC.

A configuration is soc/configs/NAME.toml: top-level parameters of aesoc_top. The model is built
once per configuration (and once more with tracing on demand) and rebuilt only when an RTL source,
the harness or the configuration changed.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
import tomllib
from dataclasses import dataclass
from pathlib import Path

from aesoc import regs
from aesoc.toolchain import BUILD, REPO, ToolError, verilator_bin, verilator_lock, vexriscv_verilog

CONFIG_DIR = REPO / "soc" / "configs"
PKG = REPO / "soc" / "rtl" / "aesoc_pkg.sv"
HARNESS = REPO / "sim" / "main.cpp"
LINT_WAIVERS = REPO / "sim" / "waivers.vlt"
TOP = "aesoc_top"
# The simulation top wraps the SoC with simulation-only models (the QSPI flash).
SIM_TOP = "aesoc_sim"
SIM_TOP_FILE = REPO / "sim" / "rtl" / f"{SIM_TOP}.sv"

_ADDR_RE = re.compile(r"localparam\s+logic\s+\[31:0\]\s+(\w+)\s*=\s*32'h([0-9A-Fa-f_]+)\s*;")


@dataclass(frozen=True)
class SocConfig:
    name: str
    description: str
    ips: tuple[str, ...]
    sim_ips: tuple[str, ...]
    params: dict[str, int]

    @property
    def sram0_bytes(self) -> int:
        return self.params["Sram0Bytes"]

    @property
    def sram1_bytes(self) -> int:
        return self.params["Sram1Bytes"]


def config_names() -> list[str]:
    return sorted(p.stem for p in CONFIG_DIR.glob("*.toml"))


def load_config(name: str) -> SocConfig:
    path = CONFIG_DIR / f"{name}.toml"
    if not path.is_file():
        raise ToolError(f"no SoC configuration '{name}' (have: {', '.join(config_names())})")
    with open(path, "rb") as handle:
        data = tomllib.load(handle)
    params = data.get("params", {})
    if not all(isinstance(v, int) for v in params.values()):
        raise ToolError(f"{path}: every parameter must be an integer")
    ips = tuple(data.get("ips", []))
    sim_ips = tuple(data.get("sim_ips", []))
    missing = [ip for ip in (*ips, *sim_ips) if not (REPO / "ip" / ip / "rtl").is_dir()]
    if missing:
        raise ToolError(f"{path}: no RTL for IP block(s) {', '.join(missing)}")
    return SocConfig(name, str(data.get("description", "")), ips, sim_ips, dict(params))


def memory_map() -> dict[str, int]:
    """The 32-bit address constants of aesoc_pkg.sv, the single source of the memory map."""
    found = {m.group(1): int(m.group(2).replace("_", ""), 16) for m in _ADDR_RE.finditer(PKG.read_text())}
    if "SRAM0_BASE" not in found:
        raise ToolError(f"could not read the memory map from {PKG}")
    return found


def rtl_sources(config: SocConfig, sim: bool = False) -> list[Path]:
    """Every RTL file of the SoC: packages first, then generated registers, IP blocks, the top;
    with `sim`, also the simulation-only models and the simulation top."""
    ips = (*config.ips, *config.sim_ips) if sim else config.ips
    ip_rtl = sorted(p for ip in ips for p in (REPO / "ip" / ip / "rtl").glob("*.sv"))
    packages = [p for p in ip_rtl if p.name.endswith("_pkg.sv")]
    modules = [p for p in ip_rtl if not p.name.endswith("_pkg.sv")]
    generated = [f for block in regs.generate_all() if block.rdl.parent.parent.name in config.ips for f in block.sv_files]
    tops = [REPO / "soc" / "rtl" / f"{TOP}.sv", *([SIM_TOP_FILE] if sim else [])]
    return [vexriscv_verilog(), PKG, *packages, *generated, *modules, *tops]


def top_parameters(config: SocConfig) -> dict[str, int]:
    """Parameters to set on the top (TOP) of `rtl_sources(config)` to get this configuration."""
    return dict(config.params)


def _digest(paths: list[Path], extra: str) -> str:
    h = hashlib.sha256(extra.encode())
    for p in paths:
        h.update(str(p).encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def verilator_common_args(config: SocConfig, top: str = TOP) -> list[str]:
    args = ["--top-module", top, "-Wall", "--timescale", "1ns/1ps"]
    args += [f"-G{k}={v}" for k, v in sorted(top_parameters(config).items())]
    return args


def lint(config: SocConfig) -> None:
    """verilator --lint-only -Wall over the whole SoC; only the shipped CPU file is waived."""
    cmd = [verilator_bin(), "--lint-only", *verilator_common_args(config), str(LINT_WAIVERS)]
    cmd += [str(s) for s in rtl_sources(config)]
    with verilator_lock():
        proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise ToolError(f"lint failed:\n{proc.stdout}{proc.stderr}")


def build_model(config: SocConfig, trace: bool = False) -> Path:
    """Verilate and compile the SoC with the harness; return the simulator executable."""
    sources = rtl_sources(config, sim=True)
    out_dir = BUILD / "sim" / (config.name + ("-trace" if trace else ""))
    exe = out_dir / "aesoc-sim"
    args = verilator_common_args(config, SIM_TOP) + [
        "--cc", "--exe", "--build", "-j", "2", "-O3",
        "--x-assign", "fast", "--x-initial", "fast", "--noassert",
        "-Wno-fatal",  # lint is its own step; a warning must not block a simulation build
        "--Mdir", str(out_dir / "obj"), "-o", str(exe),
        "-CFLAGS", "-O2 -std=c++20", "-LDFLAGS", "-lelf",
    ]
    if trace:
        args += ["--trace-fst", "--trace-structs"]
    digest = _digest([*sources, HARNESS, LINT_WAIVERS], " ".join(args))
    stamp = out_dir / ".digest"
    if exe.is_file() and stamp.is_file() and stamp.read_text() == digest:
        return exe
    out_dir.mkdir(parents=True, exist_ok=True)
    cmd = [verilator_bin(), *args, str(LINT_WAIVERS), *[str(s) for s in sources], str(HARNESS)]
    with verilator_lock():
        proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0 or not exe.is_file():
        raise ToolError(f"Verilator build failed:\n{proc.stdout[-4000:]}{proc.stderr[-4000:]}")
    stamp.write_text(digest)
    return exe
