# SPDX-License-Identifier: Apache-2.0
"""pytest entry for the wb_xbar cocotb tests, one Verilator build per parameter set."""

import sys
from pathlib import Path

import pytest

from aesoc.sim.cocotb_flow import run_cocotb

TESTS = Path(__file__).resolve().parent
# The cocotb module sits next to this file; it is imported for the shared address map.
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))
from wb_xbar_cocotb import slave_map, sv_array_literal  # noqa: E402

RTL = TESTS.parent / "rtl"
TIMEOUT_CYCLES = 32


# PrioBudget differs per build: 1 (a low-class grant after every high one) and 3; RegGrant 0 (every
# configuration's crossbar today) and 1 (registered grants, README).
@pytest.mark.parametrize("num_masters,num_slaves,budget,reg_grant", [(2, 3, 1, 0), (4, 5, 3, 0), (4, 5, 3, 1)])
def test_wb_xbar(num_masters: int, num_slaves: int, budget: int, reg_grant: int) -> None:
    base, mask = slave_map(num_slaves)
    run_cocotb(
        toplevel="wb_xbar",
        sources=[RTL / "wb_xbar_arb.sv", RTL / "wb_xbar.sv"],
        test_module="wb_xbar_cocotb",
        test_dir=TESTS,
        parameters={"NumMasters": num_masters, "NumSlaves": num_slaves, "TimeoutCycles": TIMEOUT_CYCLES,
                    "PrioBudget": budget, "RegGrant": reg_grant},
        # The address map is a function of NumSlaves, so it stays out of the build-directory name.
        build_args=[f"-GSlaveBase={sv_array_literal(base, 32)}", f"-GSlaveMask={sv_array_literal(mask, 32)}"],
        extra_env={
            "WB_XBAR_NM": str(num_masters),
            "WB_XBAR_NS": str(num_slaves),
            "WB_XBAR_TIMEOUT": str(TIMEOUT_CYCLES),
            "WB_XBAR_BUDGET": str(budget),
            "WB_XBAR_REG_GRANT": str(reg_grant),
        },
    )
