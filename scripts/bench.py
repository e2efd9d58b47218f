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
import shutil
import signal
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ICOUNT = "-icount shift=0,align=off,sleep=off -rtc clock=vm"
ROUND = re.compile(r"bench: round (\d+) of (\d+), strategy (\S+)")


def _load(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, "scripts", name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def qemu_command(arch, image, vars_path, icount):
    make_vars = [f"ARCH={arch}", f"IMAGE={image}", f"VARS={vars_path}"]
    if icount:
        make_vars += ["SMP=1", f"QEMU_EXTRA={ICOUNT}"]
        if arch == "arm64":
            make_vars.append("QEMU_CPU=max,pauth-impdef=on,cntfrq=1000000000")
    out = subprocess.run(["make", "-s", "--no-print-directory", *make_vars, "print-qemu"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    info = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    return info.get("VARS_TEMPLATE", ""), info["QEMU"]


def run_arch(arch, args):
    out_dir = os.path.join(ROOT, "build", "bench", arch)
    os.makedirs(out_dir, exist_ok=True)
    image = os.path.join(out_dir, "bench.img")
    vars_path = os.path.join(out_dir, "bench.vars")
    log_path = os.path.join(out_dir, "bench.log")
    shutil.copyfile(os.path.join(ROOT, "build", arch, "disk.img"), image)
    cmdline = (f"run=bench run.args={args.calls},{args.rounds},{args.strategies},{args.icount}"
               " kstack.debug run.driver run.control")
    subprocess.run([sys.executable, os.path.join(ROOT, "boot", "mkimage.py"), "--set-cmdline",
                    image, cmdline], check=True)
    template, cmd = qemu_command(arch, image, vars_path, args.icount)
    if template:
        shutil.copyfile(template, vars_path)
    print(f"bench: {arch}: booting ({'-icount: instructions' if args.icount else 'QEMU TCG'})",
          flush=True)
    progress = _load("run_screen").Progress(arch, prefix="bench")
    start = time.time()
    with open(log_path, "w") as log:
        p = subprocess.Popen(cmd, shell=True, cwd=ROOT, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             errors="replace", start_new_session=True)
        # A timer, not a check between lines: a guest that hangs silently
        # prints nothing. The whole session goes (the shell and QEMU).
        expired = threading.Event()

        def kill():
            expired.set()
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(args.timeout, kill)
        timer.start()
        try:
            for line in p.stdout:
                log.write(line)
                m = ROUND.search(line)
                if m:
                    progress.set(f"round {m.group(1)}/{m.group(2)}, strategy {m.group(3)}")
                elif "stackshift 0.1" in line:
                    progress.set("kernel up, starting the benchmark")
                elif "BENCH end" in line:
                    progress.set("done, powering off")
                elif line.startswith("bench:") or "PANIC" in line:
                    progress.note(f"bench: {arch}: {line.strip()[7:]}")
        finally:
            timer.cancel()
            progress.done()
        p.wait()
        if expired.is_set():
            print(f"bench: {arch}: timed out after {args.timeout} s", flush=True)
            return False
    print(f"bench: {arch}: {time.time() - start:.0f} s", flush=True)
    report = [sys.executable, os.path.join(ROOT, "scripts", "bench_report.py"), "--log",
              log_path, "--out", out_dir] + (["--check"] if args.check else [])
    r = subprocess.run(report, stdout=subprocess.PIPE, text=True)
    sys.stdout.write(r.stdout)
    with open(os.path.join(out_dir, "report.txt"), "w") as f:
        f.write(r.stdout)
    return r.returncode == 0


def main():
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
