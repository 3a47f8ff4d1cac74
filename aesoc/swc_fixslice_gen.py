"""Generator of fw/crypto/swc_aes_asm_fixslice.S, the RV32IM assembly of the fixsliced AES.

The fixsliced cipher is straight-line Boolean code (a 128-gate S-box circuit, MixColumns as
rotations and XORs of eight slice words) whose difficulty in assembly is register allocation:
the S-box keeps up to ~25 values live and RV32 has 28 usable registers. Writing it by hand is
error prone, so this module states each routine once as a list of operations on values, as
swc_aes_fixslice.c does, and allocates registers itself: a value stays in a register until its
last use; when none is free, the value whose next use is furthest away goes to a stack slot
(Belady's rule); routine outputs end in fixed registers. `python -m aesoc.swc_fixslice_gen`
rewrites the .S; tests/test_swcrypto.py checks that the committed file is this module's output.

The generated kernels (see the .S header for their C prototypes) run the rounds of two blocks
already transposed into slices; swc_aes_fixslice.c keeps the key schedule, the transposition
and the modes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from aesoc.toolchain import REPO

OUTPUT = REPO / "fw" / "crypto" / "swc_aes_asm_fixslice.S"

# Slice words live in s0-s7 between routines; a0 = round-key pointer, a1 = its end, ra = return.
STATE = ("s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7")
# Registers the allocator may use inside a routine (everything but zero, ra, sp, gp, tp, a0, a1).
POOL = ("t0", "t1", "t2", "t3", "t4", "t5", "t6", "a2", "a3", "a4", "a5", "a6", "a7",
        "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11")
SPILL_BASE = 64  # stack offset of the first spill slot (the kernel's frame saves s0-s11, ra below it)
FRAME = 128


@dataclass
class Op:
    kind: str  # "xor", "and", "or", "srli", "slli", "srl", "sll", "lw", "li", "not"
    dst: int
    srcs: tuple[int, ...]
    imm: int = 0


@dataclass
class Routine:
    """Straight-line code on values; values 0..7 are the slice words on entry."""

    ops: list[Op] = field(default_factory=list)
    next_value: int = 8
    outputs: list[int] = field(default_factory=list)

    def new(self, kind: str, srcs: tuple[int, ...], imm: int = 0) -> int:
        v = self.next_value
        self.next_value += 1
        self.ops.append(Op(kind, v, srcs, imm))
        return v

    def xor(self, a: int, b: int) -> int:
        return self.new("xor", (a, b))

    def and_(self, a: int, b: int) -> int:
        return self.new("and", (a, b))

    def or_(self, a: int, b: int) -> int:
        return self.new("or", (a, b))

    def srli(self, a: int, n: int) -> int:
        return self.new("srli", (a,), n)

    def slli(self, a: int, n: int) -> int:
        return self.new("slli", (a,), n)

    def not_(self, a: int) -> int:
        return self.new("not", (a,))

    def li(self, value: int) -> int:
        return self.new("li", (), value)

    def lw(self, offset: int) -> int:
        """A word of the current round key (a0 + offset)."""
        return self.new("lw", (), offset)

    def ror(self, a: int, n: int) -> int:
        return self.or_(self.srli(a, n), self.slli(a, 32 - n))


# Results this core delivers one cycle late (the barrel shifter finishes in the memory stage, a
# load returns there): an instruction that uses one right after it stalls for a cycle.
LATE = frozenset({"srli", "slli", "srl", "sll", "lw"})


def schedule(r: Routine) -> None:
    """Reorder `r.ops` so that no instruction uses a LATE result of the instruction just before
    it: take the earliest ready operation that does not, else the earliest ready one. Staying
    close to the written order keeps register pressure where the circuit's order has it."""
    produced_by = {op.dst: i for i, op in enumerate(r.ops)}
    remaining = list(range(len(r.ops)))
    done: set[int] = set()
    order: list[Op] = []
    while remaining:
        last = order[-1] if order else None
        first_ready = pick = -1
        for pos, i in enumerate(remaining):
            op = r.ops[i]
            if any(s in produced_by and produced_by[s] not in done for s in op.srcs):
                continue
            if first_ready < 0:
                first_ready = pos
            if last is not None and last.kind in LATE and last.dst in op.srcs:
                continue
            pick = pos
            break
            # (the loop looks at every remaining operation; routines are a few hundred long)
        pos = pick if pick >= 0 else first_ready
        i = remaining.pop(pos)
        done.add(i)
        order.append(r.ops[i])
    r.ops = order


