"""Static checks of the SHA RTL: Verilator -Wall lint of the engine and the Wishbone top per
variant (only the project's waivers, for the generated register block), a Yosys parse, and the
package's encodings generated from the register map."""

from __future__ import annotations

import subprocess

import pytest

from aesoc.common.toolchain import BUILD, REPO, verilator_bin
from aesoc.fpga.synth import elaborate_check
from aesoc.soc import ipblock, regs
from aesoc.soc.sources import ip_sources
from sha_ip import RTL_SOURCES, VARIANTS

pytestmark = pytest.mark.no_model

WAIVERS = REPO / "sim" / "waivers.vlt"
SHA = ipblock.block("sha")
ENUM_PREFIXES = {"sha_alg_e": "SHA_ALG_", "sha_err_e": "SHA_ERR_"}


@pytest.mark.parametrize("variant", VARIANTS)
def test_sha_verilator_lint(variant: str) -> None:
    params = [f"-G{k}={v}" for k, v in VARIANTS[variant].items()]
    for top, sources in (("sha_engine", RTL_SOURCES), (SHA.module, ip_sources(SHA))):
        cmd = [verilator_bin(), "--lint-only", "-Wall", *params, "--top-module", top, str(WAIVERS), *map(str, sources)]
        # Not under verilator_lock: a lint is one short single-threaded process, not a build.
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        assert proc.returncode == 0, f"{top}:\n{proc.stderr}"


@pytest.mark.parametrize("variant", VARIANTS)
def test_sha_yosys_parse(variant: str) -> None:
    elaborate_check(SHA.module, ip_sources(SHA), VARIANTS[variant], BUILD / "yosys-check" / "sha" / variant)


def test_sha_pkg_encodings_are_generated() -> None:
    """sha_pkg.sv holds the constants aesoc.soc.regs writes from the RDL, not a hand-typed copy."""
    generated = regs.sv_enum_constants("sha", ENUM_PREFIXES)
    assert generated in (REPO / "ip" / "sha" / "rtl" / "sha_pkg.sv").read_text()
