"""Build firmware for the SoC with Debian's riscv64-unknown-elf GCC and picolibc.

A program is a folder of C and assembly sources (fw/tests/NAME, fw/bench/NAME, or an IP's
fw/ folder); it is linked with crt0, the common library fw/lib and every IP driver under
ip/*/sw. The ELF lands in build/fw/CONFIG/NAME/, rebuilt only when a source or flag changed; the
startup and library objects are shared by the programs that compile them alike (_objects).

Placement "sram" (fw/link.ld) puts everything in SRAM0. Placement "xip" (fw/link_xip.ld) executes
in place from the flash: code, read-only data and the load image of .data in the flash window, a
boot stub (fw/crt0_xip.S, fw/xip_boot.c, the XIP driver) at the reset vector in SRAM; docs/xip.md.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from aesoc.common import outcome
from aesoc.common.toolchain import (BUILD, REPO, ToolError, file_lock, generation_lock, log_tail, riscv_tool, save_log,
                                    write_atomic, write_if_changed)
from aesoc.soc import generate, ipblock, regs, sources as soc_sources
from aesoc.soc.description import SocConfig

FW = REPO / "fw"
GEN = BUILD / "gen"
# Compiled startup and library sources, shared by the programs that compile them alike (_objects).
OBJECTS = BUILD / "fw-obj"
# ISA spec 2.2 keeps Zicsr and Zifencei inside I, which is what selects the rv32im multilib.
ARCH_FLAGS = ["-march=rv32im", "-mabi=ilp32", "-misa-spec=2.2"]
Placement = Literal["sram", "xip"]
# Exit status of an XIP boot that failed (fw/xip_boot.c).
XIP_BOOT_EXIT = outcome.XIP_BOOT_EXIT
COMMON_FLAGS = [
    "-specs=picolibc.specs", "-DPICOLIBC_INTEGER_PRINTF_SCANF", "-nostartfiles",
    "-ffunction-sections", "-fdata-sections", "-Wall", "-Wextra", "-Werror", "-g",
]


@dataclass(frozen=True)
class Firmware:
    name: str
    elf: Path


def generate_platform_files(config: SocConfig) -> Path:
    """aesoc_map.h and memory.ld (and flash.ld with an XIP controller) from the SoC description."""
    out = GEN / "platform" / config.name
    write_if_changed(out / "aesoc_map.h", generate.c_header(config))
    write_if_changed(out / "memory.ld", generate.memory_ld(config))
    write_if_changed(out / "aesoc_exit.h", outcome.header())
    if config.xip_flash is not None:
        # A separate file so that SRAM-only programs keep their inputs (and cached builds).
        write_if_changed(out / "flash.ld", generate.flash_ld(config, config.xip_flash.region))
    return out


def _sources(program_dir: Path) -> list[Path]:
    found = sorted([*program_dir.glob("*.c"), *program_dir.glob("*.S")])
    if not found:
        raise ToolError(f"no C or assembly sources in {program_dir}")
    return found


def elf_path(config_name: str, name: str) -> Path:
    """Where build() links program `name` for SoC configuration `config_name`: one folder per
    configuration, since its generated headers differ, so that two builds of one program for two
    configurations (run side by side) never replace each other's ELF before it is simulated."""
    return BUILD / "fw" / config_name / name / f"{name}.elf"


