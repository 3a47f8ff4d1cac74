"""NIST CAVP vectors and the SHAVS Monte Carlo test through firmware in the full SoC, over MMIO
(sha_dev) and over DMA (sha_dma).

The test picks messages from the `cryptography-vectors` ShortMsg and LongMsg files of every
algorithm and takes each Monte Carlo file's seed, writes them as a C header, and builds
fw/tests/sha_cavp with it; the firmware hashes every message and runs the first Monte Carlo
checkpoint (1000 chained hashes, the chaining in firmware, every hash on the engine) and prints the
digests. The expected digests come from the CAVP files only, here in Python.

Sampled for simulation time: ShortMsg every SHORT_STEP-th vector plus length 0 and the padding
boundaries, LongMsg LONG_PICKS vectors spread from the shortest to the longest, Monte Carlo the
first of the 100 checkpoints. One checkpoint is 1000 hashes of a two-block message; its simulated
cycles are in the `sha_cavp_monte` records: 0.48 M (SHA-1) to 0.80 M (SHA-512) over MMIO, 0.57 M
to 0.81 M over DMA (whose fixed cost per message is larger). Each test runs about 4.5 M cycles,
50-65 s at the 70-90 kHz the full SoC simulated at on a loaded machine; all 100 checkpoints of
six algorithms over both paths would be some 750 M cycles, about three hours.
SHA_CAVP_MONTE_CHECKPOINTS in the firmware runs more of them.

The committed fw/tests/sha_cavp/sha_cavp_cases.h (the program's default, so it builds alone)
holds the smaller `boundary` selection; a test checks it is current.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from aesoc.common.toolchain import BUILD, REPO, write_if_changed
from aesoc.sim.run import build_and_run
from aesoc.soc.description import load_config
from sha_ref import ALGS, Alg, CBlob, algs_for, monte_vectors, msg_vectors

PROGRAM = REPO / "fw" / "tests" / "sha_cavp"
COMMITTED = PROGRAM / "sha_cavp_cases.h"
GEN = BUILD / "sha_cavp"
SHORT_STEP = 7  # 7 is prime to 4: the sampled lengths end at every byte of a bus word
LONG_PICKS = 4
MONTE_ITERATIONS = 1000
PATHS = {"mmio": 1, "dma": 2}  # the firmware's SHA_CAVP_PATHS bits
MAX_CYCLES = 30_000_000
ALGS_BY_CODE = {a.code: a for a in ALGS.values()}


@dataclass(frozen=True)
class MsgCase:
    alg: Alg
    source: str  # file and bit length, as the .rsp names the vector
    msg: bytes
    md: bytes


@dataclass(frozen=True)
class MonteCase:
    alg: Alg
    seed: bytes
    checkpoints: tuple[bytes, ...]


@dataclass(frozen=True)
class CaseSet:
    name: str
    msgs: tuple[MsgCase, ...]
    monte: tuple[MonteCase, ...]


# ---- selection from the CAVP files ------------------------------------------------------------

def boundary_lengths(alg: Alg) -> set[int]:
    """Byte lengths where the padding changes: empty, the longest that still fits the length
    field in the last block, the first that does not, a block less one byte, a whole block."""
    one_block = alg.block_bytes - 1 - 2 * alg.word_bytes
    return {0, one_block, one_block + 1, alg.block_bytes - 1, alg.block_bytes}


def short_cases(alg: Alg, step: int | None) -> list[MsgCase]:
    """ShortMsg vectors at the boundary lengths, and with `step` every step-th too."""
    edges = boundary_lengths(alg)
    out = []
    for i, (msg, md) in enumerate(msg_vectors(alg, "ShortMsg")):
        if len(msg) in edges or (step is not None and i % step == 0):
            out.append(MsgCase(alg, f"{alg.cavp.split('/')[1]}ShortMsg.rsp Len = {8 * len(msg)}", msg, md))
    return out


def long_cases(alg: Alg, picks: int) -> list[MsgCase]:
    """`picks` LongMsg vectors evenly spread over the file, its shortest and longest included."""
    vectors = msg_vectors(alg, "LongMsg")
    idx = sorted({round(k * (len(vectors) - 1) / max(picks - 1, 1)) for k in range(picks)})
    return [MsgCase(alg, f"{alg.cavp.split('/')[1]}LongMsg.rsp Len = {8 * len(vectors[i][0])}", *vectors[i])
            for i in idx]


def monte_case(alg: Alg) -> MonteCase:
    seed, checkpoints = monte_vectors(alg)
    if len(seed) != alg.digest_bytes:
        raise ValueError(f"{alg.name} Monte Carlo seed is {len(seed)} bytes, not the digest length")
    return MonteCase(alg, seed, tuple(checkpoints))


def boundary_set() -> CaseSet:
    """The committed default: the boundary-length ShortMsg vectors and the Monte Carlo seeds."""
    algs = list(ALGS.values())
    return CaseSet("boundary", tuple(c for a in algs for c in short_cases(a, None)),
                   tuple(monte_case(a) for a in algs))


def sampled_set() -> CaseSet:
    algs = list(ALGS.values())
    msgs = [c for a in algs for c in short_cases(a, SHORT_STEP) + long_cases(a, LONG_PICKS)]
    return CaseSet(f"sampled-short{SHORT_STEP}-long{LONG_PICKS}", tuple(msgs), tuple(monte_case(a) for a in algs))


# ---- the C header -----------------------------------------------------------------------------

def header(cs: CaseSet) -> str:
    blob = CBlob()
    msg_rows = [f"  {{SHA_DEV_{c.alg.name}, {blob.put(c.msg)}u, {len(c.msg)}u}}, /* {c.source} */" for c in cs.msgs]
    seed_rows = [f"  {{SHA_DEV_{m.alg.name}, {blob.put(m.seed)}u}}, /* {m.alg.cavp.split('/')[1]}Monte.rsp Seed */"
                 for m in cs.monte]
    return "\n".join([
        "/* SPDX-License-Identifier: Apache-2.0 */",
        f"/* sha_cavp cases '{cs.name}' from the NIST CAVP files of the cryptography-vectors package:",
        " * generated by ip/sha/tests/test_sha_cavp_soc.py, do not edit. */",
        f'#define SHA_CAVP_SET "{cs.name}"',
        blob.c_array("sha_cavp_data"),
        "static const sha_cavp_msg_t sha_cavp_msgs[] = {", *msg_rows, "};",
        "static const sha_cavp_seed_t sha_cavp_seeds[] = {", *seed_rows, "};", ""])


def write_header(cs: CaseSet) -> Path:
    # Tests on other pytest-xdist workers may compile this very header while it is written.
    return write_if_changed(GEN / cs.name / "sha_cavp_cases.h", header(cs))


# ---- checking ---------------------------------------------------------------------------------

def check_records(records: list[dict[str, Any]], cs: CaseSet, path: str) -> None:
    (info,) = [r for r in records if r["kind"] == "sha_cavp"]
    assert (info["set"], info["msgs"], info["seeds"], info["paths"]) == (
        cs.name, len(cs.msgs), len(cs.monte), PATHS[path])
    params = next(i for i in load_config("full").instances if i.block.name == "sha").params
    assert info["sha512"] == params["Sha512Enable"]
    built = {a.name for a in algs_for(bool(info["sha512"]))}

    mds = [r for r in records if r["kind"] == "sha_cavp_md"]
    want = [i for i, c in enumerate(cs.msgs) if c.alg.name in built]
    assert [r["i"] for r in mds] == want
    for r in mds:
        c = cs.msgs[r["i"]]
        assert (r["path"], r["alg"], r["len"]) == (path, c.alg.code, len(c.msg))
        assert r["ok"] == 1, f"{path}: {c.source}: driver error {r['err']}"
        assert bytes.fromhex(r["md"]) == c.md, f"{path}: {c.source}: digest differs from the CAVP file"

    monte = [r for r in records if r["kind"] == "sha_cavp_monte"]
    assert sorted(ALGS_BY_CODE[r["alg"]].name for r in monte if r["checkpoint"] == 0) == sorted(built)
    for r in monte:
        m = next(m for m in cs.monte if m.alg.code == r["alg"])
        assert (r["path"], r["iterations"], r["failures"]) == (path, MONTE_ITERATIONS, 0)
        assert bytes.fromhex(r["md"]) == m.checkpoints[r["checkpoint"]], (
            f"{path}: {m.alg.name} Monte Carlo checkpoint {r['checkpoint']} differs from the CAVP file")
    (done,) = [r for r in records if r["kind"] == "sha_cavp_done"]
    assert done["failures"] == 0


# ---- tests ------------------------------------------------------------------------------------

def test_committed_cases_are_current() -> None:
    """fw/tests/sha_cavp/sha_cavp_cases.h is the boundary selection of today's CAVP files."""
    assert COMMITTED.read_text() == header(boundary_set())


