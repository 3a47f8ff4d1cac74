"""The benchmark registry: one line per benchmark module, in report order."""

from __future__ import annotations

import importlib

from aesoc.bench import Benchmark

MODULES: tuple[str, ...] = (
    "platform",
    "aes_core",
    "interfaces",
    "sw_aes",
    "mbedtls_style",
    "dma_aes",
    "gcm",
    "sha_engine",
    "tvla",
    "xip_read",
    "xip_exec",
    "shells",
    "fpga",
    "fpga_soc",
)


def benchmarks() -> dict[str, Benchmark]:
    found: dict[str, Benchmark] = {}
    for module_name in MODULES:
        bench = importlib.import_module(f"aesoc.bench.{module_name}").BENCHMARK
        found[bench.name] = bench
    return found
