# SPDX-License-Identifier: Apache-2.0
"""cocotb tests for wb_xbar: cycle-level master/slave models and a reference-model monitor.

Everything runs from one loop (`Bench.step`): drive all inputs right after the clock edge, sample
all outputs in ReadOnly, check them against a cycle-accurate model of the crossbar, then let the
master and slave models react to what was sampled. No background coroutines besides the clock,
so every run is deterministic for a given seed.
"""

from __future__ import annotations

import os
import random
from collections import deque

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge

CTI_CLASSIC, CTI_CONST, CTI_INCR, CTI_END = 0, 1, 2, 7
REGION_WORDS = 1 << 10  # each master owns a private 4 KiB region in every slave window
ERR_OFFSET = 0x3F0  # memory slaves answer ERR at this word of every 4 KiB region
UNMAPPED_BYTE = 0xF000_0000


# --------------------------------------------------------------------------------------------------
# Address map shared with the pytest entry (which turns it into -G parameters).
# --------------------------------------------------------------------------------------------------
def slave_map(ns: int) -> tuple[list[int], list[int]]:
    """Slave 0 is a 64 KiB window that overlaps slave 1 (lowest index must win)."""
    base, mask = [], []
    for s in range(ns):
        if s == 0:
            base.append(0x1000_0000), mask.append(0xFFFF_0000)
        elif s == 1:
            base.append(0x1000_0000), mask.append(0xF000_0000)
        else:
            base.append(s << 28), mask.append(0xF000_0000)
    return base, mask


def sv_array_literal(values: list[int], width: int) -> str:
    packed = sum(v << (i * width) for i, v in enumerate(values))
    return f"{len(values) * width}'h{packed:x}"


def window_word(s: int) -> int:
    """Word address where test traffic to slave s lives (slave 1 stays clear of slave 0's window)."""
    byte = {0: 0x1000_0000, 1: 0x1800_0000}.get(s, s << 28)
    return byte >> 2


def region_word(s: int, m: int, off: int = 0) -> int:
    return window_word(s) + m * REGION_WORDS + off


def mem_init(s: int, word: int) -> int:
    return (word * 0x9E37_79B1 + s * 0x0123_4567 + 0x55) & 0xFFFF_FFFF


def merge(old: int, new: int, sel: int) -> int:
    out = old
    for b in range(4):
        if sel >> b & 1:
            out = (out & ~(0xFF << 8 * b)) | (new & (0xFF << 8 * b))
    return out


def pack(values: list[int], width: int) -> int:
    return sum((v & ((1 << width) - 1)) << (i * width) for i, v in enumerate(values))


def unpack(value: int, n: int, width: int) -> list[int]:
    m = (1 << width) - 1
    return [(value >> (i * width)) & m for i in range(n)]


# --------------------------------------------------------------------------------------------------
# Master model
# --------------------------------------------------------------------------------------------------
class Beat:
    __slots__ = ("we", "adr", "dat", "sel")

    def __init__(self, we: bool, adr: int, dat: int = 0, sel: int = 0xF):
        self.we, self.adr, self.dat, self.sel = we, adr, dat, sel


class Op:
    """One access (classic) or one burst. `expect` lists ('ack', rdata|None) per beat or [('err', None)]."""

    def __init__(self, beats, mode="classic", keep_cyc=False, gap=0, stall=0.0, expect=None, tag=None,
                 abort_after=None):
        assert mode in ("classic", "incr", "const") and (mode != "classic" or len(beats) == 1)
        self.beats, self.mode, self.keep_cyc, self.gap, self.stall = beats, mode, keep_cyc, gap, stall
        # Terminate the cycle (drop CYC) after this many answered beats, mid-burst.
        self.abort_after = abort_after
        self.expect, self.tag = expect, tag
        self.results: list[tuple[str, int | None, int]] = []
        self.start: int | None = None  # first cycle STB was driven
        self.end: int | None = None
        self.done = False

    def cti(self, i: int) -> int:
        if self.mode == "classic":
            return CTI_CLASSIC
        if i == len(self.beats) - 1:
            return CTI_END
        return CTI_INCR if self.mode == "incr" else CTI_CONST

    def ack_cycles(self) -> list[int]:
        return [c for k, _, c in self.results if k == "ack"]

    def check(self) -> None:
        assert self.done, f"op {self.tag} never finished"
        if self.expect is None:
            return
        got = [(k, d) for k, d, _ in self.results]
        assert got == self.expect, f"op {self.tag}: got {got}, expected {self.expect}"


class MasterBfm:
    def __init__(self, idx: int, rng: random.Random):
        self.idx, self.rng = idx, rng
        self.queue: deque[Op] = deque()
        self.op: Op | None = None
        self.beat = 0
        self.cyc = self.stb = False
        self.stall_left = 0
        self.idle_left = 0
        self.completed: list[Op] = []

    def push(self, *ops: Op) -> None:
        self.queue.extend(ops)
        if self.op is None and self.idle_left == 0:
            self._load()

    @property
    def busy(self) -> bool:
        """Something queued or under way, or still in the idle gap after the last cycle."""
        return self.op is not None or bool(self.queue) or self.idle_left > 0

    def _load(self) -> None:
        if self.queue:
            self.op, self.beat = self.queue.popleft(), 0
            self.cyc = self.stb = True

    def drive(self) -> tuple:
        """(cyc, stb, we, adr, dat, sel, cti, bte) for this cycle."""
        if self.op is None:
            return (self.cyc, False, False, 0, 0, 0, 0, 0)
        b = self.op.beats[self.beat]
        return (self.cyc, self.stb, b.we, b.adr, b.dat, b.sel, self.op.cti(self.beat), 0)

    def note_cycle(self, cycle: int) -> None:
        if self.op is not None and self.stb and self.op.start is None:
            self.op.start = cycle

    def on_edge(self, ack: bool, err: bool, rdat: int, cycle: int) -> None:
        op = self.op
        if op is not None and self.stb:
            if ack or err:
                we = op.beats[self.beat].we
                op.results.append(("ack" if ack else "err", None if (we or err) else rdat, cycle))
                self.beat += 1
                if err or self.beat == len(op.beats) or self.beat == op.abort_after:
                    self._finish(cycle)
                elif op.stall and self.rng.random() < op.stall:
                    # Master wait state inside the burst: STB low, CYC and CTI kept.
                    self.stb, self.stall_left = False, self.rng.randint(1, 2)
        elif op is not None:
            self.stall_left -= 1
            if self.stall_left == 0:
                self.stb = True
        elif self.idle_left > 0:
            self.idle_left -= 1
            if self.idle_left == 0:
                self._load()
        elif self.queue:
            self._load()

    def _finish(self, cycle: int) -> None:
        op = self.op
        op.done, op.end = True, cycle
        self.completed.append(op)
        self.op = None
        ended_early = self.beat < len(op.beats)
        if op.keep_cyc and self.queue and not ended_early:
            self._load()
        else:
            # Ending the cycle means CYC low for at least one cycle.
            self.cyc = self.stb = False
            self.idle_left = max(1, op.gap)


