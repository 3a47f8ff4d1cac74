"""The register maps' enums are the one source of the encodings: the generated C enums, the
drivers' enums, the SystemVerilog packages and the SoC parameters must agree with the RDL."""

from __future__ import annotations

from pathlib import Path

import pytest

from aesoc.soc import regs
from conftest import host_c_values
from aesoc.common.toolchain import REPO
from aesoc.soc.description import config_names, load_config

# SystemVerilog packages whose encodings are generated from an RDL: (package file, block, enum ->
# constant prefix), as written by aesoc.soc.regs.sv_enum_constants.
SV_PACKAGES = [
    (REPO / "ip" / "aes" / "rtl" / "aes_pkg.sv", "aes",
     {"aes_mode_e": "AES_MODE_", "aes_dir_e": "AES_DIR_", "aes_key_len_e": "AES_", "aes_ctr_width_e": "AES_",
      "aes_gcm_phase_e": "AES_GCM_"}),
    (REPO / "ip" / "dma" / "rtl" / "dma_pkg.sv", "dma",
     {"dma_addr_mode_e": "AM_", "dma_burst_e": "", "dma_err_e": "ERR_"}),
    (REPO / "ip" / "xip" / "rtl" / "xip_pkg.sv", "xip", {"xip_read_cmd_e": "XIP_CMD_"}),
]

# Driver enums that name the register map's encodings: C constant -> (block, enum, member).
DRIVER_ENUMS = {
    "AES_DEV_ECB": ("aes", "aes_mode_e", "ECB"), "AES_DEV_CBC": ("aes", "aes_mode_e", "CBC"),
    "AES_DEV_CTR": ("aes", "aes_mode_e", "CTR"),
    "AES_DEV_ENCRYPT": ("aes", "aes_dir_e", "ENC"), "AES_DEV_DECRYPT": ("aes", "aes_dir_e", "DEC"),
    "AES_DEV_CTR32": ("aes", "aes_ctr_width_e", "CTR_32"), "AES_DEV_CTR64": ("aes", "aes_ctr_width_e", "CTR_64"),
    "AES_DEV_CTR128": ("aes", "aes_ctr_width_e", "CTR_128"),
    "AES_CFU_ECB": ("aes", "aes_mode_e", "ECB"), "AES_CFU_CBC": ("aes", "aes_mode_e", "CBC"),
    "AES_CFU_ENCRYPT": ("aes", "aes_dir_e", "ENC"), "AES_CFU_DECRYPT": ("aes", "aes_dir_e", "DEC"),
    "DMA_ADDR_INC": ("dma", "dma_addr_mode_e", "INC"), "DMA_ADDR_FIXED": ("dma", "dma_addr_mode_e", "FIXED"),
    "DMA_ADDR_WRAP": ("dma", "dma_addr_mode_e", "WRAP"),
    "DMA_ERR_NONE": ("dma", "dma_err_e", "NONE"), "DMA_ERR_ABORT": ("dma", "dma_err_e", "ABORT"),
    "XIP_CMD_READ": ("xip", "xip_read_cmd_e", "READ"), "XIP_CMD_QUAD_IO": ("xip", "xip_read_cmd_e", "QIO"),
}
DRIVER_HEADERS = ["aes_dev.h", "aes_cfu.h", "dma.h", "xip.h"]

# HWCFG fields that read back a parameter: (block, field, the block's parameter in ip/<block>/ip.toml).
DEPTH_FIELDS = [
    ("aes", "HWCFG.in_depth", "InDepth"),
    ("aes", "HWCFG.out_depth", "OutDepth"),
    ("aes", "HWCFG.rounds_per_cycle", "RoundsPerCycle"),
    ("dma", "HWCFG.fifo_depth", "FifoDepth"),
]


def _c_enum_name(block: str, enum: str, member: str) -> str:
    return f"{regs.regmap(block).top}__{enum.removesuffix('_e')}__{member}".upper()


def _c_values(tmp_path: Path, names: list[str], headers: list[str]) -> dict[str, int]:
    """Each C constant as the compiler sees it, with the register and driver headers."""
    includes = [b.out_dir for b in regs.generate_all()] + sorted(REPO.glob("ip/*/sw"))
    return host_c_values(tmp_path, names, headers, includes)


