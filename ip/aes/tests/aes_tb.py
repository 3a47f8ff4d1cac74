"""cocotb bench for aes_engine: variant model, clock/reset, key/IV/config drivers, stream harness."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cocotb.handle import ArrayObject

from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, First, ReadOnly, RisingEdge, SimTimeoutError, with_timeout

# This checkout's aesoc, even where the simulator's Python would find another installed copy.
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from aesoc.soc.regs import regmap  # noqa: E402

# The engine's encodings: the enums of the register map (ip/aes/data/aes.rdl).
_ENUMS = regmap("aes").enums
MODE_ECB, MODE_CBC, MODE_CTR, MODE_GCM = (_ENUMS["aes_mode_e"][m] for m in ("ECB", "CBC", "CTR", "GCM"))
GCM_AAD, GCM_TEXT, GCM_IV = (_ENUMS["aes_gcm_phase_e"][p] for p in ("AAD", "TEXT", "IV"))
ENC, DEC = _ENUMS["aes_dir_e"]["ENC"], _ENUMS["aes_dir_e"]["DEC"]
KEY_LEN_CODE = {bits: _ENUMS["aes_key_len_e"][f"KEY_{bits}"] for bits in (128, 192, 256)}
CTR_WIDTH_CODE = {bits: _ENUMS["aes_ctr_width_e"][f"CTR_{bits}"] for bits in (32, 64, 128)}
NUM_ROUNDS = {128: 10, 192: 12, 256: 14}
CLOCK_NS = 10
VARIANT_ENV = "AES_VARIANT"


@dataclass(frozen=True)
class Variant:
    """The RTL parameter set under test, and the cycle counts the design promises for it."""

    rounds_per_cycle: int
    pipelined: bool
    dec_enable: bool
    key_len_max: int
    datapath: int  # bits of state through the S-boxes per cycle: 128 (rounds) or 32 (columns)
    ghash_bits: int  # GCM's GHASH bits per cycle; 0: GCM not built
    sbox_impl: int  # Datapath 32: 0 tower field, 1 tables, 2 ROMs (one clock edge per lookup)
    modes: int  # modes built, one bit each: 1 ECB, 2 CBC, 4 CTR
    ctr_bits: int  # widest CTR counter built
    masking: int  # 0 unmasked; 1, 2: aes_masked_core (ten cycles per round)
    split_round: bool  # a register inside the round: two cycles per round

    @classmethod
    def from_params(cls, params: dict[str, int]) -> Variant:
        return cls(
            rounds_per_cycle=params.get("RoundsPerCycle", 1),
            pipelined=bool(params.get("Pipelined", 0)),
            dec_enable=bool(params.get("DecEnable", 1)),
            key_len_max=params.get("KeyLenMax", 256),
            datapath=params.get("Datapath", 128),
            ghash_bits=params.get("GhashBits", 0),
            sbox_impl=params.get("SBoxImpl", 0),
            modes=params.get("Modes", 7),
            ctr_bits=params.get("CtrBits", 128),
            masking=params.get("Masking", 0),
            split_round=bool(params.get("SplitRound", 0)),
        )

    @classmethod
    def from_env(cls) -> Variant:
        return cls.from_params(json.loads(os.environ[VARIANT_ENV]))

    @property
    def key_sizes(self) -> tuple[int, ...]:
        return (128, 192, 256) if self.key_len_max == 256 else (128,)

    @property
    def cycles_per_round(self) -> int:
        """A serial datapath takes 128 / Datapath cycles per round (one column per cycle at 32); the
        masked one ten (nine masked S-box steps and an update), the split round two."""
        if self.masking:
            return 10
        return 2 if self.split_round else 128 // self.datapath

    @property
    def stages(self) -> int:
        """Rounds (and key-schedule steps) per cycle; the serial datapaths step the key once a cycle
        while deriving the decryption key."""
        if self.datapath < 128:
            return 1
        if self.rounds_per_cycle:
            return self.rounds_per_cycle
        return 14 if self.key_len_max == 256 else 10

    @property
    def ghash_cycles(self) -> int:
        """Cycles per GHASH multiply (0: no GCM)."""
        return 128 // self.ghash_bits if self.ghash_bits else 0

    def built(self, mode: int) -> bool:
        """ECB, CBC or CTR is built (Modes)."""
        return bool(self.modes >> {MODE_ECB: 0, MODE_CBC: 1, MODE_CTR: 2}[mode] & 1)

    @property
    def ctr_widths(self) -> tuple[int, ...]:
        return tuple(w for w in (32, 64, 128) if w <= self.ctr_bits)

    def supports(self, mode: int, direction: int, key_bits: int) -> bool:
        dec_needed = mode != MODE_CTR and direction == DEC
        return self.built(mode) and key_bits in self.key_sizes and (self.dec_enable or not dec_needed)

    def latency(self, key_bits: int) -> int:
        """Cycles from the cycle a block is taken to the cycle its result is taken (no stalls)."""
        nr = NUM_ROUNDS[key_bits]
        if self.pipelined:
            return 1 + nr
        return 1 + -(-nr // self.stages) * self.cycles_per_round

    def period(self, mode: int, direction: int, key_bits: int) -> int:
        """Cycles per block in a long stream without stalls."""
        if self.pipelined and not (mode == MODE_CBC and direction == ENC):
            return 1
        return self.latency(key_bits)

    def key_ready_delay(self, key_bits: int) -> int:
        """Cycles from the key write to key_ready: 1 + the decryption-key derivation."""
        if not self.dec_enable:
            return 1
        if self.pipelined:
            return 2
        if self.masking:
            return 1 + NUM_ROUNDS[key_bits] * self.cycles_per_round
        return 1 + -(-NUM_ROUNDS[key_bits] // self.stages)


@dataclass(frozen=True)
class StreamResult:
    outputs: list[int]
    lat_min: int
    lat_max: int
    first_in: int
    last_out: int


def block_ints(data: bytes) -> list[int]:
    return [int.from_bytes(data[i : i + 16], "big") for i in range(0, len(data), 16)]


def blocks_bytes(blocks: list[int]) -> bytes:
    return b"".join(b.to_bytes(16, "big") for b in blocks)


class AesTb:
    """Drives tb_aes_engine. Inputs change right after a rising edge; the harness streams."""

    def __init__(self, dut: Any) -> None:
        self.dut = dut
        self.variant = Variant.from_env()
        self.depth = 16384

    async def start(self) -> None:
        dut = self.dut
        Clock(dut.clk_i, CLOCK_NS, unit="ns").start()
        for name in (
            "mode_i", "dir_i", "key_len_i", "ctr_width_i", "key_i", "key_we_i", "iv_i", "iv_we_i",
            "clear_i", "man_in_valid_i", "man_in_data_i", "man_out_ready_i", "run_i", "n_blocks_i",
            "in_gap_i", "out_stall_i", "seed_i", "sbox_data_i", "sbox_inv_i", "n_out_i",
            "gcm_phase_i", "gcm_bytes_i", "gcm_start_i", "gcm_final_i", "gcm_tag_len_i", "gcm_tag_i",
        ):
            getattr(dut, name).value = 0
        dut.rst_ni.value = 0
        await ClockCycles(dut.clk_i, 3)
        dut.rst_ni.value = 1
        await RisingEdge(dut.clk_i)

    def configure(self, mode: int, direction: int, key_bits: int, ctr_width: int | None = None) -> None:
        """Set the configuration inputs (ctr_width None: the widest the variant builds)."""
        ctr_width = self.variant.ctr_bits if ctr_width is None else ctr_width
        self.dut.mode_i.value = mode
        self.dut.dir_i.value = direction
        self.dut.key_len_i.value = KEY_LEN_CODE[key_bits]
        self.dut.ctr_width_i.value = CTR_WIDTH_CODE[ctr_width]

    async def pulse(self, name: str) -> None:
        getattr(self.dut, name).value = 1
        await RisingEdge(self.dut.clk_i)
        getattr(self.dut, name).value = 0

    async def load_key(self, key: bytes) -> int:
        """Write the key; wait (bounded) for key_ready. Returns key-write-to-ready cycles."""
        self.dut.key_len_i.value = KEY_LEN_CODE[len(key) * 8]
        self.dut.key_i.value = int.from_bytes(key.ljust(32, b"\0"), "big")
        await self.pulse("key_we_i")
        self.dut.key_i.value = 0
        # Values read right at a rising edge are the ones from before it: read in ReadOnly.
        bound = 40 + self.variant.key_ready_delay(len(key) * 8)
        await self.until_high(self.dut.key_ready_o, cycles=bound, what="key_ready did not rise")
        await self.settle()  # the harness stamps key_ready's rise at this edge
        delay = int(self.dut.key_ready_cycle_o.value) - int(self.dut.key_we_cycle_o.value)
        await RisingEdge(self.dut.clk_i)
        return delay

    async def load_iv(self, iv: int) -> None:
        self.dut.iv_i.value = iv
        await self.pulse("iv_we_i")

    async def clear(self) -> None:
        await self.pulse("clear_i")

    async def stream(
        self, blocks: list[int], in_gap: int = 0, out_stall: int = 0, seed: int = 1, results: bool = True
    ) -> StreamResult:
        """Stream blocks through the engine (gaps and stalls out of 256) and collect the results
        (results=False: the blocks give none, as GCM's AAD and IV blocks)."""
        dut = self.dut
        n = len(blocks)
        n_out = n if results else 0
        dut.n_out_i.value = n_out
        assert 0 < n <= self.depth
        mem = dut.in_mem
        for i, block in enumerate(blocks):
            mem[i].value = block
        dut.n_blocks_i.value = n
        dut.in_gap_i.value = in_gap
        dut.out_stall_i.value = out_stall
        dut.seed_i.value = seed
        await self.pulse("run_i")
        per_block = max(20, self.variant.latency(max(self.variant.key_sizes)) + 2, self.variant.ghash_cycles + 2)
        bound = (n * per_block * (256 // max(1, 256 - max(in_gap, out_stall))) + 200) * CLOCK_NS
        try:
            await with_timeout(RisingEdge(dut.done_o), bound, "ns")
        except SimTimeoutError:
            raise AssertionError(
                f"stream of {n} blocks timed out: err={dut.err_o.value} busy={dut.busy_o.value} "
                f"in_ready={dut.in_ready_o.value} out_valid={dut.out_valid_o.value} key_ready={dut.key_ready_o.value}"
            ) from None
        await ReadOnly()
        out_mem = dut.out_mem
        outputs = [int(out_mem[i].value) for i in range(n_out)]
        await RisingEdge(dut.clk_i)
        return StreamResult(
            outputs=outputs,
            lat_min=int(dut.lat_min_o.value),
            lat_max=int(dut.lat_max_o.value),
            first_in=int(dut.first_in_o.value),
            last_out=int(dut.last_out_o.value),
        )

    async def until_high(self, *signals: Any, cycles: int, what: str) -> None:
        """Return in the ReadOnly phase of the first cycle in which one of `signals` is high, within
        `cycles` (else fail with `what`): one trigger, not a Python turn per cycle."""
        await ReadOnly()
        if any(s.value == 1 for s in signals):
            return
        try:
            await with_timeout(First(*(RisingEdge(s) for s in signals)), cycles * CLOCK_NS, "ns")
        except SimTimeoutError:
            raise AssertionError(f"{what} within {cycles} cycles") from None
        await ReadOnly()

    async def settle(self) -> None:
        """Next rising edge, then the settled values of that cycle (drive again after an edge)."""
        await RisingEdge(self.dut.clk_i)
        await ReadOnly()

    def offer(self, block: int | None, out_ready: bool = False) -> None:
        """Drive the stream ports directly (harness idle): offer `block` (None: nothing)."""
        self.dut.man_in_valid_i.value = 0 if block is None else 1
        self.dut.man_in_data_i.value = 0 if block is None else block
        self.dut.man_out_ready_i.value = int(out_ready)

    async def no_output_for(self, cycles: int) -> None:
        """Assert out_valid stays low for `cycles` cycles while out_ready is high."""
        self.dut.man_out_ready_i.value = 1
        for _ in range(cycles):
            await self.settle()
            assert self.dut.out_valid_o.value == 0, "engine produced output after an error"
        await RisingEdge(self.dut.clk_i)


def registers(handle: Any) -> list[Any]:
    """Every `*_q` register under `handle` (recursing through instances and generate blocks); an
    unpacked array of registers (the pipelined stages) counts element by element."""
    found: list[Any] = []
    for child in handle:
        name = child._name
        if name.endswith("_q"):
            found.extend(list(child) if isinstance(child, ArrayObject) else [child])
        elif not hasattr(child, "value"):
            found.extend(registers(child))
    return found
