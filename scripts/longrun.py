#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""scripts/longrun.py - the long runs: make fuzz (user/longrun/fuzz/fuzz.c) and make soak (user/longrun/soak/soak.c).

For each arch: copy the built disk image, put `run=<program> run.args=...`
on its command line, boot it through the arch's default firmware path,
show the program's progress lines while it runs, keep the serial log in
build/<program>/<arch>.log, and check the end: the program's KTAP subtests
all ok, "run=<program>: exit status 0", no kernel panic, no timeout. For
the fuzzer it also adds up the children's "fuzz: tally" lines into the
outcome counts. Python standard library only.

  python3 -m scripts.longrun fuzz --arches "x86_64 arm64" --calls N [--seed S] [--replay B]
  python3 -m scripts.longrun soak --arches ... --minutes M
"""
import argparse
import os
import re
import sys

from tests import harness  # the one place that boots QEMU

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def boot(arch, program, args, timeout, smp, show):
    """Boot with run=program; returns (log text, seconds, timed out)."""
    out_dir = os.path.join(ROOT, "build", program)
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, arch)
    cmdline = f"run={program} run.args={','.join(args)} kstack.debug run.control"
    cmd = harness.prepare(arch, f"{path}.img", f"{path}.vars", cmdline, smp=smp)
    print(f"{program}: {arch}: booting: {cmdline}", flush=True)

    def on_line(line):
        if show(line):
            print(f"{program}: {arch}: {line.rstrip()}", flush=True)

    s = harness.boot(cmd, f"{path}.log", timeout, on_line=on_line)
    return s.text(), s.secs, s.timed_out


OUTCOME = re.compile(r"(\w+)=(\d+)")


def fuzz_summary(arch, text):
    """Add up the children's tally lines; the killed children's last calls come from the parent."""
    totals = {}
    for m in re.finditer(r"fuzz: tally (.*)", text):
        for k, v in OUTCOME.findall(m.group(1)):
            totals[k] = totals.get(k, 0) + int(v)
    m = re.search(r"(\d+) killed by their fatal last call", text)
    if m:
        totals["killed"] = int(m.group(1))
        totals["calls"] = totals.get("calls", 0) + int(m.group(1))
    rate = re.search(r"fuzz: (\d+) calls in ([\d.]+) s of guest time: (\d+) calls/s", text)
    counts = ", ".join(f"{k} {v}" for k, v in totals.items() if k != "calls" and v)
    print(f"fuzz: {arch}: {totals.get('calls', 0)} calls counted"
          + (f", {rate.group(3)} calls/s ({rate.group(2)} s)" if rate else "") + f": {counts}")


def check(arch, program, text, secs, timed_out):
    """Print the run's verdict line; whether it passed."""
    problems = []
    if timed_out:
        problems.append("timed out")
    if "KERNEL PANIC" in text:
        problems.append("kernel panic")
    if not re.search(rf"run={program}: exit status 0\b", text):
        problems.append("the program did not exit with status 0")
    bad = re.findall(r"^\s*not ok \d+ - (\S+)", text, re.M)
    problems += [f"not ok {b}" for b in bad]
    print(f"{program}: {arch}: {'FAILED: ' + '; '.join(problems) if problems else 'ok'} "
          f"({secs:.0f} s, log build/{program}/{arch}.log)", flush=True)
    return not problems


def main():
    """Each arch in turn: boot, add up (fuzz), check."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("program", choices=["fuzz", "soak"])
    ap.add_argument("--arches", default="x86_64 arm64 riscv64")
    ap.add_argument("--calls", type=int, default=10 ** 7)
    ap.add_argument("--seed", default="")
    ap.add_argument("--replay", default="")
    ap.add_argument("--minutes", type=float, default=10)
    ap.add_argument("--smp", type=int, default=4)
    args = ap.parse_args()
    ok = True
    for arch in args.arches.split():
        if args.program == "soak":
            secs = int(args.minutes * 60)
            run_args, timeout = [str(secs), "60" if secs >= 300 else "5"], secs * 3 + 300
            show = lambda l: l.startswith("soak:") or "PANIC" in l or "ok " in l
        elif args.replay:
            run_args, timeout = ["replay", args.seed or "0", args.replay], 600
            show = lambda l: l.startswith("fuzz:") or "killed" in l or "PANIC" in l
        else:
            run_args = [str(args.calls)] + ([args.seed] if args.seed else [])
            timeout = args.calls // 200 + 600   # 200 calls/s would be very slow
            show = lambda l: ("fuzz:" in l and "tally" not in l) or "PANIC" in l or "ok " in l
        text, secs, timed_out = boot(arch, args.program, run_args, timeout, args.smp, show)
        if args.program == "fuzz" and not args.replay:
            fuzz_summary(arch, text)
        ok = check(arch, args.program, text, secs, timed_out) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