def _allocate(r: Routine, entry: dict[int, str]) -> list[str]:
    """Assembly lines for `r`: values in `entry` start in those registers, outputs end in STATE."""
    uses: dict[int, list[int]] = {}
    for i, op in enumerate(r.ops):
        for s in op.srcs:
            uses.setdefault(s, []).append(i)
    end = len(r.ops)
    for o in r.outputs:
        uses.setdefault(o, []).append(end)

    def next_use(v: int, i: int) -> int:
        for u in uses.get(v, []):
            if u >= i:
                return u
        return -1

    reg_of: dict[int, str] = dict(entry)
    holder: dict[str, int] = {reg: v for v, reg in entry.items()}
    slot_of: dict[int, int] = {}
    free_slots: list[int] = []
    n_slots = 0
    lines: list[str] = []

    def free_regs() -> list[str]:
        return [reg for reg in POOL if reg not in holder]

    def release_dead(i: int) -> None:
        for reg, v in list(holder.items()):
            if next_use(v, i) < 0:
                del holder[reg]
                del reg_of[v]
        for v, slot in list(slot_of.items()):
            if next_use(v, i) < 0 and v not in reg_of:
                free_slots.append(slot)
                del slot_of[v]

    def spill_one(i: int, keep: set[int]) -> str:
        nonlocal n_slots
        candidates = [(next_use(v, i), reg, v) for reg, v in holder.items() if v not in keep]
        _, reg, v = max(candidates)
        if v not in slot_of:
            if free_slots:
                slot_of[v] = free_slots.pop()
            else:
                slot_of[v] = SPILL_BASE + 4 * n_slots
                n_slots += 1
            lines.append(f"  sw {reg}, {slot_of[v]}(sp)")
        del holder[reg]
        del reg_of[v]
        return reg

    def get_reg(i: int, keep: set[int]) -> str:
        regs = free_regs()
        return regs[0] if regs else spill_one(i, keep)

    for i, op in enumerate(r.ops):
        keep = set(op.srcs)
        for s in op.srcs:
            if s not in reg_of:
                reg = get_reg(i, keep)
                lines.append(f"  lw {reg}, {slot_of[s]}(sp)")
                reg_of[s], holder[reg] = reg, s
        src_regs = [reg_of[s] for s in op.srcs]
        release_dead(i + 1)
        dst = get_reg(i + 1, set())
        reg_of[op.dst], holder[dst] = dst, op.dst
        if op.kind in ("xor", "and", "or", "srl", "sll"):
            lines.append(f"  {op.kind} {dst}, {src_regs[0]}, {src_regs[1]}")
        elif op.kind in ("srli", "slli"):
            lines.append(f"  {op.kind} {dst}, {src_regs[0]}, {op.imm}")
        elif op.kind == "not":
            lines.append(f"  xori {dst}, {src_regs[0]}, -1")
        elif op.kind == "li":
            lines.append(f"  li {dst}, 0x{op.imm & 0xFFFFFFFF:08x}")
        elif op.kind == "lw":
            lines.append(f"  lw {dst}, {op.imm}(a0)")
        else:
            raise ValueError(op.kind)
    # outputs into STATE: reload spilled ones last, resolve register moves as a parallel copy
    assert len(r.outputs) == 8 and len(set(r.outputs)) == 8, "outputs must be eight distinct values"
    want = dict(zip(STATE, r.outputs))
    pending = {dst: v for dst, v in want.items() if reg_of.get(v) != dst}
    while pending:
        progress = False
        for dst, v in list(pending.items()):
            occupant = holder.get(dst)
            if occupant is not None and occupant in pending.values() and want.get(dst) != occupant:
                continue
            if v in reg_of:
                lines.append(f"  mv {dst}, {reg_of[v]}")
                del holder[reg_of[v]]
            else:
                lines.append(f"  lw {dst}, {slot_of[v]}(sp)")
            if occupant is not None and occupant != v:
                del reg_of[occupant]
            reg_of[v], holder[dst] = dst, v
            del pending[dst]
            progress = True
        if not progress:  # a cycle: park one value in a free temporary
            dst, v = next(iter(pending.items()))
            tmp = next(reg for reg in POOL if reg not in holder and reg not in STATE)
            lines.append(f"  mv {tmp}, {reg_of[v]}")
            del holder[reg_of[v]]
            reg_of[v], holder[tmp] = tmp, v
    if n_slots * 4 + SPILL_BASE > FRAME:
        raise ValueError("spill area larger than the frame")
    return lines


