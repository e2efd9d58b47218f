#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""scripts/ipc_stage_table.py - docs/ipc.md's stage table: the kernel
instructions of one IPC leg per stage, per arch, with the fastpath on and
off, made from scripts/ipc_stage_trace.py's ipc-stages.txt files, never typed in.

  python3 -m scripts.ipc_stage_table [--data DIR] [--update FILE | --check FILE]

DIR holds <arch>.txt, one per arch (build/bench/<arch>/ipc-stages.txt of a
make bench ICOUNT=1 run, copied; default docs/data/ipc-stages). Each file
counts the instructions of every kernel function in the call leg of one
call0 round trip between two programs on one CPU (strategy off): from the
client's system call instruction to the server's return to user mode. A
function belongs to the first stage whose pattern its name matches
(STAGES); code the compiler inlined counts in the function it was inlined
into. --update rewrites the table between the markers in FILE; --check
exits 1 if FILE's table is not what the files give (tests/host runs it on
docs/ipc.md). Without either, the table is printed.
"""
import argparse
import os
import re
import sys

from scripts import doc_table  # the table between its markers

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARCHES = ["x86_64", "arm64", "riscv64"]
PATHS = [("slow", "off"), ("fast", "on")]  # (ipc_stage_trace's name, the column's)
BEGIN = "<!-- stage table: scripts/ipc_stage_table.py --update docs/ipc.md -->"
END = "<!-- end of the stage table -->"
# (stage, pattern on the function's name), first match wins.
STAGES = [
    ("entry and exit stubs", r"_entry$|^arch_syscall_call_site$|^el0_svc$|^arm64_vectors$"
     r"|^riscv_trap_entry$|^\.?Lsyscall|^arm64_return_to_user_sp$"),
    ("dispatch (stack offset, handler call)", r"^syscall_dispatch_|^dispatch$|^call_handler$"),
    ("fastpath (fastpath.c)", r"^ipc_fast_|_guards?$|^deliver_direct$|^hand_off_and_wait$"),
    ("handlers, message copies (sys_ipc.c)", r"^sys_ipc_|^stage$|^unstage$|^memcpy$"
     r"|^arch_sc_set_words$"),
    ("rendezvous (endpoint.c, handle.c)", r"^endpoint_|^receive_locked$|^deliver_locked$"
     r"|^set_caller_locked$|^handle_lookup_locked$|^ipc_complete_locked$|^queue_"),
    ("scheduler hand-off", r"^sched_|^switch_to_locked$|^finish_switch$|^hand_off_locked$"),
    ("address space, ASID", r"aspace_activate|^asid_|icache"),
    ("kernel stack for the next entry", r"^arch_set_kernel_stack$"),
    ("FP/SIMD switch", r"fpu"),
    ("context switch (switch.S)", r"^arch_context_switch$|^arch_switch_to_user$"),
    ("locks, IRQs, current thread", r"spin_|current_thread|this_cpu|irq"),
]
OTHER = "other"


def stage_of(function):
    return next((s for s, pat in STAGES if re.search(pat, function)), OTHER)


def load(path):
    """{path: {"total": n, "functions": {name: n}, "calls": (agree, complete,
    seen), "reply": n}} of the call leg, from one ipc-stages.txt."""
    data = {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) < 3 or w[0] != "path":
                continue
            d = data.setdefault(w[1], {"functions": {}})
            if w[2] == "calls":
                d["calls"] = tuple(int(x) for x in w[3:6])
            elif w[2:4] == ["leg", "call"] and w[4] == "total":
                d["total"] = int(w[5])
            elif w[2:4] == ["leg", "reply"] and w[4] == "total":
                d["reply"] = int(w[5])
            elif w[2:4] == ["leg", "call"] and w[4] == "function":
                d["functions"][w[5]] = int(w[6])
    return data


def by_stage(functions):
    """{stage: instructions} and the functions no stage named."""
    out, other = {}, []
    for fn, n in functions.items():
        s = stage_of(fn)
        out[s] = out.get(s, 0) + n
        if s == OTHER:
            other.append(fn)
    return out, sorted(other)


def files_in(data_dir):
    """{arch: DIR/<arch>.txt} of the arches that have one, in ARCHES' order."""
    paths = {a: os.path.join(data_dir, f"{a}.txt") for a in ARCHES}
    return {a: p for a, p in paths.items() if os.path.exists(p)}


def table(files):
    """The table's markdown lines, from {arch: ipc-stages.txt}."""
    arches = [a for a in ARCHES if a in files]
    data = {a: load(files[a]) for a in arches}
    cols = [(a, p, label) for a in arches for p, label in PATHS]
    stages = {(a, p): by_stage(data[a].get(p, {}).get("functions", {})) for a, p, _ in cols}
    out = ["| stage | " + " | ".join(f"{a} fastpath {label}" for a, _, label in cols) + " |",
           "|---|" + "---:|" * len(cols)]
    for name in [s for s, _ in STAGES] + [OTHER]:
        cells = [str(stages[a, p][0].get(name, 0)) if p in data[a] else "-" for a, p, _ in cols]
        if any(c not in ("0", "-") for c in cells):
            out.append(f"| {name} | " + " | ".join(cells) + " |")
    for key, label in (("total", "**call leg, kernel**"), ("reply", "reply leg, kernel")):
        cells = [str(data[a].get(p, {}).get(key, "-")) for a, p, _ in cols]
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    out.append("")
    for a, p, label in cols:
        other = stages[a, p][1]
        calls = data[a].get(p, {}).get("calls")
        out.append(f"* {a}, fastpath {label}: "
                   + (f"{calls[0]} of {calls[1]} complete calls traced agree" if calls
                      else "no trace")
                   + (f"; other: {', '.join(f'`{fn}`' for fn in other)}" if other else ""))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=os.path.join(ROOT, "docs", "data", "ipc-stages"))
    ap.add_argument("--update", metavar="FILE")
    ap.add_argument("--check", metavar="FILE")
    args = ap.parse_args(argv)
    path = args.update or args.check
    return doc_table.apply(table(files_in(args.data)), path, bool(args.update), (BEGIN, END),
                           f"python3 -m scripts.ipc_stage_table --update {path}")


if __name__ == "__main__":
    sys.exit(main())
