#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/host/test_check_dispatch.py - scripts/check_dispatch.py passes a
good dispatcher and fails each known-bad one for its own reason.

Compiles DISPATCH_C below (a syscall_dispatch shaped like kernel/syscall/syscall.c's:
a draw through a pointer, the bump, an indirect call through a table) with
each arch's cross gcc (and the host gcc on an x86_64 host), links it, runs the
check on it and compares the outcome with the variant's. KTAP cases
check_dispatch.<arch>.<compiler>.<variant>. What the compilers do, with the
kernel's -O2 (gcc 12.2 and clang 14 here):

  stack_clash        gcc -fstack-clash-protection emits a probe loop for the
                     alloca on all three arches even though it is at most
                     1008 bytes (the loop's trip count is 0, but it is there,
                     with a residual probe store): must fail, "probe".
  auto_init_gcc      gcc -ftrivial-auto-var-init=pattern does not fill an
                     alloca block (only declared variables): passes; a gcc
                     that fills it must fail "memset", and either is accepted.
  memset             the block filled by an explicit memset (what clang's
                     -ftrivial-auto-var-init=pattern emits): must fail.
  auto_init_clang    clang -ftrivial-auto-var-init=pattern: must fail, memset.
  sibcall_gcc        the handler call last and no -fno-optimize-sibling-calls:
                     gcc keeps the call after an alloca (it never tail-calls
                     from a function that allocates dynamically): passes;
                     a compiler that jumps must fail "tail", either accepted.
  musttail_clang     clang's musttail forces the jump after the bump: must
                     fail, "tail".
  tail_asm           the same jump, written in assembly (so the rule is
                     tested without clang): must fail, "tail".
  no_bump            no alloca: must fail, "no stack bump".
  mask_no_bump       the offset masked but no alloca: must fail, the same.
  byte_draw          the offset a byte times 16, as `pool` draws it: gcc
                     masks and shifts with one `ubfiz w, w, #4, #6` on arm64
                     and `and $0x3f; shl $4` (x86_64, riscv64), which the
                     check must take for the mask: passes.
  byte_draw_wide_mask  the same with 7 bits kept (0x7F0): must fail, "no
                     stack bump".
  helper, helper_no_bump  the body in a static noinline helper that
                     syscall_dispatch calls (as dispatch_timed is): the check
                     must find it, and name it when it has no bump.
  lab_skeleton       no bump in a lab 4 skeleton tree: a warning, exit 0.
  copies, copies_no_bump  the kernel's shape, a syscall_dispatch_<strategy>
                     per strategy: `off`'s copy without a bump passes; any
                     other copy without one must fail, named.
  entry, entry_unmask  entry code calling the copy from arch_syscall_call_site
                     (the whole-kernel check): passes; with a function that
                     unmasks interrupts (sti, msr daifclr, csrsi sstatus)
                     called before the draw and the bump: must fail, named.

  object_*           clang's pattern initialisation and gcc's stack clash
                     probes in a relocatable object (.o), not linked: the
                     same verdicts (memset is a relocation there).
  symbol_mask, symbol_mask_wrong  another kernel's dispatcher, my_entry,
                     with an 8-byte ABI's mask 0x1F8, checked with --symbol
                     my_entry --mask 0x1F8: passes; the same check on a
                     dispatcher that masks with 0x3F0: must fail, "no stack
                     bump".
  uninit_clang       clang -ftrivial-auto-var-init=pattern with
                     lib/kstack's KSTACK_BUMP, which uses the _uninitialized
                     alloca builtin where the compiler has it: passes.

