"""The AES engine's sources and RTL variants: the engine unit of ip/aes/ip.toml (shared with the
benchmark and the area flow)."""

from __future__ import annotations

from pathlib import Path

from aesoc.soc import ipblock

_ENGINE = ipblock.block("aes").units["engine"]
IP_DIR: Path = ipblock.block("aes").folder
RTL_SOURCES: list[Path] = list(_ENGINE.rtl)
TB_SOURCES: list[Path] = [*RTL_SOURCES, *([_ENGINE.testbench] if _ENGINE.testbench else [])]
VARIANTS: dict[str, dict[str, int]] = _ENGINE.variants
VERILATOR_ARGS: list[str] = list(_ENGINE.verilator_args)
# A variant's simulation-only defines (the table S-box of the multi-round datapaths; ip.toml).
defines_of = _ENGINE.defines_of
