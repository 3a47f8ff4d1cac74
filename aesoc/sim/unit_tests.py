"""cocotb tests of an IP block's unit ([unit.NAME] of ip/<block>/ip.toml) on one of its variants:
the one runner the AES and SHA engine tests share."""

from __future__ import annotations

import json
from pathlib import Path

from aesoc.sim.cocotb_flow import run_cocotb
from aesoc.soc.ipblock import Unit


def run_unit_tests(unit: Unit, variant: str, test_module: str, test_dir: Path, *testcases: str, env: str) -> None:
    """Run `testcases` of `test_module` (in `test_dir`) on the unit's testbench, or on the unit's
    module where it has none, built with the variant's parameters and simulation defines. The
    cocotb module reads the parameters as JSON from the environment variable `env`."""
    params = unit.variants[variant]
    bench = [unit.testbench] if unit.testbench else []
    run_cocotb(
        toplevel=unit.testbench.stem if unit.testbench else unit.module,
        sources=[*unit.rtl, *bench],
        test_module=test_module,
        test_dir=test_dir,
        parameters=params,
        extra_env={env: json.dumps(params)},
        build_args=list(unit.verilator_args),
        defines=unit.defines_of(variant),
        testcase=list(testcases),
    )
