"""Idle clock gating (docs/ARCHITECTURE.md, "Idle clock gating") changes simulation speed, never
behaviour: programs that drive every gated block (the AES peripheral, its DMA and GCM paths, the
CFU, the DMA, SHA, execute-in-place with OTFAD decryption and integrity) end with the same status,
console output and cycle count on the SoC model with the gates as on the one without."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from aesoc.common.toolchain import REPO
from aesoc.sim.harness import RunResult
from aesoc.sim.run import build_and_run
from aesoc.soc import description, generate
from aesoc.xip import image

CONFIG = "full"
PROGRAMS = {  # fw/tests program -> libraries
    "aes_dev": (), "aes_dma": ("crypto",), "aes_gcm": (), "aes_gcm_dma": (), "aes_cfu": (), "dma": (),
    "sha_dev": (), "sha_dma": (), "timer_irq": (),
}


def _same(gated: tuple[RunResult, str], plain: tuple[RunResult, str]) -> None:
    (g, g_line), (p, p_line) = gated, plain
    assert g.status == "exit" and g.code == 0, f"{g_line}\n{g.console[-2000:]}"
    assert (g.status, g.code, g.cycles) == (p.status, p.code, p.cycles), f"{g_line}\n{p_line}"
    assert g.console == p.console


def test_every_block_with_an_idle_output_is_gated() -> None:
    """The configuration these tests run holds every block that has an idle output, each on the
    gated clock of its own clock gate in the generated top; the others stay on clk_i."""
    config = description.load_config(CONFIG)
    gated = {i.name for i in config.instances if i.block.idle}
    assert {i.block.name for i in config.instances if i.name in gated} == {"aes", "aes_cfu", "dma", "sha", "xip"}
    top = generate.top(config)
    for inst in config.instances:
        ports = re.search(rf" u_{inst.name} \((.*?)\n  \);", top, re.S)
        assert ports is not None, inst.name
        clock = re.search(r"\.clk_i\s+\((\w+)\)", ports.group(1)).group(1)
        if inst.name in gated:
            assert f"clock_gate u_{inst.name}_clk_gate" in top and clock == f"{inst.name}_clk"
            assert f".en_i  (~{inst.name}_idle | ~rst_ni)" in top
        else:
            assert clock == "clk_i", inst.name


@pytest.mark.parametrize("program", PROGRAMS)
def test_program_runs_the_same_without_gates(program: str) -> None:
    path, libs = REPO / "fw" / "tests" / program, PROGRAMS[program]
    _same(build_and_run(path, CONFIG, libs=libs), build_and_run(path, CONFIG, libs=libs, clock_gates=False))


def test_xip_boot_from_encrypted_image_runs_the_same(tmp_path: Path) -> None:
    """fw/tests/xip_boot executing in place from an image with OTFAD-encrypted, integrity-checked
    contexts (the XIP controller's decryption, tag checks and prefetch all work)."""
    from test_xip_soc import CFLAGS, LIBS, MAX_CYCLES, PROGRAM, integrity_description

    from aesoc.sim import firmware

    elf = firmware.build(PROGRAM, description.load_config(CONFIG), cflags=CFLAGS, libs=LIBS, placement="xip").elf
    rng = random.Random("clock-gates")
    desc = tmp_path / "enc.toml"
    image.write_description(desc, integrity_description(rng, image.xip_layout(elf), rng.randbytes(16), "interleaved"))

    def go(gates: bool) -> tuple[RunResult, str]:
        return build_and_run(PROGRAM, CONFIG, cflags=CFLAGS, libs=LIBS, placement="xip", image=desc,
                             max_cycles=MAX_CYCLES, clock_gates=gates)

    _same(go(True), go(False))
