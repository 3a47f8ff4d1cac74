"""Where the cycles go, from an instruction trace: an FST of the simulated SoC (sim/main.cpp
--trace) turned into an instruction profile.

Every cycle of the traced window is charged to an instruction: a retiring instruction (VexRiscv's
lastStageIsFiring, PC writeBack_PC) owns its own cycle and every cycle since the previous
retirement. Those extra cycles are classified by what the core was doing:

  icache     the instruction bus is in a refill (iBusWishbone CYC), and the gap's other cycles
  dcache     the data bus is reading (a D-cache line refill or an uncached load), and the gap's
             other cycles (a miss costs more than its bus beats)
  store      the data bus is writing (write-through stores)
  branch     none of those, and the previous instruction was a taken branch or jump
  interlock  none of those: the pipeline waited for a load or shift result (or a multiply)

The FST is read with pywellen (pinned in pyproject.toml). `profile()` returns per-PC counts;
`by_ranges()` sums them over named address ranges (functions, or the rounds of a kernel).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

CPU = "TOP.aesoc_sim.u_soc.u_cpu."
CLOCK = "TOP.clk_i"
SIGNALS = {
    "fire": CPU + "lastStageIsFiring",
    "pc": CPU + "writeBack_PC",
    "dcyc": CPU + "dBusWishbone_CYC",
    "dwe": CPU + "dBusWishbone_WE",
    "icyc": CPU + "iBusWishbone_CYC",
}
KINDS = ("icache", "dcache", "store", "branch", "interlock")


@dataclass
class Counts:
    instructions: int = 0
    cycles: int = 0
    stalls: dict[str, int] = field(default_factory=lambda: {k: 0 for k in KINDS})

    def add(self, other: Counts) -> None:
        self.instructions += other.instructions
        self.cycles += other.cycles
        for k in KINDS:
            self.stalls[k] += other.stalls[k]


@dataclass
class Profile:
    per_pc: dict[int, Counts]
    cycles: int  # cycles in the window
    first_cycle: int  # trace time of the window's first rising clock edge

    def total(self) -> Counts:
        t = Counts()
        for c in self.per_pc.values():
            t.add(c)
        return t


def _samples(changes: list[tuple[int, int]], times: list[int]) -> list[int]:
    """Value of a signal in each cycle (the value set at or before each rising edge)."""
    out, j, value = [], 0, 0
    for t in times:
        while j < len(changes) and changes[j][0] <= t:
            value = changes[j][1]
            j += 1
        out.append(value)
    return out


def _changes(signal: object) -> list[tuple[int, int]]:
    n = len(signal)  # type: ignore[arg-type]
    return [(int(t), int(v)) for t, v in (signal[i] for i in range(n))]  # type: ignore[index]


def profile(fst: Path, start: int | None = None, end: int | None = None) -> Profile:
    """Profile the cycles of `fst` whose first retired PC lies in [start, end) onwards: the window
    starts at the first retirement of a PC in that range (the whole trace when not given)."""
    import pywellen

    wave = pywellen.Waveform(str(fst))
    by_name = {v.full_name: v for v in wave.all_vars()}
    missing = [n for n in (CLOCK, *SIGNALS.values()) if n not in by_name]
    if missing:
        raise ValueError(f"{fst}: trace lacks {missing[0]} (not a trace of the aesoc SoC?)")
    clock = _changes(by_name[CLOCK].signal)
    times = [t for t, v in clock if v == 1]
    s = {k: _samples(_changes(by_name[n].signal), times) for k, n in SIGNALS.items()}
    per_pc: dict[int, Counts] = {}
    pending = {k: 0 for k in KINDS}
    pending_cycles = 0
    prev_pc: int | None = None
    started = start is None
    first = times[0] if times else 0
    for i in range(len(times)):
        if not started:
            if s["fire"][i] and start is not None and start <= s["pc"][i] < (end if end is not None else 1 << 32):
                started, first = True, times[i]
                prev_pc = None
            else:
                continue
        pending_cycles += 1
        if not s["fire"][i]:
            if s["icyc"][i]:
                kind = "icache"
            elif s["dcyc"][i]:
                kind = "store" if s["dwe"][i] else "dcache"
            else:
                kind = "interlock"
            pending[kind] += 1
            continue
        pc = s["pc"][i]
        # a refill's bus beats are only part of a miss: the cycles around them in the same gap
        # (request, restart of the pipeline) belong to the miss too
        for bus in ("dcache", "icache"):
            if pending[bus]:
                pending[bus] += pending["interlock"]
                pending["interlock"] = 0
        if prev_pc is not None and pc != prev_pc + 4:
            pending["branch"] += pending["interlock"]  # bubbles after a taken branch or jump
            pending["interlock"] = 0
        c = per_pc.setdefault(pc, Counts())
        c.instructions += 1
        c.cycles += pending_cycles
        for k in KINDS:
            c.stalls[k] += pending[k]
            pending[k] = 0
        pending_cycles = 0
        prev_pc = pc
    cycles = sum(c.cycles for c in per_pc.values())
    return Profile(per_pc, cycles, first)


def by_ranges(prof: Profile, ranges: Iterable[tuple[str, int, int]]) -> dict[str, Counts]:
    """Sum the profile over named [start, end) address ranges; the rest goes to "other"."""
    out: dict[str, Counts] = {}
    ranges = list(ranges)
    for pc, c in prof.per_pc.items():
        name = next((n for n, lo, hi in ranges if lo <= pc < hi), "other")
        out.setdefault(name, Counts()).add(c)
    return out


def symbols(elf: Path) -> list[tuple[str, int, int]]:
    """(name, start, end) of the ELF's code symbols, local labels included, by address; a symbol
    without a size ends where the next one starts."""
    from elftools.elf.elffile import ELFFile
    from elftools.elf.sections import SymbolTableSection

    found: dict[int, tuple[str, int]] = {}
    with open(elf, "rb") as handle:
        f = ELFFile(handle)
        symtab = f.get_section_by_name(".symtab")
        assert isinstance(symtab, SymbolTableSection)
        for sym in symtab.iter_symbols():
            if sym["st_info"]["type"] not in ("STT_FUNC", "STT_NOTYPE") or not sym.name or sym.name.startswith("$"):
                continue
            if not isinstance(sym["st_shndx"], int):
                continue
            if not f.get_section(sym["st_shndx"]).name.startswith(".text"):
                continue
            addr = sym["st_value"]
            if addr not in found or (sym["st_size"] and not found[addr][1]):
                found[addr] = (sym.name, sym["st_size"])
    addrs = sorted(found)
    out = []
    for i, a in enumerate(addrs):
        name, size = found[a]
        nxt = addrs[i + 1] if i + 1 < len(addrs) else a + max(size, 4)
        out.append((name, a, a + size if size else nxt))
    return out


def report(prof: Profile, ranges: Iterable[tuple[str, int, int]]) -> str:
    """A text table of `by_ranges`, largest first."""
    rows = sorted(by_ranges(prof, ranges).items(), key=lambda item: -item[1].cycles)
    out = [f"{'range':32} {'instr':>8} {'cycles':>8} " + " ".join(f"{k:>9}" for k in KINDS)]
    for name, c in rows:
        out.append(f"{name:32} {c.instructions:8d} {c.cycles:8d} " + " ".join(f"{c.stalls[k]:9d}" for k in KINDS))
    t = prof.total()
    out.append(f"{'total':32} {t.instructions:8d} {t.cycles:8d} " + " ".join(f"{t.stalls[k]:9d}" for k in KINDS))
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    """python -m aesoc.sim.swprofile TRACE.fst FIRMWARE.elf [FUNCTION]: the profile by function,
    from the first retirement inside FUNCTION (default: the whole trace)."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    if len(args) not in (2, 3):
        print(main.__doc__, file=sys.stderr)
        return 2
    fst, elf = Path(args[0]), Path(args[1])
    syms = symbols(elf)
    start = end = None
    if len(args) == 3:
        match = [s for s in syms if s[0] == args[2]]
        if not match:
            print(f"no function {args[2]} in {elf}", file=sys.stderr)
            return 2
        _, start, end = match[0]
    print(report(profile(fst, start, end), syms))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
