"""Area of the SoC's blocks and of the AES engine variants (Yosys synth_ice40), cached by source
content and parameters.

SoC-level figures are the sum of the blocks a configuration contains: the CPU, the crossbar,
system control and the AES interfaces. SRAM banks map to block RAM and are left out, as are a
few gates of glue in aesoc_top.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from aesoc import regs
from aesoc.soc import SocConfig, memory_map
from aesoc.synth import SynthResult, synth_ice40
from aesoc.toolchain import BUILD, REPO, ToolError, vexriscv_verilog

CACHE = BUILD / "synth"
AES_IP_DIR = REPO / "ip" / "aes"
AES_CORE = ["aes_pkg.sv", "aes_sbox.sv", "aes_round.sv", "aes_key_expand.sv", "aes_cipher_core.sv", "aes_engine.sv"]


@dataclass(frozen=True)
class Block:
    top: str
    sources: tuple[Path, ...]
    parameters: tuple[tuple[str, int | str], ...] = ()
    # False: synth_ice40 -noflatten (see aesoc.synth), for designs too deep to flatten.
    flatten: bool = True


def _aes(*names: str) -> tuple[Path, ...]:
    return tuple(REPO / "ip" / "aes" / "rtl" / n for n in [*AES_CORE, *names])


def _gen(block: str) -> tuple[Path, ...]:
    """A block's generated register files, package first (they go before the RTL that uses them)."""
    return tuple(next(b.sv_files for b in regs.generate_all() if b.name == block))


def _dma_rtl() -> tuple[Path, ...]:
    """ip/dma/rtl in dependency order: package first, top (dma_wb) last."""
    rtl = REPO / "ip" / "dma" / "rtl"
    order = ["dma_pkg", "dma_arb", "dma_fifo_ram", "dma_chan_regs", "dma_channel", "dma_range_check",
             "dma_rd_engine", "dma_wr_engine", "dma_core", "dma_wb"]
    return tuple(rtl / f"{name}.sv" for name in order)


def _xbar_params(config: SocConfig) -> tuple[tuple[str, int | str], ...]:
    amap = memory_map()
    periph_mask = amap["PERIPH_MASK"]

    def mem_mask(size: int) -> int:
        return ~(size - 1) & ~amap["UNCACHED_BIT"] & 0xFFFFFFFF

    # Decode order of aesoc_pkg.sv: SRAM0, SRAM1, SYSCTRL, AES, FLASH, XIP, DMA (slave 0 in the low bits).
    bases = [amap["SRAM0_BASE"], amap["SRAM1_BASE"], amap["SYSCTRL_BASE"], amap["AES_BASE"], amap["FLASH_BASE"],
             amap["XIP_BASE"], amap["DMA_BASE"]]
    masks = [mem_mask(config.sram0_bytes), mem_mask(config.sram1_bytes), periph_mask, periph_mask,
             mem_mask(config.params["FlashBytes"]), periph_mask, periph_mask]
    pack = lambda values: f"{32 * len(values)}'h" + "".join(f"{v:08x}" for v in reversed(values))  # noqa: E731
    return (("NumMasters", 4), ("NumSlaves", len(bases)), ("SlaveBase", pack(bases)), ("SlaveMask", pack(masks)))


def soc_blocks(config: SocConfig) -> dict[str, Block]:
    xbar_rtl = tuple(sorted((REPO / "ip" / "wb_xbar" / "rtl").glob("*.sv")))
    return {
        "cpu": Block("VexRiscv", (vexriscv_verilog(),)),
        "xbar": Block("wb_xbar", xbar_rtl, _xbar_params(config)),
        "sysctrl": Block("sysctrl", (*_gen("sysctrl"), REPO / "ip" / "sysctrl" / "rtl" / "sysctrl.sv")),
        "aes_mmio": Block("aes_wb", (*_gen("aes"), *_aes("aes_block_fifo.sv", "aes_periph.sv", "aes_wb.sv")),
                          (("RoundsPerCycle", config.params["AesRoundsPerCycle"]),
                           ("InDepth", config.params["AesFifoDepth"]), ("OutDepth", config.params["AesFifoDepth"]))),
        "aes_cfu": Block("aes_cfu", (*_aes(), REPO / "ip" / "aes_cfu" / "rtl" / "aes_cfu.sv"),
                         (("RoundsPerCycle", config.params["AesCfuRoundsPerCycle"]), ("CoarseOps", 1))),
        "dma": Block("dma_wb", (*_gen("dma"), *_dma_rtl()), (("FifoDepth", config.params.get("DmaFifoDepth", 64)),)),
        "aes_cfu_rounds_only": Block("aes_cfu", (*_aes(), REPO / "ip" / "aes_cfu" / "rtl" / "aes_cfu.sv"),
                                     (("RoundsPerCycle", 1), ("CoarseOps", 0))),
    }


def aes_engine_blocks(variants: Sequence[str] | None = None) -> dict[str, dict[str, Block]]:
    """aes_engine per RTL variant of ip/aes/aes_ip.json (default: its benchmark variants), with
    ("enc+dec") and without ("enc-only") the decryption datapath. Hierarchy kept: flattened, Yosys
    0.23 ran out of memory (24 GB) on the pipelined variant."""
    ip = aes_ip()
    names = list(variants) if variants else list(ip["benchmark_variants"])
    unknown = [n for n in names if n not in ip["variants"]]
    if unknown:
        raise ToolError(f"unknown AES variant(s) {', '.join(unknown)}; known: {', '.join(ip['variants'])}")
    sources = tuple(AES_IP_DIR / p for p in ip["rtl"])
    return {
        name: {
            label: Block(ip["top"], sources, tuple({**ip["variants"][name], "DecEnable": dec}.items()), flatten=False)
            for label, dec in (("enc+dec", 1), ("enc-only", 0))
        }
        for name in names
    }


def aes_ip() -> dict[str, Any]:
    """ip/aes/aes_ip.json: the AES engine's sources and RTL variants."""
    desc: dict[str, Any] = json.loads((AES_IP_DIR / "aes_ip.json").read_text())
    return desc


def area(block: Block) -> SynthResult:
    """Synthesise (or fetch from the cache) one block."""
    mode = "" if block.flatten else " noflatten"
    h = hashlib.sha256(f"{block.top}{mode} {sorted(block.parameters)}".encode())
    for src in block.sources:
        h.update(src.read_bytes())
    cached = CACHE / f"{block.top}{mode.replace(' ', '-')}-{h.hexdigest()[:16]}.json"
    if cached.is_file():
        return SynthResult(**json.loads(cached.read_text()))
    result = synth_ice40(block.top, list(block.sources), dict(block.parameters), flatten=block.flatten)
    CACHE.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps(asdict(result)))
    return result
