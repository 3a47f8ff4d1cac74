"""The suite's own machinery (tests/conftest.py): the no_model mark that orders `make test` is
checked, and the order puts the marked tests beside the longest one; the machine's Verilator build
slots bound the builds at once, and one product is built once however many ask."""

from __future__ import annotations

import tempfile
import threading
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from aesoc.common import toolchain
from conftest import LongestFirst, NoModelCheck


def test_marked_test_that_builds_a_model_fails(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    request.node.add_marker(pytest.mark.no_model)
    hook = NoModelCheck().pytest_runtest_call(request.node)
    next(hook)  # the test body would run here
    with pytest.raises(AssertionError, match="marked no_model but builds a Verilator model"):
        toolchain.build_once(tmp_path / "model", tmp_path / "stamp", lambda: "key", lambda: None)
    with pytest.raises(StopIteration):
        next(hook)
    toolchain.build_once(tmp_path / "model", tmp_path / "stamp", lambda: "key",
                         lambda: (tmp_path / "model").write_text(""))
    assert (tmp_path / "stamp").read_text() == "key", "the lock is back once the test is over"


class _Item:
    def __init__(self, nodeid: str, no_model: bool) -> None:
        self.nodeid, self._no_model = nodeid, no_model

    def get_closest_marker(self, name: str) -> Any:
        return name == "no_model" and self._no_model or None


def test_no_model_tests_start_beside_the_longest(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    durations = tmp_path / "durations.json"
    durations.write_text('{"a": 90, "b": 50, "lint1": 30, "c": 20, "lint2": 5}')
    monkeypatch.setattr("conftest.PRIOR_DURATIONS", durations)
    items = [_Item(n, n.startswith("lint")) for n in ("c", "lint2", "a", "lint1", "b")]

    class Config:
        cache = None

    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", "2")
    LongestFirst().pytest_collection_modifyitems(Config(), items)  # type: ignore[arg-type]
    assert [i.nodeid for i in items] == ["a", "lint1", "lint2", "b", "c"]
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", "1")
    LongestFirst().pytest_collection_modifyitems(Config(), items)  # type: ignore[arg-type]
    assert [i.nodeid for i in items] == ["a", "b", "lint1", "c", "lint2"]


def test_builds_beyond_the_slots_wait(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the slots' lock files
    entered = threading.Event()

    def one_more() -> None:
        with toolchain.verilator_lock():
            entered.set()

    with ExitStack() as held:
        for _ in range(toolchain.VERILATOR_SLOTS):
            held.enter_context(toolchain.verilator_lock())
        waiting = threading.Thread(target=one_more)
        waiting.start()
        assert not entered.wait(5 * toolchain.SLOT_POLL_S), "a build went past the full slots"
    assert entered.wait(10), "a freed slot was not taken"
    waiting.join()


def test_one_product_is_built_once(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Two builders of one product: the second waits for the first and uses its build, though a
    build slot was free for it."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "slots"))
    (tmp_path / "slots").mkdir()
    model, stamp = tmp_path / "model" / "exe", tmp_path / "model" / "stamp"
    started, release = threading.Event(), threading.Event()
    builds = []

    def build() -> None:
        builds.append(threading.current_thread().name)
        started.set()
        assert release.wait(10)
        model.parent.mkdir(exist_ok=True)
        model.write_text("")

    threads = [threading.Thread(target=toolchain.build_once, args=(model, stamp, lambda: "key", build), name=n)
               for n in ("first", "second")]
    threads[0].start()
    assert started.wait(10)
    threads[1].start()
    threads[1].join(5 * toolchain.SLOT_POLL_S)
    assert threads[1].is_alive(), "the second builder did not wait for the first"
    release.set()
    for t in threads:
        t.join(10)
    assert builds == ["first"] and stamp.read_text() == "key"
