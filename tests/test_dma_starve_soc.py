"""Issue 47 item 1b: a DMA channel in the crossbar's high class must not lock the CPU off the bus.

fw/tests/dma_starve runs the issue's program (fixed source in SRAM0, wrapping destination in SRAM1,
16 MB - 4 per descriptor, NEXT pointing to itself, 8-beat bursts) with CTRL.BUS_PRIO = 0 and then
1, times its own uncached SRAM0 loads while the channel runs, aborts the channel and checks the
ABORT error. Before the crossbar's grant budget the BUS_PRIO = 1 half never got past the start."""

from __future__ import annotations

from pathlib import Path

import pytest

from aesoc.common.toolchain import REPO, ToolError
from aesoc.sim.run import build_and_run
from aesoc.soc import generate
from aesoc.soc.description import elaborate

# Cycles a DMA burst holds an SRAM bank at most: 8 constant-address beats, each a STB cycle and an
# ACK cycle (wb_sram reads ahead only in incrementing bursts); a CPU line refill: 9 cycles.
# ip/wb_xbar/README.md, "Bounded wait", and docs/dma.md, BUS_PRIO.
DMA_BURST_HOLD = 16
CPU_REFILL_HOLD = 9
# Low-class masters that may queue at SRAM0: the CPU's instruction and data buses.
SRAM0_LOW_MASTERS = 2


def test_dma_cannot_starve_cpu() -> None:
    result, line = build_and_run(REPO / "fw" / "tests" / "dma_starve", max_cycles=5_000_000)
    assert result.status == "exit" and result.code == 0, f"{line}\n{result.console[-3000:]}"
    (idle,) = result.records_of("starve_load_idle")
    loads = {r["bus_prio"]: r for r in result.records_of("starve_load")}
    aborts = {r["bus_prio"]: r for r in result.records_of("starve_abort")}
    assert sorted(loads) == sorted(aborts) == [0, 1]
    budget = elaborate("full").xbar_params["PrioBudget"]
    # (B + 1) * NL - 1 grants: B DMA bursts before each of the NL low-class grants, NL - 1 of them
    # to the other CPU bus.
    bound = budget * SRAM0_LOW_MASTERS * DMA_BURST_HOLD + (SRAM0_LOW_MASTERS - 1) * CPU_REFILL_HOLD
    for prio in (0, 1):
        # The channel really ran (and kept SRAM0 busy) until the CPU's abort took effect.
        assert aborts[prio]["rd_beats"] > 1000 and aborts[prio]["wr_beats"] > 1000, aborts[prio]
        assert aborts[prio]["abort_cycles"] < 1000, aborts[prio]
        assert loads[prio]["min"] >= idle["min"]
        assert loads[prio]["max"] - idle["max"] <= bound, (loads[prio], idle, bound)
    # High priority still counts: the CPU waits longer behind a BUS_PRIO = 1 channel.
    assert loads[1]["max"] > loads[0]["max"] and loads[1]["sum"] > loads[0]["sum"], loads
    # The documents state this bound for the description's budget.
    for doc in ("docs/dma.md", "docs/ARCHITECTURE.md", "ip/wb_xbar/README.md"):
        assert f"{bound} cycles" in " ".join((REPO / doc).read_text().split()), f"{doc} does not state {bound} cycles"


def test_description_sets_the_budget() -> None:
    soc = elaborate("full")
    assert soc.xbar_params["PrioBudget"] >= 1
    assert f".PrioBudget    ({soc.xbar_params['PrioBudget']})" in generate._xbar(soc)


@pytest.mark.parametrize("body,message", [
    ("[xbar]\nparams = { PrioBudget = 0 }\n", "PrioBudget"),
    ("[xbar]\nparams = { Budget = 4 }\n", "has no parameter Budget"),
    ("[xbar]\nbudget = 4\n", "xbar: unknown key(s) budget"),
])
def test_bad_xbar_table_is_refused(tmp_path: Path, body: str, message: str) -> None:
    cfg = tmp_path / "bad.toml"
    cfg.write_text(f'inherits = "base"\n{body}')
    with pytest.raises(ToolError, match=message.replace("(", r"\(").replace(")", r"\)")):
        elaborate(str(cfg))
