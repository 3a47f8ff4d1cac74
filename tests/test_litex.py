"""The aesoc AES and SHA peripherals in a LiteX SoC, in LiteX's own Verilator simulation.

docs/integration.md's LiteX commands run as written: `aesoc.litex` builds litex_sim's SoC
(VexRiscv full+cfu, ROM, SRAM, UART) with both peripherals added by `add_aes` / `add_sha`,
firmware fw/litex/aes_vectors built against LiteX's generated headers drives them through the
aesoc C drivers, and every result it prints on the LiteX UART is checked here against Python's
cryptography and hashlib. One build and run (minutes: a Verilator model of the whole SoC), shared
by the tests below."""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from aesoc.toolchain import REPO

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


@pytest.fixture(scope="module")
def uart() -> str:
    env = {**os.environ, "AESOC": str(REPO), "PYTHONPATH": str(REPO)}
    proc = subprocess.run(["bash", "-c", "set -e\n" + _litex_commands()], capture_output=True, text=True,
                          env=env, cwd=REPO, stdin=subprocess.DEVNULL, check=False)
    assert proc.returncode == 0, f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc.stdout


def _expected(mode: str, key: bytes, iv: bytes, pt: bytes) -> bytes:
    chosen = {"ecb": lambda: modes.ECB(), "cbc": lambda: modes.CBC(iv), "ctr": lambda: modes.CTR(iv)}[mode]()
    enc = Cipher(algorithms.AES(key), chosen).encryptor()
    return enc.update(pt) + enc.finalize()


def test_firmware_ran_to_the_end(uart: str) -> None:
    assert "aesoc on LiteX: AES at 0x" in uart
    assert "TRAP" not in uart
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
