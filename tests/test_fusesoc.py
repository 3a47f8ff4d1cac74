"""The committed FuseSoC cores (aesoc.integrate.fusesoc): each equals what the generator module renders from
the manifests; fusesoc lists every aesoc core, each block's lint targets (edalize's lint flow,
Verilator lint-only -Wall, one per bus shell and alternative top) pass with no deprecation
warning, their register blocks and shells made by the cores' FuseSoC generator; and each
block's `sim` target (edalize's sim flow: Verilator and cocotb on the Wishbone classic shell)
runs the shell tests and passes them. The AXI4-Lite shell's sim target from a fresh clone is
docs/integration.md's recipe, run by tests/test_integration_doc.py."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

from aesoc.common.toolchain import BUILD, REPO, use_pinned_verilator, verilator_lock
from aesoc.integrate import fusesoc
from aesoc.sim.cocotb_flow import model_make_vars
from aesoc.soc import shells

WORK = BUILD / "fusesoc-work"
# Only ip/ is the library here: build/ holds the generator's output cores of earlier runs.
CORES_ROOT = REPO / "ip"
TARGETS = ["lint", *[f"lint_{bus}" for bus in shells.BUSES]]
SIM_TARGETS = ["sim", *[f"sim_{bus}" for bus in shells.BUSES]]
BLOCKS = [b.name for b in shells.shell_blocks()]
# A bound on one fusesoc command (the longest, a sim target's build, takes under a minute).
FUSESOC_TIMEOUT_S = 900


def fusesoc_deprecations(out: str) -> list[str]:
    """FuseSoC's and edalize's deprecation notices in a run's output: their log's WARNING lines
    (the tool API, generator-side caching) and Python warnings raised in their code (a file
    outside the core's folder). The simulation's own (cocotbext-axi under cocotb 2) are not theirs."""
    return [ln for ln in out.splitlines() if re.search(r"deprecat|FutureWarning", ln, re.I)
            and (ln.startswith("WARNING:") or re.search(r"/(fusesoc|edalize)/", ln))]


def _fusesoc(*args: str, env: dict[str, str] | None = None,
             roots: tuple[Path, ...] = ()) -> subprocess.CompletedProcess[str]:
    use_pinned_verilator()  # edalize calls `verilator` from PATH
    WORK.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "fusesoc.main", *(f"--cores-root={r}" for r in (CORES_ROOT, *roots)), *args]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=WORK, check=False, timeout=FUSESOC_TIMEOUT_S,
                          env={**os.environ, **(env or {})})


def gpi_users() -> str:
    """cocotb 2.1 loads Python through GPI_USERS, which edalize 0.6.8's sim flow does not set."""
    def config(flag: str) -> str:
        return subprocess.run([sys.executable, "-m", "cocotb_tools.config", flag], capture_output=True,
                              text=True, check=True).stdout.strip()
    return f"{config('--libpython')};{config('--pygpi-entry-point')}"


def outcomes(results: Path) -> dict[str, str]:
    """cocotb's JUnit file: test name -> passed, skipped or failed."""
    found = {}
    for case in ElementTree.parse(results).getroot().iter("testcase"):
        tags = {child.tag for child in case}
        found[case.get("name", "?")] = ("failed" if tags & {"failure", "error"} else
                                        "skipped" if "skipped" in tags else "passed")
    return found


def _target(core: str, name: str) -> str:
    """A target's definition in a core file: the lines below its name, up to the next target."""
    found = re.search(rf"^  {name}:\n((?:    .*\n)+)", core, re.M)
    assert found, f"no target {name}"
    return found.group(1)


def _block(name: str):
    return next(b for b in shells.shell_blocks() if b.name == name)


@pytest.mark.no_model
def test_committed_cores_are_current() -> None:
    """Every core aesoc.integrate.fusesoc renders is committed with that text, and no other aesoc core is."""
    cores = fusesoc.render_all()
    for path, text in cores.items():
        assert path.is_file() and path.read_text() == text, (
            f"{path.relative_to(REPO)} is not current: run python3 -m aesoc shells --fusesoc")
    assert set(CORES_ROOT.glob("*/*.core")) == set(cores)
    tracked = subprocess.run(["git", "ls-files", "ip/*/*.core"], cwd=REPO, capture_output=True, text=True,
                             check=True).stdout.split()
    assert {REPO / t for t in tracked} <= set(cores)


@pytest.mark.no_model
def test_generator_refuses_an_unknown_block(tmp_path: Path) -> None:
    config = tmp_path / "input.yml"
    config.write_text("gapi: '1.0'\nparameters: {block: nowhere}\n")
    proc = subprocess.run([sys.executable, str(REPO / "aesoc" / "integrate" / "fusesoc.py"), str(config)], cwd=tmp_path,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and "'block' must be one of" in proc.stderr
    assert not list(tmp_path.glob("*.core"))


@pytest.mark.no_model
def test_fusesoc_lists_every_core() -> None:
    proc = _fusesoc("core", "list")
    assert proc.returncode == 0, proc.stderr
    listed = set(re.findall(r"^(aesoc:ip:\w+:[\d.]+)\s", proc.stdout, re.M))
    assert {fusesoc.vlnv(b) for b in shells.shell_blocks()} <= listed, proc.stdout
    assert not fusesoc_deprecations(proc.stdout + proc.stderr)


@pytest.mark.no_model
def test_shared_files_come_once(tmp_path: Path) -> None:
    """A core of a user's that depends on every aesoc core gets each file once (the AES cipher
    files that the XIP controller takes come through aesoc:ip:aes_cipher_port)."""
    depend = ", ".join(f'"{fusesoc.vlnv(b).rsplit(":", 1)[0]}"' for b in shells.shell_blocks())
    (tmp_path / "all.core").write_text(
        "CAPI=2:\nname: me:soc:all:0.1.0\nfilesets:\n  rtl:\n"
        f"    depend: [{depend}]\ntargets:\n  default:\n    filesets: [rtl]\n"
        "  lint:\n    flow: lint\n    flow_options: {tool: verilator}\n    filesets: [rtl]\n    toplevel: aes_axil\n")
    proc = _fusesoc("run", "--setup", "--target", "lint", "me:soc:all", roots=(tmp_path,))
    assert proc.returncode == 0, f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    vc = (WORK / "build" / "me_soc_all_0.1.0" / "lint" / "me_soc_all_0.1.0.vc").read_text().split()
    sources = [Path(a).name for a in vc if a.endswith((".sv", ".v"))]
    assert "aes_pkg.sv" in sources and "xip_periph.sv" in sources, sources
    assert len(sources) == len(set(sources)), sorted(n for n in sources if sources.count(n) > 1)


@pytest.mark.no_model
@pytest.mark.parametrize("block", BLOCKS)
def test_fusesoc_lint_targets(block: str) -> None:
    blk = _block(block)
    core = fusesoc.core_path(blk).read_text()
    declared = re.findall(r"^  (lint\w*):$", core, re.M)
    assert declared == [*TARGETS, *[f"lint_top_{name}" for name in blk.tops]]
    # `lint` is the Wishbone classic shell's target under its plain name: the same definition, linted once.
    assert _target(core, "lint") == _target(core, "lint_wbc")
    for target in (t for t in declared if t != "lint_wbc"):  # a lint is one short process, not a build: no lock
        proc = _fusesoc("run", "--target", target, fusesoc.vlnv(blk))
        out = proc.stdout + proc.stderr
        assert proc.returncode == 0, f"{target}:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
        assert not fusesoc_deprecations(out), f"{target}:\n{out[-3000:]}"
        name = fusesoc.vlnv(blk).replace(":", "_")
        vc = (WORK / "build" / name / target / f"{name}.vc").read_text().split()
        assert {"--lint-only", "-Wall"} <= set(vc), vc


@pytest.mark.parametrize("block", BLOCKS)
def test_fusesoc_sim_target(block: str) -> None:
    blk = _block(block)
    core = fusesoc.core_path(blk).read_text()
    assert re.findall(r"^  (sim\w*):$", core, re.M) == SIM_TARGETS
    run_dir = WORK / "build" / fusesoc.vlnv(blk).replace(":", "_") / "sim"
    results = run_dir / "results.xml"
    results.unlink(missing_ok=True)  # a stale file must not pass a run that ended early
    # The build under the machine-wide lock, the simulation (a second or two) after it.
    with verilator_lock():
        proc = _fusesoc("run", "--setup", "--build", "--target", "sim", fusesoc.vlnv(blk))
    assert proc.returncode == 0, f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    assert not fusesoc_deprecations(proc.stdout + proc.stderr)
    # Built as the core says (aesoc.integrate.fusesoc.SIM_*_OPTIONS): modules not inlined, one compile
    # unit, the block tests' C++ optimisation.
    assert f"make_options: [{fusesoc.SIM_MAKE_OPTIONS}]" in core
    model_make = next(line for line in (run_dir / "Makefile").read_text().splitlines() if "-f Vtop.mk" in line)
    assert set(model_make_vars()) <= set(model_make.split())
    assert "-fno-inline" in (run_dir / f"{run_dir.parent.name}.vc").read_text().split()
    assert (run_dir / "Vtop__ALL.o").is_file() and not list(run_dir.glob("Vtop___024root__*.o"))
    proc = _fusesoc("run", "--run", "--target", "sim", fusesoc.vlnv(blk), env={"GPI_USERS": gpi_users()})
    assert proc.returncode == 0, f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    assert not fusesoc_deprecations(proc.stdout + proc.stderr)
    found = outcomes(results)
    assert "failed" not in found.values(), found
    assert {"registers", "unmapped"} <= {name for name, o in found.items() if o == "passed"}, found
