"""The aesoc AES and SHA peripherals in a LiteX SoC, in LiteX's own Verilator simulation.

docs/integration.md's LiteX commands run as written: `aesoc.litex` builds litex_sim's SoC
(VexRiscv full+cfu, the LiteX BIOS in the ROM, SRAM, main_ram, UART) with both peripherals added
by `add_aes` / `add_sha`; fw/litex/aes_vectors, built like LiteX's bare-metal demo (LiteX's crt0,
libbase, picolibc, libcompiler_rt), is booted by the BIOS from main_ram and drives them through
the aesoc C drivers, and every result it prints on the LiteX UART is checked here against Python's
cryptography and hashlib. One build and run (minutes: a Verilator model of the whole SoC), shared
by the tests below."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from aesoc import litex
from aesoc.toolchain import REPO, ToolError

pytestmark = pytest.mark.litex

DOC = REPO / "docs" / "integration.md"
# The FIPS-197 appendix C and SP 800-38A appendix F examples the firmware carries.
CASES = {"fips197-c1", "fips197-c2", "fips197-c3",
         *(f"sp800-38a-f{m}.{k}" for m in (1, 2, 5) for k in (1, 3, 5))}
LINE = re.compile(r"^AES (?P<case>\S+) (?P<mode>ecb|cbc|ctr) key=(?P<key>[0-9a-f]+) iv=(?P<iv>[0-9a-f]*) "
                  r"pt=(?P<pt>[0-9a-f]+) ct=(?P<ct>[0-9a-f]+) rt=(?P<rt>[0-9a-f]+)$", re.M)


def _litex_commands() -> str:
    """The `shell` blocks of the doc's LiteX section."""
    section = DOC.read_text().split("## 6. LiteX", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```shell\n(.*?)```", section, re.S)
    assert blocks, "docs/integration.md has no LiteX commands"
    return "\n".join(blocks)


def _run_litex_commands() -> dict[str, object]:
    env = {**os.environ, "AESOC": str(REPO), "PYTHONPATH": str(REPO)}
    proc = subprocess.run(["bash", "-c", "set -e\n" + _litex_commands()], capture_output=True, text=True,
                          env=env, cwd=REPO, stdin=subprocess.DEVNULL, check=False)
    return {"returncode": proc.returncode, "stdout": proc.stdout, "stderr": proc.stderr}


@pytest.fixture(scope="module")
def uart(session_once: Callable[..., tuple[object, dict[str, object]]]) -> str:
    """The doc's commands, run once per test session (minutes) whichever worker asks first."""
    _, proc = session_once("litex-doc-commands", lambda _: _run_litex_commands())
    assert proc["returncode"] == 0, f"{str(proc['stdout'])[-3000:]}\n{str(proc['stderr'])[-3000:]}"
    return str(proc["stdout"])


def _expected(mode: str, key: bytes, iv: bytes, pt: bytes) -> bytes:
    chosen = {"ecb": lambda: modes.ECB(), "cbc": lambda: modes.CBC(iv), "ctr": lambda: modes.CTR(iv)}[mode]()
    enc = Cipher(algorithms.AES(key), chosen).encryptor()
    return enc.update(pt) + enc.finalize()


def _mem_h_constant(name: str) -> int:
    """A constant of the flow's generated mem.h (the build the doc's commands made)."""
    mem = (litex.SimBuild(litex.OUT_DIR).generated / "mem.h").read_text()
    m = re.search(rf"^#define {name}\s+(0x[0-9a-fA-F]+)L?$", mem, re.M)
    assert m, f"mem.h has no {name}"
    return int(m[1], 16)


def test_bios_booted_the_program_from_main_ram(uart: str) -> None:
    """The LiteX BIOS ran from the ROM (its banner and CRC check), jumped to main_ram's base, and
    the program's main is in main_ram."""
    base, size = _mem_h_constant("MAIN_RAM_BASE"), _mem_h_constant("MAIN_RAM_SIZE")
    assert "Build your hardware, easily!" in uart and "BIOS CRC passed" in uart, uart[:2000]
    boot = re.search(r"^Executing booted program at 0x([0-9a-f]+)$", uart, re.M)
    assert boot and int(boot[1], 16) == base, uart[:3000]
    main = re.search(r"^aesoc on LiteX: main at 0x([0-9a-f]+), AES at 0x", uart, re.M)
    assert main and base <= int(main[1], 16) < base + size, uart[-3000:]


def test_firmware_ran_to_the_end(uart: str) -> None:
    """EXIT 0, after the cycle counts of the hand-over and the end, in that order."""
    boot = re.search(r"^BOOT cycles=([0-9]+)$", uart, re.M)
    end = re.search(r"^CYCLES ([0-9]+)$", uart, re.M)
    assert boot and end, uart[-2000:]
    assert 0 < int(boot[1]) < int(end[1])
    assert re.search(r"^EXIT 0$", uart, re.M), uart[-2000:]


def test_aes_vectors_match_cryptography(uart: str) -> None:
    seen = {}
    for m in LINE.finditer(uart):
        key, iv, pt = (bytes.fromhex(m[f]) for f in ("key", "iv", "pt"))
        assert bytes.fromhex(m["ct"]) == _expected(m["mode"], key, iv, pt), m["case"]
        assert m["rt"] == m["pt"], f"{m['case']}: decryption did not give the plaintext back"
        seen[m["case"]] = m["mode"]
    assert set(seen) == CASES, f"missing: {sorted(CASES - set(seen))}"
    assert set(seen.values()) == {"ecb", "cbc", "ctr"}


def test_aes_irq_through_litex_interrupt_map(uart: str) -> None:
    """The handler attached at AES_INTERRUPT (irq_attach) ran once for one operation, none before,
    and its acknowledge cleared the line."""
    m = re.search(r"^IRQ aes line=(\d+) before=(\d) done=(\d) acked=(\d)$", uart, re.M)
    assert m, uart[-2000:]
    assert (m[2], m[3], m[4]) == ("0", "1", "0")


def test_sha256_matches_hashlib(uart: str) -> None:
    m = re.search(r"^SHA sha256 msg=([0-9a-f]*) md=([0-9a-f]+)$", uart, re.M)
    assert m, uart[-2000:]
    assert m[2] == hashlib.sha256(bytes.fromhex(m[1])).hexdigest()


def test_python_example_elaborates(tmp_path) -> None:
    """The doc's Python example (a LiteX SoC of the user's, one call per peripheral) builds its
    Verilog and headers, and the headers name both peripherals."""
    code = re.findall(r"```python\n(.*?)```", DOC.read_text().split("## 6. LiteX", 1)[1], re.S)[0]
    script = tmp_path / "my_soc.py"
    script.write_text(code)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, str(script), "--output-dir", str(tmp_path / "out")], capture_output=True,
                          text=True, env=env, cwd=tmp_path, stdin=subprocess.DEVNULL, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    mem = (tmp_path / "out" / "software" / "include" / "generated" / "mem.h").read_text()
    soc = (tmp_path / "out" / "software" / "include" / "generated" / "soc.h").read_text()
    assert "AES_BASE" in mem and "SHA_BASE" in mem
    assert "AES_INTERRUPT" in soc and "SHA_INTERRUPT" in soc


