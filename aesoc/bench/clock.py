"""The clock a benchmark states its MB/s at: the SoC configuration's achieved Fmax on ECP5.

Cycles are what the simulation measures; MB/s needs a clock. It is the configuration's placement on
the smallest LFE5U it fits, at its best Fmax over the fixed placer seeds (as aes-core does for the
engines): the same placement as benchmark fpga-soc's, shared through the FPGA flow's cache
(aesoc.fpga.workspace). A benchmark takes it from that cache; it places the SoC itself (hours) only in a `--place` run that is not a
smoke run. Without a placement the clock is the benchmark's nominal one (the SoC description's
`clock_mhz`), and the label says so and why.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from aesoc.bench import BenchContext
from aesoc.bench.fpga import ECP5_DEVICES
from aesoc.fpga.area import soc_design
from aesoc.fpga.design import DEVICE_NAMES, PlaceResult, SEEDS
from aesoc.soc.description import load_config


@dataclass(frozen=True)
class Clock:
    mhz: float
    label: str  # what a table prints after "at": the clock and where it came from
    placed: bool  # the achieved Fmax of a placement, not a nominal clock

    def mbps(self, nbytes: float, cycles: float) -> float:
        return round(nbytes * self.mhz / cycles, 2)

    @property
    def short(self) -> str:
        """For column headings: '61.2 MHz' or '100 MHz nominal'."""
        return f"{self.mhz:g} MHz" if self.placed else f"{self.mhz:g} MHz nominal"


def from_placement(config: str, placed: PlaceResult | None, nominal_mhz: float) -> Clock:
    if placed is None or not placed.routed:
        if placed is None:
            why = f"SoC '{config}' not placed and routed yet: `aesoc bench fpga-soc`"
        elif placed.misfit:
            why = f"SoC '{config}' {placed.misfit} on an {DEVICE_NAMES[placed.device]}"
        else:
            why = f"SoC '{config}' placed on an {DEVICE_NAMES[placed.device]}, no seed routed: {placed.status}"
        return Clock(nominal_mhz, f"{nominal_mhz:g} MHz nominal ({why})", placed=False)
    return Clock(placed.fmax_best, f"{placed.fmax_best:g} MHz (SoC '{config}' placed and routed on an "
                 f"{DEVICE_NAMES[placed.device]}, {seeds_phrase(placed)})", placed=True)


def seeds_phrase(placed: PlaceResult) -> str:
    """'best Fmax over seeds 1,2,3', or, while some are still to be placed, which are; and when the
    placement is of an earlier design, which and what changed since."""
    phrase = f"best Fmax over seed{'s' if len(placed.seeds) > 1 else ''} {','.join(map(str, placed.seeds))}"
    if placed.status:
        phrase += f" ({placed.status})"
    if placed.earlier:
        phrase += f"; {placed.earlier}"
    return phrase


def soc_clock(ctx: BenchContext, config: str, nominal_mhz: float | None = None) -> Clock:
    """The clock for MB/s of SoC configuration `config` (see the module's docstring). The nominal
    clock is the SoC description's `clock_mhz` unless the benchmark names another."""
    design = soc_design(config)
    placed = replace(ctx, place=ctx.place and not ctx.smoke).placement(design, ECP5_DEVICES, SEEDS)
    return from_placement(config, placed, nominal_mhz if nominal_mhz is not None else load_config(config).clock_mhz)
