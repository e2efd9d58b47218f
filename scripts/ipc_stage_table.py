#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""scripts/ipc_stage_table.py - docs/ipc.md's stage table and floor table:
the kernel instructions of one IPC leg per stage, per arch, with the
fastpath on and off, and the fastpath's leg grouped against the goals,
made from scripts/ipc_stage_trace.py's ipc-stages.txt files, never typed in.

  python3 -m scripts.ipc_stage_table [--data DIR] [--take RUN] [--update FILE | --check FILE]

DIR holds <arch>.txt, one per arch (build/bench/<arch>/ipc-stages.txt of a
make bench ICOUNT=1 run, copied; default docs/data/ipc-stages). Each file
counts the instructions of every kernel function in the call leg of one
call0 round trip between two programs on one CPU (strategy off): from the
client's system call instruction to the server's return to user mode. A
function belongs to the first stage whose pattern its name matches
(STAGES); code the compiler inlined counts in the function it was inlined
into. The floor table is a view of the same files: the fastpath's call
leg on each arch in coarser groups (FLOOR), its total, and the goal
scripts/bench_ipc_goals.py holds ipc/oneway-call0 to.

--take RUN first copies RUN/<arch>/ipc-stages.txt (RUN is build/bench after
make bench ICOUNT=1 or python3 -m scripts.ipc_stage_trace) into DIR for each
arch RUN has. --update rewrites both tables between their markers in FILE;
--check exits 1 if either is not what the files give (tests/host runs it
on docs/ipc.md). Without either, the tables are printed. After a kernel
change, one command brings the doc up to date:

  python3 -m scripts.ipc_stage_trace && \
      python3 -m scripts.ipc_stage_table --take build/bench --update docs/ipc.md
"""
import argparse
import os
import re
import shutil
import sys

from scripts import doc_table  # the table between its markers
from scripts.bench_ipc_goals import ONE_WAY  # the goal of one leg, per arch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARCHES = ["x86_64", "arm64", "riscv64"]
PATHS = [("slow", "off"), ("fast", "on")]  # (ipc_stage_trace's name, the column's)
BEGIN = "<!-- stage table: scripts/ipc_stage_table.py --update docs/ipc.md -->"
END = "<!-- end of the stage table -->"
# (stage, pattern on the function's name), first match wins.
STAGES = [
    ("entry and exit stubs", r"_entry$|^arch_syscall_call_site$|^el0_svc$|^arm64_vectors$"
     r"|^riscv_trap_entry$|^\.?Lsyscall|^arm64_return_to_user_sp$|^x86_syscall_exit(_direct)?$"
     r"|^riscv_user_exit$"),
    ("dispatch (stack offset, handler call)", r"^syscall_dispatch_|^dispatch$|^call_handler$"),
    ("fastpath (fastpath.c)", r"^ipc_fast_|_guards?$|^deliver_direct$|^hand_off_and_wait$"
     r"|^long_not_here$"),
    ("handlers, message copies (sys_ipc.c)", r"^sys_ipc_|^stage$|^(ipc_)?unstage$|^memcpy$"
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
FLOOR_BEGIN = "<!-- floor table: scripts/ipc_stage_table.py --update docs/ipc.md -->"
FLOOR_END = "<!-- end of the floor table -->"
# The floor table's rows: (label, the stages they add up), fastpath on.
FLOOR = [
    ("entry and exit stubs", ["entry and exit stubs"]),
    ("dispatch: the stack offset (none under off), the handler's call",
     ["dispatch (stack offset, handler call)"]),
    ("the handlers around the fastpath, the handle lookup",
     ["handlers, message copies (sys_ipc.c)", "rendezvous (endpoint.c, handle.c)"]),
    ("the fastpath: lock, guards, delivery, the end of the wait, unlock",
     ["fastpath (fastpath.c)"]),
    ("hand-off and switch: scheduler, kernel stack, FP/SIMD, switch.S",
     ["scheduler hand-off", "kernel stack for the next entry", "FP/SIMD switch",
      "context switch (switch.S)"]),
    ("address space, ASID", ["address space, ASID"]),
    ("locks, IRQs, current thread, other", ["locks, IRQs, current thread", OTHER]),
]


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


def floor_table(files):
    """The floor table's markdown lines: the fastpath's call leg per arch."""
    arches = [a for a in ARCHES if a in files]
    fast = {a: load(files[a]).get("fast", {}) for a in arches}
    stages = {a: by_stage(fast[a].get("functions", {}))[0] for a in arches}
    out = ["| stage, fastpath on (call leg, kernel) | " + " | ".join(arches) + " |",
           "|---|" + "---:|" * len(arches)]
    for label, names in FLOOR:
        cells = [str(sum(stages[a].get(n, 0) for n in names)) if fast[a] else "-"
                 for a in arches]
        if any(c not in ("0", "-") for c in cells):
            out.append(f"| {label} | " + " | ".join(cells) + " |")
    total = {a: fast[a].get("total") for a in arches}
    out.append("| **one leg** | " + " | ".join(f"**{total[a]}**" if total[a] else "-"
                                              for a in arches) + " |")
    out.append("| goal for `ipc/oneway-call0` | " + " | ".join(str(ONE_WAY[a]) for a in arches)
               + " |")
    out.append("| the leg less the goal | " + " | ".join(
        f"{total[a] - ONE_WAY[a]:+d}" if total[a] else "-" for a in arches) + " |")
    return out


def take(run_dir, data_dir):
    """Copy run_dir/<arch>/ipc-stages.txt into data_dir as <arch>.txt; the arches copied."""
    taken = []
    for a in ARCHES:
        src = os.path.join(run_dir, a, "ipc-stages.txt")
        if os.path.exists(src):
            shutil.copyfile(src, os.path.join(data_dir, f"{a}.txt"))
            taken.append(a)
    print(f"ipc_stage_table: took {', '.join(taken) or 'no arch'} from {run_dir}", file=sys.stderr)
    return taken


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=os.path.join(ROOT, "docs", "data", "ipc-stages"))
    ap.add_argument("--update", metavar="FILE")
    ap.add_argument("--check", metavar="FILE")
    ap.add_argument("--take", metavar="RUN", help="copy RUN/<arch>/ipc-stages.txt into DIR first")
    args = ap.parse_args(argv)
    if args.take and not take(args.take, args.data):
        return 1
    path = args.update or args.check
    files = files_in(args.data)
    remake = f"python3 -m scripts.ipc_stage_table --update {path}"
    status = doc_table.apply(table(files), path, bool(args.update), (BEGIN, END), remake)
    if not path:
        print()
    return status | doc_table.apply(floor_table(files), path, bool(args.update),
                                    (FLOOR_BEGIN, FLOOR_END), remake)


if __name__ == "__main__":
    sys.exit(main())