# --------------------------------------------------------------------------------------------------
# Slave models
# --------------------------------------------------------------------------------------------------
class MemSlave:
    """Memory with wait states; registered feedback: acks the next beat of an incrementing burst
    in the cycle right after the previous ACK when its wait state count is 0."""

    def __init__(self, idx: int, rng: random.Random, max_wait: int):
        self.idx, self.rng, self.max_wait = idx, rng, max_wait
        self.fixed_wait: int | None = None
        self.mem: dict[int, int] = {}
        self.ack = self.err = False
        self.dat = 0
        self.state = "idle"
        self.remaining = 0
        self.expect_adr = 0
        self.first_seen = 0
        self.log: list[tuple] = []  # (first_seen, done_cycle, kind, we, adr, data, sel, cti)

    def read(self, adr: int) -> int:
        return self.mem.get(adr, mem_init(self.idx, adr))

    def _wait(self) -> int:
        if self.fixed_wait is not None:
            return self.fixed_wait
        return self.rng.randint(0, self.max_wait) if self.max_wait else 0

    def _respond(self, adr: int) -> None:
        self.state = "resp"
        if (adr & (REGION_WORDS - 1)) == ERR_OFFSET:
            self.err = True
        else:
            self.ack, self.dat = True, self.read(adr)

    def _start(self, adr: int, first_seen: int) -> None:
        self.expect_adr, self.first_seen = adr, first_seen
        w = self._wait()
        if w == 0:
            self._respond(adr)
        else:
            self.state, self.remaining = "wait", w

    def on_edge(self, cyc, stb, we, adr, wdat, sel, cti, bte, cycle) -> None:
        was_ack, was_err = self.ack, self.err
        self.ack = self.err = False
        if cyc and stb and (was_ack or was_err):
            assert adr == self.expect_adr, f"slave {self.idx}: beat address {adr:#x} != {self.expect_adr:#x}"
            if was_ack and we:
                self.mem[adr] = merge(self.read(adr), wdat, sel)
            data = wdat if we else self.dat
            self.log.append((self.first_seen, cycle, "ack" if was_ack else "err", we, adr, data, sel, cti))
            self.state = "idle"
            if was_ack and cti == CTI_INCR and bte == 0:
                self._start(adr + 1, cycle + 1)
        elif cyc and stb:
            if self.state == "idle":
                self._start(adr, cycle)
            else:
                assert self.state == "wait" and adr == self.expect_adr, f"slave {self.idx}: request changed"
                self.remaining -= 1
                if self.remaining == 0:
                    self._respond(adr)
        else:
            self.state = "idle"


class DeadSlave:
    """Never answers; remembers in which cycles it was strobed."""

    def __init__(self, idx: int):
        self.idx = idx
        self.ack = self.err = False
        self.dat = 0xDEAD_BEEF
        self.strobed: list[int] = []

    def on_edge(self, cyc, stb, we, adr, wdat, sel, cti, bte, cycle) -> None:
        if cyc and stb:
            self.strobed.append(cycle)


