#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""scripts/ipc_stage_trace.py - instructions per kernel function in one IPC leg,
from QEMU's own instruction log (make bench ICOUNT=1: docs/ipc.md's stage
table, scripts/ipc_stage_table.py).

  python3 -m scripts.ipc_stage_trace [--arches "x86_64 arm64 riscv64"] [--out DIR] [--timeout S]
  python3 -m scripts.ipc_stage_trace --analyse LOG ADDRESS --arch A   (a kept log, to stdout)

Boots user/bench/ipc_trace.c (run=ipc_trace kstack.debug run.control) on
one CPU under -icount (shift=3: the firmware's busy waits take minutes at
shift=0 on x86_64; the counts come from the log, not the clock), with a
QEMU monitor of its own. The program prints "ipc-trace: fast ADDRESS" and then
makes round trips through an echo server in another program on that CPU
(strategy off, timers off), every one through the function at ADDRESS;
then the same with the fastpath switched off ("slow"). At each line the
script turns on, through the monitor, one instruction per translation
block (singlestep) and the log of every block executed (log exec,nochain),
into build/bench/<arch>/ipc-trace-<path>.log; WINDOW seconds later it
turns them off. So every instruction the guest ran in the window is one
"Trace" line with its address, and nothing else is logged.

This script only records. The log is read by scripts/ipc_trace.py, the
one reader of QEMU's execution logs (its analyse()): a call is what runs
from one entry into ADDRESS to the next; a complete call has two runs of
kernel addresses (the call leg: from the client's system call to the
server's return to user mode; then the reply leg). Calls with another
number (a timer tick took the CPU) are left out. Each kernel address is
named by the kernel's symbols (nm). The call that most calls agree with
(the mode of the call leg's total) is written per function to
build/bench/<arch>/ipc-stages.txt, the file that scripts/ipc_stage_table.py
reads (docs/data/ipc-stages/ keeps one run's).
Python standard library only. It adds 10 s (riscv64), 16 s (arm64) and
48 s (x86_64, its firmware under -icount) to make bench, at a load of 11
on two cores.
"""
import argparse
import os
import re
import sys
import tempfile
import time

from scripts.ipc_trace import NM, Symbols, analyse, lines_for  # the log's one reader
from tests import harness  # the one place that boots QEMU

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

ICOUNT = "-icount shift=3,align=off,sleep=off -rtc clock=vm"
WINDOW = 0.3  # s of host time with the log on: some hundreds of calls
LINE = re.compile(r"ipc-trace: (fast|slow) (0x[0-9a-f]+)")


class Tracer:
    """The line callback: the log on for WINDOW seconds at each path's line."""

    def __init__(self, monitor, out_dir):
        self.monitor, self.out_dir = monitor, out_dir
        self.markers, self.session = {}, None

    def ask(self, command):
        harness.ask_monitor(self.monitor, command)

    def on_line(self, line):
        m = LINE.search(line)
        if not m:
            return
        path = m.group(1)
        self.markers[path] = int(m.group(2), 16)
        self.ask(f"logfile {os.path.join(self.out_dir, f'ipc-trace-{path}.log')}")
        self.ask("singlestep on")
        self.ask("log exec,nochain")
        time.sleep(WINDOW)
        self.ask("log none")
        self.ask("singlestep off")
        if path == "slow" and self.session:
            self.session.stop()  # the rest of the program only repeats itself


def trace_arch(arch, out_dir, timeout):
    """Boot ipc_trace on one arch; ipc-stages.txt's lines (and write it)."""
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "ipc-trace")
    mon_dir = tempfile.mkdtemp(prefix="stackshift-trace-")
    monitor = os.path.join(mon_dir, "monitor")
    make_vars = {"QEMU_CPU": "max,pauth-impdef=on,cntfrq=1000000000"} if arch == "arm64" else {}
    cmd = harness.prepare(arch, f"{path}.img", f"{path}.vars",
                          "run=ipc_trace kstack.debug run.control", smp=1,
                          extra=f"{ICOUNT} -monitor unix:{monitor},server=on,wait=off",
                          make_vars=make_vars)
    for p in ("fast", "slow"):  # QEMU appends to a log file that is there already
        log = os.path.join(out_dir, f"ipc-trace-{p}.log")
        if os.path.exists(log):
            os.unlink(log)
    tracer = Tracer(monitor, out_dir)
    tracer.session = harness.Session(cmd, f"{path}.log", timeout, tracer.on_line)
    try:
        tracer.session.run()
    finally:
        for f in os.listdir(mon_dir):
            os.unlink(os.path.join(mon_dir, f))
        os.rmdir(mon_dir)
    syms = Symbols.of(os.path.join(ROOT, "build", arch, "kernel.elf"), NM[arch])
    lines = [f"# scripts/ipc_stage_trace.py: {arch}, strategy off, one CPU, -icount; kernel "
             "instructions per function of one call0 round trip's legs"]
    for p in ("fast", "slow"):
        log = os.path.join(out_dir, f"ipc-trace-{p}.log")
        result = analyse(log, tracer.markers[p], syms) if (
            p in tracer.markers and os.path.exists(log)) else None
        lines += lines_for(p, result)
    with open(os.path.join(out_dir, "ipc-stages.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arches", default="x86_64 arm64 riscv64")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "bench"))
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--analyse", nargs=2, metavar=("LOG", "ADDRESS"))
    ap.add_argument("--arch", default="x86_64")
    args = ap.parse_args(argv)
    if args.analyse:
        syms = Symbols.of(os.path.join(ROOT, "build", args.arch, "kernel.elf"), NM[args.arch])
        result = analyse(args.analyse[0], int(args.analyse[1], 0), syms)
        print("\n".join(lines_for("log", result)))
        return 0 if result else 1
    ok = True
    for arch in args.arches.split():
        lines = trace_arch(arch, os.path.join(args.out, arch), args.timeout)
        print("\n".join(lines))
        ok = ok and not any(" none: " in line for line in lines)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
