"""Sizes of routines in a firmware ELF, and source line counts of C functions."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from elftools.elf.elffile import ELFFile
from elftools.elf.sections import SymbolTableSection


def symbol_bytes(elf: Path, prefixes: Iterable[str] = (), names: Iterable[str] = ()) -> int:
    """Total size of the function and data symbols matching a prefix or an exact name."""
    prefixes, wanted = tuple(prefixes), set(names)
    total = 0
    seen: set[tuple[str, int]] = set()
    with open(elf, "rb") as handle:
        for section in ELFFile(handle).iter_sections():
            if not isinstance(section, SymbolTableSection):
                continue
            for sym in section.iter_symbols():
                if sym["st_info"]["type"] not in ("STT_FUNC", "STT_OBJECT") or sym["st_size"] == 0:
                    continue
                if sym.name in wanted or (prefixes and sym.name.startswith(prefixes)):
                    key = (sym.name, sym["st_value"])
                    if key not in seen:
                        seen.add(key)
                        total += sym["st_size"]
    return total


_COMMENT = re.compile(r"/\*.*?\*/", re.S)


def c_function_lines(source: Path, names: Iterable[str]) -> int:
    """Non-blank, non-comment lines of the named functions' definitions in one C file.

    A definition starts at the line naming the function followed by '(' that is not a call
    (it ends with '{' or is followed by one) and ends at the matching closing brace.
    """
    text = _COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), source.read_text())
    lines = text.splitlines()
    total = 0
    for name in names:
        start = None
        for i, line in enumerate(lines):
            if re.match(rf"^[A-Za-z_].*\b{re.escape(name)}\s*\(", line) and not line.rstrip().endswith(";"):
                start = i
                break
        if start is None:
            raise ValueError(f"no definition of {name}() in {source}")
        depth, end, opened = 0, start, False
        for j in range(start, len(lines)):
            depth += lines[j].count("{") - lines[j].count("}")
            opened = opened or "{" in lines[j]
            if opened and depth == 0:
                end = j
                break
        total += sum(1 for ln in lines[start:end + 1] if ln.strip() and not ln.strip().startswith("//"))
    return total
