"""Run a cocotb test module against RTL with the pinned Verilator.

Every block-level test calls `run_cocotb` from its pytest function. The build directory is keyed
by toplevel and parameter set, so parametrised runs do not rebuild each other, and builds are
serialised by the Verilator lock. A build whose stamp matches its request and sources is reused
without taking the lock, so the tests of one model do not queue behind other models' builds.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from aesoc.common.toolchain import (BUILD, LOGS, ONE_COMPILE_UNIT, ToolError, build_once, log_tail, tool_slot,
                                    use_pinned_verilator, verbose, verilator_root, verilator_version, worker_suffix,
                                    write_if_changed)
from aesoc.soc.shells import module_header


def build_dir_for(
    toplevel: str, parameters: Mapping[str, object], defines: Mapping[str, object] | None = None,
    sources: Sequence[Path] = (),
) -> Path:
    """The model's folder: one per toplevel, parameters that differ from the toplevel's defaults
    (when its `sources` are given) and defines."""
    params = without_defaults(toplevel, sources, parameters) if sources else parameters
    items = [*sorted(params.items()), *sorted((f"D{k}", v) for k, v in (defines or {}).items())]
    tag = "_".join(f"{k}{v}" for k, v in items) or "default"
    return BUILD / "cocotb" / toplevel / tag


# C++ optimisation of block-test models (Verilator's default is -Os): their tests run for seconds,
# so the build is most of their cost. Measured without ccache, builds and runs together: the AES
# engine's r1 build and its five tests 50 CPU-s at -O1 against 57 at -Os; 41 tests (three AES
# engine variants' five each, eight bus shells, the XIP controller's and the DMA's) 291 CPU-s at
# -Og against 361 at -O1 (2026-11-29; the longest simulations 0-25 % slower).
TEST_MODEL_OPT = "-Og"
# Verilator's module inlining off: each module is compiled once as a class however often it is
# instantiated (S-boxes, rounds), instead of once per instance. Measured without ccache: the XIP
# controller's AXI4-Lite shell model has 2.6 MB of C++ instead of 4.7 MB and builds in 33 CPU-s
# instead of 55 (its test runs 2.8 s instead of 2.1); tb_xip builds in 24 CPU-s instead of 42
# and its 16-word test runs 14.9 s instead of 13.9. At -O0 as well the builds took 20 CPU-s and
# 15, but tb_xip's test ran 80 s.
TEST_MODEL_ARGS = ("-fno-inline",)


# What a test may reach by name through VPI. cocotb's runner asks Verilator for every signal of
# every instance (--public-flat-rw), which keeps each of them from being optimised away and puts
# them all in the model's symbol table. Instead, a Verilator configuration file makes public each
# signal of the toplevel (the test bench: ports, wires, models' handles), every register of the
# design (`*_q`: the zeroisation checks walk them, the benches read memories and counters) and
# the signals a test names besides (run_cocotb's `public`). Measured without ccache (2026-12-07):
# the XIP controller's shells model 139 -> 107 CPU-s to build (C++ 13.1 -> 7.8 MB); the unrolled
# AES engine's 24 -> 19, and its CAVP test ran 3.3 s instead of 5.4.
PUBLIC_EVERYWHERE = ("*_q",)


def public_config(toplevel: str, public: Sequence[str] = ()) -> Path:
    """The Verilator configuration file of the signals public to the tests (above), kept by its
    content under build/cocotb/public/. `public` holds "module:signal" patterns."""
    lines = ["`verilator_config", f'public_flat_rw -module "{toplevel}" -var "*"']
    lines += [f'public_flat_rw -module "*" -var "{var}"' for var in PUBLIC_EVERYWHERE]
    for item in public:
        module, sep, var = item.partition(":")
        if not sep or not module or not var:
            raise ToolError(f"a public signal is named 'module:signal', got {item!r}")
        lines.append(f'public_flat_rw -module "{module}" -var "{var}"')
    text = "\n".join(lines) + "\n"
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    return write_if_changed(BUILD / "cocotb" / "public" / f"{digest}.vlt", text)


def model_make_vars() -> list[str]:
    """The make variables of Verilator's generated Makefile for every block-test model (cocotb's
    and the FuseSoC sim targets'): one compile unit, and TEST_MODEL_OPT for the model and the
    runtime alike (read when called: tests change it). One unit, as the SoC and LiteX models:
    Verilator splits a larger model into a file per module and class, each of which then
    compiles on its own with the precompiled header. Measured without ccache, build and one test
    (2026-12-07): the XIP controller's shells model 101 -> 24 CPU-s (55 -> 19 s wall), the AES
    peripheral's 80 -> 19, the DMA's 56 -> 21."""
    return [ONE_COMPILE_UNIT, *(f"{var}={TEST_MODEL_OPT}" for var in ("OPT_FAST", "OPT_SLOW", "OPT_GLOBAL"))]


def _runner() -> Any:
    """cocotb's Verilator runner, its make run given model_make_vars(), and its Verilator run
    without --public-flat-rw (public_config)."""
    from cocotb_tools.runner import Verilator

    class _Runner(Verilator):  # type: ignore[misc]
        def _build_command(self) -> list[list[str]]:
            *verilate, make = super()._build_command()
            verilate = [[arg for arg in cmd if arg != "--public-flat-rw"] for cmd in verilate]
            return [*verilate, [*make, *model_make_vars()]]

    return _Runner()


# Written beside a finished build: a key of what it was built from (see _inputs_key).
STAMP = ".aesoc-build-key"

# A parameter declaration's default when it is an integer literal, plain or sized.
_INT_DEFAULT = re.compile(r"=\s*(?:\d+\s*'\s*([bdh])\s*([0-9a-fA-F_]+)|(\d+))$")


def _int_default(decl: str) -> int | None:
    m = _INT_DEFAULT.search(decl)
    if m is None:
        return None
    if m[3] is not None:
        return int(m[3])
    return int(m[2].replace("_", ""), {"b": 2, "d": 10, "h": 16}[m[1]])


def without_defaults(toplevel: str, sources: Sequence[Path], parameters: Mapping[str, object]) -> dict[str, object]:
    """The parameters that differ from the toplevel module's own integer defaults: a caller that
    spells a default out (a SoC configuration's full parameter set) shares the model of one that
    leaves it unset, instead of compiling the same design again. A toplevel whose header cannot be
    read keeps every parameter in the key."""
    defaults: dict[str, int | None] = {}
    found = next((Path(s) for s in sources
                  if re.search(rf"\bmodule\s+{re.escape(toplevel)}\b", Path(s).read_text(errors="replace"))), None)
    if found is not None:
        try:
            defaults = {p.name: _int_default(p.text) for p in module_header(found, toplevel).params}
        except ToolError:
            defaults = {}
    return {k: v for k, v in parameters.items()
            if not (isinstance(v, (int, bool)) and defaults.get(k) is not None and int(v) == defaults[k])}


def _inputs_key(build_dir: Path, wanted: str) -> str | None:
    """The build request and the contents of every source file Verilator read for this build
    (included files as well, from its --skip-identical record); None before a first build."""
    record = build_dir / "Vtop__verFiles.dat"
    if not record.is_file():
        return None
    digest = hashlib.sha256(wanted.encode())
    root = verilator_root()
    for line in record.read_text().splitlines():
        if not line.startswith("S "):
            continue
        path = Path(line.rsplit('"', 2)[-2])
        if path.is_relative_to(root):  # Verilator's own files: its version is in `wanted`
            continue
        digest.update(str(path).encode())
        digest.update(path.read_bytes() if path.is_file() else b"\0missing")
    return digest.hexdigest()


def run_cocotb(
    *,
    toplevel: str,
    sources: Sequence[Path],
    test_module: str,
    test_dir: Path,
    parameters: Mapping[str, object] | None = None,
    defines: Mapping[str, object] | None = None,
    extra_env: Mapping[str, str] | None = None,
    build_args: Sequence[str] = (),
    testcase: Sequence[str] | None = None,
    public: Sequence[str] = (),
) -> None:
    """Build (if needed) and run one cocotb module; raise if any cocotb test failed. Preprocessor
    `defines` (e.g. a gate-level build of a harness) get their own build directory. `public`:
    signals below the toplevel that the test reads or drives by name besides registers
    ("module:signal", see public_config)."""
    use_pinned_verilator()
    params = without_defaults(toplevel, sources, parameters or {})
    build_dir = build_dir_for(toplevel, params, defines)
    runner = _runner()
    # The runner's own output (Verilator and compiler command lines, the simulator's log) goes to
    # build/logs/, unless --verbose asked for everything.
    LOGS.mkdir(parents=True, exist_ok=True)
    build_log = None if verbose() else LOGS / f"cocotb-{build_dir.name}-build.log"
    # Two processes (pytest-xdist workers) may run tests of one build at once: each keeps its own
    # test log and results file.
    test_log = None if verbose() else LOGS / f"cocotb-{build_dir.name}-{test_module}{worker_suffix()}.log"
    args = ["-Wall", "--x-assign", "unique", "--x-initial", "unique", *TEST_MODEL_ARGS, *build_args,
            str(public_config(toplevel, public))]
    # A build that its stamp shows current is used as it is, without waiting for a machine-wide
    # build slot (held for minutes by other builds).
    # Keys sorted: the same parameters given in another order are the same model (build_dir_for).
    wanted = json.dumps([toplevel, [str(s) for s in sources], params, dict(defines or {}), args, model_make_vars(),
                         verilator_version()], default=str, sort_keys=True)

    # build_once calls this only when the stamp differs (sources, parameters, flags), so from a
    # clean folder: a new TEST_MODEL_OPT alone reaches only make, which would keep every object.
    def build() -> None:
        runner.build(sources=[str(s) for s in sources], hdl_toplevel=toplevel, parameters=params,
                     defines=dict(defines or {}), build_dir=str(build_dir), build_args=args, clean=True,
                     log_file=build_log)

    try:
        build_once(build_dir / toplevel, build_dir / STAMP, lambda: _inputs_key(build_dir, wanted), build)
    except (Exception, SystemExit) as exc:
        raise ToolError(f"cocotb build of {toplevel} failed ({exc}); "
                        + (log_tail(build_log) if build_log else "output above")) from exc
    build_dir.mkdir(parents=True, exist_ok=True)
    fd, results_xml = tempfile.mkstemp(dir=build_dir, prefix=f"results_{test_module}.", suffix=".xml")
    os.close(fd)
    with tool_slot():
        results = runner.test(
            hdl_toplevel=toplevel,
            hdl_toplevel_lang="verilog",  # the runner infers it from build(), which a current build skips
            test_module=test_module,
            test_dir=str(test_dir),
            build_dir=str(build_dir),
            # pytest's plugins (xdist, ...) are not loaded by cocotb's assertion rewriting: 70 ms
            # of each of the few hundred simulation processes of `make test`.
            extra_env={"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", **(extra_env or {})},
            testcase=list(testcase) if testcase else None,
            results_xml=results_xml,
            log_file=test_log,
        )
    try:
        _raise_on_failure(Path(results), test_log)
    finally:
        Path(results_xml).unlink(missing_ok=True)


def _raise_on_failure(results_xml: Path, log: Path | None = None) -> None:
    import xml.etree.ElementTree as ET

    root = ET.parse(results_xml).getroot()
    cases = list(root.iter("testcase"))
    if not cases:
        raise AssertionError(f"cocotb ran no test ({results_xml})")
    failed = [c.get("name") for c in cases if c.find("failure") is not None or c.find("error") is not None]
    if failed:
        raise AssertionError(f"cocotb tests failed: {', '.join(str(f) for f in failed)}"
                             + (f"; {log_tail(log)}" if log else ""))