The clang cases are skipped where clang is not installed (it is not one of
scripts/deps.sh's packages). Standard library only.
"""
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHECK = os.path.join(ROOT, "scripts", "check_dispatch.py")

DISPATCH_C = r"""
#ifdef KSTACK_LIB
#include "kstack.h"
#endif
typedef long (*syscall_fn)(void *tf);
const syscall_fn syscall_table[64];
unsigned (*volatile draw)(void);
const unsigned char *volatile pool_next;
#ifndef MASKV
#define MASKV 0x3F0
#endif
void irq_enable(void);
void irq_on(void);
void *memset(void *d, int c, unsigned long n);
#ifdef COPIES /* the kernel's shape: one copy per strategy; `off`'s has no bump */
#define syscall_dispatch syscall_dispatch_pool
long syscall_dispatch_off(void *tf);
#endif
long syscall_dispatch(void *tf);

__attribute__((noinline)) void irq_enable(void) { __asm__ volatile("" ::: "memory"); }
__attribute__((noinline)) void *memset(void *d, int c, unsigned long n)
{
    for (volatile char *p = d; n--; p++)
        *p = (char)c;
    return d;
}

#ifndef TAIL_ASM
#ifdef HELPER
static __attribute__((noinline)) long dispatch_helper(void *tf)
#else
long syscall_dispatch(void *tf)
#endif
{
#ifdef UNMASK_EARLY /* interrupts on before the draw and the bump */
    irq_on();
#endif
#ifdef BYTE /* a ring's byte times 16: arm64 masks and shifts it with one ubfiz */
    unsigned off = (unsigned)*pool_next << 4;
#else
    unsigned off = draw();
#endif
#ifdef MASK_ONLY
    __asm__ volatile("" : : "r"(off & 0x3F0) : "memory");
#endif
#if defined(KSTACK_LIB) /* lib/kstack's bump */
    KSTACK_BUMP(off & MASKV);
#elif !defined(NO_BUMP)
    void *block = __builtin_alloca_with_align(off & MASKV, 64);
#ifdef MEMSET
    memset(block, 0xAA, off & 0x3F0);
#endif
    __asm__ volatile("" : : "r"(block) : "memory");
#endif
    irq_enable();
    syscall_fn fn = syscall_table[*(unsigned long *)tf & 63];
#ifdef MUSTTAIL
    __attribute__((musttail))
#endif
    return fn(tf);
}

#endif

#ifdef HELPER
long syscall_dispatch(void *tf) { return dispatch_helper(tf); }
#endif

#ifdef ENTRY /* entry code that calls the copy through arch_syscall_call_site */
#if defined(__x86_64__)
#define CALL_INSN "call"
#define UNMASK_INSN "sti"
#elif defined(__aarch64__)
#define CALL_INSN "bl"
#define UNMASK_INSN "msr daifclr, #2"
#else
#define CALL_INSN "call"
#define UNMASK_INSN "csrsi sstatus, 2"
#endif
__asm__(".text\n.globl entry_stub\nentry_stub:\n.globl arch_syscall_call_site\n"
        "arch_syscall_call_site:\n" CALL_INSN " syscall_dispatch_pool\nret\n");
__attribute__((noinline)) void irq_on(void) { __asm__ volatile(UNMASK_INSN ::: "memory"); }
#endif

#ifdef COPIES
long syscall_dispatch_off(void *tf)
{
    irq_enable();
    syscall_fn fn = syscall_table[*(unsigned long *)tf & 63];
    return fn(tf);
}
#endif
"""

# The same dispatcher written by hand with a tail jump to the handler, so
# that the check's tail-call rule is tested where clang is not installed.
TAIL_ASM = {
    "x86_64": """
    push %rbp; mov %rsp, %rbp; push %rbx; push %rbx; mov %rdi, %rbx
    mov draw(%rip), %rax; call *%rax
    and $0x3f0, %eax; sub %rax, %rsp
    mov (%rbx), %rax; and $63, %eax; mov syscall_table(,%rax,8), %rax; mov %rbx, %rdi
    lea -8(%rbp), %rsp; pop %rbx; pop %rbp
    jmp *%rax""",
    "arm64": """
    stp x29, x30, [sp, #-32]!; mov x29, sp; str x19, [sp, #16]; mov x19, x0
    adrp x1, draw; ldr x1, [x1, :lo12:draw]; blr x1
    and x0, x0, #0x3f0; sub sp, sp, x0
    ldr x2, [x19]; and x2, x2, #63; adrp x1, syscall_table; add x1, x1, :lo12:syscall_table
    ldr x1, [x1, x2, lsl #3]; mov x0, x19
    mov sp, x29; ldr x19, [sp, #16]; ldp x29, x30, [sp], #32
    br x1""",
    "riscv64": """
    addi sp, sp, -32; sd ra, 24(sp); sd s0, 16(sp); sd s1, 8(sp); addi s0, sp, 32; mv s1, a0
    lla a5, draw; ld a5, 0(a5); jalr a5
    andi a0, a0, 1008; sub sp, sp, a0
    ld a4, 0(s1); andi a4, a4, 63; slli a4, a4, 3; lla a5, syscall_table; add a5, a5, a4
    ld a5, 0(a5); mv a0, s1
    addi sp, s0, -32; ld ra, 24(sp); ld s0, 16(sp); ld s1, 8(sp); addi sp, sp, 32
    jr a5""",
}

# The phrase of check_dispatch.py's message for each reason.
REASONS = {"probe": "a stack probe (-fstack-clash-protection)",
           "memset": "the block is filled on every call",
           "tail": "reaches the handler by a jump (a sibling call)",
           "no-bump": "no stack bump",
           "unmask": "unmasks interrupts"}

CFLAGS = ["-O2", "-ffreestanding", "-fno-pie", "-fno-pic", "-fno-stack-protector",
          "-fno-omit-frame-pointer", "-fno-asynchronous-unwind-tables"]
NOSIB = "-fno-optimize-sibling-calls"
# (name, clang?, flags, accepted outcomes: "ok" or a REASONS key, function named)
VARIANTS = [
    ("good", False, [NOSIB], ["ok"], None),
    ("stack_clash", False, [NOSIB, "-fstack-clash-protection"], ["probe"], "syscall_dispatch"),
    ("auto_init_gcc", False, [NOSIB, "-ftrivial-auto-var-init=pattern"], ["ok", "memset"],
     "syscall_dispatch"),
    ("memset", False, [NOSIB, "-DMEMSET"], ["memset"], "syscall_dispatch"),
    ("auto_init_clang", True, [NOSIB, "-ftrivial-auto-var-init=pattern"], ["memset"],
     "syscall_dispatch"),
    ("sibcall_gcc", False, [], ["ok", "tail"], "syscall_dispatch"),
    ("musttail_clang", True, ["-DMUSTTAIL"], ["tail"], "syscall_dispatch"),
    ("tail_asm", False, ["-DTAIL_ASM"], ["tail"], "syscall_dispatch"),
    ("no_bump", False, [NOSIB, "-DNO_BUMP"], ["no-bump"], "syscall_dispatch"),
    ("mask_no_bump", False, [NOSIB, "-DNO_BUMP", "-DMASK_ONLY"], ["no-bump"], "syscall_dispatch"),
    ("helper", False, [NOSIB, "-DHELPER"], ["ok"], None),
    ("byte_draw", False, [NOSIB, "-DBYTE"], ["ok"], None),
    ("byte_draw_wide_mask", False, [NOSIB, "-DBYTE", "-DMASKV=0x7F0"], ["no-bump"],
     "syscall_dispatch"),
    ("helper_no_bump", False, [NOSIB, "-DHELPER", "-DNO_BUMP"], ["no-bump"], "dispatch_helper"),
    ("lab_skeleton", False, [NOSIB, "-DNO_BUMP"], ["ok"], None),
    ("copies", False, [NOSIB, "-DCOPIES"], ["ok"], None),
    ("copies_no_bump", False, [NOSIB, "-DCOPIES", "-DNO_BUMP"], ["no-bump"],
     "syscall_dispatch_pool"),
    ("entry", False, [NOSIB, "-DCOPIES", "-DBYTE", "-DENTRY"], ["ok"], None),
    ("entry_unmask", False, [NOSIB, "-DCOPIES", "-DBYTE", "-DENTRY", "-DUNMASK_EARLY"],
     ["unmask"], "syscall_dispatch_pool"),
    ("object_auto_init_clang", True, [NOSIB, "-ftrivial-auto-var-init=pattern"], ["memset"],
     "syscall_dispatch"),
    ("object_stack_clash", False, [NOSIB, "-fstack-clash-protection"], ["probe"],
     "syscall_dispatch"),
    ("symbol_mask", False, [NOSIB, "-Dsyscall_dispatch=my_entry", "-DMASKV=0x1F8"], ["ok"], None),
    ("symbol_mask_wrong", False, [NOSIB, "-Dsyscall_dispatch=my_entry"], ["no-bump"], "my_entry"),
    ("uninit_clang", True, [NOSIB, "-ftrivial-auto-var-init=pattern", "-DKSTACK_LIB"], ["ok"],
     None),
]
# Variants checked as a relocatable object, and check_dispatch.py's options.
OBJECT = {"object_auto_init_clang", "object_stack_clash", "symbol_mask", "symbol_mask_wrong"}
# Built by the cross gcc only (not again by an x86_64 host's own gcc).
CROSS_ONLY = OBJECT
OPTIONS = {"symbol_mask": ["--symbol", "my_entry", "--mask", "0x1F8"],
           "symbol_mask_wrong": ["--symbol", "my_entry", "--mask", "0x1F8"]}
ARCHES = [("x86_64", "x86_64-linux-gnu-", "x86_64-linux-gnu"),
          ("arm64", "aarch64-linux-gnu-", "aarch64-linux-gnu"),
          ("riscv64", "riscv64-linux-gnu-", "riscv64-linux-gnu")]


def run(cmd, cwd=None):
    return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)


def outcome(stderr):
    return next((k for k, phrase in REASONS.items() if phrase in stderr), "unexplained")


def case(tmp, arch, prefix, cc, variant):
    """(ok, diagnostics) of one variant built by cc and linked by the cross gcc."""
    name, _, flags, accepted, func = variant
    src, obj, elf = (os.path.join(tmp, f"{arch}-{os.path.basename(cc[0])}-{name}{ext}")
                     for ext in (".c", ".o", ".elf"))
    with open(src, "w") as f:
        f.write(DISPATCH_C)
        if "-DTAIL_ASM" in flags:
            body = "\n".join(f'"{line.strip()}\\n"' for line in TAIL_ASM[arch].strip().split("\n"))
            f.write('__asm__(".text\\n.globl syscall_dispatch\\n.type syscall_dispatch, %function\\n"\n'
                    f'"syscall_dispatch:\\n"\n{body}\n'
                    '".size syscall_dispatch, .-syscall_dispatch\\n");\n')
    inc = ["-I", os.path.join(ROOT, "lib", "kstack")]
    p = run(cc + CFLAGS + inc + flags + ["-c", src, "-o", obj])
    if name in OBJECT:
        elf = obj
    elif p.returncode == 0:
        p = run([prefix + "gcc", "-nostdlib", "-static", "-no-pie", "-Wl,-e,syscall_dispatch",
                 obj, "-o", elf])
    if p.returncode != 0:
        return False, [f"build failed: {' '.join(cc + flags)}"] + p.stderr.splitlines()[-5:]
    cwd = tmp
    if name == "lab_skeleton":  # a tree whose bump is still the student's to write
        cwd = os.path.join(tmp, "lab")
        os.makedirs(os.path.join(cwd, "kernel", "kstack_offset"), exist_ok=True)
        with open(os.path.join(cwd, "kernel", "kstack_offset", "kstack_offset.h"), "w") as f:
            f.write("/* LAB 4 TODO: the stack bump */\n")
    p = run([sys.executable, CHECK, *OPTIONS.get(name, []), arch, elf, prefix + "objdump",
             prefix + "nm"], cwd=cwd)
    got = "ok" if p.returncode == 0 else outcome(p.stderr)
    diag = [f"{' '.join(os.path.basename(c) for c in cc)} {' '.join(flags)}: {got}"]
    diag += [line for line in (p.stdout + p.stderr).splitlines()]
    good = got in accepted
    if good and got != "ok" and f": {func}: " not in p.stderr:
        good = False
        diag.append(f"the message does not name {func}")
    if good and name == "lab_skeleton" and "warning: " not in p.stdout:
        good = False
        diag.append("no warning for the missing bump")
    return good, diag


def main():
    clang = shutil.which("clang")
    plan = []
    for arch, prefix, triple in ARCHES:
        compilers = [("cross", [prefix + "gcc"])]
        if arch == "x86_64" and run(["gcc", "-dumpmachine"]).stdout.startswith("x86_64"):
            compilers.insert(0, ("gcc", ["gcc"]))
        for label, cc in compilers:
            for v in VARIANTS:
                if not v[1] and not (label == "gcc" and v[0] in CROSS_ONLY):
                    plan.append((arch, prefix, label, cc, v))
        for v in VARIANTS:
            if v[1]:
                plan.append((arch, prefix, "clang", [clang, f"--target={triple}"] if clang else None, v))
    print(f"KTAP version 1\n1..{len(plan)}")
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n, (arch, prefix, label, cc, v) in enumerate(plan, 1):
            title = f"check_dispatch.{arch}.{label}.{v[0]}"
            if cc is None:
                print(f"ok {n} - {title} # SKIP clang is not installed")
                continue
            ok, diag = case(tmp, arch, prefix, cc, v)
            for line in diag:
                print(f"    # {line}")
            print(f"{'ok' if ok else 'not ok'} {n} - {title}")
            failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
