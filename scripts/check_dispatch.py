#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""scripts/check_dispatch.py ARCH ELF OBJDUMP NM - the stack bump in the
generated code (docs/kstack.md, "Checked in the generated code").

Finds the functions that run the system call handler: every
syscall_dispatch_<strategy> and syscall_dispatch_<strategy>_timed (the
kernel's copies of the path, one per stack offset strategy, timed or not:
dispatch() is inlined into each), or a lone syscall_dispatch, and the static
helpers of kernel/syscall/syscall.c they call. In each one that makes an
indirect call, it finds the bump, the `and` with the offset mask followed by
a subtraction from the stack pointer, and the handler call, the first
indirect call after it, and fails the build (exit 1, naming the function
and the instruction) when:

  * there is no bump (a kernel built without the randomisation), except in
    the copies of `off`, the strategy without one;
  * a loop that writes memory runs between the bump and the handler call:
    gcc's -fstack-clash-protection probing the block page by page;
  * memset is called there: -ftrivial-auto-var-init=pattern|zero filling
    the block on every call;
  * the handler is reached by a jump instead of a call (a sibling call):
    the caller's frame, block included, is released first, so the handler
    runs at the depth it would have without the offset.

Works on any linked ELF with such a syscall_dispatch
(tests/host/test_check_dispatch.py feeds it known-bad ones). In a lab 4
skeleton (the bump is the exercise) a missing bump is only a warning.
Python standard library only.
"""
import re
import subprocess
import sys
from pathlib import Path

MASK = 0x3F0  # KSTACK_OFFSET_MASK
ENTRY = re.compile(r"syscall_dispatch(_\w+)?$")
UNBUMPED = {"syscall_dispatch_off", "syscall_dispatch_off_timed"}  # `off`: no offset at all
LAB_TREE = Path("kernel/kstack_offset/kstack_offset.h")

# Per arch, tests on what objdump prints (mnemonic, operands as one string):
#   call / jump  the indirect forms of a call and a jump (the handler's)
#   branch       any other branch; objdump prints its target as `addr <name+off>`
#   sp_write     an instruction that sets the stack pointer: the bump is one
#                whose operands hold no immediate (sp minus a register)
#   store        an instruction that writes memory (in a loop: a probe)
#   mask         an `and` with an immediate (it must be MASK), or on arm64 a
#                `ubfiz` whose field is MASK's bits (a byte's low 6 bits
#                moved up by 4: the mask and the shift in one); an `and`
#                with MASK >> 4 followed by a shift left by 4 (`shift4`)
#                counts as MASK (gcc's form for a byte times 16)
#
# x86_64: `and $0x3f0,%eax; sub %rax,%rsp`, then `call *%rax` (clang sets
#   %rsp with a mov). A tail call is `jmp *%rax`; a probe is `or $0x0,(%rsp)`.
# arm64: `and x1, x0, #0x3f0; sub sp, sp, x1`, then `blr x1`. A tail call is
#   `br x1`; a probe is `str xzr, [sp, #1024]`.
# riscv64: `and a5,a0,1008; sub sp,sp,a5`, then `jalr a5` (a call: the
#   return address goes to ra). A tail call is `jr a5` (`jr ra` is a
#   return, `jalr N(ra)` after an `auipc ra` a direct call); a probe is
#   `sd zero,-8(a4)` with a4 computed from sp.
ARCHES = {
    "x86_64": dict(
        call=lambda m, o: m.startswith("call") and o.startswith("*"),
        jump=lambda m, o: m.startswith("jmp") and o.startswith("*"),
        branch=lambda m, o: m.startswith("j") or m.startswith("loop"),
        sp_write=lambda m, o: o.endswith(",%rsp") and m.startswith(("sub", "mov", "add", "lea")),
        store=lambda m, o: "(" in o.split(",")[-1] and not m.startswith(("cmp", "test", "lea")),
        mask=lambda m, o: m.startswith("and") and o.startswith("$"),
        shift4=lambda m, o: m.startswith("shl") and o.startswith("$0x4,"),
    ),
    "arm64": dict(
        call=lambda m, o: m == "blr",
        jump=lambda m, o: m == "br",
        branch=lambda m, o: m in ("b", "cbz", "cbnz", "tbz", "tbnz") or m.startswith("b."),
        sp_write=lambda m, o: re.match(r"sp, ", o) is not None and m in ("sub", "add", "mov"),
        store=lambda m, o: m.startswith("st"),
        mask=lambda m, o: (m == "and" and "#" in o) or m == "ubfiz",
        shift4=lambda m, o: m == "lsl" and o.endswith(", #4"),
    ),
    "riscv64": dict(
        call=lambda m, o: m in ("jalr", "c.jalr") and re.fullmatch(r"[a-z][a-z0-9]*", o) is not None
        and o != "ra",
        jump=lambda m, o: m in ("jr", "c.jr") and re.fullmatch(r"[a-z][a-z0-9]*", o) is not None
        and o != "ra",
        branch=lambda m, o: m in ("j", "c.j") or (m.startswith("b") and m != "bset"),
        sp_write=lambda m, o: o.startswith("sp,") and m in ("sub", "add", "mv", "addi"),
        store=lambda m, o: m in ("sd", "sw", "sh", "sb", "c.sd", "c.sw"),
        mask=lambda m, o: m in ("and", "andi"),
        shift4=lambda m, o: m in ("sll", "slli", "sllw", "slliw", "c.slli") and o.endswith(",0x4"),
    ),
}
INSN = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*?)\s*$")


def fail(arch, msg):
    print(f"check_dispatch: {arch}: {msg}", file=sys.stderr)
    sys.exit(1)


def disassemble(objdump, elf, name):
    """[(address, mnemonic, operands, text)] of one function."""
    out = subprocess.run([objdump, "-d", "--no-show-raw-insn", f"--disassemble={name}", elf],
                         capture_output=True, text=True, check=True).stdout
    insns = []
    for line in out.splitlines():
        m = INSN.match(line)
        if m:
            ops = re.sub(r"\s*(#\s|//).*$", "", m.group(3))  # objdump's comments
            insns.append((int(m.group(1), 16), m.group(2), ops, f"{m.group(2)} {m.group(3)}".strip()))
    return insns


def immediate(ops):
    """The immediate operand: $0x3f0 (x86_64), #0x3f0 (arm64), ,1008 (riscv64)."""
    m = re.search(r"[$#,]\s*(-?0x[0-9a-f]+|-?\d+)(?=,|$)", ops)
    return int(m.group(1), 0) if m else None


