"""Shared build steps are safe across processes (pytest-xdist workers, two `aesoc` commands in one
checkout): generation is exclusive and reentrant, writes are atomic, a program built by two
processes at once is linked once and read whole by both, and programs share the objects of the
library sources they compile alike."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import time
from pathlib import Path

import pytest

from aesoc.common import toolchain
from aesoc.common.toolchain import REPO
from aesoc.sim import firmware
from aesoc.soc import description

# A fork context: the children share this process's imports and need no pickled entry point.
_FORK = multiprocessing.get_context("fork")


def _hold_generation_lock(trace: str, lock_file: str) -> None:
    lock = toolchain._GenerationLock(Path(lock_file))
    with lock, lock:  # nested: reentrant within a process
        with open(trace, "a") as f:
            f.write(f"enter {os.getpid()}\n")
        time.sleep(0.3)
        with open(trace, "a") as f:
            f.write(f"leave {os.getpid()}\n")


def test_generation_lock_excludes_other_processes(tmp_path: Path) -> None:
    trace = tmp_path / "trace"
    procs = [_FORK.Process(target=_hold_generation_lock, args=(str(trace), str(tmp_path / "gen.lock")))
             for _ in range(3)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=30)
        assert p.exitcode == 0
    lines = trace.read_text().split()
    events = list(zip(lines[0::2], lines[1::2]))
    assert len(events) == 6
    # Each holder leaves before the next enters.
    for (enter, pid_in), (leave, pid_out) in zip(events[0::2], events[1::2]):
        assert (enter, leave) == ("enter", "leave") and pid_in == pid_out, events


def test_write_atomic_leaves_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "file.txt"
    toolchain.write_atomic(target, "first")
    toolchain.write_if_changed(target, "second")
    assert target.read_text() == "second"
    assert [p.name for p in target.parent.iterdir()] == ["file.txt"]


def _build_hello(queue: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    fw = firmware.build(REPO / "fw" / "tests" / "hello", description.load_config("base"), name="lock-test-hello")
    queue.put((str(fw.elf), fw.elf.stat().st_mtime_ns, fw.elf.read_bytes()))


def test_firmware_built_by_two_processes_at_once_is_linked_once() -> None:
    out = firmware.elf_path("base", "lock-test-hello").parent
    for stale in out.glob("*"):
        stale.unlink()
    queue: multiprocessing.Queue = _FORK.Queue()  # type: ignore[type-arg]
    procs = [_FORK.Process(target=_build_hello, args=(queue,)) for _ in range(2)]
    for p in procs:
        p.start()
    results = [queue.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(timeout=30)
        assert p.exitcode == 0
    (path_a, mtime_a, elf_a), (path_b, mtime_b, elf_b) = results
    assert path_a == path_b and elf_a == elf_b and elf_a[:4] == b"\x7fELF"
    # The second process found the first one's build instead of linking over it.
    assert mtime_a == mtime_b
    assert not list(out.glob(".*.tmp"))


def _loadable(elf: Path, out: Path) -> tuple[bytes, str]:
    """What the harness loads of an ELF: its sections' bytes and the segments' addresses."""
    subprocess.run([toolchain.riscv_tool("objcopy"), "-O", "binary", str(elf), str(out)], check=True)
    segments = subprocess.run([toolchain.riscv_tool("readelf"), "-lW", str(elf)], capture_output=True, text=True,
                              check=True).stdout
    return out.read_bytes(), "\n".join(line for line in segments.splitlines() if "LOAD" in line)


def test_programs_share_library_objects_and_link_as_one_command(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The second program of a configuration compiles none of the library sources the first one
    compiled, and its ELF loads exactly what one compile-and-link command of all its sources
    makes: the same code at the same addresses, so no cycle count depends on the object cache."""
    config = description.load_config("full")  # the second program calls into several objects
    monkeypatch.setattr(firmware, "OBJECTS", tmp_path / "objects")
    compiled: dict[str, Path] = {}
    real_compile, real_run = firmware._compile, firmware.subprocess.run

    def compile_one(cmd: list[str], source: Path, obj: Path) -> None:
        compiled[str(obj)] = source
        real_compile(cmd, source, obj)

    links: list[list[str]] = []

    def run(cmd: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        if "-c" not in cmd:
            links.append(list(cmd))
        return real_run(cmd, **kwargs)  # type: ignore[call-overload, no-any-return]

    monkeypatch.setattr(firmware, "_compile", compile_one)
    monkeypatch.setattr(firmware.subprocess, "run", run)
    names = ("objects-test-first", "objects-test-second")
    for name in names:
        for stale in firmware.elf_path(config.name, name).parent.glob("*"):
            stale.unlink()
    firmware.build(REPO / "fw" / "tests" / "aes_dev", config, name=names[0])
    first = dict(compiled)
    assert first and all(path.parent.parent.name != "tests" for path in first.values())
    second = firmware.build(REPO / "fw" / "tests" / "sha_dma", config, name=names[1])
    assert compiled == first, "the second program compiled a library source again"
    # The same program as one command: the library sources in the order they were compiled (the
    # build's order of sources) where the link names its first object, before the program's own.
    link = links[-1]
    at = next(i for i, arg in enumerate(link) if arg in compiled)
    rest = [arg for arg in link if arg not in compiled and not arg.startswith("-Wl,-Map=")]
    one = [*rest[:at], *map(str, compiled.values()), *rest[at:]]
    one = [str(tmp_path / "one.elf") if arg.endswith(".elf.tmp") else arg for arg in one]
    real_run(one, check=True, capture_output=True)
    assert _loadable(second.elf, tmp_path / "cached.bin") == _loadable(tmp_path / "one.elf", tmp_path / "one.bin")
