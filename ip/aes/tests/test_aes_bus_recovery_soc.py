"""Issue 47 (1) in the SoC: a DMA channel's access that the AES peripheral holds (a DATA_OUT[0]
read while the AES is idle, a DATA_IN[3] write into a full input FIFO) ends at the crossbar's slave
timeout (the channel stops with RD_BUS / WR_BUS); the AES then abandons the held access, and the
CPU reads its ID and uses it normally (fw/tests/aes_bus_recovery)."""

from __future__ import annotations

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from aesoc.common.toolchain import REPO
from aesoc.sim.run import build_and_run
from aesoc.soc.description import load_config
from aesoc.soc.regs import regmap

KEY = bytes(range(16))
PT = bytes.fromhex("00112233445566778899aabbccddeeff")


def test_dma_timeout_leaves_the_cpu_in_control() -> None:
    result, line = build_and_run(REPO / "fw" / "tests" / "aes_bus_recovery")
    assert result.status == "exit" and result.code == 0, f"{line}\n{result.console[-3000:]}"
    errors = regmap("dma").enums["dma_err_e"]
    aes = regmap("aes")
    params = load_config("full").of_block("aes").params
    capacity = params["InDepth"] + 1 + params["OutDepth"]  # input FIFO, engine, output FIFO
    ct = Cipher(algorithms.AES(KEY), modes.ECB()).encryptor().update(PT).hex()
    records = {r["case"]: r for r in result.records_of("aes_bus_recovery")}
    assert set(records) == {"read", "write"}
    for case, err in (("read", "RD_BUS"), ("write", "WR_BUS")):
        rec = records[case]
        assert rec["dma_err"] == errors[err], f"{case}: the channel stopped with {rec['dma_err']}"
        assert rec["id"] == aes.fields["ID.id"].reset, f"{case}: the CPU's ID read after the timeout"
        assert rec["bus_abort"] == 1, f"{case}: IRQ_STATUS.BUS_ABORT not set"
        assert rec["crypt_ok"] == 1 and rec["ct"] == ct, f"{case}: the AES after the timeout"
    assert records["write"]["queued"] == records["write"]["results"] == capacity
