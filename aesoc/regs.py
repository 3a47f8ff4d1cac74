"""Generate register blocks, C headers and register docs from each IP's SystemRDL file.

One SystemRDL file per peripheral (ip/<block>/data/<block>.rdl) is the single source: PeakRDL
writes the SystemVerilog register block (peakrdl-etana, flat Wishbone ports that Yosys 0.23 can
read), the C header (peakrdl-cheader) and the Markdown register docs (peakrdl-markdown).
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from aesoc.toolchain import BUILD, REPO, ToolError

GEN = BUILD / "gen"
DOCS = REPO / "docs" / "registers"
# Every peripheral gets a 4 KB window; the register block answers ERR outside its registers.
# Reads of write-only fields return 0 and writes to read-only ones are ignored (not ERR), so
# write-only key registers read as zero.
ADDR_WIDTH = 12


@dataclass(frozen=True)
class RegBlock:
    name: str
    rdl: Path

    @property
    def out_dir(self) -> Path:
        return GEN / self.name

    @property
    def sv(self) -> Path:
        return self.out_dir / f"{self.name}_reg.sv"

    @property
    def header(self) -> Path:
        return self.out_dir / f"{self.name}_regs.h"

    @property
    def doc(self) -> Path:
        """docs/registers/ for the repository's IP; beside the generated files for IP outside it."""
        return DOCS / f"{self.name}.md" if self.rdl.resolve().is_relative_to(REPO / "ip") else self.out_dir / f"{self.name}.md"


def reg_blocks() -> list[RegBlock]:
    return [RegBlock(rdl.stem, rdl) for rdl in sorted(REPO.glob("ip/*/data/*.rdl"))]


def _peakrdl(*args: str) -> None:
    cmd = [sys.executable, "-m", "peakrdl", *args]
    # From the repository root with relative paths: the generated files name their source, and
    # must read the same in every checkout.
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO)
    if proc.returncode != 0:
        raise ToolError(f"peakrdl failed: {' '.join(args)}\n{proc.stdout}{proc.stderr}")


def generate(block: RegBlock) -> None:
    """Regenerate one block's outputs when its RDL file changed since the last run."""
    stamp = block.out_dir / ".rdl.sha256"
    digest = hashlib.sha256(block.rdl.read_bytes()).hexdigest()
    outputs = (block.sv, block.header, block.doc)
    if stamp.is_file() and stamp.read_text() == digest and all(p.is_file() for p in outputs):
        return
    block.out_dir.mkdir(parents=True, exist_ok=True)
    DOCS.mkdir(parents=True, exist_ok=True)
    rdl = str(block.rdl.resolve().relative_to(REPO)) if block.rdl.resolve().is_relative_to(REPO) else str(block.rdl)
    _peakrdl(
        "etana", rdl, "-o", str(block.out_dir), "--cpuif", "wishbone-flat",
        "--default-reset", "arst_n", "--err-if-bad-addr",
        "--addr-width", str(ADDR_WIDTH), "--module-name", f"{block.name}_reg",
    )
    _peakrdl("c-header", rdl, "-o", str(block.header))
    _peakrdl("markdown", rdl, "-o", str(block.doc))
    stamp.write_text(digest)


def generate_all() -> list[RegBlock]:
    blocks = reg_blocks()
    for block in blocks:
        generate(block)
    return blocks
