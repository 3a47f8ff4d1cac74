"""Build the SoC model and a program, and run it: one call from a firmware folder to a result."""

from __future__ import annotations

import hashlib
from pathlib import Path

from aesoc.common import outcome
from aesoc.common.toolchain import REPO, ToolError
from aesoc.sim import firmware
from aesoc.sim.firmware import Placement
from aesoc.sim.harness import PowerCapture, RunResult, run
from aesoc.sim.model import build_model, profile_guided_on
from aesoc.soc.description import load_config
from aesoc.xip import image as flash_image


def check_flash_args(placement: Placement, image: Path | None, kek: bytes | None) -> None:
    """Refuse, before anything is built, a flash image without XIP placement or a KEK without image."""
    if image is not None and placement != "xip":
        raise ToolError("a flash image description needs placement 'xip'")
    if kek is not None and image is None:
        raise ToolError("a KEK only matters with a flash image description")


def flash_image_path(elf: Path, image: Path) -> Path:
    """Where the flash image of `elf` under the description `image` is built: next to the ELF,
    named by the description's stem and its path, so that runs with different descriptions of
    the same name (parallel tests each with their own folder) never share a file."""
    where = hashlib.sha256(str(image.resolve()).encode()).hexdigest()[:10]
    return elf.parent / f"{image.stem}-{where}.bin"


def prepare_flash(elf: Path, placement: Placement, image: Path | None,
                  kek: bytes | None) -> tuple[Path | None, bytes | None, str]:
    """For an XIP run with a flash image description: build the image next to the ELF and pick the
    part's KEK (the description's, or `kek` for a part whose KEK differs). Returns the image file,
    the KEK and words naming them for the run's description line (None, None, "" without image)."""
    check_flash_args(placement, image, kek)
    if image is None:
        return None, None, ""
    where = elf.relative_to(REPO) if elf.is_relative_to(REPO) else elf
    desc = flash_image.load_description(image)
    layout = flash_image.xip_layout(elf)
    if desc.key_table != layout.key_table:
        raise ToolError(f"{image}: key_table {desc.key_table:#x}, but the boot stub of {where} reads the "
                        f"table at flash offset {layout.key_table:#x}")
    bin_path = flash_image_path(elf, image)
    flash_image.encrypt(elf, image, bin_path)
    part_kek = desc.kek if kek is None else kek
    n = len(desc.contexts)
    return bin_path, part_kek, (f" in flash image '{image.name}' ({n} OTFAD context{'' if n == 1 else 's'}"
                                f"{', part with another KEK' if kek is not None and kek != desc.kek else ''})")


def build_and_run(program: Path, config_name: str = "full", *, name: str | None = None,
                  cflags: tuple[str, ...] = ("-O2",), libs: tuple[str, ...] = (),
                  max_cycles: int = outcome.DEFAULT_MAX_CYCLES, placement: Placement = "sram",
                  image: Path | None = None, kek: bytes | None = None, otp: tuple[tuple[str, int], ...] = (),
                  trace: Path | None = None,
                  trace_from: int = 0, trace_to: int | None = None, activity: bool = False,
                  reuse: bool = True, clock_gates: bool = True, pgo: bool | None = None,
                  power: PowerCapture | None = None) -> tuple[RunResult, str]:
    """Build the SoC model and one program (a firmware folder, or an ELF file as it is), run it;
    return the result and a line naming the run.

    With placement "xip" the program executes in place from the flash. `image` is then a flash
    image description (TOML, docs/xip.md; key_table = 0 as fw/link_xip.ld reserves it): the image
    is built from the ELF (aesoc.xip.image.encrypt) and the part's OTP KEK is the description's, or
    `kek` to simulate a part whose KEK differs, `otp` a part with other OTP fuses. Without `image`
    the ELF's flash segments are loaded as they are (plaintext, no key table). `trace` writes an FST waveform of cycles
    [trace_from, trace_to] (the model is built with tracing). `activity` runs on the activity model,
    which reports the toggles of each window the firmware marks (RunResult.activity). `reuse`:
    False for a run whose wall time is the measure (see set_reuse); the line says when it was reused.
    `clock_gates` False runs on the model without idle clock gating (aesoc.sim.model.build_model).
    `pgo` runs on the profile-guided model (same cycles and output; default: whether
    aesoc.sim.model.set_profile_guided is on, as under `aesoc bench`); never with `trace` or `activity`.
    `power` runs on the power model and records power traces of the marked windows (RunResult.power).
    """
    check_flash_args(placement, image, kek)
    config = load_config(config_name)
    if program.is_dir():
        elf = firmware.build(program.resolve(), config, name=name, cflags=cflags, libs=libs, placement=placement).elf
        flags = f" ({' '.join(cflags)})"
    elif program.is_file():
        elf, flags = program, ""
    else:
        raise ToolError(f"no such firmware file or folder: {program}")
    if pgo is None:
        pgo = profile_guided_on() and trace is None and not activity and power is None
    sim = build_model(config, trace=trace is not None, activity=activity, clock_gates=clock_gates, pgo=pgo,
                      power=power is not None)
    where = elf.relative_to(REPO) if elf.is_relative_to(REPO) else elf
    bin_path, part_kek, image_what = prepare_flash(elf, placement, image, kek)
    result = run(sim, elf, max_cycles=max_cycles, flash_image=bin_path, kek=part_kek, otp=otp, trace=trace,
                 trace_from=trace_from, trace_to=trace_to, power=power, reuse=reuse)
    kinds = ["activity model"] if activity else [kind for kind, on in (("model without clock gates", not clock_gates),
                                                                       ("profile-guided model", pgo),
                                                                       ("power model", power is not None)) if on]
    model = f" ({', '.join(kinds)})" if kinds else ""
    reused = "; output reused from an identical earlier run (same model, program, image)" if result.reused else ""
    line = (f"{where}{flags}{image_what} on SoC config '{config_name}'{model}: {result.status} "
            f"{result.code} ({result.outcome}) after {result.cycles} cycles at {result.khz:.0f} kHz simulated{reused}")
    return result, line
