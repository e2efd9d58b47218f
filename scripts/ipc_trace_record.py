#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""python3 -m scripts.ipc_trace_record ARCH OUT [--after TEXT] [--seconds N] [--cmdline C] -
record a QEMU execution trace of one stretch of a boot, for
scripts/ipc_trace.py.

Boots build/<ARCH>/disk.img (make ARCH=<a> image first) on one CPU under
`-icount shift=0,align=off,sleep=off` with the command line C (default
`run=ipc_bench kstack.debug run.control`; arm64 with the cntfrq that makes
its counter count instructions), waits until the serial output holds TEXT
(default `ipc_bench: 2000 round trips`: ipc_bench's first line, printed
just before its rounds with strategy off begin, first between two threads
of one program, then between two programs: `--require
aspace_activate_irqs_off` picks the latter's legs), then turns QEMU's
log on through its monitor (`log in_asm,exec,nochain`, with -dfilter
keeping the kernel image and the user programs' text, linker/user.ld) for
N seconds (default 30) of host time and stops QEMU. The log goes to OUT,
the serial output to OUT.serial.

Turning the log on late keeps the firmware out of it (logging every block
from the start makes OVMF's busy waits take many minutes). Switching
`nochain` on changes the flags every later block is looked up with, so
QEMU translates each block again and in_asm logs it.

Python standard library only; boots through tests/harness.py (run it
from the top of the tree as a module, as the Makefile runs the scripts
that boot).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

from tests import harness  # the one place that knows how QEMU boots

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

USER_TEXT = "0x400000..0x600000"  # linker/user.ld puts text at 0x400000


def kernel_range(arch):
    """The kernel image's address range, from its symbols."""
    out = subprocess.run(["nm", "-n", os.path.join(ROOT, "build", arch, "kernel.elf")],
                         capture_output=True, text=True, check=True).stdout
    addrs = [int(line.split()[0], 16) for line in out.splitlines()
             if len(line.split()) == 3 and line.split()[1] in "tTbBdDrR"]
    return f"{min(addrs):#x}..{max(addrs):#x}"


def wait_for(path, text, deadline):
    while time.time() < deadline:
        if os.path.exists(path):
            with open(path, errors="replace") as f:
                if text in f.read():
                    return True
        time.sleep(0.5)
    return False


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("arch")
    ap.add_argument("out")
    ap.add_argument("--after", default="ipc_bench: 2000 round trips")
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--cmdline", default="run=ipc_bench kstack.debug run.control")
    ap.add_argument("--timeout", type=float, default=1200, help="for TEXT to appear")
    args = ap.parse_args(argv)
    tmp = tempfile.mkdtemp(prefix="ipc_trace_")
    image, vars_path, sock = (os.path.join(tmp, n) for n in ("disk.img", "vars.fd", "mon.sock"))
    make_vars = {"QEMU_CPU": "max,pauth-impdef=on,cntfrq=1000000000"} if args.arch == "arm64" else {}
    extra = (f"-icount shift=0,align=off,sleep=off -dfilter {kernel_range(args.arch)},{USER_TEXT}"
             f" -D {os.path.abspath(args.out)}")
    cmd = harness.prepare(args.arch, image, vars_path, args.cmdline, smp=1, extra=extra,
                          make_vars=make_vars)
    serial = os.path.abspath(args.out) + ".serial"
    cmd = re.sub(r"-serial \S+", f"-serial file:{serial}", cmd)
    cmd = re.sub(r"-monitor \S+", f"-monitor unix:{sock},server,nowait", cmd)
    if os.path.exists(serial):
        os.remove(serial)
    qemu = subprocess.Popen(cmd, shell=True, cwd=ROOT, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, start_new_session=True)
    try:
        if not wait_for(serial, args.after, time.time() + args.timeout):
            sys.exit(f"ipc_trace_record: {args.after!r} never appeared (see {serial})")
        harness.ask_monitor(sock, "log in_asm,exec,nochain")
        time.sleep(args.seconds)
        harness.ask_monitor(sock, "log none")
    finally:
        harness.ask_monitor(sock, "quit")
        try:
            qemu.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(qemu.pid, 9)
    print(f"ipc_trace_record: {args.out} ({os.path.getsize(args.out) >> 20} MiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
