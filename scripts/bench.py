#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""scripts/bench.py - run user/bench/bench in QEMU for each arch and report (make bench).

For each arch: copy the built disk image, put `run=bench run.args=...` on
its command line, boot it through the arch's default firmware path (with
`-icount shift=0,align=off,sleep=off` on one CPU when --icount 1, and on
arm64 a 1 GHz generic timer), show progress while it runs, keep the serial
log in build/bench/<arch>/bench.log and hand it to scripts/bench_report.py,
which prints the tables and writes results.csv and the plots there (its
printed tables are kept as report.txt). One progress line shows the arch,
the strategy and the round (rewritten in place on a terminal); at the end
scripts/bench_html.py writes build/bench/index.html, one page with every
arch's tables and plots, and its path is printed. The same
run has the IPC round trips and one-way legs (the ipc/ rows, docs/ipc.md);
their cross-CPU rows need the default -smp 4 and are skipped under
--icount 1 (one CPU).
Python standard library only.
"""
import argparse
import importlib.util
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import harness  # noqa: E402  (the one place that boots QEMU)

ICOUNT = "-icount shift=0,align=off,sleep=off -rtc clock=vm"
ROUND = re.compile(r"bench: round (\d+) of (\d+), strategy (\S+)")


def _load(name):
    """scripts/<name>.py as a module (the report and the HTML page)."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, "scripts", name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def qemu_options(arch, icount):
    """harness.qemu_command's keywords: one CPU and -icount with --icount 1
    (and on arm64 a 1 GHz generic timer); else the Makefile's defaults."""
    if not icount:
        return {}
    return {"smp": 1, "extra": ICOUNT,
            "make_vars": {"QEMU_CPU": "max,pauth-impdef=on,cntfrq=1000000000"}
            if arch == "arm64" else {}}


def show_progress(progress, arch):
    """The line callback: the round and strategy, notes for the program's own lines."""
    def on_line(line):
        m = ROUND.search(line)
        if m:
            progress.set(f"round {m.group(1)}/{m.group(2)}, strategy {m.group(3)}")
        elif "stackshift 0.1" in line:
            progress.set("kernel up, starting the benchmark")
        elif "BENCH end" in line:
            progress.set("done, powering off")
        elif line.startswith("bench:") or "PANIC" in line:
            progress.note(f"bench: {arch}: {line.strip()[7:]}")
    return on_line


def report(log_path, out_dir, check):
    """scripts/bench_report.py on the log: its tables printed and kept as report.txt."""
    cmd = [sys.executable, os.path.join(ROOT, "scripts", "bench_report.py"), "--log",
           log_path, "--out", out_dir] + (["--check"] if check else [])
    r = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
    sys.stdout.write(r.stdout)
    with open(os.path.join(out_dir, "report.txt"), "w") as f:
        f.write(r.stdout)
    return r.returncode == 0


def run_arch(arch, args):
    """Boot the benchmark (run=bench) on one arch and report; whether it all went well."""
    out_dir = os.path.join(ROOT, "build", "bench", arch)
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "bench")
    cmdline = (f"run=bench run.args={args.calls},{args.rounds},{args.strategies},{args.icount}"
               " kstack.debug run.driver run.control")
    cmd = harness.prepare(arch, f"{path}.img", f"{path}.vars", cmdline,
                          **qemu_options(arch, args.icount))
    print(f"bench: {arch}: booting ({'-icount: instructions' if args.icount else 'QEMU TCG'})",
          flush=True)
    progress = harness.Progress(arch, prefix="bench")
    try:
        s = harness.boot(cmd, f"{path}.log", args.timeout, on_line=show_progress(progress, arch))
    finally:
        progress.done()
    if s.timed_out:
        print(f"bench: {arch}: timed out after {args.timeout} s", flush=True)
        return False
    print(f"bench: {arch}: {s.secs:.0f} s", flush=True)
    return report(f"{path}.log", out_dir, args.check)


def main():
    """Each arch in turn, then the HTML page."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arches", default="x86_64 arm64 riscv64")
    ap.add_argument("--calls", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--strategies", default="all")
    ap.add_argument("--icount", type=int, default=0)
    ap.add_argument("--timeout", type=int, default=900)  # the IPC rows lengthen the run
    ap.add_argument("--check", action="store_true", help="fail unless the tables came out "
                    "and off is the fastest on the invalid call")
    args = ap.parse_args()
    ok = True
    for arch in args.arches.split():
        ok = run_arch(arch, args) and ok
    _load("bench_html").main(["--dir", os.path.join(ROOT, "build", "bench"),
                              "--arches", args.arches])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
