"""Benchmark `gcm`: AES-128-GCM (encrypt, decrypt with the tag check, GMAC) in the SoC and in the engine.

fw/bench/gcm times whole messages (one 16-byte AAD block, 96-bit IV, 16-byte tag) over MMIO
(aes_dev_gcm_*), with the text blocks moved by the DMA (aes_dma_gcm_blocks between the driver's
AAD and finish calls) and as one queued aes_dma request, on two SoC configurations (`full`:
iterative engine; `dma-unrolled`: pipelined engine). Per message it records the total and, for the
first two paths, its phases: begin (clear, key load, IV, start), AAD, text, final (length block,
tag or its check). The engine's own cycles come from the engine unit (ip/aes/tests/cocotb_aes_gcm.py
`gcm_measure`, with each configuration's AES parameters). Every tag and the reference ciphertext
are checked here against `cryptography`'s AESGCM: a wrong result fails the benchmark.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from aesoc.bench import BenchContext, BenchResult, Benchmark, Table, published
from aesoc.common.toolchain import REPO, ToolError
from aesoc.fpga.area import aes_engine
from aesoc.sim.cocotb_flow import run_cocotb
from aesoc.sim.run import build_and_run
from aesoc.soc.description import load_config

PROGRAM = REPO / "fw" / "bench" / "gcm"
ENGINES = {"iterative": "full", "unrolled": "dma-unrolled"}
CFLAGS = ("-O2",)
SMOKE = ("-DGCM_SMOKE",)  # the firmware's short run: 16 B and 1 KB
MAX_CYCLES = 100_000_000
PATHS = ("mmio", "dma", "dma-queued")
OPS = ("encrypt", "decrypt", "gmac")
# The engine unit's harness takes these parameters of the peripheral's instance.
ENGINE_PARAMS = ("RoundsPerCycle", "Pipelined", "DecEnable", "KeyLenMax", "Datapath", "SBoxImpl", "GhashBits")
MEASURE_ENV = "AES_GCM_MEASURE_JSON"


def aes_params(config: str) -> dict[str, int]:
    return dict(load_config(config).of_block("aes").params)


def check(records: list[dict[str, Any]], what: str) -> None:
    """Every message of the run against AESGCM: the reference ciphertext and tag, and each timed
    encryption's and GMAC's tag (the firmware compared each output with the reference)."""
    (ref,) = [r for r in records if r["kind"] == "gcm_reference"]
    key, iv, aad, pt = (bytes.fromhex(ref[k]) for k in ("key", "iv", "aad", "pt"))
    gcm = AESGCM(key)
    if gcm.encrypt(iv, pt, aad) != bytes.fromhex(ref["ct"]) + bytes.fromhex(ref["tag"]):
        raise ToolError(f"gcm benchmark on {what}: the reference message differs from AESGCM")
    for r in records:
        if r["kind"] != "gcm":
            continue
        where = f"gcm benchmark on {what}: {r['path']} {r['op']} {r['bytes']} B"
        if not r["ok"]:
            raise ToolError(f"{where}: the driver reported a failure")
        n = r["bytes"]
        if r["op"] == "encrypt":
            want = gcm.encrypt(iv, pt[:n], aad)[-16:]
        elif r["op"] == "gmac":
            want = gcm.encrypt(iv, b"", pt[:n])
        else:
            continue  # decryptions verified the tag and compared the plaintext in the firmware
        if bytes.fromhex(r["tag"]) != want:
            raise ToolError(f"{where}: tag {r['tag']} differs from AESGCM's {want.hex()}")


def engine_unit(params: dict[str, int], out: Path) -> list[dict[str, Any]]:
    """The engine's own cycles for whole messages (cocotb, the engine's harness)."""
    ip = aes_engine()
    engine = {k: v for k, v in params.items() if k in ENGINE_PARAMS}
    run_cocotb(toplevel="tb_aes_engine", sources=[*ip.rtl, ip.testbench], test_module="cocotb_aes_gcm",
               test_dir=ip.testbench.parent, parameters=engine,
               extra_env={"AES_VARIANT": json.dumps(engine), MEASURE_ENV: str(out)},
               build_args=list(ip.verilator_args), testcase=["gcm_measure"])
    records: list[dict[str, Any]] = json.loads(out.read_text())
    return records


def _cpb(cycles: float, n: int) -> float:
    return round(cycles / n, 2)


def run(ctx: BenchContext) -> BenchResult:
    engines = dict(list(ENGINES.items())[:1]) if ctx.smoke else ENGINES
    steps = 2 * len(engines) + 1
    records: dict[str, list[dict[str, Any]]] = {}
    unit: dict[str, list[dict[str, Any]]] = {}
    runs: list[str] = []
    params: dict[str, dict[str, int]] = {}
    for i, (engine, config) in enumerate(engines.items()):
        ctx.progress(2 * i, steps, f"gcm firmware on '{config}'")
        result, line = build_and_run(PROGRAM, config, name="gcm_smoke" if ctx.smoke else None,
                                     cflags=(*CFLAGS, *SMOKE) if ctx.smoke else CFLAGS, max_cycles=MAX_CYCLES)
        if result.status != "exit" or result.code != 0:
            raise ToolError(f"gcm firmware failed: {line}\n{result.console[-2000:]}")
        check(result.records, f"'{config}'")
        records[engine] = result.records
        runs.append(line)
        params[config] = aes_params(config)
        ctx.progress(2 * i + 1, steps, f"engine unit with '{config}' parameters")
        with tempfile.TemporaryDirectory() as tmp:
            unit[engine] = engine_unit(params[config], Path(tmp) / "gcm_measure.json")
        runs.append(f"engine unit (cocotb tb_aes_engine, gcm_measure) with the AES parameters of SoC config "
                    f"'{config}': {len(unit[engine])} messages checked against AESGCM")
    ctx.progress(steps - 1, steps, "tables")

    def msgs(engine: str) -> dict[tuple[str, str, int], dict[str, Any]]:
        return {(r["path"], r["op"], r["bytes"]): r for r in records[engine] if r["kind"] == "gcm"}

    data = {engine: msgs(engine) for engine in engines}
    first = next(iter(engines))
    sizes = sorted({key[2] for key in data[first]})
    tables: list[Table] = []

    # 1. Cycles per byte, every path, operation and size.
    rows = []
    for engine in engines:
        for path in PATHS:
            for op in OPS:
                if (path, op, sizes[0]) not in data[engine]:
                    continue
                rows.append([engine, path, op, *[_cpb(data[engine][(path, op, s)]["total"], s) for s in sizes]])
    tables.append(Table(
        title="AES-128-GCM in the SoC: cycles per byte, whole message (fixed cost included)",
        columns=["engine", "path", "operation", *[f"{s} B" for s in sizes]],
        rows=rows,
        notes=["One 16-byte AAD block per message (GMAC: the message is the AAD, no text), 96-bit IV, 16-byte "
               "tag; a new key loaded for every message (H derived again). Decrypt includes the tag check. "
               "Second of two identical runs (warm caches). mmio: aes_dev_gcm_begin/aad/update/finish; dma: the "
               "text's whole blocks by aes_dma_gcm_blocks (synchronous), the rest by aes_dev; dma-queued: one "
               "aes_dma_submit request, submit to completion by polling (4-beat bursts, 16-word FIFO; text shorter "
               "than the driver's gcm_dma_min, 320 bytes by default, is fed by the CPU within the request, "
               "ip/aes/sw/aes_dma.h). "
               "Every tag checked against cryptography's AESGCM by the benchmark."],
    ))

    # 2. Fixed vs text, the phases of one message.
    rows = []
    for engine in engines:
        for path in ("mmio", "dma"):
            for op in ("encrypt", "decrypt"):
                for s in (x for x in sizes if x >= 1024):
                    r = data[engine][(path, op, s)]
                    fixed = r["begin"] + r["aad"] + r["final"]
                    rows.append([engine, path, op, s, r["total"], r["begin"], r["aad"], r["final"], fixed,
                                 r["text"], _cpb(r["text"], s), _cpb(r["total"], s)])
        for op in ("encrypt", "decrypt"):
            for s in (x for x in sizes if x >= 1024):
                q = data[engine][("dma-queued", op, s)]
                rows.append([engine, "dma-queued", op, s, q["total"], "—", "—", "—", "—", "—", "—",
                             _cpb(q["total"], s)])
    tables.append(Table(
        title="AES-128-GCM phases: fixed cost (begin + AAD + final) and text, cycles",
        columns=["engine", "path", "operation", "bytes", "total c", "begin c", "AAD c", "final c", "fixed c",
                 "text c", "text c/B", "total c/B"],
        rows=rows,
        notes=["begin = clear, key load (key expansion), IV, GCM start; the engine then derives H = E_K(0) and "
               "E_K(J0) on its own, which the next phase waits for (it shows in AAD c). final = the partial "
               "block (none here), the length block's GHASH, the tag and (decrypt) its constant-time check. "
               "A queued request does all of it inside the driver: only its total is measured."],
    ))

    # 3. The engine alone.
    rows = []
    for engine, config in engines.items():
        by = {(r["op"], r["blocks"]): r for r in unit[engine]}
        p = params[config]
        for op in ("encrypt", "decrypt"):
            c0, c1, c64 = by[(op, 0)]["cycles"], by[(op, 1)]["cycles"], by[(op, 64)]["cycles"]
            rows.append([engine, f"RoundsPerCycle={p['RoundsPerCycle']} Pipelined={p['Pipelined']} "
                         f"GhashBits={p['GhashBits']}", op, by[(op, 0)]["key_to_ready"], c0, c1, c64,
                         round((c64 - c1) / 63, 2), _cpb(c64, 64 * 16)])
    tables.append(Table(
        title="The engine alone (engine unit): AES-128-GCM message cycles, gcm_start to the tag",
        columns=["engine", "parameters", "operation", "key load c", "0 blocks c", "1 block c", "64 blocks c",
                 "c/block (64 vs 1)", "c/B at 64 blocks"],
        rows=rows,
        notes=["One AAD block, no input gaps or output stalls; a fresh key for each message, so 0 blocks = H, "
               "E_K(J0), one AAD multiply, the length block and the tag (the fixed cost in the engine). "
               "docs/aes_engine.md: a TEXT block costs max(cipher cycles per block, 128 / GhashBits)."],
    ))

    # 4. Beside published figures.
    big = sizes[-1]
    rows = []
    for engine in engines:
        for path in PATHS:
            rows.append([f"ours, {engine} engine, {path}, {big} B encrypt", _cpb(data[engine][(path, 'encrypt', big)]
                                                                               ["total"], big), "—", "this run"])
        by = {(r["op"], r["blocks"]): r for r in unit[engine]}
        rows.append([f"ours, {engine} engine alone, 64 blocks encrypt", _cpb(by[("encrypt", 64)]["cycles"], 1024), "—",
                     "engine unit, this run"])
    for entry in published("gcm").get("rows", {}).values():
        cpb = entry.get("cycles_per_byte", round(entry["cycles_per_block"] / 16, 2))
        rows.append([f"{entry['label']} (published)", cpb, entry["figure"], entry["source"]])
    tables.append(Table(
        title="AES-GCM cycles per byte beside published cores",
        columns=["implementation", "cycles/byte", "as published", "source"],
        rows=rows,
        notes=["Published rows without a GCM cycles/byte figure show their AES block rate / 16 (the cipher "
               "alone, a lower bound for GCM on that core). Caliptra's figure is masked AES-256-GCM, ours "
               "unmasked AES-128: compare the shape, not the ratio. Printed, never tuned to."],
    ))

    ctx.progress(steps, steps, "done")
    return BenchResult(
        tables=tables,
        records=[{**r, "engine": engine} for engine, rs in records.items() for r in rs]
        + [{**r, "kind": "gcm_engine_unit", "engine": engine} for engine, rs in unit.items() for r in rs],
        runs=runs,
        config={"soc": engines, "params": params},
    )


BENCHMARK = Benchmark(
    name="gcm",
    summary="AES-128-GCM and GMAC: cycles per byte over MMIO, DMA-fed and queued, fixed cost, engine alone.",
    run=run,
)