def mask_at(a, insns, i):
    """The bits instruction i keeps if it is a mask: an `and`'s immediate, the
    field a `ubfiz wD, wS, #lsb, #width` fills, or an `and` with bits that
    the next instruction shifts left by 4."""
    _, mn, ops, _ = insns[i]
    if not a["mask"](mn, ops):
        return None
    m = re.fullmatch(r"\w+, \w+, #(\d+), #(\d+)", ops)
    if mn == "ubfiz":
        return ((1 << int(m.group(2))) - 1) << int(m.group(1)) if m else None
    bits = immediate(ops)
    if bits == MASK >> 4 and i + 1 < len(insns) and a["shift4"](*insns[i + 1][1:3]):
        return bits << 4
    return bits


def target(ops):
    """A branch's target address: objdump prints it as `ffffffff80004e9f <name+0x5f>`."""
    m = re.search(r"([0-9a-f]+) <", ops)
    return int(m.group(1), 16) if m else None


def check(arch, insns, name, a):
    """None if this function's bump and handler call are sound, else why not."""
    mask = next((i for i in range(len(insns)) if mask_at(a, insns, i) == MASK), None)
    first_call = next((t for _, mn, o, t in insns if a["call"](mn, o)), "")
    if mask is None:
        return "no-bump", (f"{name}: no stack bump: no `and` with the offset mask {MASK:#x} "
                           f"before its indirect calls (the first: `{first_call}`); built "
                           "without KSTACK_OFFSET_APPLY?")
    handler = next((i for i in range(mask, len(insns)) if a["call"](*insns[i][1:3])
                    or a["jump"](*insns[i][1:3])), None)
    if handler is None:
        return "handler", f"{name}: no indirect call after the mask `{insns[mask][3]}`"
    addr, mn, ops, text = insns[handler]
    region = insns[mask:handler]
    if not any(a["sp_write"](mn2, o2) and immediate(o2) is None for _, mn2, o2, _ in region):
        return "no-bump", (f"{name}: `{insns[mask][3]}` is not followed by a change of the stack "
                           f"pointer before the handler call `{text}`: no stack bump")
    if a["jump"](mn, ops):
        return "tail", (f"{name}: {addr:x}: `{text}` reaches the handler by a jump (a sibling "
                        "call), so the bumped frame is gone before it runs: build with "
                        "-fno-optimize-sibling-calls or call it before something else")
    for baddr, bmn, bops, btext in region:
        if a["branch"](bmn, bops) and not a["jump"](bmn, bops):
            t = target(bops)
            if t is not None and insns[mask][0] <= t <= baddr:
                body = [i for i in region if t <= i[0] <= baddr]
                st = next((i for i in body if a["store"](i[1], i[2])), None)
                if st:
                    return "probe", (f"{name}: {st[0]:x}: `{st[3]}` in a loop (`{btext}` at "
                                     f"{baddr:x}) between the stack bump and the handler call: "
                                     "a stack probe (-fstack-clash-protection); build "
                                     "kernel/syscall/syscall.c without it")
    for iaddr, _, _, itext in region:
        if re.search(r"\bmemset\b", itext):
            return "memset", (f"{name}: {iaddr:x}: `{itext}` between the stack bump and the "
                              "handler call: the block is filled on every call "
                              "(-ftrivial-auto-var-init); build kernel/syscall/syscall.c without it")
    return None


