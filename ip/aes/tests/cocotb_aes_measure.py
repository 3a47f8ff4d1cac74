"""cocotb measurement for the aes-core benchmark: cycles per block per mode and key size.

Streams a message through tb_aes_engine without gaps or stalls for every mode, direction and key
size the variant supports and writes the cycle counts to the JSON file named by AES_MEASURE_JSON.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import cocotb

from aes_ref import MODES, reference
from aes_tb import AesTb

BLOCKS = 64
MEASURE_ENV = "AES_MEASURE_JSON"


@cocotb.test()
async def measure_cycles(dut: Any) -> None:
    """Latency, steady-state cycles per block and key-to-ready cycles; results checked as well."""
    tb = AesTb(dut)
    await tb.start()
    rng = random.Random(1)
    records: list[dict[str, Any]] = []
    for key_bits in tb.variant.key_sizes:
        for name, mode, direction in MODES:
            if not tb.variant.supports(mode, direction, key_bits):
                continue
            key, iv = rng.randbytes(key_bits // 8), rng.getrandbits(128)
            blocks = [rng.getrandbits(128) for _ in range(BLOCKS)]
            key_ready = await tb.load_key(key)
            await tb.load_iv(iv)
            tb.configure(mode, direction, key_bits)
            res = await tb.stream(blocks)
            want = reference(mode, direction, key, iv, blocks, tb.variant.ctr_bits)
            assert res.outputs == want, f"{name} AES-{key_bits}"
            assert res.lat_min == res.lat_max
            records.append(
                {
                    "mode": name,
                    "key_bits": key_bits,
                    "blocks": BLOCKS,
                    "latency": res.lat_min,
                    "cycles_per_block": (res.last_out - res.first_in - res.lat_min) / (BLOCKS - 1),
                    "key_to_ready": key_ready,
                }
            )
    Path(os.environ[MEASURE_ENV]).write_text(json.dumps(records, indent=1))