# --------------------------------------------------------------------------------------------------
# Reference model of the crossbar, checked every cycle
# --------------------------------------------------------------------------------------------------
class Monitor:
    def __init__(self, bench: Bench):
        self.b = bench
        ns, nm = bench.ns, bench.nm
        self.lock: list[int | None] = [None] * ns
        # Last round-robin winner per class (index 1: high) and high grants in a row while a
        # low-class master waited, per slave.
        self.last = [[-1, -1] for _ in range(ns)]
        self.hi_run = [0] * ns
        self.cnt = [0] * ns
        self.to_owner: list[int | None] = [None] * ns
        # RegGrant: the master each slave is parked on (its grant register).
        self.park: list[int | None] = [None] * ns
        self.unmapped_q = [False] * nm
        self.arb_log: list[tuple] = []  # (cycle, slave, requesters, winner, prio tuple)

    def _pick(self, s: int, req: list[int], prio: list[int]) -> int | None:
        """The winner, or None when the budget is spent and the low class has left."""
        hi = [m for m in req if prio[m]]
        lo = [m for m in req if not prio[m]]
        cls = lo if self.hi_run[s] == self.b.budget else (hi or lo)
        if not cls:
            return None
        last = self.last[s][prio[cls[0]]]
        after = [m for m in cls if m > last]
        return min(after) if after else min(cls)

    def _count(self, s: int, req: list[int], prio: list[int], winner: int | None) -> None:
        """The budget counter: high grants in a row while a low-class master waits."""
        lo_wait = any(not prio[m] for m in req)
        if not lo_wait or (winner is not None and not prio[winner]):
            self.hi_run[s] = 0
        elif winner is not None:
            self.hi_run[s] += 1

    def _rearbitrate(self, s: int, req: list[int], prio: list[int]) -> None:
        """RegGrant: the arbiter's pick of this cycle's requests owns slave s from the next cycle."""
        winner = self._pick(s, req, prio) if req else None
        self._count(s, req, prio, winner)
        if winner is not None:
            self.park[s] = winner
            self.last[s][prio[winner]] = winner

    def check(self, cycle: int, drv: list[tuple], prio: list[int], out: dict) -> None:
        b, nm, ns = self.b, self.b.nm, self.b.ns
        dec = [b.decode(d[3]) if d[0] and d[1] else None for d in drv]
        dec_any = [b.decode(d[3]) for d in drv]
        exp_ack, exp_err = [False] * nm, [False] * nm

        def fail(msg: str) -> None:
            raise AssertionError(f"cycle {cycle}: {msg}")

        for s in range(ns):
            sl = b.slaves[s]
            req = [m for m in range(nm) if dec[m] == s]
            got = (out["s_cyc"][s], out["s_stb"][s])
            if self.to_owner[s] is not None:
                # Timeout cycle: the slave is dropped and the owner gets ERR.
                if got != (0, 0):
                    fail(f"slave {s} not dropped in its timeout cycle")
                o = self.to_owner[s]
                if drv[o][0] and drv[o][1] and dec_any[o] == s:
                    exp_err[o] = True
                self.to_owner[s], self.lock[s], self.cnt[s] = None, None, 0
                if b.reg_grant:
                    self._rearbitrate(s, req, prio)
                else:
                    self._count(s, req, prio, None)
                continue
            if b.reg_grant:
                self._check_parked(s, cycle, drv, dec_any, req, prio, out, exp_ack, exp_err)
                continue
            owner = self.lock[s]
            if owner is None:
                owner = self._pick(s, req, prio) if req else None
                self._count(s, req, prio, owner)
                if owner is not None:
                    self.last[s][prio[owner]] = owner
                    self.arb_log.append((cycle, s, tuple(req), owner, tuple(prio)))
            else:
                self._count(s, req, prio, None)
            if owner is None:
                if got != (0, 0):
                    fail(f"slave {s} strobed with no requester")
                self.cnt[s] = 0
                continue
            d = drv[owner]
            exp_stb = bool(d[0] and d[1] and dec_any[owner] == s)
            if got != (int(d[0]), int(exp_stb)):
                fail(f"slave {s}: cyc/stb {got}, expected owner m{owner} -> {(int(d[0]), int(exp_stb))}")
            self._check_fields(cycle, s, owner, d, out)
            done = exp_stb and (sl.ack or sl.err)
            if exp_stb:
                exp_ack[owner], exp_err[owner] = sl.ack, sl.err
            if not d[0] or (done and d[6] not in (CTI_CONST, CTI_INCR)):
                self.lock[s] = None
            else:
                self.lock[s] = owner
            if exp_stb and not done:
                self.cnt[s] += 1
                if b.timeout and self.cnt[s] == b.timeout:
                    self.to_owner[s], self.lock[s], self.cnt[s] = owner, None, 0
            else:
                self.cnt[s] = 0

        for m in range(nm):
            strobing = bool(drv[m][0] and drv[m][1])
            if strobing and dec_any[m] is None:
                exp_err[m] = exp_err[m] or self.unmapped_q[m]
            nxt = strobing and dec_any[m] is None and not self.unmapped_q[m]
            self.unmapped_q[m] = nxt
            if (out["m_ack"][m], out["m_err"][m]) != (int(exp_ack[m]), int(exp_err[m])):
                fail(f"master {m}: ack/err {(out['m_ack'][m], out['m_err'][m])}, "
                     f"expected {(int(exp_ack[m]), int(exp_err[m]))}")
            exp_dat = b.slaves[dec_any[m]].dat if dec_any[m] is not None else 0
            if out["m_dat"][m] != exp_dat:
                fail(f"master {m}: read data {out['m_dat'][m]:#x} != {exp_dat:#x}")

    @staticmethod
    def _check_fields(cycle: int, s: int, owner: int, d: tuple, out: dict) -> None:
        """Slave s sees its owner's request fields."""
        fields = (out["s_we"][s], out["s_adr"][s], out["s_dat"][s], out["s_sel"][s], out["s_cti"][s],
                  out["s_bte"][s])
        if fields != (int(d[2]), d[3], d[4], d[5], d[6], d[7]):
            raise AssertionError(f"cycle {cycle}: slave {s}: request fields {fields} differ from owner m{owner}'s")

    def _check_parked(self, s: int, cycle: int, drv: list[tuple], dec_any: list[int | None], req: list[int],
                      prio: list[int], out: dict, exp_ack: list[bool], exp_err: list[bool]) -> None:
        """One slave in a RegGrant cycle: only its parked owner reaches it; unlocked, the arbiter
        picks the next owner from this cycle's requests."""
        sl = self.b.slaves[s]
        owner = self.park[s]
        got = (out["s_cyc"][s], out["s_stb"][s])
        if owner is None:
            if got != (0, 0):
                raise AssertionError(f"cycle {cycle}: slave {s} strobed before any grant")
            self._rearbitrate(s, req, prio)
            return
        d = drv[owner]
        locked = self.lock[s] == owner
        exp_cyc = bool(d[0] and (dec_any[owner] == s or locked))
        exp_stb = bool(d[0] and d[1] and dec_any[owner] == s)
        if got != (int(exp_cyc), int(exp_stb)):
            raise AssertionError(f"cycle {cycle}: slave {s}: cyc/stb {got}, expected parked owner m{owner} -> "
                                 f"{(int(exp_cyc), int(exp_stb))}")
        self._check_fields(cycle, s, owner, d, out)
        done = exp_stb and (sl.ack or sl.err)
        if exp_stb:
            exp_ack[owner], exp_err[owner] = sl.ack, sl.err
            if not locked:
                # The access's first cycle at the slave: its grant, as arb_log counts grants.
                self.arb_log.append((cycle, s, tuple(req), owner, tuple(prio)))
        fire = False
        if exp_stb and not done:
            self.cnt[s] += 1
            fire = bool(self.b.timeout) and self.cnt[s] == self.b.timeout
        else:
            self.cnt[s] = 0
        held = exp_cyc if locked else exp_stb
        if fire:
            self.to_owner[s], self.lock[s], self.cnt[s] = owner, None, 0
            self._count(s, req, prio, None)
        elif held and not (done and d[6] not in (CTI_CONST, CTI_INCR)):
            self.lock[s] = owner
            self._count(s, req, prio, None)
        else:
            self.lock[s] = None
            self._rearbitrate(s, req, prio)