def test_sampled_set_covers_the_edges() -> None:
    """The sample holds, for every algorithm, the empty message, every padding boundary, lengths
    ending at each byte of a bus word, the longest LongMsg vector, and the Monte Carlo seed; and
    each CAVP digest agrees with hashlib (the files were read right)."""
    cs = sampled_set()
    for alg in ALGS.values():
        lengths = {len(c.msg) for c in cs.msgs if c.alg is alg}
        assert boundary_lengths(alg) <= lengths
        assert {n % 4 for n in lengths} == {0, 1, 2, 3}
        assert max(lengths) == max(len(m) for m, _ in msg_vectors(alg, "LongMsg"))
        assert [m.alg for m in cs.monte].count(alg) == 1
    for c in cs.msgs:
        assert c.alg.digest(c.msg) == c.md, c.source


@pytest.mark.parametrize("path", PATHS)
def test_sha_cavp_in_soc(path: str) -> None:
    """The sampled CAVP messages and the first Monte Carlo checkpoint of every built algorithm,
    fed over `path`, against the CAVP files' digests."""
    cs = sampled_set()
    cases = write_header(cs)
    digest = hashlib.sha256(cases.read_bytes()).hexdigest()[:16]
    # The firmware cache hashes the program's sources, not a header named by a -D: its digest
    # joins the flags so a new selection rebuilds.
    cflags = ("-O2", f'-DSHA_CAVP_CASES_FILE="{cases}"', f"-DSHA_CAVP_CASES_DIGEST=0x{digest}",
              f"-DSHA_CAVP_PATHS={PATHS[path]}")
    result, line = build_and_run(PROGRAM, name=f"sha_cavp-{path}", cflags=cflags, max_cycles=MAX_CYCLES)
    assert result.status == "exit" and result.code == 0, f"{line}\n{result.console[-3000:]}"
    check_records(result.records, cs, path)
