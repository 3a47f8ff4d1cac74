"""The SoC description and what is generated from it: inheritance, checks, the firmware header, the
worked example of adding an IP (docs/examples), and that no hardware number is typed twice."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from aesoc.common.toolchain import REPO, ToolError
from aesoc.sim.run import build_and_run
from aesoc.soc import generate
from aesoc.soc.description import UNCACHED_BIT, elaborate
from conftest import host_c_values

EXAMPLE = REPO / "docs" / "examples"


def write(tmp_path: Path, text: str, name: str = "test.toml") -> str:
    (tmp_path / name).write_text(text)
    return str(tmp_path / name)


def test_inheritance_overrides_only_what_it_names() -> None:
    full, unrolled = elaborate("full"), elaborate("dma-unrolled")
    assert unrolled.of_block("aes").params["RoundsPerCycle"] == 0 and unrolled.of_block("aes").params["Pipelined"] == 1
    assert full.of_block("aes").params["RoundsPerCycle"] == 1
    # Everything else is the parent's: same map, lines, masters, other instances' parameters.
    assert [(s.region, s.base, s.bytes) for s in unrolled.slaves] == [(s.region, s.base, s.bytes) for s in full.slaves]
    assert unrolled.irq_lines == full.irq_lines and unrolled.dma_request_lines == full.dma_request_lines
    assert {k: v for k, v in unrolled.params.items() if k != "aes"} == {k: v for k, v in full.params.items() if k != "aes"}
    assert [p.name for p in unrolled.sources] == ["base.toml", "full.toml", "dma-unrolled.toml"]


def test_full_numbering() -> None:
    full = elaborate("full")
    assert [m.name for m in full.masters] == ["cpu_i", "cpu_d", "dma_rd", "dma_wr"]
    # Lines follow the description's order (IRQ 0 is the bus error), so an IP added at the end
    # renumbers nothing before it.
    assert list(full.irq_lines.items())[:3] == [("BUS_ERR", 0), ("AES", 1), ("DMA", 2)]
    assert list(full.irq_lines.values()) == list(range(len(full.irq_lines)))
    assert list(full.dma_request_lines.items())[:2] == [("AES_IN", 0), ("AES_OUT", 1)]
    assert list(full.dma_request_lines.values()) == list(range(len(full.dma_request_lines)))
    # A DMA may address the memories and every IP with request lines (aes joins), nothing else.
    requesters = [i.name for i in full.instances if i.dma_requests]
    assert full.of_block("dma").windows == ("sram0", "sram1", *requesters) and "aes" in requesters
    assert full.xip_flash is not None and full.xip_flash.region == "flash"
    assert all(s.mask & UNCACHED_BIT == 0 for s in full.memories)


@pytest.mark.parametrize(("body", "message"), [
    ('[ip.aes]\nblock = "aes"\nparams = { RoundsPerCycle = 4 }', "RoundsPerCycle = 4 is not one of"),
    ('[ip.aes]\nblock = "aes"\nparams = { Nope = 1 }', "has no parameter Nope"),
    ('[ip.aes]\nblock = "aes"\nbase = 0xF000_0000', "overlaps sysctrl"),
    ('[ip.aes]\nblock = "aes"\nbase = 0xF000_0100', "not aligned"),
    ('[ip.aes]\nblock = "aes"\nirq = 31', "outside 1..30"),
    ('[ip.aes]\nblock = "aes"\nirq = 0', "IRQ line 0 is taken"),
    ('[ip.x]\nblock = "no_such_block"', "no IP block 'no_such_block'"),
    ('[ip.x]\nblock = "aes"\nflavour = 1', "unknown key(s) flavour"),
    ('[memory.sram1]\nbase = 0x9000_0000\nbytes = 65536', "must not set the uncached bit"),
    ('[memory.sram1]\nbase = 0x1000_0000\nbytes = 65000', "not a power of two"),
    ('[ip.d]\nblock = "dma"\nwindows = ["nowhere"]', "window(s) nowhere name no region"),
    ('[ip.x]\nblock = "wb_sram"', "placed by the generator"),
    ('colour = "red"', "unknown key(s) colour"),
])
def test_bad_descriptions_are_refused(tmp_path: Path, body: str, message: str) -> None:
    with pytest.raises(ToolError, match=re.escape(message)):
        elaborate(write(tmp_path, f'inherits = "base"\n{body}\n'))


def test_bad_inheritance(tmp_path: Path) -> None:
    write(tmp_path, 'inherits = "b.toml"\n', "a.toml")
    write(tmp_path, 'inherits = "a.toml"\n', "b.toml")
    with pytest.raises(ToolError, match="inherits itself"):
        elaborate(str(tmp_path / "a.toml"))
    with pytest.raises(ToolError, match="no SoC configuration 'nope'"):
        elaborate(write(tmp_path, 'inherits = "nope"\n'))


def test_peripheral_bases_are_assigned(tmp_path: Path) -> None:
    soc = elaborate(write(tmp_path, 'inherits = "base"\n[ip.d]\nblock = "dma"\n'))
    assert soc.region("d").base == 0xF000_1000  # the next free 4 KB window after sysctrl
    assert soc.irq_lines["D"] == 1


def test_header_matches_description(tmp_path: Path) -> None:
    """aesoc_map.h, compiled into a host program, prints the description's numbers."""
    soc = elaborate("full")
    header = tmp_path / "aesoc_map.h"
    header.write_text(generate.c_header(soc))
    checks = [(f"AESOC_{s.region.upper()}_BASE", s.base) for s in soc.slaves]
    checks += [(f"AESOC_{s.region.upper()}_BYTES", s.bytes) for s in soc.slaves]
    checks += [(f"AESOC_IRQ_{n}", line) for n, line in soc.irq_lines.items()]
    checks += [(f"AESOC_DMA_REQ_{n}", line) for n, line in soc.dma_request_lines.items()]
    checks += [(f"AESOC_MASTER_{m.name.upper()}", m.index) for m in soc.masters]
    checks += [("AESOC_UNCACHED_BIT", UNCACHED_BIT), ("AESOC_AES_ROUNDS_PER_CYCLE", 1)]
    printed = host_c_values(tmp_path, [name for name, _ in checks], ["aesoc_map.h"], [tmp_path])
    assert list(printed.values()) == [value for _, value in checks]


