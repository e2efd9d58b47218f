#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""scripts/check_dispatch.py [--symbol NAME] [--mask MASK] ARCH FILE [OBJDUMP [NM]] -
the stack bump in the generated code (docs/kstack.md, "Checked in the
generated code").

FILE is a linked ELF or a relocatable object (.o): in an object, a call's
target is a relocation, which is read with the instruction (objdump -r), so
a call to memset is seen there too. OBJDUMP and NM default to ARCH's cross
tools (x86_64-linux-gnu-objdump, ...). Another kernel names its dispatcher
with --symbol (repeatable; default: this kernel's syscall_dispatch and its
syscall_dispatch_<strategy> copies) and its offset mask with --mask
(default 0x3F0; an 8-byte ABI's is 0x1F8).

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

Then, over the whole kernel (check_entry_path), the way from user mode to a
handler: the entry code's call site (arch_syscall_call_site, which
kernel/syscall/path.c rewrites) is a direct call to one of those copies,
and nothing in the entry code before it, or in a copy before its bump
(nor in any function such a part calls, transitively), unmasks interrupts
(x86_64 `sti` or `popf`, arm64 `msr daifclr` or `msr daif`, riscv64 a
write to sstatus that can set SIE) or makes an indirect call: no handler
runs before the bump, and no interrupt lands between the draw and the bump.

And where the kernel resumes IPC partners straight from their trapframe
(it has arch_switch_to_user: docs/ipc.md, "Straight back to user mode"),
every copy it lets resume so (untimed, of a strategy with no exit update
and no out-of-line draw: not counter, crng16, task, hw or siphash) must save no callee-saved register but the
frame pointer before its handler call, and must make the frame record
arch/<arch>/ipc_entry.S reads the user's frame pointer from: the IPC
entries store the user's callee-saved registers from the registers
themselves, so a copy that saved one and used it would hand them its own
value (check_direct_resume; the copy and the register are named).

Works on any linked ELF with such a syscall_dispatch
(tests/host/test_check_dispatch.py feeds it known-bad ones). In a lab 4
skeleton (the bump is the exercise) a missing bump is only a warning.
Python standard library only.
"""
import argparse
import re
import subprocess
import sys
from pathlib import Path

MASK = 0x3F0  # KSTACK_OFFSET_MASK; --mask changes it
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
#                with MASK >> s followed by a shift left by s (`shift`, s
#                the alignment's log2) counts as MASK (gcc's form for a
#                byte times 16)
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
        shift=lambda m, o, s: m.startswith("shl") and o.startswith(f"${s:#x},"),
    ),
    "arm64": dict(
        call=lambda m, o: m == "blr",
        jump=lambda m, o: m == "br",
        branch=lambda m, o: m in ("b", "cbz", "cbnz", "tbz", "tbnz") or m.startswith("b."),
        sp_write=lambda m, o: re.match(r"sp, ", o) is not None and m in ("sub", "add", "mov"),
        store=lambda m, o: m.startswith("st"),
        mask=lambda m, o: (m == "and" and "#" in o) or m == "ubfiz",
        shift=lambda m, o, s: m == "lsl" and o.endswith(f", #{s}"),
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
        shift=lambda m, o, s: m in ("sll", "slli", "sllw", "slliw", "c.slli") and o.endswith(f",{s:#x}"),
    ),
}
INSN = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*?)\s*$")

# Per arch, an instruction that can unmask interrupts (docs/verification.md):
# x86_64 STI or POPF (IF comes back from the stack; SDM vol. 2B), arm64 MSR
# DAIFClr or MSR DAIF (Arm ARM C5.2.2), riscv64 a CSR write that can set
# sstatus.SIE (privileged spec 4.1.1; csrc only clears bits).
UNMASKS = {
    "x86_64": lambda m, o: m in ("sti", "popf", "popfq", "popfw"),
    "arm64": lambda m, o: m == "msr" and re.match(r"daif(clr)?,", o.replace(" ", "")) is not None,
    "riscv64": lambda m, o: m in ("csrs", "csrsi", "csrw", "csrwi", "csrrs", "csrrsi", "csrrw",
                                  "csrrwi") and "sstatus" in o,
}
CALL_SITE = "arch_syscall_call_site"
FUNC = re.compile(r"^([0-9a-f]+) <([^>]+)>:$")
REF = re.compile(r"<([\w.]+)(?:\+0x[0-9a-f]+)?>")


def fail(arch, msg):
    print(f"check_dispatch: {arch}: {msg}", file=sys.stderr)
    sys.exit(1)


# A relocation objdump -r prints under its instruction: `1b: R_X86_64_PLT32 memset-0x4`.
RELOC = re.compile(r"^\s*[0-9a-f]+:\s+R_\w+\s+([\w.]+)")


def relocatable(path):
    """True for an ELF relocatable object (e_type ET_REL, little-endian)."""
    with open(path, "rb") as f:
        head = f.read(18)
    return head[:4] == b"\x7fELF" and head[16:18] == b"\x01\x00"


def objdump_cmd(objdump, elf):
    return [objdump, "-d", "--no-show-raw-insn"] + (["-r"] if relocatable(elf) else [])


def parse_disassembly(lines, on_function=None):
    """[(address, mnemonic, operands, text)]: a relocation's symbol is added
    to its instruction's text as `<symbol>`, as a linked ELF's objdump names
    a call's target. on_function(name) starts a new function's list."""
    insns = []
    for line in lines:
        f = FUNC.match(line)
        if f and on_function:
            insns = on_function(f.group(2))
            continue
        r = RELOC.match(line)
        if r and insns:
            a, mn, ops, text = insns[-1]
            insns[-1] = (a, mn, ops, f"{text} <{r.group(1)}>")
            continue
        m = INSN.match(line)
        if m:
            ops = re.sub(r"\s*(#\s|//).*$", "", m.group(3))  # objdump's comments
            insns.append((int(m.group(1), 16), m.group(2), ops, f"{m.group(2)} {m.group(3)}".strip()))
    return insns


def disassemble(objdump, elf, name):
    """[(address, mnemonic, operands, text)] of one function."""
    out = subprocess.run(objdump_cmd(objdump, elf) + [f"--disassemble={name}"] + [elf],
                         capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    start = next((i for i, line in enumerate(lines) if line.endswith(f"<{name}>:")), len(lines))
    return parse_disassembly(lines[start + 1:])


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
    s = (MASK & -MASK).bit_length() - 1  # the alignment's log2
    if s and bits == MASK >> s and i + 1 < len(insns) and a["shift"](*insns[i + 1][1:3], s):
        return bits << s
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


def whole_kernel(objdump, elf):
    """{function: [(address, mnemonic, operands, text)]} of the whole ELF."""
    out = subprocess.run(objdump_cmd(objdump, elf) + [elf], capture_output=True,
                         text=True, check=True).stdout
    funcs = {}
    parse_disassembly(out.splitlines(), lambda name: funcs.setdefault(name, []))
    return funcs


def unmasking(arch, funcs, start, seen):
    """The first unmasking instruction in start or anything it calls or jumps
    to by name, transitively: (function, instruction text), or None."""
    todo = [start]
    while todo:
        name = todo.pop()
        if name in seen or name not in funcs:
            continue
        seen.add(name)
        for _, mn, ops, text in funcs[name]:
            if UNMASKS[arch](mn, ops):
                return name, text
            todo += [r for r in REF.findall(text) if r != name]
    return None


def before_bump(arch, a, insns):
    """The instructions of a copy before its bump (all, if it has none)."""
    mask = next((i for i in range(len(insns)) if mask_at(a, insns, i) == MASK), None)
    if mask is None:
        return insns
    bump = next((j for j in range(mask, len(insns)) if a["sp_write"](*insns[j][1:3])
                 and immediate(insns[j][2]) is None), len(insns))
    return insns[:bump]


# Instructions after which control never falls through.
ENDS = {"jmp", "jmpq", "ret", "retq", "sysretq", "sysretl", "iretq", "b", "br", "eret", "j", "c.j",
        "jr", "c.jr", "sret", "mret"}


RETURNS = {"ret", "retq", "c.jr ra", "jr ra", "ret ra"}


def returns(funcs, name):
    """False for a function with no return instruction (panics and the
    like): a call to it does not fall through."""
    return name not in funcs or any(mn in RETURNS or f"{mn} {ops}" in RETURNS
                                    for _, mn, ops, _ in funcs[name])


def on_the_way(a, funcs, insns, addr):
    """The instructions of the entry code on some path from its start to the
    call site at addr: reachable from the start along fall-through and its
    own branches (not through a call that never returns), and able to reach
    addr the same way."""
    index = {ins[0]: i for i, ins in enumerate(insns)}
    succ = []
    for i, (_, mn, ops, text) in enumerate(insns):
        noreturn = any(not returns(funcs, r) for r in REF.findall(text) if r in funcs
                       and not a["branch"](mn, ops))
        nxt = [] if mn in ENDS or insns[i][0] == addr or noreturn else [i + 1]
        t = target(ops) if a["branch"](mn, ops) else None
        succ.append([j for j in nxt + ([index[t]] if t in index else []) if j < len(insns)])

    def reach(starts, edges):
        seen, todo = set(), list(starts)
        while todo:
            i = todo.pop()
            if i not in seen:
                seen.add(i)
                todo += edges[i]
        return seen

    pred = [[] for _ in insns]
    for i, js in enumerate(succ):
        for j in js:
            pred[j].append(i)
    site = [i for i, ins in enumerate(insns) if ins[0] < addr]
    way = reach([0], succ) & reach([site[-1]], pred) if site else set()
    return [insns[i] for i in sorted(way)]


def check_region(arch, a, funcs, where, region):
    """Fail if region (instructions of `where`) unmasks, directly or in what
    it calls, or makes an indirect call."""
    seen = set()
    for _, mn, ops, text in region:
        if UNMASKS[arch](mn, ops):
            fail(arch, f"{where}: `{text}` unmasks interrupts before the stack bump")
        if a["call"](mn, ops) or a["jump"](mn, ops):
            fail(arch, f"{where}: `{text}`: an indirect call before the stack bump could run a "
                       "handler at the unbumped depth")
        for ref in REF.findall(text):
            hit = unmasking(arch, funcs, ref, seen) if ref in funcs and ref not in where else None
            if hit:
                fail(arch, f"{where}: `{text}` reaches {hit[0]}, which unmasks interrupts "
                           f"(`{hit[1]}`), before the stack bump")


def check_entry_path(arch, elf, objdump, copies, exercise):
    """The whole-kernel property (the docstring): entry code, call site, copies
    (but those without a bump in a lab 4 skeleton, `exercise`)."""
    a = ARCHES[arch]
    funcs = whole_kernel(objdump, elf)
    if not funcs.get(CALL_SITE):
        fail(arch, f"no {CALL_SITE} in {elf}: where does the entry code call the dispatcher?")
    # riscv64 calls with an auipc and a jalr; objdump names the target on the jalr.
    text = "; ".join(t for *_, t in funcs[CALL_SITE][:2 if arch == "riscv64" else 1])
    callee = REF.findall(text)
    if not callee or callee[0] not in copies:
        fail(arch, f"{CALL_SITE}: `{text}` is not a direct call to a syscall_dispatch copy")
    # The entry code before the call site: the function the assembler put
    # it in (the symbol before it), from its start.
    addr = funcs[CALL_SITE][0][0]
    container = max(((ins[0][0], n) for n, ins in funcs.items() if ins and ins[0][0] < addr
                     and n != CALL_SITE and any(i[0] < addr for i in ins)), default=None)
    if container:
        name = container[1]
        check_region(arch, a, funcs, f"{name} (the entry code)",
                     on_the_way(a, funcs, funcs[name], addr))
    for copy in sorted(copies - UNBUMPED - exercise):
        check_region(arch, a, funcs, copy, before_bump(arch, a, funcs.get(copy, [])))
    # A kernel with the IRQs-off tracker (make IRQSOFF=1: irqsoff_opened)
    # owes its exit hook on every path, and resumes nothing directly.
    if funcs.get(SWITCH_TO_USER) and not funcs.get(IRQSOFF_HOOK):
        check_direct_resume(arch, funcs, copies)


# The copies a thread may be resumed straight to user mode from
# (kernel/syscall/path.c: owes_exit_work, the same list): untimed, and not a
# strategy that chooses the next offset at exit (kernel/kstack_offset/draw.h:
# kstack_exit) or whose draw calls out of line keeping values in
# callee-saved registers (hw, siphash).
SWITCH_TO_USER = "arch_switch_to_user"
IRQSOFF_HOOK = "irqsoff_opened"
NOT_DIRECT = {"counter", "crng16", "task", "hw", "siphash"}

# Per arch, for check_direct_resume: `saves` names the callee-saved register
# (the frame pointer aside) an instruction saves, or None; `record` is true
# of the copy's instructions before the handler call when they make the
# frame record the IPC entry reads the user's frame pointer from. One entry
# per arch, each written by whoever wrote that arch's ipc_entry.S.
#
# x86_64 (SysV ABI 3.2.1: rbx rbp r12-r15 are callee-saved): a save is a
# push or a store of one of rbx r12-r15 (any width); the record is
# `push %rbp; mov %rsp,%rbp` as the first two instructions, so that [rbp]
# is the user's rbp (ipc_entry.S: `mov (%rbp), %rax`).
X86_SAVED = re.compile(r"%(rbx|ebx|bx|bl|r1[2-5][dwb]?)$")
#
# arm64 (AAPCS64: x19-x29 are callee-saved): a save is a store (str, stp,
# stur, ...) of one of x20-x28 or its w half. x19 may be saved and used:
# el0_svc stores the user's x19 in the trapframe with x18 (vectors.S,
# SAVE_X2_X19), so ipc_entry.S leaves it alone (hw's copy saves it). The
# record is `stp x29, x30, [sp, #-N]!; mov x29, sp` as the first two
# instructions, so that [x29] is the user's x29 (ipc_entry.S: `ldr x9, [x29]`).
ARM64_SAVED = re.compile(r"[xw]2[0-8]")
CALLEE_SAVED = {
    "x86_64": dict(
        saves=lambda m, o: next((r.group(1) for r in [X86_SAVED.match(o.split(",")[0])]
                                 if r and (m.startswith("push") or "(" in o.split(",")[-1])),
                                None),
        record=lambda insns: [f"{mn} {o}" for _, mn, o, _ in insns[:2]]
        == ["push %rbp", "mov %rsp,%rbp"],
    ),
    "arm64": dict(
        saves=lambda m, o: next((r for r in o.split("[")[0].replace(" ", "").split(",")
                                 if ARM64_SAVED.fullmatch(r)), None) if m.startswith("st") else None,
        record=lambda insns: len(insns) >= 2 and re.fullmatch(
            r"stp x29, x30, \[sp, #-\d+\]!", f"{insns[0][1]} {insns[0][2]}") is not None
        and f"{insns[1][1]} {insns[1][2]}" == "mov x29, sp",
    ),
    "riscv64": None,  # riscv64's ipc_entry.S: its registers and frame record here
}


def direct_copies(copies):
    """The copies a thread may be resumed straight to user mode from."""
    return {c for c in copies if not c.endswith("_timed")
            and c.removeprefix("syscall_dispatch_") not in NOT_DIRECT}


def check_direct_resume(arch, funcs, copies):
    """Fail unless every copy that may resume directly saves no callee-saved
    register but the frame pointer before its handler call, and makes the
    frame record (the docstring)."""
    spec, a = CALLEE_SAVED.get(arch), ARCHES[arch]
    if spec is None:
        fail(arch, f"{SWITCH_TO_USER} is here, but CALLEE_SAVED has no {arch} entry: which "
                   "registers must the dispatch copies leave alone for ipc_entry.S?")
    for copy in sorted(direct_copies(copies)):
        insns = funcs.get(copy, [])
        handler = next((i for i, ins in enumerate(insns) if a["call"](*ins[1:3])), len(insns))
        for addr, mn, ops, text in insns[:handler]:
            reg = spec["saves"](mn, ops)
            if reg:
                fail(arch, f"{copy}: {addr:x}: `{text}` saves {reg} before the handler call: "
                           f"an IPC partner resumed straight from its trapframe would get the "
                           f"copy's {reg}, not the user's (arch/{arch}/ipc_entry.S stores the "
                           "registers as it finds them)")
        if not spec["record"](insns[:handler]):
            fail(arch, f"{copy}: no frame record before the handler call: "
                       f"arch/{arch}/ipc_entry.S reads the user's frame pointer from it")


def functions(nm, elf, kinds):
    out = subprocess.run([nm, elf], capture_output=True, text=True, check=True).stdout
    return {p[2] for p in (l.split() for l in out.splitlines()) if len(p) == 3 and p[1] in kinds}


TRIPLES = {"x86_64": "x86_64-linux-gnu", "arm64": "aarch64-linux-gnu",
           "riscv64": "riscv64-linux-gnu"}


def arguments():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("arch", choices=sorted(ARCHES))
    ap.add_argument("file", help="a linked ELF or a relocatable object")
    ap.add_argument("objdump", nargs="?", help="default: ARCH's cross objdump")
    ap.add_argument("nm", nargs="?", help="default: ARCH's cross nm")
    ap.add_argument("--symbol", action="append", default=[],
                    help="the function that bumps and calls the handler (repeatable)")
    ap.add_argument("--mask", type=lambda v: int(v, 0), default=MASK,
                    help="the offset mask, a run of bits from the alignment up (default 0x3F0)")
    args = ap.parse_args()
    low = args.mask & -args.mask
    if args.mask <= 0 or (args.mask + low) & args.mask:
        ap.error(f"--mask {args.mask:#x} is not one run of bits")
    args.objdump = args.objdump or f"{TRIPLES[args.arch]}-objdump"
    args.nm = args.nm or f"{TRIPLES[args.arch]}-nm"
    return args


def main():
    global MASK, ENTRY, UNBUMPED
    args = arguments()
    arch, elf, objdump, nm = args.arch, args.file, args.objdump, args.nm
    MASK = args.mask
    if args.symbol:
        ENTRY = re.compile("(?:" + "|".join(re.escape(s) for s in args.symbol) + ")$")
        UNBUMPED = set()
    a = ARCHES[arch]
    statics = functions(nm, elf, "t")
    # Every copy of the path the entry code can be made to call.
    todo = sorted(f for f in functions(nm, elf, "T") if ENTRY.fullmatch(f))
    if not todo:
        fail(arch, f"no {' or '.join(args.symbol) or 'syscall_dispatch'} in {elf}")
    seen, checked, exercise = set(), 0, set()
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
                exercise.add(name)
            elif bad:
                fail(arch, bad[1])
    if not checked:
        fail(arch, "syscall_dispatch and its static helpers make no indirect call: "
                   "where is the handler called?")
    if CALL_SITE in functions(nm, elf, "TtN"):
        check_entry_path(arch, elf, objdump, {f for f in seen if ENTRY.match(f)}, exercise)


if __name__ == "__main__":
    main()