# ---- the routines -------------------------------------------------------------------------------

def sbox(r: Routine, s: list[int]) -> list[int]:
    """Boyar-Peralta S-box without its output NOTs (the 0x63 is in the round keys), the same
    circuit as swc_fs_sbox in swc_aes_fixslice.c. u0 is the most significant bit (slice 7)."""
    x = r.xor
    a = r.and_
    u0, u1, u2, u3, u4, u5, u6, u7 = s[7], s[6], s[5], s[4], s[3], s[2], s[1], s[0]
    t1 = x(u0, u3); t2 = x(u0, u5); t3 = x(u0, u6); t4 = x(u3, u5); t5 = x(u4, u6)  # noqa: E702
    t6 = x(t1, t5); t7 = x(u1, u2); t8 = x(u7, t6); t9 = x(u7, t7); t10 = x(t6, t7)  # noqa: E702
    t11 = x(u1, u5); t12 = x(u2, u5); t13 = x(t3, t4); t14 = x(t6, t11); t15 = x(t5, t11)  # noqa: E702
    t16 = x(t5, t12); t17 = x(t9, t16); t18 = x(u3, u7); t19 = x(t7, t18); t20 = x(t1, t19)  # noqa: E702
    t21 = x(u6, u7); t22 = x(t7, t21); t23 = x(t2, t22); t24 = x(t2, t10); t25 = x(t20, t17)  # noqa: E702
    t26 = x(t3, t16); t27 = x(t1, t12)  # noqa: E702
    m1 = a(t13, t6); m2 = a(t23, t8); m3 = x(t14, m1); m4 = a(t19, u7); m5 = x(m4, m1)  # noqa: E702
    m6 = a(t3, t16); m7 = a(t22, t9); m8 = x(t26, m6); m9 = a(t20, t17); m10 = x(m9, m6)  # noqa: E702
    m11 = a(t1, t15); m12 = a(t4, t27); m13 = x(m12, m11); m14 = a(t2, t10); m15 = x(m14, m11)  # noqa: E702
    m16 = x(m3, m2); m17 = x(m5, t24); m18 = x(m8, m7); m19 = x(m10, m15); m20 = x(m16, m13)  # noqa: E702
    m21 = x(m17, m15); m22 = x(m18, m13); m23 = x(m19, t25); m24 = x(m22, m23)  # noqa: E702
    m25 = a(m22, m20); m26 = x(m21, m25); m27 = x(m20, m21); m28 = x(m23, m25)  # noqa: E702
    m29 = a(m28, m27); m30 = a(m26, m24); m31 = a(m20, m23); m32 = a(m27, m31)  # noqa: E702
    m33 = x(m27, m25); m34 = a(m21, m22); m35 = a(m24, m34); m36 = x(m24, m25)  # noqa: E702
    m37 = x(m21, m29); m38 = x(m32, m33); m39 = x(m23, m30); m40 = x(m35, m36)  # noqa: E702
    m41 = x(m38, m40); m42 = x(m37, m39); m43 = x(m37, m38); m44 = x(m39, m40); m45 = x(m42, m41)  # noqa: E702
    m46 = a(m44, t6); m47 = a(m40, t8); m48 = a(m39, u7); m49 = a(m43, t16); m50 = a(m38, t9)  # noqa: E702
    m51 = a(m37, t17); m52 = a(m42, t15); m53 = a(m45, t27); m54 = a(m41, t10); m55 = a(m44, t13)  # noqa: E702
    m56 = a(m40, t23); m57 = a(m39, t19); m58 = a(m43, t3); m59 = a(m38, t22); m60 = a(m37, t20)  # noqa: E702
    m61 = a(m42, t1); m62 = a(m45, t4); m63 = a(m41, t2)  # noqa: E702
    l0 = x(m61, m62); l1 = x(m50, m56); l2 = x(m46, m48); l3 = x(m47, m55); l4 = x(m54, m58)  # noqa: E702
    l5 = x(m49, m61); l6 = x(m62, l5); l7 = x(m46, l3); l8 = x(m51, m59); l9 = x(m52, m53)  # noqa: E702
    l10 = x(m53, l4); l11 = x(m60, l2); l12 = x(m48, m51); l13 = x(m50, l0); l14 = x(m52, m61)  # noqa: E702
    l15 = x(m55, l1); l16 = x(m56, l0); l17 = x(m57, l1); l18 = x(m58, l8); l19 = x(m63, l4)  # noqa: E702
    l20 = x(l0, l1); l21 = x(l1, l7); l22 = x(l3, l12); l23 = x(l18, l2); l24 = x(l15, l9)  # noqa: E702
    l25 = x(l6, l10); l26 = x(l7, l9); l27 = x(l8, l10); l28 = x(l11, l14); l29 = x(l11, l17)  # noqa: E702
    return [x(l6, l23), x(l13, l27), x(l25, l29), x(l20, l22), x(l6, l21), x(l19, l28), x(l16, l26), x(l6, l24)]