def test_example_ip_is_one_folder_and_one_entry() -> None:
    """docs/examples: the ticker IP joins the full SoC by one [ip.ticker] entry; firmware finds it
    only through the generated header (base, IRQ line, DMA request line) and uses all three."""
    config = EXAMPLE / "ticker-soc.toml"
    soc = elaborate(str(config))
    entries = re.findall(r"^\[ip\.(\w+)\]", config.read_text(), flags=re.M)
    assert entries == ["ticker"]
    ticker, full = soc.instance("ticker"), elaborate("full")
    # It takes the next free lines after everything `full` numbers.
    assert ticker.irqs == {"irq": len(full.irq_lines)} and ticker.dma_requests == {"tick": len(full.dma_request_lines)}
    assert "ticker" in soc.of_block("dma").windows
    result, line = build_and_run(EXAMPLE / "fw" / "ticker", str(config), max_cycles=2_000_000)
    assert result.status == "exit" and result.code == 0, f"{line}\n{result.console}"
    (record,) = result.records_of("ticker")
    assert record["irq_line"] == soc.irq_lines["TICKER"] and record["dma_req"] == soc.dma_request_lines["TICKER_TICK"]
    assert record["base"] == soc.region("ticker").base and record["ticks"] == 16 and record["irqs"] >= 16


# Where firmware, drivers and tools may not spell a hardware number.
_SOURCES = [*REPO.glob("fw/**/*.[chS]"), *REPO.glob("ip/*/sw/*.[ch]"), *REPO.glob("aesoc/**/*.py"),
            *REPO.glob("docs/examples/**/*.[ch]")]
_EXEMPT = {REPO / "aesoc" / "soc" / "description.py"}  # the constants every generated file takes its values from


def test_no_hardware_number_is_typed_twice() -> None:
    """No region base, the uncached bit or an IRQ/DMA line number as a literal or a #define outside
    the description and its generator (a check by search, so it catches the usual spellings)."""
    soc = elaborate("full")
    numbers = {s.base for s in soc.slaves if s.base} | {UNCACHED_BIT}
    spellings = {f"0x{n:08x}" for n in numbers} | {f"0x{n >> 16:04x}_{n & 0xFFFF:04x}" for n in numbers}
    bad = []
    for path in _SOURCES:
        if path in _EXEMPT:
            continue
        text = path.read_text(errors="replace").lower()
        bad += [f"{path.relative_to(REPO)}: {s}" for s in spellings if s in text]
        bad += [f"{path.relative_to(REPO)}: {m}" for m in re.findall(r"#define\s+\w*(?:irq_line|dma_req)\w*\s+\d+u?(?![\dx])", text)]
    assert not bad, "hardware numbers typed outside the description:\n" + "\n".join(sorted(bad))
