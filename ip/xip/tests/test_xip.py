# SPDX-License-Identifier: Apache-2.0
"""pytest entry for the XIP controller: the cocotb tests (controller + flash model) and a check
that no key-bearing signal is declared for waveform tracing."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from aesoc.common.toolchain import REPO, verilator_bin
from aesoc.sim.cocotb_flow import run_cocotb
from aesoc.soc import ipblock
from aesoc.soc.description import load_config
from aesoc.soc.sources import ip_sources

TESTS = Path(__file__).resolve().parent
# The SoC's XIP tag runs and its crossbar's timeout: the integrity tests check every beat within it.
# The other tests pass TagRun too, so that test_xip[16] shares the integrity tests' model.
SOC = load_config("full")
TAG_RUN = SOC.of_block("xip").params["TagRun"]
XBAR_TIMEOUT = SOC.xbar_params["TimeoutCycles"]

# Signals that carry a key, the KEK or unwrap intermediates; AES core instances as a whole.
SECRET_SIGNALS = {"otp_kek_i", "kek_i", "key_q", "key_i", "key_o", "kw_key", "aes_key", "aes_in", "aes_out",
                  "a_q", "a_d", "r_q", "r_d", "kw_data", "d_key", "d_mac", "data_o", "mac_key_i", "ks_q", "ks_d",
                  "mkey_q", "k1_q", "k1_d", "x_q", "x_d", "c1", "c2"}
SECRET_SCOPES = {"u_aes"}


# What the cocotb tests read or set below the test bench besides registers (run_cocotb's
# `public`): the sequencer and keystream signals the zero-added-cycles watcher samples, the flash
# model's dummy cycles and error count.
PUBLIC = ("xip_core:seq_start", "xip_seq:rise", "xip_otfad:ks_ok_o", "qspi_flash:dummy_qio", "qspi_flash:err_count")


def sources() -> list[Path]:
    # The XIP controller's and the flash model's RTL from their manifests (ip/*/ip.toml).
    return [
        TESTS / "waivers.vlt",
        REPO / "sim" / "waivers.vlt",  # the generated register block
        *ip_sources(ipblock.block("xip")), *ipblock.block("qspi_flash").rtl,
        TESTS / "tb_xip.sv",
    ]


# The other sizes' model: a FlexSPI-sized 4 KB buffer and a 2-line verified-line buffer (each of
# them changes nothing the other's tests look at), one model build instead of two.
OTHER_SIZES = {"PrefetchWords": 1024, "VerifiedLines": 2}


@pytest.mark.parametrize("prefetch_words,testcases", [
    (16, None),
    # The tests whose behaviour depends on the buffer size.
    (OTHER_SIZES["PrefetchWords"], ["prefetch", "random_reads", "bandwidth", "zero_added_cycles"]),
])
def test_xip(prefetch_words: int, testcases: list[str] | None) -> None:
    others = OTHER_SIZES if prefetch_words == OTHER_SIZES["PrefetchWords"] else {}
    run_cocotb(
        toplevel="tb_xip",
        sources=sources(),
        test_module="cocotb_xip",
        test_dir=TESTS,
        parameters={"PrefetchWords": prefetch_words, "TagRun": TAG_RUN, **others},
        build_args=["--timescale", "1ns/1ps", "--assert", "-DASSERT_ON"],
        defines=ipblock.block("xip").test_define_values,
        extra_env={"XIP_PREFETCH_WORDS": str(prefetch_words)},
        testcase=testcases,
        public=PUBLIC,
    )


@pytest.mark.parametrize("verified_lines", [4, OTHER_SIZES["VerifiedLines"]])
def test_xip_integrity(verified_lines: int) -> None:
    """Line integrity (CTX.CTRL.INTEG): cocotb_xip_integ.py; the whole set with the default
    verified-line buffer, its own test with another size (on the other sizes' model)."""
    sizes = {"PrefetchWords": 16, "VerifiedLines": 4} if verified_lines == 4 else OTHER_SIZES
    run_cocotb(
        toplevel="tb_xip",
        sources=sources(),
        test_module="cocotb_xip_integ",
        test_dir=TESTS,
        parameters={**sizes, "TagRun": TAG_RUN},
        build_args=["--timescale", "1ns/1ps", "--assert", "-DASSERT_ON"],
        defines=ipblock.block("xip").test_define_values,
        extra_env={"XIP_PREFETCH_WORDS": str(sizes["PrefetchWords"]), "XIP_VERIFIED_LINES": str(verified_lines),
                   "XIP_TAG_RUN": str(TAG_RUN), "XBAR_TIMEOUT": str(XBAR_TIMEOUT)},
        testcase=None if verified_lines == 4 else ["integ_verified_lines"],
        public=PUBLIC,
    )


def test_key_material_not_traced(tmp_path: Path) -> None:
    """Verilate the bench with tracing (C++ only, no compile) and read the trace declarations."""
    cmd = [verilator_bin(), "--cc", "--trace-vcd", "--timescale", "1ns/1ps", "--top-module", "tb_xip",
           "--Mdir", str(tmp_path), *[str(s) for s in sources()]]
    # Not under verilator_lock: Verilator only writes C++ here (into tmp_path), nothing is compiled.
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    text = "".join(p.read_text() for p in tmp_path.glob("*Trace*Slow.cpp"))
    names = set(re.findall(r'VL_TRACE_DECL_\w+\(tracep,[^"]*"([^"]+)"', text))
    scopes = set(re.findall(r'VL_TRACE_PUSH_PREFIX\(tracep, "([^"]+)"', text))
    assert "u_keywrap" in scopes and "wb_adr_i" in names, "trace declarations not found"
    assert not names & SECRET_SIGNALS, f"traced: {sorted(names & SECRET_SIGNALS)}"
    inside = _secret_scope_contents(text)
    assert not inside, f"traced under {sorted(SECRET_SCOPES)}: {inside}"


def _secret_scope_contents(text: str) -> list[str]:
    """What the trace declares inside a secret scope. Verilator may keep the scope itself, empty,
    when its every signal is untraced (tracing_off around the instance): each push of it must be
    followed at once by its pop, or by one call of a function that declares nothing, opens no
    scope and calls nothing, and then the pop."""
    bodies = dict(re.findall(r"void (\w*trace_init_sub\w*)\([^)]*\) \{(.*?)\n\}", text, re.S))
    lines = [line.strip() for line in text.splitlines()]
    found = []
    for i, line in enumerate(lines):
        pushed = re.match(r'VL_TRACE_PUSH_PREFIX\(tracep, "([^"]+)"', line)
        if not pushed or pushed.group(1) not in SECRET_SCOPES:
            continue
        inner = lines[i + 1]
        if inner.startswith("VL_TRACE_POP_PREFIX"):
            continue
        called = re.match(r"(\w*trace_init_sub\w*)\(vlSelf, tracep\);$", inner)
        body = bodies.get(called.group(1), None) if called else None
        # The body's own debug message names the function; every other line counts.
        code = None if body is None else [b for b in body.splitlines() if "VL_DEBUG_IF" not in b]
        traced = code is None or any(re.search(r"VL_TRACE_DECL|trace_init_dtype|PUSH_PREFIX|trace_init_sub", b)
                                     for b in code)
        if traced or not lines[i + 2].startswith("VL_TRACE_POP_PREFIX"):
            found.append(inner)
    return found