# --------------------------------------------------------------------------------------------------
# Bench
# --------------------------------------------------------------------------------------------------
class Bench:
    def __init__(self, dut, seed: int = 1):
        self.dut = dut
        self.nm, self.ns = len(dut.m_cyc_i), len(dut.s_cyc_o)
        assert self.nm == int(os.environ["WB_XBAR_NM"]) and self.ns == int(os.environ["WB_XBAR_NS"])
        assert self.ns >= 3, "bench needs a zero-wait, a random-wait and a dead slave"
        self.timeout = int(os.environ["WB_XBAR_TIMEOUT"])
        self.budget = int(os.environ["WB_XBAR_BUDGET"])
        self.reg_grant = os.environ["WB_XBAR_REG_GRANT"] == "1"
        self.base, self.mask = slave_map(self.ns)
        self.rng = random.Random(seed)
        self.masters = [MasterBfm(m, random.Random(seed * 100 + m)) for m in range(self.nm)]
        self.dead = self.ns - 1
        self.zero_wait = [s for s in range(self.dead) if s % 2 == 0]
        self.rand_wait = [s for s in range(self.dead) if s % 2 == 1]
        self.slaves = [
            MemSlave(s, random.Random(seed * 1000 + s), 0 if s in self.zero_wait else 3)
            for s in range(self.dead)
        ] + [DeadSlave(self.dead)]
        self.mem_slaves = self.zero_wait + self.rand_wait
        self.prio = [0] * self.nm
        self.cycle = 0
        self.monitor = Monitor(self)
        self.trace: list[tuple] = []  # per cycle: (s_cyc list, s_stb list) when tracing
        self.tracing = False

    def decode(self, word: int) -> int | None:
        byte = (word << 2) & 0xFFFF_FFFF
        for s in range(self.ns):
            if byte & self.mask[s] == self.base[s]:
                return s
        return None

    async def reset(self) -> None:
        Clock(self.dut.clk_i, 10, unit="ns").start()
        for name in ("m_prio_i", "m_cyc_i", "m_stb_i", "m_we_i", "m_adr_i", "m_dat_i", "m_sel_i", "m_cti_i",
                     "m_bte_i", "s_dat_i", "s_ack_i", "s_err_i"):
            getattr(self.dut, name).value = 0
        self.dut.rst_ni.value = 0
        for _ in range(3):
            await RisingEdge(self.dut.clk_i)
        self.dut.rst_ni.value = 1

    async def step(self) -> None:
        dut, nm, ns = self.dut, self.nm, self.ns
        for m in self.masters:
            m.note_cycle(self.cycle)
        drv = [m.drive() for m in self.masters]
        col = list(zip(*drv))
        dut.m_prio_i.value = pack(self.prio, 1)
        dut.m_cyc_i.value = pack([int(x) for x in col[0]], 1)
        dut.m_stb_i.value = pack([int(x) for x in col[1]], 1)
        dut.m_we_i.value = pack([int(x) for x in col[2]], 1)
        dut.m_adr_i.value = pack(list(col[3]), 30)
        dut.m_dat_i.value = pack(list(col[4]), 32)
        dut.m_sel_i.value = pack(list(col[5]), 4)
        dut.m_cti_i.value = pack(list(col[6]), 3)
        dut.m_bte_i.value = pack(list(col[7]), 2)
        dut.s_dat_i.value = pack([s.dat for s in self.slaves], 32)
        dut.s_ack_i.value = pack([int(s.ack) for s in self.slaves], 1)
        dut.s_err_i.value = pack([int(s.err) for s in self.slaves], 1)
        await ReadOnly()
        out = {
            "m_ack": unpack(dut.m_ack_o.value.to_unsigned(), nm, 1),
            "m_err": unpack(dut.m_err_o.value.to_unsigned(), nm, 1),
            "m_dat": unpack(dut.m_dat_o.value.to_unsigned(), nm, 32),
            "s_cyc": unpack(dut.s_cyc_o.value.to_unsigned(), ns, 1),
            "s_stb": unpack(dut.s_stb_o.value.to_unsigned(), ns, 1),
            "s_we": unpack(dut.s_we_o.value.to_unsigned(), ns, 1),
            "s_adr": unpack(dut.s_adr_o.value.to_unsigned(), ns, 30),
            "s_dat": unpack(dut.s_dat_o.value.to_unsigned(), ns, 32),
            "s_sel": unpack(dut.s_sel_o.value.to_unsigned(), ns, 4),
            "s_cti": unpack(dut.s_cti_o.value.to_unsigned(), ns, 3),
            "s_bte": unpack(dut.s_bte_o.value.to_unsigned(), ns, 2),
        }
        self.monitor.check(self.cycle, drv, list(self.prio), out)
        if self.tracing:
            self.trace.append((self.cycle, out["s_cyc"], out["s_stb"], out["m_ack"], out["m_err"]))
        await RisingEdge(dut.clk_i)
        for m, mst in enumerate(self.masters):
            mst.on_edge(bool(out["m_ack"][m]), bool(out["m_err"][m]), out["m_dat"][m], self.cycle)
        for s, sl in enumerate(self.slaves):
            sl.on_edge(out["s_cyc"][s], out["s_stb"][s], out["s_we"][s], out["s_adr"][s], out["s_dat"][s],
                       out["s_sel"][s], out["s_cti"][s], out["s_bte"][s], self.cycle)
        self.cycle += 1

    async def run(self, cycles: int) -> None:
        for _ in range(cycles):
            await self.step()

    async def run_until_idle(self, limit: int, masters=None) -> None:
        masters = self.masters if masters is None else [self.masters[m] for m in masters]
        for _ in range(limit):
            if not any(m.busy for m in masters):
                return
            await self.step()
        raise AssertionError(f"masters still busy after {limit} cycles (hang?)")


def grant_wait(b: Bench, s: int, m: int) -> int:
    """Cycles the crossbar adds before master m's next access reaches slave s: one with RegGrant
    while s is parked on another master, else none."""
    return int(b.reg_grant and b.monitor.park[s] != m)


async def start(dut, seed: int = 1) -> Bench:
    bench = Bench(dut, seed)
    await bench.reset()
    return bench


# --------------------------------------------------------------------------------------------------
# Traffic helpers with a per-master reference memory
# --------------------------------------------------------------------------------------------------
class RefMem:
    def __init__(self):
        self.mem: dict[tuple[int, int], int] = {}

    def read(self, s: int, word: int) -> int:
        return self.mem.get((s, word), mem_init(s, word))

    def write(self, s: int, word: int, dat: int, sel: int) -> None:
        self.mem[(s, word)] = merge(self.read(s, word), dat, sel)


