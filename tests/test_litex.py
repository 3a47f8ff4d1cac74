"""The aesoc AES and SHA peripherals in a LiteX SoC, in LiteX's own Verilator simulation.

docs/integration.md's LiteX recipe runs as printed (the blocks marked for `litex_recipe`, taken
from the markdown): the user's SoC script (litex_sim's SoC, VexRiscv full+cfu, the LiteX BIOS in
the ROM, SRAM, main_ram, UART, both peripherals added by `add_aes` / `add_sha`, aes_cfu in the CFU
slot), the firmware Makefile call, and the run of the model. fw/litex/aes_vectors, built like
LiteX's bare-metal demo, is booted by the BIOS from main_ram and drives the peripherals through the
aesoc C drivers; every result it prints on the LiteX UART is checked here against Python's
cryptography and hashlib. One build and run (minutes: a Verilator model of the whole SoC), shared
by the tests below."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from aesoc.common.toolchain import REPO, ToolError, use_pinned_verilator, verilator_lock
from aesoc.integrate import litex

pytestmark = pytest.mark.litex

DOC = REPO / "docs" / "integration.md"
MARKER = re.compile(r"<!-- test: tests/test_litex.py::litex_recipe(?: (\S+))? -->\n```(\w+)\n(.*?)```", re.S)
# Bounds of the recipe's two commands: generation with picolibc and the BIOS, then the model's
# build and the run (a few minutes each on a loaded 2-core machine).
STEP_TIMEOUT_S = 1800
# The FIPS-197 appendix C and SP 800-38A appendix F examples the firmware carries.
CASES = {"fips197-c1", "fips197-c2", "fips197-c3",
         *(f"sp800-38a-f{m}.{k}" for m in (1, 2, 5) for k in (1, 3, 5))}
LINE = re.compile(r"^AES (?P<case>\S+) (?P<mode>ecb|cbc|ctr) key=(?P<key>[0-9a-f]+) iv=(?P<iv>[0-9a-f]*) "
                  r"pt=(?P<pt>[0-9a-f]+) ct=(?P<ct>[0-9a-f]+) rt=(?P<rt>[0-9a-f]+)$", re.M)


def _recipe() -> tuple[dict[str, str], list[str]]:
    """The recipe's files (name -> text) and its `sh` commands, in the doc's order."""
    blocks = MARKER.findall(DOC.read_text())
    files = {name: text for name, _, text in blocks if name}
    commands = [text for name, lang, text in blocks if not name and lang == "sh"]
    assert list(files) == ["my_soc.py"] and len(commands) == 2, "docs/integration.md's LiteX recipe changed shape"
    return files, commands


def _run_recipe(work: Path) -> dict[str, object]:
    """The recipe in `work`, as printed; the model's build and run under the machine-wide lock."""
    files, commands = _recipe()
    for name, text in files.items():
        (work / name).write_text(text)
    use_pinned_verilator()  # the doc asks for the pinned Verilator on PATH
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(AESOC=str(REPO), WORK=str(work))
    out, err = [], []
    for step, script in enumerate(commands):
        lock = verilator_lock() if step == len(commands) - 1 else contextlib.nullcontext()
        try:
            with lock:
                proc = subprocess.run(["bash", "-c", "set -e\n" + script], capture_output=True, text=True, env=env,
                                      cwd=work, stdin=subprocess.DEVNULL, timeout=STEP_TIMEOUT_S, check=False)
        except subprocess.TimeoutExpired as exc:
            tail = str(exc.stdout or "")[-3000:]
            return {"returncode": "timeout", "stdout": "".join(out) + tail, "stderr": "".join(err)}
        out.append(proc.stdout)
        err.append(proc.stderr)
        if proc.returncode != 0:
            return {"returncode": proc.returncode, "stdout": "".join(out), "stderr": "".join(err)}
    return {"returncode": 0, "stdout": "".join(out), "stderr": "".join(err)}


@pytest.fixture(scope="module")
def recipe_run(session_once: Callable[..., tuple[Path, dict[str, object]]]) -> tuple[Path, str]:
    """The doc's recipe, run once per test session (minutes) whichever worker asks first: its
    folder and what it printed."""
    work, proc = session_once("litex-doc-recipe", _run_recipe)
    assert proc["returncode"] == 0, f"{str(proc['stdout'])[-3000:]}\n{str(proc['stderr'])[-3000:]}"
    return work, str(proc["stdout"])