def functions(nm, elf, kinds):
    out = subprocess.run([nm, elf], capture_output=True, text=True, check=True).stdout
    return {p[2] for p in (l.split() for l in out.splitlines()) if len(p) == 3 and p[1] in kinds}


def main():
    arch, elf, objdump, nm = sys.argv[1:5]
    a = ARCHES[arch]
    statics = functions(nm, elf, "t")
    # Every copy of the path the entry code can be made to call.
    todo = sorted(f for f in functions(nm, elf, "T") if ENTRY.match(f))
    if not todo:
        fail(arch, f"no syscall_dispatch in {elf}")
    seen, checked = set(), 0
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        insns = disassemble(objdump, elf, name)
        if not insns:
            fail(arch, f"{name} not found in {elf}")
        # A static function syscall_dispatch calls can only be syscall.c's own.
        todo += [m.group(1) for _, _, _, t in insns for m in [re.search(r"<([\w.]+)>", t)]
                 if m and m.group(1) in statics]
        if any(a["call"](mn, o) or a["jump"](mn, o) for _, mn, o, _ in insns):
            checked += 1
            bad = check(arch, insns, name, a)
            if bad and bad[0] == "no-bump" and name in UNBUMPED:
                continue
            if bad and bad[0] == "no-bump" and LAB_TREE.exists() and \
                    re.search(r"LAB \d+ TODO", LAB_TREE.read_text()):
                print(f"check_dispatch: {arch}: warning: {bad[1]} (the lab's exercise)")
            elif bad:
                fail(arch, bad[1])
    if not checked:
        fail(arch, "syscall_dispatch and its static helpers make no indirect call: "
                   "where is the handler called?")


if __name__ == "__main__":
    main()