def test_generated_c_enums_match_rdl(tmp_path: Path) -> None:
    expected = {_c_enum_name(b, e, m): v for b in ("aes", "dma", "xip")
                for e, members in regs.regmap(b).enums.items() for m, v in members.items()}
    assert len(expected) >= 20, expected
    got = _c_values(tmp_path, sorted(expected), [f"{b}_enums.h" for b in ("aes", "dma", "xip")])
    assert got == expected


def test_driver_enums_are_the_rdl_encodings(tmp_path: Path) -> None:
    got = _c_values(tmp_path, sorted(DRIVER_ENUMS), DRIVER_HEADERS)
    expected = {n: regs.regmap(b).enums[e][m] for n, (b, e, m) in DRIVER_ENUMS.items()}
    assert got == expected


@pytest.mark.parametrize("package,block,prefixes", SV_PACKAGES, ids=[p[0].name for p in SV_PACKAGES])
def test_sv_package_encodings_are_generated(package: Path, block: str, prefixes: dict[str, str]) -> None:
    """The package holds the constants aesoc.soc.regs writes from the RDL, not a hand-typed copy."""
    generated = regs.sv_enum_constants(block, prefixes)
    assert generated in package.read_text(), (
        f"{package.relative_to(REPO)} is not current with {regs.block(block).rdl.relative_to(REPO)}; "
        f"replace its generated block with:\n{generated}")


@pytest.mark.parametrize("config", config_names())
def test_depth_fields_hold_their_parameters(config: str) -> None:
    """Every parameter a HWCFG field reads back fits the field in every SoC configuration (the
    readback itself is checked in simulation: test_aes_dev_soc.py, cocotb_dma.py)."""
    soc = load_config(config)
    checked = 0
    for block, name, param in DEPTH_FIELDS:
        width = regs.regmap(block).fields[name].width
        for inst in (i for i in soc.instances if i.block.name == block):
            value = inst.params[param]
            assert 0 <= value < (1 << width), f"{config}: {inst.name}.{param} = {value} does not fit {block} {name}"
            checked += 1
    has = {block for block, _, _ in DEPTH_FIELDS if soc.has(block)}
    assert checked == sum(1 for b, _, _ in DEPTH_FIELDS if b in has), "a depth field was not checked"


def test_kept_register_map_is_the_compiled_one_and_follows_the_rdl(tmp_path: Path) -> None:
    """regmap_of keeps each map in build/gen/regmap/ (simulation processes skip the compiler):
    the kept map reads back equal to a fresh compile, and an edited RDL gets a new one."""
    for b in regs.reg_blocks():
        regs.regmap_of.cache_clear()
        regs.regmap_of(b.rdl)  # kept, if it was not already
        regs.regmap_of.cache_clear()
        assert regs.regmap_of(b.rdl) == regs._compile_regmap(b.rdl), b.name
    rdl = tmp_path / "aes.rdl"
    text = regs.block("aes").rdl.read_text()
    rdl.write_text(text)
    before = regs.regmap_of(rdl)
    # CTR and GCM swap codes (the field is two bits wide and all four codes are taken).
    rdl.write_text(text.replace("CTR = 2", "CTR = 9").replace("GCM = 3", "GCM = 2").replace("CTR = 9", "CTR = 3"))
    regs.regmap_of.cache_clear()
    after = regs.regmap_of(rdl)
    assert before.enums["aes_mode_e"]["GCM"] == 3 and after.enums["aes_mode_e"]["GCM"] == 2


@pytest.mark.parametrize("block", [b.name for b in regs.reg_blocks()])
def test_register_doc_is_the_generators_output(block: str, tmp_path: Path) -> None:
    """docs/registers/<block>.md is what aesoc.soc.regs writes from the RDL now (peakrdl-markdown plus
    the encodings), and it lists every encoded field's values with their names and descriptions."""
    b = regs.block(block)
    fresh = tmp_path / f"{block}.md"
    regs.write_doc(b, fresh, str(b.rdl.relative_to(REPO)))
    assert b.doc.read_text() == fresh.read_text(), (
        f"{b.doc.relative_to(REPO)} is not the generator's output: run rm build/gen/{block}/.inputs.json; "
        f"python3 -c 'from aesoc.soc import regs; regs.generate_all()'")
    doc = fresh.read_text()
    for enum, members in regs.regmap(block).enums.items():
        assert f"Encodings ({enum}):" in doc, enum
        for member, value in members.items():
            assert f"|0x{value:X}|{member}|" in doc, f"{enum}.{member}"