def mem_op(ref: RefMem, s: int, words: list[int], writes: bool, rng: random.Random, mode="classic",
           abort_after: int | None = None, **kw) -> Op:
    """Reads/writes to memory slave s; the reference sees only the beats that will be acked
    (the burst stops at an ERR word or after abort_after beats)."""
    beats, expect = [], []
    for w in words:
        if writes:
            dat, sel = rng.getrandbits(32), rng.randint(1, 15)
            beats.append(Beat(True, w, dat, sel))
        else:
            beats.append(Beat(False, w, rng.getrandbits(32), rng.randint(0, 15)))
    for i, bt in enumerate(beats):
        if i == abort_after:
            break
        if (bt.adr & (REGION_WORDS - 1)) == ERR_OFFSET:
            expect.append(("err", None))
            break
        if bt.we:
            ref.write(s, bt.adr, bt.dat, bt.sel)
        expect.append(("ack", None if bt.we else ref.read(s, bt.adr)))
    return Op(beats, mode, expect=expect, abort_after=abort_after, **kw)


def err_op(words: list[int], mode="classic", **kw) -> Op:
    return Op([Beat(False, w) for w in words], mode, expect=[("err", None)], **kw)


def random_op(b: Bench, m: int, ref: RefMem, rng: random.Random, tag, hot: int | None = None) -> Op:
    """One random access of master m; with `hot`, most traffic goes to that slave."""
    kw = dict(keep_cyc=rng.random() < 0.3, gap=rng.choice([0, 0, 1, 2, 5]), tag=tag)
    r = rng.random()
    if r < 0.04:
        n = rng.randint(1, 4)
        base = (UNMAPPED_BYTE >> 2) + m * REGION_WORDS
        return err_op([base + i for i in range(n)], "classic" if n == 1 else "incr", **kw)
    s = hot if hot is not None and rng.random() < 0.8 else rng.choice(b.mem_slaves)
    if r < 0.07:
        return err_op([region_word(s, m, ERR_OFFSET)], **kw)
    writes = rng.random() < 0.5
    if r < 0.5:
        return mem_op(ref, s, [region_word(s, m, rng.randrange(64))], writes, rng, **kw)
    if r < 0.85:
        n, off = rng.randint(2, 8), rng.randrange(56)
        return mem_op(ref, s, [region_word(s, m, off + i) for i in range(n)], writes, rng, "incr",
                      stall=rng.choice([0.0, 0.0, 0.3]), **kw)
    if r < 0.9:
        # Burst that runs into the slave's ERR word: the master must end the cycle there.
        n = rng.randint(2, 8)
        first = ERR_OFFSET - rng.randrange(n)
        return mem_op(ref, s, [region_word(s, m, first + i) for i in range(n)], writes, rng, "incr", **kw)
    if r < 0.95:
        # Burst the master gives up on half way by dropping CYC.
        n, off = rng.randint(3, 8), rng.randrange(56)
        return mem_op(ref, s, [region_word(s, m, off + i) for i in range(n)], writes, rng, "incr",
                      abort_after=rng.randint(1, n - 1), **kw)
    n, w = rng.randint(2, 4), region_word(s, m, rng.randrange(64))
    return mem_op(ref, s, [w] * n, writes, rng, "const", **kw)


def hammer_ops(s: int, m: int, n: int, keep_cyc: bool = True) -> list[Op]:
    """Back-to-back classic reads (expected data not checked: the monitor checks the data path)."""
    return [Op([Beat(False, region_word(s, m, i % 64))], keep_cyc=keep_cyc, tag=(m, i)) for i in range(n)]


# --------------------------------------------------------------------------------------------------
# Tests
# --------------------------------------------------------------------------------------------------
@cocotb.test()
async def test_random_traffic(dut):
    """All masters, random reads/writes/bursts/errors to random slaves, against a reference memory."""
    b = await start(dut, seed=11)
    rng = random.Random(5)
    ref = RefMem()
    ops_per_master = 400
    ops = []
    # Spread over all memory slaves first, then a hot spot on each zero-wait and random-wait slave.
    for hot in (None, b.zero_wait[0], b.rand_wait[0]):
        phase = [[random_op(b, m, ref, rng, (m, i), hot) for i in range(ops_per_master)] for m in range(b.nm)]
        for m, mst in enumerate(b.masters):
            mst.push(*phase[m])
        for _ in range(60 * ops_per_master):
            if not any(m.busy for m in b.masters):
                break
            if rng.random() < 0.02:
                b.prio = [int(rng.random() < 0.4) for _ in range(b.nm)]
            await b.step()
        assert not any(m.busy for m in b.masters), "random traffic did not finish (hang?)"
        ops += phase
    for per_master in ops:
        for op in per_master:
            op.check()
    # The slave memories hold exactly what the reference says.
    for (s, word), val in ref.mem.items():
        assert b.slaves[s].read(word) == val, f"slave {s} word {word:#x}"
    bursts = sum(op.mode != "classic" for o in ops for op in o)
    errs = sum(op.expect[-1][0] == "err" for o in ops for op in o)
    contended = sum(len(e[2]) > 1 for e in b.monitor.arb_log)
    aborted = sum(op.abort_after is not None for o in ops for op in o)
    dut._log.info(f"{3 * b.nm * ops_per_master} ops ({bursts} bursts, {aborted} aborted, {errs} ERR) in "
                  f"{b.cycle} cycles, {contended} contended arbitrations")
    assert bursts > 100 and aborted > 20 and errs > 20 and contended > 200