def test_aes_cfu_in_the_cpu_cfu_slot(uart: str) -> None:
    """aes32esi of byte 0x53 is S-box(0x53) = 0xed (FIPS-197 section 5.1.1's example)."""
    m = re.search(r"^CFU aes32esi rs2=00000053 rd=([0-9a-f]{8})$", uart, re.M)
    assert m, uart[-2000:]
    assert int(m[1], 16) == 0xED


def test_missing_firmware_folder_is_a_clear_error(tmp_path, capsys) -> None:
    assert litex.main(["sim", str(tmp_path / "nowhere"), "--out", str(tmp_path / "out")]) == 1
    assert "no such firmware folder" in capsys.readouterr().err


def test_program_too_big_for_main_ram_is_a_clear_error(tmp_path, uart: str) -> None:
    """A program whose constant data alone fills main_ram is refused at link time, by name; the
    build folder is the one the doc's commands made, so the SoC and its libraries are current."""
    assert uart
    fw = tmp_path / "too_big"
    fw.mkdir()
    (fw / "main.c").write_text(
        "#include <stdint.h>\n"
        f"static const uint8_t blob[{litex.MAIN_RAM_SIZE}] = {{1}};\n"
        "int main(void) { volatile unsigned i = 0; return blob[i]; }\n")
    with pytest.raises(ToolError, match="does not fit main_ram"):
        litex.sim(fw)


def test_same_named_program_from_another_folder_builds(tmp_path, uart: str) -> None:
    """Two program folders of one name (as pytest's temp folders of two runs are), the first gone
    when the second builds: the second is not sent after the first one's sources."""
    assert uart
    for where in ("first", "second"):
        fw = tmp_path / where / "tiny"
        fw.mkdir(parents=True)
        (fw / "main.c").write_text(f"int main(void) {{ return {len(where)}; }}\n")
        assert litex.build_firmware(litex.SimBuild(litex.OUT_DIR), fw).is_file()
        shutil.rmtree(fw)


def test_run_past_its_time_limit_says_where_it_stopped(uart: str) -> None:
    """The model built for the doc's commands, stopped long before the BIOS reaches its hand-over
    (BOOT cycles= above, at tens of kHz of simulation): a clear error, not a hang."""
    assert uart
    with pytest.raises(ToolError, match="the BIOS did not boot the program"):
        litex.run_model(litex.SimBuild(litex.OUT_DIR), timeout_s=1)
