"""Smoke leakage assessment (aesoc bench tvla, ip/aes/tests/tvla_harness.cpp): at a few thousand
fixed-vs-random traces the unmasked engine and the masked one with its PRNG forced off exceed
|t| = 4.5 at first order, and the masked engine with its PRNG on stays under it. The software rows
(fw/bench/tvla_sw on the SoC's power model): the trace format, and the T-table AES leaking at the
smoke count."""

from __future__ import annotations

from pathlib import Path

import pytest

from aesoc.bench.tvla import (SEED, SMOKE_TRACES, SW_SMOKE_TRACES, THRESHOLD, assess, assess_sw, capture_sw,
                              read_traces)
from aesoc.common.toolchain import ToolError
from aesoc.sim.power import cpu_registers, regs_file
from aesoc.soc import generate


@pytest.mark.parametrize("variant", ["r1", "r1-masked-prng-off"])
def test_tvla_unprotected_leaks(variant: str, tmp_path: Path) -> None:
    result = assess(variant, SMOKE_TRACES, tmp_path)
    assert result.traces == SMOKE_TRACES and result.flip_flops > 1000
    assert result.max_t1 > THRESHOLD, f"{variant}: max |t| {result.max_t1:.2f} at order 1"


def test_tvla_masked_passes_first_order(tmp_path: Path) -> None:
    result = assess("r1-masked", SMOKE_TRACES, tmp_path)
    assert result.traces == SMOKE_TRACES and result.window > 100
    # Every checkpoint of the curve, not only the last, stays under the line.
    assert all(t1 < THRESHOLD for _, t1, _ in result.curve), result.curve


# ---- software rows: swcrypto on the SoC's CPU (fw/bench/tvla_sw, the power model) -------------------

def _classes(seed: int, traces: int) -> list[int]:
    """fw/bench/tvla_sw's class sequence: bit 0 of the next aesoc_xorshift32 output, then four
    more outputs (the random plaintext, drawn for either class)."""
    def step(x: int) -> int:
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        return x ^ ((x << 5) & 0xFFFFFFFF)

    out, state = [], seed
    for _ in range(traces):
        state = step(state)
        out.append(state & 1)
        for _ in range(4):
            state = step(state)
    return out


def test_tvla_trace_format_reader(tmp_path: Path) -> None:
    """read_traces takes class byte + little-endian uint16 samples per trace, and refuses a file
    whose size is not a whole number of such traces."""
    path = tmp_path / "t.bin"
    path.write_bytes(bytes([1, 0x34, 0x12, 0xFF, 0x00, 0, 0x02, 0x00, 0x00, 0x01]))
    data = read_traces(path, 2, 2)
    assert list(data["cls"]) == [1, 0]
    assert data["s"].tolist() == [[0x1234, 0x00FF], [0x0002, 0x0100]]
    with pytest.raises(ToolError):
        read_traces(path, 3, 2)


def test_tvla_sw_power_traces(tmp_path: Path) -> None:
    """The harness's power capture: one trace per window, the class the firmware drew (the
    documented generator), samples inside the window and zeros after it closes."""
    traces, samples = 24, 4000
    out = tmp_path / "p.bin"
    power, line = capture_sw("ttable", traces, samples, out)
    assert ": exit 0 (" in line and "(power model)" in line, line
    assert power.windows == traces and power.samples == samples and power.cropped == 0
    assert power.flip_flops > 1000 and 0 < power.shortest <= power.longest < samples
    data = read_traces(out, traces, samples)
    assert list(data["cls"]) == _classes(SEED, traces)
    assert 0 < sum(data["cls"]) < traces
    active = (data["s"] != 0).sum(axis=1)
    # Every cycle of a window switches some flip-flop (the pipeline moves); none after it.
    assert all(power.shortest <= n <= power.longest for n in active), active
    assert not data["s"][:, power.longest:].any()


def test_tvla_sw_ttable_leaks(tmp_path: Path) -> None:
    """The T-table software AES leaks at first order at the smoke count (its table indices are
    plaintext xor key and go through the core's registers)."""
    result = assess_sw("sw-ttable", SW_SMOKE_TRACES, tmp_path)
    assert result.traces == SW_SMOKE_TRACES and result.flip_flops > 1000
    assert result.max_t1 > THRESHOLD, f"sw-ttable: max |t| {result.max_t1:.2f} at order 1"


def test_power_model_registers() -> None:
    """The power model's set: the core's clocked variables, its RAMs left out, scopes as the model
    names them (the harness refuses a name it cannot read, so a wrong scope would fail every run)."""
    regs = cpu_registers()
    names = {(m, v) for m, _, v in regs.registers}
    assert ("VexRiscv", "decode_to_execute_PC") in names and ("VexRiscv", "memory_to_writeBack_MUL_LOW") in names
    assert ("DataCache", "stageB_mmuRsp_physicalAddress") in names
    assert not {v for _, v in names} & {"RegFilePlugin_regFile", "ways_0_tags", "banks_0", "ways_0_data_symbol0"}
    assert all(line.startswith(generate.scope("cpu")) for line in regs.names().splitlines())


def test_power_capture_needs_the_power_model(tmp_path: Path) -> None:
    with pytest.raises(ToolError, match="not a power model"):
        regs_file(tmp_path / "aesoc-sim")
