"""The SHA engine's sources and RTL variants: the engine unit of ip/sha/ip.toml (shared with the
benchmark)."""

from __future__ import annotations

from pathlib import Path

from aesoc.soc import ipblock

_ENGINE = ipblock.block("sha").units["engine"]
RTL_SOURCES: list[Path] = list(_ENGINE.rtl)
VARIANTS: dict[str, dict[str, int]] = _ENGINE.variants
VERILATOR_ARGS: list[str] = list(_ENGINE.verilator_args)
