"""Independent FPGA jobs run on threads, with a progress line per finished job."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from aesoc.common.toolchain import status


class Progress:
    """Prints `[stage] done/total elapsed` lines to stderr as jobs finish."""

    def __init__(self, stage: str, total: int, out: Callable[[str], None] | None = None) -> None:
        self.stage, self.total, self.done = stage, total, 0
        self.start = time.monotonic()
        self.lock = threading.Lock()
        self.out = out or status

    def step(self, what: str) -> None:
        with self.lock:
            self.done += 1
            self.out(f"  [{self.stage}] {self.done}/{self.total} {time.monotonic() - self.start:6.0f} s  {what}")


def run_jobs(jobs: Sequence[Callable[[], Any]], names: Sequence[str], stage: str,
             out: Callable[[str], None] | None = None, progress: Progress | None = None) -> list[Any]:
    """Run independent jobs on threads; results in order. Each job runs its tools as subprocesses,
    each holding one of the slots of `set_jobs`, so nested job lists never oversubscribe.
    `progress`: count these jobs on an existing progress line (a stage run in several batches)."""
    count = max(1, len(jobs))
    progress = progress or Progress(stage, len(jobs), out)

    def wrapped(index: int) -> Any:
        result = jobs[index]()
        progress.step(names[index])
        return result

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(wrapped, range(len(jobs))))
