"""SoC configurations and the Verilator model of the SoC.

A configuration is soc/configs/NAME.toml, the single description of the SoC (aesoc.socdesc); the
top, the simulation top and the SV package are generated from it (aesoc.socgen). The model is
built once per configuration (and once more with tracing on demand) and rebuilt only when an RTL
source, the harness or the description changed.
"""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

from aesoc import ipblock, regs, shells, socgen
from aesoc.socdesc import Soc, config_names, elaborate
from aesoc.toolchain import (BUILD, ONE_COMPILE_UNIT, REPO, ToolError, build_once, generation_lock, log_tail,
                             save_log, verilator_bin, verilator_version, vexriscv_verilog)

HARNESS = REPO / "sim" / "main.cpp"
LINT_WAIVERS = REPO / "sim" / "waivers.vlt"
TOP = "aesoc_top"
# The simulation top wraps the SoC with simulation-only models (the QSPI flash).
SIM_TOP = "aesoc_sim"
# Widest packed signal whose toggles the activity model counts.
ACTIVITY_MAX_WIDTH = 2048
# The elaborated description is the configuration.
SocConfig = Soc
# What a profile-guided model (build_model's `pgo`) is trained on: firmware folders under fw/, each
# with the blocks it drives (a configuration trains on those whose blocks it has). The CPU-only
# program covers the core, caches and SRAM; the others every gated block's driver paths.
PGO_TRAINING: tuple[tuple[str, frozenset[str]], ...] = (
    ("bench/platform", frozenset()),
    ("tests/aes_gcm_dma", frozenset({"aes", "dma"})),
    ("tests/aes_cfu", frozenset({"aes_cfu"})),
    ("tests/sha_dma", frozenset({"sha", "dma"})),
    ("tests/timer_irq", frozenset()),
)
# A training run that is not over by then is stopped as a failure (each takes a few million cycles).
PGO_TRAINING_MAX_CYCLES = 20_000_000
_profile_guided = False


def set_profile_guided(on: bool) -> None:
    """Whether build_and_run simulates on the profile-guided model (`aesoc bench` turns it on for
    its full runs): same cycles and output, faster simulation, a longer first build."""
    global _profile_guided
    _profile_guided = on


def profile_guided_on() -> bool:
    return _profile_guided

__all__ = ["SocConfig", "config_names", "load_config", "rtl_sources", "top_parameters", "lint", "build_model",
           "alt_top_sources", "lint_alt_top"]


def load_config(name: str) -> Soc:
    return elaborate(name)


def _split(paths: list[Path]) -> tuple[list[Path], list[Path]]:
    """Unique paths in order, as (packages, modules): every package goes before any module."""
    unique = list(dict.fromkeys(paths))
    return [p for p in unique if p.name.endswith("_pkg.sv")], [p for p in unique if not p.name.endswith("_pkg.sv")]


def rtl_sources(config: Soc, sim: bool = False) -> list[Path]:
    """Every RTL file of the SoC: the CPU, the generated package, IP blocks (from their manifests)
    and their generated register blocks, the generated top; with `sim`, also the simulation
    models and the simulation top."""
    gen = socgen.generate(config)
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


