#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/host/test_ipc_trace.py - host tests of scripts/ipc_trace.py, which
counts a QEMU execution trace's instructions per kernel symbol: on a stored
x86_64 trace (tests/vectors/ipc_trace/: four system calls of
run=ipc_bench's call64 rounds, with the kernel's `nm -n` lines they touch)
the windows and per-symbol counts are the known ones, and on small made-up
traces a block cut short by -icount counts only its instructions, a short
translation never replaces the full one, and a window ends at the first
block outside the kernel. One KTAP line per case; tests/run.py collects
them.
"""
import csv
import io
import os
import subprocess
import sys
import tempfile
import ktap_cases  # tests/host/ktap_cases.py: the cases run as KTAP
from ktap_cases import expect

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(ROOT, "scripts", "ipc_trace.py")
VECTORS = os.path.join(ROOT, "tests", "vectors", "ipc_trace")


def ipc_trace(nm, trace, *args):
    p = subprocess.run([sys.executable, SCRIPT, nm, trace, *args], capture_output=True, text=True)
    expect(p.returncode == 0, p.stderr.strip())
    return {row[0]: row[1:] for row in csv.reader(io.StringIO(p.stdout)) if row}


def stored(*args):
    return ipc_trace(os.path.join(VECTORS, "x86_64.nm"), os.path.join(VECTORS, "x86_64.trace"),
                     "--start", "x86_syscall_entry", *args)


def stored_windows_have_their_totals():
    rows = stored("--per-window")
    expect([rows[str(i)][0] for i in range(4)] == ["764", "757", "764", "757"], rows)


def stored_counts_per_symbol():
    rows = stored()  # the most common total: 764, two windows
    expect(rows["TOTAL"][0] == "764", rows["TOTAL"])
    expect(rows["x86_user_copy"][0] == "156", rows.get("x86_user_copy"))
    expect(rows["x86_syscall_entry"][0] == "20", rows.get("x86_syscall_entry"))
    expect(sum(float(v[0]) for k, v in rows.items() if k not in ("TOTAL", "symbol")) == 764, rows)


def stored_require_and_forbid():
    rows = stored("--require", "ipc_fast_call", "--all")
    expect(rows["TOTAL"][0] == "757", rows["TOTAL"])  # the calls' two windows
    p = subprocess.run([sys.executable, SCRIPT, os.path.join(VECTORS, "x86_64.nm"),
                        os.path.join(VECTORS, "x86_64.trace"), "--start", "x86_syscall_entry",
                        "--forbid", "stage"], capture_output=True, text=True)
    expect(p.returncode == 1 and "no window" in p.stderr, p.stderr)


NM = """ffffffff80000000 T _start
ffffffff80001000 T entry
ffffffff80001010 T work
ffffffff80002000 B _kernel_end
"""


def made_up(blocks):
    """A trace: in_asm for each block (address, instruction count), then the runs."""
    out = []
    for pc, n in blocks["translate"]:
        out.append("----------------\nIN: \n")
        out += [f"0x{pc + 4 * i:016x}:  00 00 00 00  nop\n" for i in range(n)]
        out.append("\n")
    for pc, cflags in blocks["run"]:
        out.append(f"Trace 0: 0x7f0000000000 [0000000000000000/{pc:016x}/00000000/{cflags:08x}] \n")
    return "".join(out)


def count(blocks, *args):
    with tempfile.TemporaryDirectory() as tmp:
        nm, trace = os.path.join(tmp, "k.nm"), os.path.join(tmp, "t.log")
        open(nm, "w").write(NM)
        open(trace, "w").write(made_up(blocks))
        return ipc_trace(nm, trace, "--start", "entry", "--all", *args)


def cut_block_counts_its_instructions():
    e, w, user = 0xFFFFFFFF80001000, 0xFFFFFFFF80001010, 0x400000
    rows = count({"translate": [(e, 4), (w, 10), (w, 3), (user, 2)],
                  # work's block once whole, once cut to 2 instructions by -icount
                  "run": [(e, 0), (w, 0), (w, 0x20002), (user, 0)]})
    expect(rows["entry"][0] == "4", rows)
    expect(rows["work"][0] == "12", rows)  # 10 + 2: the short translation did not replace it
    expect(rows["TOTAL"][0] == "16", rows)


def window_ends_outside_the_kernel():
    e, w, user = 0xFFFFFFFF80001000, 0xFFFFFFFF80001010, 0x400000
    rows = count({"translate": [(e, 4), (w, 10), (user, 2)],
                  "run": [(w, 0), (e, 0), (w, 0), (user, 0), (w, 0), (e, 0), (user, 0)]},
                 "--per-window")
    expect(rows["0"][0] == "14" and rows["1"][0] == "4" and "2" not in rows, rows)


CASES = [stored_windows_have_their_totals, stored_counts_per_symbol, stored_require_and_forbid,
         cut_block_counts_its_instructions, window_ends_outside_the_kernel]


def main():
    return ktap_cases.run("ipc_trace", CASES)


if __name__ == "__main__":
    sys.exit(main())