@cocotb.test()
async def test_idle_latency_and_burst_rate(dut):
    """Zero added latency (RegGrant: one cycle while the slave is parked on another master):
    same-cycle request, ACK one cycle after STB, 8-beat bursts at 1 beat/cycle, while the other
    masters keep other slaves busy."""
    b = await start(dut, seed=12)
    rng = random.Random(6)
    ref = RefMem()
    s0 = b.zero_wait[0]
    for m in range(b.nm):
        single = mem_op(ref, s0, [region_word(s0, m, 3)], False, rng, tag="single")
        wait = grant_wait(b, s0, m)
        assert wait == int(b.reg_grant)  # parked on nobody after reset, then on m - 1
        b.masters[m].push(single)
        await b.run_until_idle(20)
        single.check()
        assert single.ack_cycles() == [single.start + wait + 1]
        seen = [e for e in b.slaves[s0].log if e[1] == single.end]
        assert seen and seen[0][0] == single.start + wait, "slave did not see STB in the granted cycle"

        # Others generate traffic on every slave but s0 meanwhile.
        others = [x for x in range(b.nm) if x != m]
        for o in others:
            for i in range(30):
                s = rng.choice([x for x in b.mem_slaves if x != s0])
                b.masters[o].push(mem_op(ref, s, [region_word(s, o, i)], rng.random() < 0.5, rng,
                                         keep_cyc=rng.random() < 0.5))
        for writes in (True, False):
            words = [region_word(s0, m, 16 + i) for i in range(8)]
            burst = mem_op(ref, s0, words, writes, rng, "incr", tag=("burst", writes))
            assert grant_wait(b, s0, m) == 0  # s0 stays parked on m
            b.masters[m].push(burst)
            await b.run_until_idle(100, masters=[m])
            burst.check()
            acks = burst.ack_cycles()
            assert acks == list(range(burst.start + 1, burst.start + 9)), \
                f"burst of 8 not one beat per cycle: STB at {burst.start}, ACKs at {acks}"
        await b.run_until_idle(2000)


@cocotb.test()
async def test_no_rearbitration_in_burst(dut):
    """A low-priority burst keeps the slave while high-priority masters queue up behind it."""
    b = await start(dut, seed=13)
    rng = random.Random(7)
    ref = RefMem()
    checked = 0
    for s in (b.zero_wait[0], b.rand_wait[0]):
        for stall in (0.0, 0.5):
            owner = rng.randrange(b.nm)
            others = [x for x in range(b.nm) if x != owner]
            b.prio = [int(x != owner) for x in range(b.nm)]
            words = [region_word(s, owner, 100 + i) for i in range(8)]
            burst = mem_op(ref, s, words, rng.random() < 0.5, rng, "incr", stall=stall, tag="burst")
            wait = grant_wait(b, s, owner)
            b.masters[owner].push(burst)
            await b.step()
            assert burst.start is not None
            # Contenders arrive in the burst's second cycle and keep asking.
            rivals = {o: mem_op(ref, s, [region_word(s, o, 5)], False, rng, tag=("rival", o)) for o in others}
            for o, op in rivals.items():
                b.masters[o].push(op)
            await b.run_until_idle(500)
            burst.check()
            last = burst.ack_cycles()[-1]
            for op in rivals.values():
                op.check()
                assert op.ack_cycles()[0] > last, "another master got the slave inside the burst"
            if stall == 0.0 and s in b.zero_wait:
                assert burst.ack_cycles() == list(range(burst.start + wait + 1, burst.start + wait + 9))
            # The first grant after the burst goes to a high-priority rival.
            after = [e for e in b.monitor.arb_log if e[1] == s and e[0] > burst.start + wait]
            assert after and b.prio[after[0][3]] == 1 and after[0][0] == last + 1
            checked += 1
    assert checked == 4


@cocotb.test()
async def test_unmapped_err(dut):
    """Unmapped accesses get one ERR cycle, one cycle after STB, once per access; no slave sees them.
    Overlapping windows decode to the lowest slave index."""
    b = await start(dut, seed=14)
    b.tracing = True
    m = b.nm - 1
    base = UNMAPPED_BYTE >> 2
    op = err_op([base])
    b.masters[m].push(op)
    await b.run_until_idle(10)
    op.check()
    assert [c for _, _, c in op.results] == [op.start + 1]

    # STB held for three accesses in a row (CYC kept): ERR on every other cycle.
    ops = [err_op([base + i], keep_cyc=True) for i in range(3)]
    b.masters[m].push(*ops)
    await b.run_until_idle(20)
    t0 = ops[0].start
    assert [o.results[0][2] for o in ops] == [t0 + 1, t0 + 3, t0 + 5]
    err_cycles = [t for t, _, _, _, errs in b.trace if errs[m]]
    assert err_cycles == [op.start + 1, t0 + 1, t0 + 3, t0 + 5], "ERR must last exactly one cycle"
    assert not any(any(cyc) for _, cyc, _, _, _ in b.trace), "a slave saw an unmapped access"

    # A burst to an unmapped address ends at its first beat.
    burst = err_op([base + 8 + i for i in range(4)], "incr")
    b.masters[0].push(burst)
    await b.run_until_idle(10)
    burst.check()

    # 0x1000_FFF8 is in both slave 0 and slave 1: slave 0 wins; 0x1001_0000 is slave 1's only.
    ref = RefMem()
    rng = random.Random(8)
    for word, s in ((0x1000_FFF8 >> 2, 0), (0x1001_0000 >> 2, 1)):
        wr = Op([Beat(True, word, 0xA5A5_0000 | s, 0xF)], expect=[("ack", None)])
        ref.write(s, word, 0xA5A5_0000 | s, 0xF)
        rd = mem_op(ref, s, [word], False, rng)
        b.masters[0].push(wr, rd)
        await b.run_until_idle(40)
        wr.check(), rd.check()
        assert b.slaves[s].log[-1][4] == word and b.slaves[s].log[-2][4] == word