def _digest(paths: list[Path], extra: str) -> str:
    h = hashlib.sha256(extra.encode())
    for p in paths:
        h.update(str(p).encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def verilator_common_args(config: Soc, top: str = TOP) -> list[str]:
    args = ["--top-module", top, "-Wall", "--timescale", "1ns/1ps"]
    args += [f"-G{k}={v}" for k, v in sorted(top_parameters(config).items())]
    return args


def lint(config: Soc) -> None:
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


def alt_top_sources(block: ipblock.IpBlock, name: str) -> list[Path]:
    """An alternative top's RTL in compile order: the block's core (its generated register block
    included), then the top's own files."""
    if name not in block.tops:
        raise ToolError(f"block '{block.name}' has no top '{name}' (has: {', '.join(block.tops) or 'none'})")
    return [*shells.core_sources(block), *block.tops[name].rtl]


def lint_alt_top(block: ipblock.IpBlock, name: str, params: dict[str, int] | None = None) -> None:
    """verilator --lint-only -Wall over one alternative top, with the project's and the block's waivers."""
    cmd = [verilator_bin(), "--lint-only", "-Wall", "--timescale", "1ns/1ps", "--top-module", block.tops[name].module,
           *(f"-G{k}={v}" for k, v in sorted((params or {}).items())), *map(str, shells.lint_waivers(block)),
           *map(str, alt_top_sources(block, name))]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise ToolError(f"lint of {block.name} top '{name}' failed:\n{proc.stdout}{proc.stderr}")


def build_model(config: Soc, trace: bool = False, activity: bool = False, clock_gates: bool = True,
                pgo: bool = False) -> Path:
    """Verilate and compile the SoC with the harness; return the simulator executable.

    `activity` builds a separate model with toggle counting (Verilator --coverage-toggle): the
    harness then reports the toggles of each window the firmware marks (docs/aes_interfaces.md).
    `clock_gates` (not with `activity`) stops the clock of each block while its idle output is
    high (docs/ARCHITECTURE.md, "Idle clock gating"); False builds the model that
    tests/test_clock_gates.py holds it against. `pgo` compiles the model guided by a profile of
    the PGO_TRAINING programs run on an instrumented build of it (docs/ARCHITECTURE.md,
    "Profile-guided models")."""
    if trace and activity:
        raise ToolError("a model is built with tracing or with activity counting, not both")
    if pgo and (trace or activity):
        raise ToolError("a profile-guided model is built without tracing and activity counting")
    gated = clock_gates and not activity
    with generation_lock:
        sources = rtl_sources(config, sim=True)
    gen_dir = socgen.out_dir(config)
    out_dir = BUILD / "sim" / (config.name + ("-trace" if trace else "") + ("-activity" if activity else "")
                               + ("" if gated or activity else "-ungated") + ("-pgo" if pgo else ""))
    exe = out_dir / "aesoc-sim"
    training = _pgo_programs(config) if pgo else []
    # Measured choices: -CFLAGS -O1 comes after verilated.mk's -Os on every compile line, so the
    # model is built at -O1. On the full SoC (platform program, 3 runs each) -O1 simulates as fast as
    # -O2 (time ratio 0.96) and compiles in 72 CPU-seconds against 94; -O3 -march=native was no
    # faster than -O2 (ratio 1.00). One compile unit (ONE_COMPILE_UNIT): without ccache the full model
    # built in 31 CPU-s (25 s wall) instead of 61 (34 s) and simulates as fast (time ratio 1.01, 7
    # paired runs); the activity model in 84 instead of 138 (identical toggles). Verilator's
    # -fno-inline, which helps the block-test models (aesoc.cocotb_flow), made the full SoC
    # simulate 1.23 times slower.
    # --x-initial fast is safe: with every variable randomly initialised instead (x-initial unique,
    # two seeds) a benchmark ran to identical cycles and output, so reset covers the state that counts.
    # A profile-guided model is compiled at -O2 twice, instrumented then guided (at -O1 it gained
    # less); without precompiled headers, which GCC refused with the profiling flags.
    # The activity model (toggle counters on every signal, the S-boxes' logic network) at -Og: its
    # build is what costs (interfaces program, without ccache: 39 CPU-s to build and 16 to run
    # against 71 and 13 at -O1, identical toggles; at -O0 the run took 142 s).
    cflags = f"{'-O2' if pgo else '-Og' if activity else '-O1'} -std=c++20 -I{gen_dir}"
    args = verilator_common_args(config, SIM_TOP) + [
        "--cc", "--exe", "--build", "-j", "2", "-O3",
        "--x-assign", "fast", "--x-initial", "fast", "--noassert",
        "-Wno-fatal",  # lint is its own step; a warning must not block a simulation build
        "--Mdir", str(out_dir / "obj"), "-o", str(exe),
        "-CFLAGS", f"{cflags} {PGO_GENERATE}" if pgo else cflags,
        "-LDFLAGS", f"-lelf {PGO_GENERATE}" if pgo else "-lelf",
    ]
    args += ["--MAKEFLAGS", NO_PCH if pgo else ONE_COMPILE_UNIT]
    if trace:
        args += ["--trace-fst", "--trace-structs"]
    if activity:
        # Every packed signal up to the widest state of the SoC's engines (the default 256 would
        # leave out round-key and FIFO vectors); unpacked arrays (the SRAMs) are never counted.
        # The S-boxes stay the tower field: their toggles are part of what this model counts.
        # No clock gates either: a gated clock would count fewer toggles than the synthesised SoC has.
        args += ["--coverage-toggle", "--coverage-max-width", str(ACTIVITY_MAX_WIDTH)]
    else:
        # The S-box as a table read (aes_sbox.sv): 1.65 times the full SoC's simulation speed, same
        # cycles.
        args += ["+define+AESOC_SIM_SBOX_TABLE"]
        if gated:
            args += ["+define+AESOC_SIM_CLOCK_GATES"]
    # The training programs change the model's speed, never its behaviour: their names are in
    # the digest, their builds are not.
    digest = _digest([*sources, HARNESS, LINT_WAIVERS, gen_dir / "aesoc_sim_map.h", gen_dir / "aesoc_exit.h"],
                     " ".join([verilator_version(), *args]) + "".join(f" train:{folder.name}" for folder in training))
    cmd = [verilator_bin(), *args, str(LINT_WAIVERS), *[str(s) for s in sources], str(HARNESS)]

    def build() -> None:
        out_dir.mkdir(parents=True, exist_ok=True)
        if pgo:  # every object is compiled instrumented again, and counts only from this training
            _remove_objects(out_dir / "obj", "*.gcda")
        proc = subprocess.run(cmd, capture_output=True, text=True)
        log = save_log(f"verilator-{out_dir.name}", f"$ {' '.join(cmd)}\n{proc.stdout}{proc.stderr}")
        if proc.returncode != 0 or not exe.is_file():
            raise ToolError(f"Verilator build of '{out_dir.name}' failed; {log_tail(log)}")
        if pgo:
            _train_and_rebuild(exe, out_dir / "obj", cflags, config, training)

    build_once(exe, out_dir / ".digest", lambda: digest, build)
    return exe


PGO_GENERATE = "-fprofile-generate"
PGO_USE = "-fprofile-use -fprofile-partial-training -Wno-missing-profile"
NO_PCH = "VK_PCH_I_FAST= VK_PCH_I_SLOW="


def _pgo_programs(config: Soc) -> list[Path]:
    """The firmware folders of the PGO_TRAINING programs whose blocks `config` has."""
    blocks = {inst.block.name for inst in config.instances}
    return [REPO / "fw" / folder for folder, needs in PGO_TRAINING if needs <= blocks]


def _remove_objects(obj: Path, *more: str) -> None:
    """Remove compiled objects (and files matching `more`) so that make compiles every one again:
    the sources are unchanged, only the flags differ."""
    for pattern in ("*.o", "*.a", "*.gch", *more):
        for product in obj.glob(pattern):
            product.unlink()


def _train_and_rebuild(exe: Path, obj: Path, cflags: str, config: Soc, training: list[Path]) -> None:
    """Build the training programs (only now, not on every call of build_model) and run them on
    the instrumented model `exe` (each must exit with status 0), then compile the model again
    from the same C++ with the profile they left in `obj`."""
    from aesoc import firmware
    from aesoc.run import run

    for folder in training:
        elf = firmware.build(folder, config).elf
        result = run(exe, elf, max_cycles=PGO_TRAINING_MAX_CYCLES, reuse=False)
        if (result.status, result.code) != ("exit", 0):
            raise ToolError(f"profile-guided build: training program {elf.name} ended {result.status} "
                            f"{result.code} after {result.cycles} cycles on the instrumented model")
    if not any(obj.glob("*.gcda")):
        raise ToolError(f"profile-guided build of '{obj.parent.name}': the training runs left no profile")
    _remove_objects(obj)
    exe.unlink()
    make = ["make", "-C", str(obj), "-f", f"V{SIM_TOP}.mk", "-j", "2", *NO_PCH.split(),
            f"VM_USER_CFLAGS={cflags} {PGO_USE}", "VM_USER_LDLIBS=-lelf"]
    proc = subprocess.run(make, capture_output=True, text=True)
    log = save_log(f"pgo-{obj.parent.name}", f"$ {' '.join(make)}\n{proc.stdout}{proc.stderr}")
    if proc.returncode != 0 or not exe.is_file():
        raise ToolError(f"profile-guided compile of '{obj.parent.name}' failed; {log_tail(log)}")
