"""Benchmark fpga-soc: each SoC configuration placed and routed, as benchmark fpga places the IP
blocks (same flow, cache and table). The clock that other benchmarks state MB/s at is this
placement's best Fmax on ECP5 (aesoc.bench.clock). A SoC takes hours under the WebAssembly nextpnr,
where a block takes minutes, hence a benchmark of its own.

Smoke run: the 'base' SoC on the smallest device of each family only, which its memories do not
fit: synthesis, harness and nextpnr's 'does not fit' count, in about a minute.
"""

from __future__ import annotations

from aesoc import soc
from aesoc.bench import Benchmark, BenchContext, BenchResult
from aesoc.bench.fpga import ECP5_DEVICES, ICE40_DEVICES, measure
from aesoc.pnr import Design

SOC_CONFIGS = ("base", "full", "dma-unrolled")
SMOKE_CONFIG = "base"


def soc_design(name: str) -> Design:
    """A SoC configuration's top as placed and routed here (and by aesoc.bench.clock)."""
    cfg = soc.load_config(name)
    return Design(f"soc-{name}", soc.TOP, tuple(soc.rtl_sources(cfg)), tuple(soc.top_parameters(cfg).items()))


def run(ctx: BenchContext) -> BenchResult:
    configs = (SMOKE_CONFIG,) if ctx.smoke else SOC_CONFIGS
    return measure(ctx, "fpga-soc", [soc_design(name) for name in configs],
                   "FPGA implementation: every SoC configuration placed and routed (yowasp-nextpnr)",
                   ECP5_DEVICES[:1] if ctx.smoke else ECP5_DEVICES,
                   ICE40_DEVICES[:1] if ctx.smoke else ICE40_DEVICES,
                   notes=["SoC configurations from soc/configs (CPU, memories, every peripheral and the "
                          "crossbar); a design is named soc-CONFIG."])


BENCHMARK = Benchmark(
    name="fpga-soc",
    summary="every SoC configuration placed and routed on ECP5 and iCE40 (LUT4, FF, BRAM, DSP, Fmax "
    "best/median over fixed seeds, or 'does not fit'), 7-series LUT6/FF",
    run=run,
    places=True,
)
