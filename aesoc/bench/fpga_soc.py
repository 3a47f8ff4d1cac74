"""Benchmark fpga-soc: each SoC configuration placed and routed, as benchmark fpga places the IP
blocks (same flow, cache and table). The clock that other benchmarks state MB/s at is this
placement's best Fmax on ECP5 (aesoc.bench.clock). A SoC takes hours under the WebAssembly nextpnr,
where a block takes minutes, hence a benchmark of its own.

Smoke run: the 'base' SoC on the smallest device of each family only, which its memories do not
fit: synthesis, harness and nextpnr's 'does not fit' count, in about a minute.
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
    """A SoC configuration's top as placed and routed here (and by aesoc.bench.clock)."""
    cfg = soc.load_config(name)
    return Design(f"soc-{name}", soc.TOP, tuple(soc.rtl_sources(cfg)), tuple(soc.top_parameters(cfg).items()))


def run(ctx: BenchContext) -> BenchResult:
    configs = (SMOKE_CONFIG,) if ctx.smoke else SOC_CONFIGS
    skipped = [name for name in configs if not flat_synthesis_finishes(soc.load_config(name))]
    result = measure(ctx, "fpga-soc", [soc_design(name) for name in configs if name not in skipped],
                     "FPGA implementation: every SoC configuration placed and routed (yowasp-nextpnr)",
                     ECP5_DEVICES[:1] if ctx.smoke else ECP5_DEVICES,
                     ICE40_DEVICES[:1] if ctx.smoke else ICE40_DEVICES,
                     notes=["SoC configurations from soc/configs (CPU, memories, every peripheral and the "
                            "crossbar); a design is named soc-CONFIG.",
                            *(f"soc-{name} is neither synthesised nor placed: its AES peripheral has the unrolled "
                              "engine, which flattened reaches ABC as one module of 709,122 AND gates; "
                              "synth_xilinx ran past Yosys' 3,600 s limit and synth_ecp5 past an hour without "
                              "finishing when tried (2026-11-28). Section aes-core gives the engine's area with "
                              "its hierarchy kept." for name in skipped)])
    table = result.tables[0]
    table.rows += [[f"soc-{name}", "not synthesised (see notes)", *["—"] * (len(table.columns) - 2)]
                   for name in skipped]
    return result


BENCHMARK = Benchmark(
    name="fpga-soc",
    summary="every SoC configuration placed and routed on ECP5 and iCE40 (LUT4, FF, BRAM, DSP, Fmax "
    "best/median over fixed seeds, or 'does not fit'), 7-series LUT6/FF",
    run=run,
    places=True,
)
