"""Benchmark fpga-soc: each SoC configuration placed and routed, as benchmark fpga places the IP
blocks (same flow, cache and table). The clock that other benchmarks state MB/s at is this
placement's best Fmax on ECP5 (aesoc.bench.clock). A SoC takes hours under the WebAssembly nextpnr,
where a block takes minutes, hence a benchmark of its own.

Smoke run: the 'base' SoC on the smallest ECP5 device only, which its memories do not fit: from
its placement record, or, once its sources changed, synthesis, harness and nextpnr's 'does not
fit' count, in about 20 s (iCE40 would add 50 s for the same SoC-specific steps).
"""

from __future__ import annotations

from aesoc.bench import BenchContext, BenchResult, Benchmark
from aesoc.bench.fpga import ECP5_DEVICES, ICE40_DEVICES, measure
from aesoc.fpga.area import soc_design

SOC_CONFIGS = ("base", "full", "dma-unrolled")
SMOKE_CONFIG = "base"


def run(ctx: BenchContext) -> BenchResult:
    configs = (SMOKE_CONFIG,) if ctx.smoke else SOC_CONFIGS
    designs = [soc_design(name) for name in configs]
    return measure(ctx, "fpga-soc", designs,
                   "FPGA implementation: every SoC configuration placed and routed (yowasp-nextpnr)",
                   ECP5_DEVICES[:1] if ctx.smoke else ECP5_DEVICES,
                   () if ctx.smoke else ICE40_DEVICES,
                   notes=["SoC configurations from soc/configs (CPU, memories, every peripheral and the "
                          "crossbar); a design is named soc-CONFIG.",
                          *(f"{d.name} is not synthesised whole: its AES peripheral has the unrolled engine, "
                            "which flattened reaches ABC as one module of 709,122 AND gates (synth_xilinx ran past "
                            "Yosys' 3,600 s limit and synth_ecp5 past an hour when tried, 2026-11-28); with the "
                            "hierarchy kept (slang --keep-hierarchy, -noflatten) synth_ecp5 of its port harness "
                            "stopped with exit 1 and no message after mapping 442 of its 474 modules (a second run "
                            "held 3.6 GB at 285, near the 4 GB a 32-bit WebAssembly process can address) and "
                            "synth_ice40 reached the 3,600 s limit at about 440 (2026-11-29). Its 'does not fit' "
                            f"count is that of its AES peripheral alone ({d.part.name if d.part else '?'}: aes_wbc "
                            "with the configuration's parameters, hierarchy kept as the SoC keeps it), a lower "
                            "bound of the whole SoC's: with the hierarchy kept Yosys maps each module on its own, "
                            "so the SoC's netlist holds every cell of the peripheral's."
                            for d in designs if not d.flatten)])


BENCHMARK = Benchmark(
    name="fpga-soc",
    summary="every SoC configuration placed and routed on ECP5 and iCE40 (LUT4, FF, BRAM, DSP, Fmax "
    "best/median over fixed seeds, or 'does not fit'), 7-series LUT6/FF",
    run=run,
    places=True,
)