@cocotb.test()
async def test_timeout(dut):
    """A dead slave costs ERR after TimeoutCycles; other masters keep working; nobody hangs."""
    b = await start(dut, seed=15)
    T = b.timeout
    assert T > 4
    rng = random.Random(9)
    ref = RefMem()
    dead = b.dead
    b.tracing = True
    victim = 0
    dead_op = err_op([region_word(dead, victim, 1)], tag="dead")
    wait = grant_wait(b, dead, victim)
    b.masters[victim].push(dead_op)
    await b.step()
    busy_ops = []
    for o in range(1, b.nm):
        s = b.mem_slaves[o % len(b.mem_slaves)]
        ops = [mem_op(ref, s, [region_word(s, o, i)], rng.random() < 0.5, rng) for i in range(4)]
        busy_ops += ops
        b.masters[o].push(*ops)
    await b.run_until_idle(T + 20)
    dead_op.check()
    t_err = dead_op.results[0][2]
    assert t_err == dead_op.start + wait + T, f"timeout ERR at {t_err}, expected STB {dead_op.start} + {wait} + {T}"
    for op in busy_ops:
        op.check()
        assert op.end < t_err, "a master was held up by another master's dead slave"
    row = [tr for tr in b.trace if tr[0] == t_err][0]
    assert row[1][dead] == 0 and row[2][dead] == 0, "dead slave's cycle not dropped on timeout"
    assert len(b.slaves[dead].strobed) == T

    # Every master at the dead slave at once: one timeout after the other, all end in ERR.
    ops = [err_op([region_word(dead, m, 2)], tag=("dead", m)) for m in range(b.nm)]
    # With RegGrant the slave's parked owner (one of them) goes first, without a cycle's wait.
    wait = int(b.reg_grant and b.monitor.park[dead] is None)
    for m, op in enumerate(ops):
        b.masters[m].push(op)
    t0 = b.cycle + wait
    await b.run_until_idle(b.nm * (T + 1) + 10)
    ends = sorted(op.end for op in ops)
    for op in ops:
        op.check()
    assert ends == [t0 + k * (T + 1) + T for k in range(b.nm)], f"timeout sequence {ends}"

    # Boundary: an answer in the last allowed cycle is taken; one cycle later is too late.
    slow = b.slaves[b.rand_wait[0]]
    s = slow.idx
    slow.fixed_wait = T - 2
    ok = mem_op(ref, s, [region_word(s, 0, 7)], False, rng)
    wait = grant_wait(b, s, 0)
    b.masters[0].push(ok)
    await b.run_until_idle(T + 10)
    ok.check()
    assert ok.results[0][2] == ok.start + wait + T - 1
    slow.fixed_wait = T - 1
    late = err_op([region_word(s, 0, 8)])
    assert grant_wait(b, s, 0) == 0  # s stays parked on master 0
    b.masters[0].push(late)
    await b.run_until_idle(T + 10)
    late.check()
    assert late.results[0][2] == late.start + T
    slow.fixed_wait = None
    after = mem_op(ref, s, [region_word(s, 0, 9)], True, rng)
    b.masters[0].push(after)
    await b.run_until_idle(20)
    after.check()


