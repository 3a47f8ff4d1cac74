# SPDX-License-Identifier: Apache-2.0
"""The DMA C driver: builds warning-free for rv32im as firmware does, and a host run checks its
argument handling and the register words it writes against fields packed from dma.rdl."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from aesoc.common.toolchain import RISCV_PREFIX
from aesoc.sim.firmware import ARCH_FLAGS, COMMON_FLAGS
from aesoc.soc import regs

from dma_tb import regmap

HERE = Path(__file__).resolve().parent
SW = HERE.parent / "sw"


def reg_dir() -> Path:
    return next(b for b in regs.generate_all() if b.name == "dma").out_dir


@pytest.mark.skipif(shutil.which(RISCV_PREFIX + "gcc") is None, reason="no RISC-V GCC")
def test_dma_driver_builds_for_rv32im(tmp_path: Path) -> None:
    cmd = [RISCV_PREFIX + "gcc", *ARCH_FLAGS, *COMMON_FLAGS, "-O2", f"-I{reg_dir()}", f"-I{SW}",
           "-c", str(SW / "dma.c"), "-o", str(tmp_path / "dma.o")]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.skipif(shutil.which("gcc") is None, reason="no host GCC")
def test_dma_driver_host(tmp_path: Path) -> None:
    exe = tmp_path / "dma_sw_host"
    cmd = ["gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-O1", f"-I{reg_dir()}", f"-I{SW}",
           str(SW / "dma.c"), str(HERE / "dma_sw_host.c"), "-o", str(exe)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout.strip().endswith("PASS"), run.stdout
    got = dict(line.split("=") for line in run.stdout.splitlines() if "=" in line)
    m = regmap()
    want = {
        "CH1_CTRL": m["CH1_CTRL"].pack(src_mode=0, dst_mode=2, burst=1, prefetch=1, prio=2, bus_prio=1,
                                       src_req_en=1, src_req_sel=3, dst_req_en=1, dst_req_sel=0),
        "CH1_FLOW": m["CH1_FLOW"].pack(block=4, fifo_limit=8),
        "CH3_CTRL_CHAIN": m["CH3_CTRL"].pack(chain=1),
        "CMD_START": m["CMD"].pack(start0=1, start2=1),
        "IRQ_STATUS_CLEARED": m["IRQ_STATUS"].pack(done0=1, done2=1, err0=1, err2=1),
        "CMD_ABORT": m["CMD"].pack(abort3=1),
        "IRQ_ENABLE": m["IRQ_ENABLE"].pack(done=0x5, err=0xA),
    }
    for name, value in want.items():
        assert int(got[name], 16) == value, f"{name}: driver wrote {got[name]}, map says {value:#010x}"
