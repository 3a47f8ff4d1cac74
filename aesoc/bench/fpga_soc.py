"""Benchmark fpga-soc: each SoC configuration placed and routed, as benchmark fpga places the IP
blocks (same flow, cache and table). The clock that other benchmarks state MB/s at is this
placement's best Fmax on ECP5 (aesoc.bench.clock). A SoC takes hours under the WebAssembly nextpnr,
where a block takes minutes, hence a benchmark of its own.

Smoke run: the 'base' SoC on the smallest ECP5 device only, which its memories do not fit:
synthesis, harness and nextpnr's 'does not fit' count, in about 20 s. (iCE40 adds 50 s for the
same SoC-specific steps; the fpga and aes-core smoke runs place and route on iCE40.)
"""

from __future__ import annotations

from aesoc import soc
from aesoc.area import flat_synthesis_finishes
from aesoc.bench import Benchmark, BenchContext, BenchResult
from aesoc.bench.fpga import ECP5_DEVICES, ICE40_DEVICES, measure
from aesoc.pnr import Design

SOC_CONFIGS = ("base", "full", "dma-unrolled")
SMOKE_CONFIG = "base"


def soc_design(name: str) -> Design:
    """A SoC configuration's top as placed and routed here (and by aesoc.bench.clock): flattened,
    or with its hierarchy kept where a flattened synthesis does not finish."""
    cfg = soc.load_config(name)
    return Design(f"soc-{name}", soc.TOP, tuple(soc.rtl_sources(cfg)), tuple(soc.top_parameters(cfg).items()),
                  flatten=flat_synthesis_finishes(cfg))


def run(ctx: BenchContext) -> BenchResult:
    configs = (SMOKE_CONFIG,) if ctx.smoke else SOC_CONFIGS
    designs = [soc_design(name) for name in configs]
    return measure(ctx, "fpga-soc", designs,
                   "FPGA implementation: every SoC configuration placed and routed (yowasp-nextpnr)",
                   ECP5_DEVICES[:1] if ctx.smoke else ECP5_DEVICES,
                   () if ctx.smoke else ICE40_DEVICES,
                   notes=["SoC configurations from soc/configs (CPU, memories, every peripheral and the "
                          "crossbar); a design is named soc-CONFIG.",
                          *(f"{d.name} is synthesised with its hierarchy kept (slang --keep-hierarchy, -noflatten; "
                            "the others flattened): its AES peripheral has the unrolled engine, which flattened "
                            "reaches ABC as one module of 709,122 AND gates, and synth_xilinx ran past Yosys' "
                            "3,600 s limit and synth_ecp5 past an hour without finishing when tried (2026-11-28). "
                            "Kept, it did not finish either when tried (2026-11-29): synth_ecp5 of its port harness "
                            "stopped with exit 1 and no message after mapping 442 of its 474 modules (a second run "
                            "held 3.6 GB at 285, near the 4 GB a 32-bit WebAssembly process can address), "
                            "synth_ice40 reached the 3,600 s limit at about 440 on a loaded machine; so it is not "
                            "placed. Its AES peripheral alone synthesises kept (section dma-aes)."
                            for d in designs if not d.flatten)])


BENCHMARK = Benchmark(
    name="fpga-soc",
    summary="every SoC configuration placed and routed on ECP5 and iCE40 (LUT4, FF, BRAM, DSP, Fmax "
    "best/median over fixed seeds, or 'does not fit'), 7-series LUT6/FF",
    run=run,
    places=True,
)