def wait_bound(b: Bench, high: bool, n_hi: int, n_lo: int) -> int:
    """The README's bound: grants to other masters while one master waits at a slave, with n_hi
    high-class and n_lo low-class masters asking there (PrioBudget = b.budget)."""
    if not n_hi or not n_lo:
        return (n_hi or n_lo) - 1
    if high:
        return n_hi - 1 + -(-n_hi // b.budget)
    return (b.budget + 1) * n_lo - 1


def waits(b: Bench, ops_by_master: dict[int, list[Op]], t0: int) -> dict[int, list[tuple[int, int]]]:
    """Per master, (grants to others, cycles) from each access's first STB to its grant."""
    out: dict[int, list[tuple[int, int]]] = {}
    for m, ops in ops_by_master.items():
        for op in ops:
            if op.start is None or op.start < t0 or not op.results:
                continue
            s = b.decode(op.beats[0].adr)
            log = [e for e in b.monitor.arb_log if e[1] == s and e[0] >= op.start]
            grant = next(e[0] for e in log if e[3] == m)
            others = sum(1 for e in log if e[0] < grant)
            out.setdefault(m, []).append((others, grant - op.start))
    return out


def priority_groups(b: Bench) -> list[list[int]]:
    return [[k] for k in range(b.nm)] + ([[1, 3], [0, 1, 2]] if b.nm >= 4 else [])


async def quiesce(b: Bench) -> None:
    for mst in b.masters:
        mst.queue.clear()
    await b.run_until_idle(50)


@cocotb.test()
async def test_priority(dut):
    """With every master asking, the high class takes PrioBudget grants, then the low class one,
    and so on; each class takes its turns round robin."""
    b = await start(dut, seed=16)
    s = b.zero_wait[0]
    B = b.budget
    for group in priority_groups(b):
        await quiesce(b)
        b.prio = [int(m in group) for m in range(b.nm)]
        lows = [m for m in range(b.nm) if m not in group]
        ops = {m: hammer_ops(s, m, 1000) for m in range(b.nm)}
        for m in range(b.nm):
            b.masters[m].push(*ops[m])
        t0 = b.cycle
        await b.run(400)
        log = [e for e in b.monitor.arb_log if e[0] >= t0 and e[1] == s]
        # Skip to the first low-class grant: the budget count before it is left from earlier.
        first = next(i for i, e in enumerate(log) if not b.prio[e[3]])
        steady = log[first:]
        assert len(steady) > 8 * (B + 1) and all(len(e[2]) == b.nm for e in steady[1:])
        classes = [b.prio[e[3]] for e in steady]
        expect = (([0] + [1] * B) * (len(classes) // (B + 1) + 1))[:len(classes)]
        assert classes == expect, f"group {group}, budget {B}: grant classes {classes[:40]}"
        for members in (group, lows):
            seq = [e[3] for e in steady if e[3] in members]
            for prev, cur in zip(seq, seq[1:]):
                assert cur == members[(members.index(prev) + 1) % len(members)], f"class {members}: {seq[:20]}"
    b.prio = [0] * b.nm
    await quiesce(b)


@cocotb.test()
async def test_wait_bound(dut):
    """The worst case wait of every master, in grants to others and in cycles, equals the README's
    bound when every master hammers one slave with classic accesses (2 cycles per grant)."""
    b = await start(dut, seed=19)
    s = b.zero_wait[0]
    for group in priority_groups(b):
        await quiesce(b)
        b.prio = [int(m in group) for m in range(b.nm)]
        ops = {m: hammer_ops(s, m, 1000) for m in range(b.nm)}
        for m in range(b.nm):
            b.masters[m].push(*ops[m])
        await b.run(40)  # past the accesses that began before the classes changed
        t0 = b.cycle
        await b.run(600)
        n_hi = len(group)
        for m, w in waits(b, ops, t0).items():
            bound = wait_bound(b, bool(b.prio[m]), n_hi, b.nm - n_hi)
            worst = max(g for g, _ in w)
            dut._log.info(f"group {group}, master {m}: worst wait {worst} grants "
                          f"({max(c for _, c in w)} cycles), bound {bound}")
            assert worst == bound, f"group {group}, master {m}: worst wait {worst} grants, bound {bound}"
            assert max(c for _, c in w) == 2 * bound
    b.prio = [0] * b.nm
    await quiesce(b)


@cocotb.test()
async def test_wait_bound_random(dut):
    """Random reads, writes, bursts with master stalls, aborts and gaps from every master onto two
    slaves under fixed classes: no access waits more grants than the bound, and the high class
    cannot lock a low-priority master out."""
    b = await start(dut, seed=20)
    rng = random.Random(12)
    ref = RefMem()
    hot = [b.zero_wait[0], b.rand_wait[0]]
    for group in priority_groups(b):
        await quiesce(b)
        b.prio = [int(m in group) for m in range(b.nm)]
        t0 = b.cycle
        ops = {m: [random_op(b, m, ref, rng, (m, i), rng.choice(hot)) for i in range(150)] for m in range(b.nm)}
        for m, mst in enumerate(b.masters):
            # The high class asks back to back: it would starve the others without the budget.
            for op in ops[m]:
                op.keep_cyc = op.keep_cyc or m in group
            mst.push(*ops[m])
        await b.run_until_idle(40_000)
        served = waits(b, {m: [op for op in ops[m] if b.decode(op.beats[0].adr) in hot] for m in ops}, t0)
        n_hi = len(group)
        for m, w in served.items():
            # RegGrant: plus the grant decided in the cycle before the access asked (README).
            bound = wait_bound(b, bool(b.prio[m]), n_hi, b.nm - n_hi) + int(b.reg_grant)
            assert max(g for g, _ in w) <= bound, f"group {group}, master {m}: waited {max(w)}, bound {bound}"
        for per_master in ops.values():
            for op in per_master:
                op.check()
    b.prio = [0] * b.nm
    await quiesce(b)


@cocotb.test()
async def test_round_robin_fairness(dut):
    """Equal-class masters hammering one slave get grants in turn (counts within 1)."""
    b = await start(dut, seed=17)
    rng = random.Random(10)
    for s, keep_cyc, bursts in ((b.zero_wait[0], True, False), (b.rand_wait[0], False, False),
                                (b.zero_wait[0], True, True)):
        for mst in b.masters:
            mst.queue.clear()
        await b.run_until_idle(100)
        t0 = b.cycle
        for m in range(b.nm):
            if bursts:
                ops = [Op([Beat(False, region_word(s, m, 8 * i + k)) for k in range(rng.randint(2, 8))], "incr",
                          keep_cyc=keep_cyc) for i in range(300)]
            else:
                ops = hammer_ops(s, m, 1000, keep_cyc)
            b.masters[m].push(*ops)
        await b.run(400)
        grants = [e[3] for e in b.monitor.arb_log if e[0] >= t0 and e[1] == s]
        counts = [grants.count(m) for m in range(b.nm)]
        assert min(counts) > 10, counts
        assert max(counts) - min(counts) <= 1, f"unfair grant counts {counts}"
        # Whenever everybody is asking, the grant goes to the next master after the last winner.
        log = [e for e in b.monitor.arb_log if e[0] >= t0 and e[1] == s]
        full = 0
        for prev, cur in zip(log, log[1:]):
            if len(cur[2]) == b.nm:
                full += 1
                assert cur[3] == (prev[3] + 1) % b.nm, f"rotation broken: {prev} -> {cur}"
        # Masters that drop CYC between accesses are rarely all queued at the same moment.
        assert full > 10 or not keep_cyc
    for mst in b.masters:
        mst.queue.clear()
    await b.run_until_idle(100)


@cocotb.test()
async def test_burst_abort_and_boundary(dut):
    """Dropping CYC or an ERR inside a burst frees the slave; a burst may run across a slave boundary."""
    b = await start(dut, seed=18)
    rng = random.Random(11)
    ref = RefMem()
    s = b.zero_wait[0]
    a, other = 0, b.nm - 1
    # Abort after 3 of 8 beats: the slave sees CYC low for one cycle, then the waiting master gets it.
    for abort_after, err_at in ((3, None), (None, 4)):
        first = 200 if err_at is None else ERR_OFFSET - err_at
        words = [region_word(s, a, first + i) for i in range(8)]
        burst = mem_op(ref, s, words, False, rng, "incr", abort_after=abort_after)
        wait = grant_wait(b, s, a)
        b.masters[a].push(burst)
        await b.step()
        waiting = mem_op(ref, s, [region_word(s, other, 9)], True, rng)
        b.masters[other].push(waiting)
        await b.run_until_idle(100)
        burst.check(), waiting.check()
        assert len(burst.results) == (abort_after or err_at + 1)
        last = burst.results[-1][2]
        assert burst.ack_cycles()[:3] == [burst.start + wait + k for k in (1, 2, 3)]
        grant = [e for e in b.monitor.arb_log if e[1] == s and e[3] == other and e[0] > burst.start]
        assert grant and grant[0][0] == last + 2, "slave not handed over right after the CYC drop"

    # 0x1000_FFF0.. runs from slave 0's window into slave 1's: each beat goes to its own slave.
    first = 0x1000_FFF0 >> 2
    words = [first + i for i in range(8)]
    assert [b.decode(w) for w in words] == [0] * 4 + [1] * 4
    for writes in (True, False):
        beats, expect = [], []
        for w in words:
            sl = b.decode(w)
            if writes:
                dat = rng.getrandbits(32)
                ref.write(sl, w, dat, 0xF)
                beats.append(Beat(True, w, dat, 0xF))
                expect.append(("ack", None))
            else:
                beats.append(Beat(False, w))
                expect.append(("ack", ref.read(sl, w)))
        op = Op(beats, "incr", expect=expect)
        n0, n1 = len(b.slaves[0].log), len(b.slaves[1].log)
        b.masters[a].push(op)
        await b.run_until_idle(100)
        op.check()
        assert [e[4] for e in b.slaves[0].log[n0:]] == words[:4]
        assert [e[4] for e in b.slaves[1].log[n1:]] == words[4:]