def inv_affine(r: Routine, s: list[int]) -> list[int]:
    """A^-1, the linear part of the inverse affine map: bit i <- bits i+2, i+5, i+7 (mod 8)."""
    return [r.xor(r.xor(s[(i + 2) % 8], s[(i + 5) % 8]), s[(i + 7) % 8]) for i in range(8)]


@dataclass
class Lag:
    """Row rotation R_L of the fixsliced MixColumns: word rotation by 8 then a rotation inside
    each byte by 2L bits; R_L twice is a word rotation by 16, then by 4 bits in each byte for odd L."""

    lag: int  # 0, 2, or 1 for both odd lags (byte rotation amounts and mask come in registers)
    m0f: int = -1  # 0x0f0f0f0f and 0xf0f0f0f0 as values, when the lag needs them
    mf0: int = -1
    sh: int = -1  # odd lags: the byte rotation is (y >> sh & lo) | (y << shl & hi), sh = 2 or 6
    shl: int = -1
    lo: int = -1
    hi: int = -1

    @staticmethod
    def make(r: Routine, lag: int) -> Lag:
        made = Lag(lag)
        if lag != 0:
            made.m0f = r.li(0x0F0F0F0F)
            made.mf0 = r.not_(made.m0f)
        if lag & 1:  # parameters: values 8, 9, 10 (a2, a3, a4 on entry)
            made.sh, made.shl, made.lo = 8, 9, 10
            made.hi = r.not_(made.lo)
        return made

    def bror4(self, r: Routine, y: int) -> int:
        return r.or_(r.and_(r.srli(y, 4), self.m0f), r.and_(r.slli(y, 4), self.mf0))

    def r1(self, r: Routine, v: int) -> int:
        y = r.ror(v, 8)
        if self.lag == 0:
            return y
        if self.lag == 2:
            return self.bror4(r, y)
        return r.or_(r.and_(r.new("srl", (y, self.sh)), self.lo), r.and_(r.new("sll", (y, self.shl)), self.hi))

    def r2(self, r: Routine, v: int) -> int:
        y = r.ror(v, 16)
        return self.bror4(r, y) if self.lag & 1 else y


def mix(r: Routine, s: list[int], lag: Lag) -> list[int]:
    """MixColumns at a lag: out = 2 t + R(s) + R^2(t), t = s + R(s) (swc_fs_mix)."""
    x = r.xor
    r7 = lag.r1(r, s[7])
    t7 = x(s[7], r7)
    out: list[int] = []
    prev = -1
    for i in range(7):
        ri = lag.r1(r, s[i])
        ti = x(s[i], ri)
        v = x(ri, lag.r2(r, ti))
        if i > 0:
            v = x(v, prev)
        if i in (0, 1, 3, 4):
            v = x(v, t7)
        out.append(v)
        prev, last_r = ti, ri
    del last_r
    out.append(x(x(prev, r7), lag.r2(r, t7)))
    return out


def ark(r: Routine, s: list[int], offset: int) -> list[int]:
    """Add the round key at a0 + offset; loads run two ahead of their XORs."""
    keys = [r.lw(offset + 4 * i) for i in range(2)]
    out = []
    for i in range(8):
        if i + 2 < 8:
            keys.append(r.lw(offset + 4 * (i + 2)))
        out.append(r.xor(s[i], keys[i]))
    return out


ODD_PARAMS = ("a2", "a3", "a4")  # sh, 8 - sh, low mask of an odd lag's byte rotation


