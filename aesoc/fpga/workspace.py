"""Where the FPGA flow works: its build folder and cache (tests point both elsewhere), and one
computation per cache entry."""

from __future__ import annotations

import fcntl
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from aesoc.common.toolchain import BUILD

FPGA_BUILD = BUILD / "fpga"
CACHE = FPGA_BUILD / "cache"
_once_locks: dict[str, threading.Lock] = {}
_once_guard = threading.Lock()


@contextmanager
def once(cached: Path) -> Iterator[None]:
    """One computation per cache entry: jobs that need the same result (benchmarks side by side, or
    two aesoc processes in one checkout) wait for the one computing it and then read its cache,
    instead of running the tools twice in one work folder."""
    with _once_guard:
        lock = _once_locks.setdefault(str(cached), threading.Lock())
    CACHE.mkdir(parents=True, exist_ok=True)
    with lock, open(cached.with_suffix(".lock"), "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
