"""The Verilator model of the SoC: the simulation top (aesoc_sim) with the C++ harness (sim/main.cpp).

The model is built once per configuration (and once more with tracing, activity counting, without
clock gates or profile-guided on demand) and rebuilt only when an RTL source, the harness or the
description changed.
"""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

from aesoc.common.toolchain import (BUILD, ONE_COMPILE_UNIT, REPO, ToolError, build_once, generation_lock, log_tail,
                                    save_log, verilator_bin, verilator_version)
from aesoc.sim import firmware, power as power_model
from aesoc.sim.harness import run
from aesoc.soc import generate
from aesoc.soc.description import Soc
from aesoc.soc.lint import LINT_WAIVERS, verilator_common_args
from aesoc.soc.sources import rtl_sources

HARNESS = REPO / "sim" / "main.cpp"
# The simulation top wraps the SoC with simulation-only models (the QSPI flash).
SIM_TOP = "aesoc_sim"
# Widest packed signal whose toggles the activity model counts.
ACTIVITY_MAX_WIDTH = 2048
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


def _digest(paths: list[Path], extra: str) -> str:
    h = hashlib.sha256(extra.encode())
    for p in paths:
        h.update(str(p).encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def build_model(config: Soc, trace: bool = False, activity: bool = False, clock_gates: bool = True,
                pgo: bool = False, power: bool = False) -> Path:
    """Verilate and compile the SoC with the harness; return the simulator executable.

    `activity` builds a separate model with toggle counting (Verilator --coverage-toggle): the
    harness then reports the toggles of each window the firmware marks (docs/aes_interfaces.md).
    `clock_gates` (not with `activity`) stops the clock of each block while its idle output is
    high (docs/ARCHITECTURE.md, "Idle clock gating"); False builds the model that
    tests/test_clock_gates.py holds it against. `pgo` compiles the model guided by a profile of
    the PGO_TRAINING programs run on an instrumented build of it (docs/ARCHITECTURE.md,
    "Profile-guided models"). `power` builds the power model: the CPU's flip-flops readable by the
    harness's power capture (aesoc.sim.power, which lists them next to the model)."""
    if trace and activity:
        raise ToolError("a model is built with tracing or with activity counting, not both")
    if pgo and (trace or activity):
        raise ToolError("a profile-guided model is built without tracing and activity counting")
    if power and (trace or activity or pgo):
        raise ToolError("a power model is built without tracing, activity counting and profile guidance")
    gated = clock_gates and not activity
    with generation_lock:
        sources = rtl_sources(config, sim=True)
    gen_dir = generate.out_dir(config)
    out_dir = BUILD / "sim" / (config.name + ("-trace" if trace else "") + ("-activity" if activity else "")
                               + ("" if gated or activity else "-ungated") + ("-pgo" if pgo else "")
                               + ("-power" if power else ""))
    exe = out_dir / "aesoc-sim"
    training = _pgo_programs(config) if pgo else []
    # Measured choices: -CFLAGS -O1 comes after verilated.mk's -Os on every compile line, so the
    # model is built at -O1. On the full SoC (platform program, 3 runs each) -O1 simulates as fast as
    # -O2 (time ratio 0.96) and compiles in 72 CPU-seconds against 94; -O3 -march=native was no
    # faster than -O2 (ratio 1.00). One compile unit (ONE_COMPILE_UNIT): without ccache the full model
    # built in 31 CPU-s (25 s wall) instead of 61 (34 s) and simulates as fast (time ratio 1.01, 7
    # paired runs); the activity model in 84 instead of 138 (identical toggles). Verilator's
    # -fno-inline, which helps the block-test models (aesoc.sim.cocotb_flow), made the full SoC
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
    # The power model reads the CPU's flip-flops by name: a configuration file makes them public.
    configs = [LINT_WAIVERS, power_model.write_files(out_dir)[0]] if power else [LINT_WAIVERS]
    # The training programs change the model's speed, never its behaviour: their names are in
    # the digest, their builds are not.
    digest = _digest([*sources, HARNESS, *configs, gen_dir / "aesoc_sim_map.h", gen_dir / "aesoc_exit.h"],
                     " ".join([verilator_version(), *args]) + "".join(f" train:{folder.name}" for folder in training))
    cmd = [verilator_bin(), *args, *map(str, configs), *[str(s) for s in sources], str(HARNESS)]

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