def routine(build: Callable[[Routine, list[int]], list[int]], params: tuple[str, ...] = ()) -> list[str]:
    r = Routine(next_value=8 + len(params))
    r.outputs = build(r, list(range(8)))
    schedule(r)
    entry = {i: STATE[i] for i in range(8)}
    entry.update({8 + i: reg for i, reg in enumerate(params)})
    return _allocate(r, entry)


def inv_pre(r: Routine, s: list[int], lag: Lag) -> list[int]:
    """The (5 + 4 R^2) factor of InvMixColumns (swc_fs_inv_mix before its MixColumns)."""
    x = r.xor
    u = [x(s[i], lag.r2(r, s[i])) for i in range(8)]
    return [x(s[0], u[6]), x(s[1], x(u[6], u[7])), x(s[2], x(u[0], u[7])), x(s[3], x(u[1], u[6])),
            x(s[4], x(x(u[2], u[6]), u[7])), x(s[5], x(u[3], u[7])), x(s[6], u[4]), x(s[7], u[5])]


# ---- the file ------------------------------------------------------------------------------------

HEADER = """/* SPDX-License-Identifier: Apache-2.0 */
/* Generated by aesoc/swc_fixslice_gen.py (python -m aesoc.swc_fixslice_gen): do not edit. */
/*
 * SWC_AES_ASM_FIXSLICE: the rounds of the fixsliced constant-time AES (swc_aes_fixslice.c) in
 * RV32IM assembly, two blocks at a time, the eight slice words in s0-s7 throughout. Only
 * straight-line code and branches on the round count: no address or branch depends on key or
 * data. swc_aes_fixslice.c keeps the key schedule, the transposition into slices and the modes.
 *
 *   void swc_fs_asm_encrypt(uint32_t s[8], const uint32_t *rk, unsigned nr);
 *   void swc_fs_asm_decrypt(uint32_t s[8], const uint32_t *rk, unsigned nr);
 *
 * s: the two blocks as slices, in and out; rk: the variant's fixsliced round keys (8 words per
 * round key, ShiftRows^-lag applied). Rounds run four per loop iteration, lags 1, 2, 3, 0 in
 * encryption and 3, 2, 1, 0 in decryption; the S-box is one local subroutine. Registers are
 * allocated by the generator; spills go to the kernel's stack frame.
 */
#if defined(SWC_AES_ASM_FIXSLICE)
"""

SAVE = ["  addi sp, sp, -%d" % FRAME] + [f"  sw s{i}, {4 * i}(sp)" for i in range(12)] + ["  sw ra, 48(sp)"]
RESTORE = [f"  lw s{i}, {4 * i}(sp)" for i in range(12)] + ["  lw ra, 48(sp)", "  addi sp, sp, %d" % FRAME]
LOAD_STATE = [f"  lw {STATE[i]}, {4 * i}(a2)" for i in range(8)]
STORE_STATE = [f"  sw {STATE[i]}, {4 * i}(a2)" for i in range(8)]