def build(program_dir: Path, config: SocConfig, *, name: str | None = None,
          cflags: tuple[str, ...] = ("-O2",), libs: tuple[str, ...] = (),
          placement: Placement = "sram") -> Firmware:
    """Compile and link one program; `name` tells variants of one folder apart.

    `libs` names extra libraries under fw/ (for example "crypto") whose sources and headers
    join the build; their build-time options come in through `cflags`. `placement` "xip" links
    the program to execute in place from the flash (its ELF name gets "-xip").
    """
    if not program_dir.is_dir():
        raise ToolError(f"no firmware folder {program_dir}")
    if placement not in ("sram", "xip"):
        raise ToolError(f"unknown placement '{placement}' (sram or xip)")
    if placement == "xip" and config.xip_flash is None:
        raise ToolError(f"SoC configuration '{config.name}' has no XIP controller; "
                        "placement 'xip' needs one, e.g. config 'full'")
    name = (name or program_dir.name) + ("-xip" if placement == "xip" else "")
    with generation_lock:
        platform_dir = generate_platform_files(config)
        # Every in-tree driver (and register header) joins every program, plus those of the
        # configuration's IP from outside ip/.
        used = {**ipblock.blocks(), **{i.block.name: i.block for i in config.instances}}
        reg_dirs = list(dict.fromkeys([b.out_dir for b in regs.generate_all()] +
                                      [soc_sources.reg_block(b).out_dir for b in used.values() if b.rdl is not None]))
    driver_dirs = sorted(b.sw for b in used.values() if b.sw is not None)
    lib_dirs = [FW / lib for lib in libs]
    missing = [d for d in lib_dirs if not d.is_dir()]
    if missing:
        raise ToolError(f"no firmware library folder {missing[0]}")
    lib_sources = sorted([*(FW / "lib").glob("*.c"),
                          *[c for d in [*driver_dirs, *lib_dirs] for c in [*d.glob("*.c"), *d.glob("*.S")]]])
    if placement == "xip":
        startup, link_script = [FW / "crt0_xip.S", FW / "trap.S", FW / "xip_boot.c"], FW / "link_xip.ld"
        link_inputs = [link_script, platform_dir / "memory.ld", platform_dir / "flash.ld"]
    else:
        startup, link_script = [FW / "crt0.S", FW / "trap.S"], FW / "link.ld"
        link_inputs = [link_script, platform_dir / "memory.ld"]
    shared, own = [*startup, *lib_sources], _sources(program_dir)
    sources = [*shared, *own]
    lib_includes = [FW / "lib", platform_dir, *reg_dirs, *driver_dirs, *lib_dirs]
    includes = [*lib_includes, program_dir]
    compile_cmd = [riscv_tool("gcc"), *ARCH_FLAGS, *COMMON_FLAGS, *cflags]
    cmd = [*compile_cmd, *[f"-I{d}" for d in includes]]
    cmd += [f"-L{platform_dir}", f"-T{link_script}", "-Wl,--gc-sections"]
    headers = sorted(h for d in includes for h in d.glob("*.h"))
    inputs = [*sources, *headers, *link_inputs]
    h = hashlib.sha256(" ".join(cmd).encode())
    for path in inputs:
        h.update(path.read_bytes())
    elf = elf_path(config.name, name)
    out_dir = elf.parent
    stamp = out_dir / ".digest"

    def current() -> bool:
        return elf.is_file() and stamp.is_file() and stamp.read_text() == h.hexdigest()

    if current():
        return Firmware(name, elf)
    # One build of a program at a time across processes (pytest-xdist workers, two benchmarks);
    # the ELF and map are linked under temporary names and renamed, so a simulation started
    # from the old ELF never reads a half-written one.
    with file_lock(out_dir.parent / f".{name}.lock"):
        if current():
            return Firmware(name, elf)
        out_dir.mkdir(parents=True, exist_ok=True)
        tmp_elf, tmp_map = out_dir / f".{name}.elf.tmp", out_dir / f".{name}.map.tmp"
        objects = _objects([*compile_cmd, *[f"-I{d}" for d in lib_includes]], shared, lib_includes)
        full = [*cmd, *map(str, objects), *map(str, own), "-o", str(tmp_elf), f"-Wl,-Map={tmp_map}"]
        proc = subprocess.run(full, capture_output=True, text=True)
        if proc.returncode != 0:
            log = save_log(f"gcc-{name}", f"$ {' '.join(full)}\n{proc.stdout}{proc.stderr}")
            raise ToolError(f"firmware '{name}' failed to build; {log_tail(log)}")
        tmp_map.replace(out_dir / f"{name}.map")
        tmp_elf.replace(elf)
        write_atomic(stamp, h.hexdigest())
    return Firmware(name, elf)


def _objects(cmd: list[str], sources: list[Path], includes: list[Path]) -> list[Path]:
    """The objects of the startup and library sources (fw/lib, the drivers, `libs`), each compiled
    once per compiler command and headers and kept in OBJECTS: most programs of one configuration
    share them, and a program's own sources are all that is compiled with it. A library source
    sees no program folder, so its object is the same for every program. Linked in the order of
    `sources`, the ELF is the one a single compile-and-link command would make (same sections,
    same addresses)."""
    digest = hashlib.sha256(" ".join(cmd).encode())
    for header in sorted(h for d in includes for h in d.glob("*.h")):
        digest.update(str(header).encode() + b"\0" + header.read_bytes())
    objects = []
    for source in sources:
        key = digest.copy()
        key.update(str(source).encode() + b"\0" + source.read_bytes())
        obj = OBJECTS / f"{source.stem}-{key.hexdigest()[:24]}.o"
        if not obj.is_file():
            _compile(cmd, source, obj)
        objects.append(obj)
    return objects


def _compile(cmd: list[str], source: Path, obj: Path) -> None:
    """Compile one source to `obj` through a temporary name: a process that finds `obj` finds it
    whole (two processes that both miss it compile the same object; the later rename wins)."""
    obj.parent.mkdir(parents=True, exist_ok=True)
    tmp = obj.with_name(f".{obj.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    full = [*cmd, "-c", str(source), "-o", str(tmp)]
    proc = subprocess.run(full, capture_output=True, text=True, cwd=REPO)
    if proc.returncode != 0:
        tmp.unlink(missing_ok=True)
        log = save_log(f"gcc-{source.stem}", f"$ {' '.join(full)}\n{proc.stdout}{proc.stderr}")
        raise ToolError(f"firmware library source {source} failed to build; {log_tail(log)}")
    tmp.replace(obj)