@pytest.fixture(scope="module")
def uart(recipe_run: tuple[Path, str]) -> str:
    return recipe_run[1]


@pytest.fixture(scope="module")
def build(recipe_run: tuple[Path, str]) -> litex.SimBuild:
    """The recipe's LiteX build folder (my_soc.py's default --output-dir)."""
    found = litex.SimBuild(recipe_run[0] / "build" / "my_soc")
    assert (found.generated / "mem.h").is_file()
    return found


def _expected(mode: str, key: bytes, iv: bytes, pt: bytes) -> bytes:
    chosen = {"ecb": lambda: modes.ECB(), "cbc": lambda: modes.CBC(iv), "ctr": lambda: modes.CTR(iv)}[mode]()
    enc = Cipher(algorithms.AES(key), chosen).encryptor()
    return enc.update(pt) + enc.finalize()


def _mem_h_constant(build: litex.SimBuild, name: str) -> int:
    """A constant of the recipe's generated mem.h."""
    mem = (build.generated / "mem.h").read_text()
    m = re.search(rf"^#define {name}\s+(0x[0-9a-fA-F]+)L?$", mem, re.M)
    assert m, f"mem.h has no {name}"
    return int(m[1], 16)


def test_bios_booted_the_program_from_main_ram(uart: str, build: litex.SimBuild) -> None:
    """The LiteX BIOS ran from the ROM (its banner and CRC check), jumped to main_ram's base, and
    the program's main is in main_ram."""
    base, size = _mem_h_constant(build, "MAIN_RAM_BASE"), _mem_h_constant(build, "MAIN_RAM_SIZE")
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


def test_model_compiled_as_one_unit(build: litex.SimBuild) -> None:
    """The recipe's MAKEFLAGS reached Verilator's make: the model is one object, not one per file."""
    objects = {p.name for p in (build.gateware / "obj_dir").glob("Vsim*.o")}
    assert objects == {"Vsim__ALL.o"}, sorted(objects)


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


def test_headers_name_both_peripherals(build: litex.SimBuild) -> None:
    """The SoC script's generated headers give firmware both peripherals' bases and interrupts."""
    mem = (build.generated / "mem.h").read_text()
    soc = (build.generated / "soc.h").read_text()
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


def test_program_too_big_for_main_ram_is_a_clear_error(tmp_path: Path, build: litex.SimBuild) -> None:
    """A program whose constant data alone fills main_ram is refused at link time, by name
    (aesoc.integrate.litex.build_firmware, the Makefile of the recipe, on the recipe's build)."""
    fw = tmp_path / "too_big"
    fw.mkdir()
    (fw / "main.c").write_text(
        "#include <stdint.h>\n"
        f"static const uint8_t blob[{litex.MAIN_RAM_SIZE}] = {{1}};\n"
        "int main(void) { volatile unsigned i = 0; return blob[i]; }\n")
    with pytest.raises(ToolError, match="does not fit main_ram"):
        litex.build_firmware(build, fw)


def test_same_named_program_from_another_folder_builds(tmp_path: Path, build: litex.SimBuild) -> None:
    """Two program folders of one name (as pytest's temp folders of two runs are), the first gone
    when the second builds: the second is not sent after the first one's sources."""
    for where in ("first", "second"):
        fw = tmp_path / where / "tiny"
        fw.mkdir(parents=True)
        (fw / "main.c").write_text(f"int main(void) {{ return {len(where)}; }}\n")
        assert litex.build_firmware(build, fw).is_file()
        shutil.rmtree(fw)


def test_run_past_its_time_limit_says_where_it_stopped(build: litex.SimBuild) -> None:
    """The recipe's model, stopped long before the BIOS reaches its hand-over (BOOT cycles=
    above, at hundreds of kHz of simulation): a clear error, not a hang."""
    with pytest.raises(ToolError, match="the BIOS did not boot the program"):
        litex.run_model(build, timeout_s=1)
