"""Docs are claims: C examples compile with the firmware's flags, the generated tables in
docs/ARCHITECTURE.md match the SoC description, and the claims once found wrong stay fixed."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from aesoc.bench import aes_core
from aesoc.common.toolchain import REPO, riscv_tool
from aesoc.sim import firmware
from aesoc.soc import generate, regs
from aesoc.soc.description import load_config

DOCS = sorted([REPO / "README.md", *REPO.glob("docs/**/*.md"), *REPO.glob("ip/*/README.md"),
               *REPO.glob("fw/**/README.md")])
DOCS = [d for d in DOCS if "registers" not in d.parts and "report" not in d.parts]
C_BLOCK = re.compile(r"```c\n(.*?)```", re.S)


def c_examples() -> list[tuple[str, str]]:
    return [(f"{d.relative_to(REPO)}#{i}", block) for d in DOCS for i, block in enumerate(C_BLOCK.findall(d.read_text()))]


@pytest.mark.parametrize(("where", "code"), c_examples(), ids=[w for w, _ in c_examples()])
def test_c_example_compiles(where: str, code: str, tmp_path: Path) -> None:
    """Each ```c block is a whole translation unit, compiled as firmware is (-Wall -Wextra -Werror)
    against the full SoC's headers, drivers and libraries."""
    config = load_config("full")
    platform = firmware.generate_platform_files(config)
    includes = [REPO / "fw" / "lib", platform, *[b.out_dir for b in regs.generate_all()],
                *sorted(REPO.glob("ip/*/sw")), REPO / "fw" / "crypto"]
    src = tmp_path / "example.c"
    src.write_text(code)
    cmd = [riscv_tool("gcc"), *firmware.ARCH_FLAGS, *firmware.COMMON_FLAGS, "-O2", "-c", str(src),
           "-o", str(tmp_path / "example.o"), *[f"-I{d}" for d in includes]]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 0, f"{where} does not compile:\n{proc.stderr}"


def test_generated_tables_are_current() -> None:
    """docs/ARCHITECTURE.md carries the full configuration's map, IRQ and DMA tables as
    `aesoc soc --config full --markdown` prints them."""
    text = (REPO / "docs" / "ARCHITECTURE.md").read_text()
    found = re.search(r"<!-- soc-tables: full -->\n(.*?)<!-- /soc-tables -->", text, re.S)
    assert found, "docs/ARCHITECTURE.md lacks the generated tables block"
    assert found.group(1) == generate.doc_tables(load_config("full")), \
        "docs/ARCHITECTURE.md tables are stale: run `aesoc soc --config full --update-docs`"


def test_aes_area_table_is_current() -> None:
    """ip/aes/README.md's area table is the synthesis and placement records' for the current
    sources and tools, as `aesoc synth aes --update-docs` writes it (no tool runs here)."""
    text = (REPO / "ip" / "aes" / "README.md").read_text()
    found = re.search(r"<!-- aes-area -->\n(.*?)<!-- /aes-area -->", text, re.S)
    assert found, "ip/aes/README.md lacks the area table block"
    assert found.group(1) == aes_core.area_markdown(), \
        "ip/aes/README.md's area table is stale: run `aesoc synth aes --update-docs`"


def test_fixed_claims_stay_fixed() -> None:
    """Claims once found wrong (issue 11): each check reads the doc and the thing it describes."""
    arch = (REPO / "docs" / "ARCHITECTURE.md").read_text()
    full = load_config("full")
    # Every master and slave of the full SoC appears in the block diagram.
    diagram = arch.split("```")[1]
    for name in [*(s.instance for s in full.slaves), *(m.instance for m in full.masters if m.instance != "cpu")]:
        assert name in diagram, f"block diagram lacks {name}"
    # Line 31 of the mask CSR is the CFU enable: no doc may call it a free interrupt line.
    assert "3..31" not in arch and "lines 3..31" not in arch
    # No config lists its IPs in an `ips` key any more, and no doc tells people to.
    assert "`ips`" not in arch and all("ips =" not in p.read_text() for p in (REPO / "soc" / "configs").glob("*.toml"))
    # Simulated speeds are measured by the platform benchmark, never typed in the architecture doc.
    assert not re.search(r"\d+(\.\d+)?\s*(MHz|kHz) simulated", arch) and "~0.3" not in arch


def _marked(text: str, name: str) -> str:
    found = re.search(rf"<!-- {re.escape(name)} -->\n?(.*?)<!-- /{name.split(':')[0]} -->", text, re.S)
    assert found, f"README.md lacks the <!-- {name} --> block"
    return found.group(1)


def test_readme_needs_table_is_the_reports() -> None:
    """The README's 'which option for which need' table is the report snapshot's, row for row."""
    readme = (REPO / "README.md").read_text()
    report = (REPO / "docs" / "report" / "report.md").read_text()
    found = re.search(r"#### Which option for which need\n\n(.*?\n)\n", report, re.S)
    assert found, "docs/report/report.md lacks the 'Which option for which need' table"
    assert _marked(readme, "readme-needs") == found.group(1), \
        "README.md's needs table differs from docs/report/report.md's: copy it again"


def test_readme_times_are_the_recorded_runs() -> None:
    """Each command's time in the README is the current figure docs/development.md records for it
    (a measured run, named there), rounded to minutes."""
    readme = (REPO / "README.md").read_text()
    dev = (REPO / "docs" / "development.md").read_text()
    for command in ("make bench", "make test"):
        stated = re.fullmatch(rf"`{command}` takes about (\d+) min", _marked(readme, f"time: {command}").strip())
        assert stated, f"README.md's time of {command} is not 'takes about N min'"
        row = re.search(rf"^\| `{command}` \| ([\d,]+) s \|", dev, re.M)
        assert row, f"docs/development.md's current figures lack {command}"
        seconds = int(row.group(1).replace(",", ""))
        assert int(stated.group(1)) == round(seconds / 60), f"README.md's {command} time is not {seconds} s"


def test_readme_quick_start_runs_as_printed() -> None:
    """The quick start's commands are the CLI's: each parses as printed, and the first runs with the
    program's own exit status (the benchmark and the placement run elsewhere in the suite)."""
    from aesoc.cli import parser

    block = _marked((REPO / "README.md").read_text(), "readme-quickstart")
    lines = [line.split("#")[0].split() for line in block.splitlines() if line.startswith("aesoc ")]
    assert [words[1] for words in lines] == ["run", "bench", "pnr"], lines
    for words in lines:
        parser().parse_args(words[1:])
    proc = subprocess.run([sys.executable, "-m", *lines[0]], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 7 and "hello from aesoc" in proc.stdout, proc.stdout + proc.stderr