def generate() -> str:
    out = [HEADER, '  .section .text.swc_fs_asm, "ax"', ""]

    def sub(name: str, comment: str, lines: list[str], align: int = 4) -> None:
        out.extend([f"/* {comment} */", f"  .balign {align}", f"{name}:", *lines, "  ret", ""])

    # Leaf subroutines on the slices in s0-s7; they clobber every pool register, never a0, a1, ra.
    # Decryption first, then the encryption path (S-box, MixColumns, kernel) in one run of code
    # that swc_aes_fixslice.c's mode loops follow in the link, so the CTR loop fits the I-cache.
    sub("swc_fs_asm_inv_sbox", "Inverse S-box of (x + 0x63): A^-1, S-box, A^-1.",
        routine(lambda r, s: inv_affine(r, sbox(r, inv_affine(r, s)))), 32)
    sub("swc_fs_asm_inv_pre_odd", "The (5 + 4 R^2) factor of InvMixColumns at an odd lag.",
        routine(lambda r, s: inv_pre(r, s, Lag.make(r, 1)), ODD_PARAMS))
    sub("swc_fs_asm_inv_pre_even", "The (5 + 4 R^2) factor of InvMixColumns at an even lag.",
        routine(lambda r, s: inv_pre(r, s, Lag.make(r, 0))))

    def odd(lag: int) -> list[str]:
        sh = 2 if lag == 1 else 6
        return [f"  li a2, {sh}", f"  li a3, {8 - sh}", f"  li a4, 0x{0x01010101 * (0xFF >> sh):08x}"]

    ark0 = routine(lambda r, s: ark(r, s, 0))

    # decryption kernel: a0 = rk + 32 nr moving down to a1 = rk
    out += ["  .globl swc_fs_asm_decrypt", "  .type swc_fs_asm_decrypt, @function", "  .balign 4",
            "swc_fs_asm_decrypt:"]
    out += ["  mv t0, a0", "  slli a0, a2, 5", "  add a0, a1, a0", "  mv a2, t0"]
    out += [*SAVE, "  sw a2, 52(sp)", *LOAD_STATE, *ark0, "1:"]
    for lag, mixer in ((3, "mix_odd"), (2, "mix_2"), (1, "mix_odd"), (0, "mix_0")):
        out += ["  addi a0, a0, -32", "  jal ra, swc_fs_asm_inv_sbox", *ark0, "  beq a0, a1, 2f"]
        pre = "inv_pre_odd" if lag & 1 else "inv_pre_even"
        # the pre-step may reuse a2-a4 once it is done with them: set the parameters again
        out += [*(odd(lag) if lag & 1 else []), f"  jal ra, swc_fs_asm_{pre}",
                *(odd(lag) if lag & 1 else []), f"  jal ra, swc_fs_asm_{mixer}"]
    out += ["  j 1b", "2:", "  lw a2, 52(sp)", *STORE_STATE, *RESTORE, "  ret",
            "  .size swc_fs_asm_decrypt, . - swc_fs_asm_decrypt", ""]

    sub("swc_fs_asm_sbox", "S-box (+0x63) on every byte.", routine(sbox), 32)
    sub("swc_fs_asm_mix_odd", "MixColumns at lag 1 or 3: a2 = 2 or 6, a3 = 8 - a2, a4 = 0x3f3f3f3f or 0x03030303.",
        routine(lambda r, s: mix(r, s, Lag.make(r, 1)), ODD_PARAMS))
    sub("swc_fs_asm_mix_2", "MixColumns at lag 2.", routine(lambda r, s: mix(r, s, Lag.make(r, 2))))
    sub("swc_fs_asm_mix_0", "MixColumns at lag 0.", routine(lambda r, s: mix(r, s, Lag.make(r, 0))))

    # encryption kernel: a0 = round-key pointer moving up to a1 = rk + 32 nr; one round body, the
    # lag (round number mod 4, from a0 - rk) picks the MixColumns routine; s pointer at 52(sp),
    # rk at 56(sp)
    out += ["  .globl swc_fs_asm_encrypt", "  .type swc_fs_asm_encrypt, @function", "  .balign 4",
            "swc_fs_asm_encrypt:"]
    out += ["  mv t0, a0", "  mv a0, a1", "  slli a1, a2, 5", "  add a1, a0, a1", "  mv a2, t0"]
    out += [*SAVE, "  sw a2, 52(sp)", "  sw a0, 56(sp)", *LOAD_STATE, *ark0]
    out += ["1:", "  addi a0, a0, 32", "  jal ra, swc_fs_asm_sbox", "  beq a0, a1, 6f",
            "  lw t0, 56(sp)", "  sub t0, a0, t0", "  srli t0, t0, 5", "  andi t0, t0, 3",
            "  andi t1, t0, 1", "  bnez t1, 3f", "  bnez t0, 2f",
            "  jal ra, swc_fs_asm_mix_0", "  j 5f",
            "2:", "  jal ra, swc_fs_asm_mix_2", "  j 5f",
            "3:", "  li t1, 3", "  beq t0, t1, 4f", *odd(1), "  jal ra, swc_fs_asm_mix_odd", "  j 5f",
            "4:", *odd(3), "  jal ra, swc_fs_asm_mix_odd",
            "5:", *ark0, "  j 1b",
            "6:", *ark0, "  lw a2, 52(sp)", *STORE_STATE, *RESTORE, "  ret",
            "  .size swc_fs_asm_encrypt, . - swc_fs_asm_encrypt", ""]
    out.append("#endif /* SWC_AES_ASM_FIXSLICE */")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    path = Path(args[0]) if args else OUTPUT
    path.write_text(generate())
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
