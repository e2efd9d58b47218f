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

Before each arch's benchmark, the IRQs-off tracker's worst window
(kernel/latency/irqsoff.h): the kernel built with make IRQSOFF=1
(build/<arch>-irqsoff) runs the workload of the irqsoff boots of make test
(the pool hostile loop, an IPC storm, brk, idle time; user/tests/
test_irqsoff.c) on one CPU, and its longest window is printed with the
functions and lines where it opened and closed (build/bench/<arch>/
irqsoff.txt, which the benchmark's report then prints too; under
--icount 1 in instructions, and whether it is within 5,000).

Then the scaling table (--scaling, default "1 2 4 8"): for each arch, one
short boot per CPU count, timing `pool` alone (the system call blocks, no
IPC, `run.args=N,1,pool,ICOUNT,scale`), and one table of its kernel-side
cost per getpid against the number of CPUs: mean, p50 and p99, and p50
against one CPU's. The path itself does not depend on the number of CPUs
(per-CPU state, no shared line on it), so the p50 should be flat: the line
under the table says whether it is within 2% (all kept in
build/bench/scaling.txt). The mean can move more: under -icount every
CPU reads one virtual clock, which another CPU's busy time slice (QEMU
runs the CPUs in turn on one thread) advances during a timed call. Logs in build/bench/<arch>/scale-<cpus>.log.
With --icount 1, after each arch's benchmark, scripts/ipc_stage_trace.py
boots user/bench/ipc_trace.c and counts, from QEMU's own instruction log,
the kernel instructions per function of one IPC leg with the fastpath on
and off (build/bench/<arch>/ipc-stages.txt; 10 s more for riscv64, 16 s
for arm64, 48 s for x86_64 at a load of 11 on two cores); at the end
scripts/ipc_stage_table.py prints them per stage, as in docs/ipc.md
(build/bench/ipc-stages.md; copying the .txt files to docs/data/ipc-stages/
and --update docs/ipc.md puts them there).
With --linux (make bench LINUX=1), after each of x86_64 and arm64 its
benchmark boots Debian's own Linux kernel twice through scripts/linux_run.py
(randomize_kstack_offset=off, then =on), with the same calls, rounds and
-icount setting and one CPU, and hands both logs to the report (--linux),
which puts Linux's rows beside every strategy (scripts/bench_linux.py).
Debian 12 ships no riscv64 kernel: riscv64 says so and has no Linux rows.
Python standard library only.
"""
import argparse
import concurrent.futures
import importlib
import os
import re
import subprocess
import sys

from tests import harness  # the one place that boots QEMU

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

ICOUNT = harness.icount_options(0)
LINUX_ARCHES = ("x86_64", "arm64")  # Debian 12 has kernels for these
ROUND = re.compile(r"bench: round (\d+) of (\d+), strategy (\S+)")


def _load(name):
    """scripts/<name>.py (the report's HTML page, the Linux runner), imported when needed."""
    return importlib.import_module(f"scripts.{name}")


def qemu_options(arch, icount):
    """harness.qemu_command's keywords: one CPU and -icount with --icount 1
    (and on arm64 a 1 GHz generic timer); else the Makefile's defaults."""
    if not icount:
        return {}
    return {"smp": 1, "extra": ICOUNT,
            "make_vars": {"QEMU_CPU": harness.ICOUNT_CPU[arch]} if arch in harness.ICOUNT_CPU else {}}


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


def report(log_path, out_dir, check, linux_logs=(), note=""):
    """scripts/bench_report.py on the log (and Debian's Linux's, --linux):
    its tables printed and kept as report.txt."""
    cmd = [sys.executable, "-m", "scripts.bench_report", "--log",
           log_path, "--out", out_dir] + (["--check"] if check else [])
    cmd += [a for log in linux_logs for a in ("--linux", log)]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    text = r.stdout + (f"\n{note}\n" if note else "")
    sys.stdout.write(text)
    with open(os.path.join(out_dir, "report.txt"), "w") as f:
        f.write(text)
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
    logs = linux(arch, args) if args.linux else []
    note = (f"{arch}: no Linux rows: Debian 12 ships no {arch} kernel (not one of its release "
            "architectures)" if args.linux and arch not in LINUX_ARCHES else "")
    return report(f"{path}.log", out_dir, args.check, logs, note)


def linux(arch, args):
    """LINUX=1: Debian's own kernel booted twice in the same QEMU
    (scripts/linux_run.py), randomize_kstack_offset=on and =off, timing the
    same calls the same way (linux/client/lx_bench.c); the logs that ran."""
    if arch not in LINUX_ARCHES:
        return []
    run, logs = _load("linux_run"), []
    for state in ("off", "on"):
        log = os.path.join(ROOT, "build", "bench", arch, f"linux-{state}.log")
        print(f"bench: {arch}: booting Debian's Linux, randomize_kstack_offset={state}",
              flush=True)
        s = run.run(arch, "bench", log, f"{args.calls},{args.rounds},{args.icount}",
                    f"linux-{state}", state, args.icount, 1, args.timeout)
        print(f"bench: {arch}: Linux {state}: {s.secs:.0f} s"
              + (" (timed out)" if s.timed_out else ""), flush=True)
        logs += [] if s.timed_out else [log]
    return logs


def ipc_trace(arch, args):
    """--icount 1: instructions per kernel function of one IPC leg, fastpath
    on and off (scripts/ipc_stage_trace.py); whether both paths were traced."""
    print(f"bench: {arch}: tracing one IPC leg (scripts/ipc_stage_trace.py)", flush=True)
    lines = _load("ipc_stage_trace").trace_arch(arch, os.path.join(ROOT, "build", "bench", arch),
                                          args.timeout)
    totals = [line for line in lines if " total " in line or " none: " in line]
    print("\n".join(f"bench: {arch}: ipc trace: {line}" for line in totals), flush=True)
    return not any(" none: " in line for line in lines)


def stage_table(arches):
    """docs/ipc.md's stage table from this run's traces, printed and kept."""
    files = {a: os.path.join(ROOT, "build", "bench", a, "ipc-stages.txt") for a in arches}
    files = {a: p for a, p in files.items() if os.path.exists(p)}
    lines = ["IPC stage table (kernel instructions of one call0 call leg, strategy off, "
             "scripts/ipc_stage_table.py):", ""] + _load("ipc_stage_table").table(files)
    print("\n".join(lines), flush=True)
    with open(os.path.join(ROOT, "build", "bench", "ipc-stages.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


WINDOW = re.compile(r"cpu(\d+): longest IRQs-off window (\d+) instructions \((\d+) ticks\) "
                    r"of (\d+) windows")
SITE = re.compile(r"(opened|closed) #\d (0x[0-9a-f]+)")
WRAPPERS = ("arch/arch.h", "/impl.h", "kernel/spinlock.h", "kernel/latency/irqsoff.h")


def site_name(arch, elf, addr):
    """The function and file:line of a kernel address, past the mask and
    unmask wrappers it was inlined through (addr2line -i)."""
    tool = harness.ADDR2LINE[arch]
    try:
        out = subprocess.run([tool, "-f", "-i", "-p", "-e", elf, addr], capture_output=True,
                             text=True).stdout
    except OSError:
        return addr
    frames = [l.replace(" (inlined by) ", "").strip() for l in out.splitlines() if l.strip()]
    for frame in frames:
        if not any(w in frame for w in WRAPPERS):
            return frame.replace(ROOT + "/", "").replace("./", "")
    return frames[0] if frames else addr


def irqsoff(arch, args):
    """The IRQs-off tracker's worst window on one arch: the irqsoff workload
    (user/tests/test_irqsoff.c) on the make IRQSOFF=1 kernel, then its lines
    with the sites named; whether its bound held (meaningful under -icount)."""
    out_dir = os.path.join(ROOT, "build", "bench", arch)
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "irqsoff")
    cmdline = "ktest=irqsoff irqsoff.per_insn=1 kstack.debug"
    opts = qemu_options(arch, args.icount)
    opts["smp"] = 1  # tests/boots.py says why: one vCPU's spin counts QEMU's turns
    cmd = harness.prepare(arch, f"{path}.img", f"{path}.vars", cmdline, build=f"{arch}-irqsoff",
                          **opts)
    s = harness.boot(cmd, f"{path}.log", args.timeout)
    with open(f"{path}.log", errors="replace") as f:
        text = f.read()
    elf = os.path.join(ROOT, "build", f"{arch}-irqsoff", "kernel.elf")
    unit = "instructions" if args.icount else "counter ticks (TCG: not instructions)"
    lines = []
    for m in WINDOW.finditer(text):
        sites = SITE.findall(text[m.end():m.end() + 400])[:2]
        named = {kind: site_name(arch, elf, addr) for kind, addr in sites}
        lines.append(f"bench: {arch}: worst IRQs-off window on cpu{m.group(1)}: {m.group(2)} {unit} "
                     f"(of {m.group(4)}), from {named.get('opened', '?')} "
                     f"to {named.get('closed', '?')}")
    ok = not s.timed_out and bool(lines) and "not ok" not in text
    if not lines:
        lines.append(f"bench: {arch}: no IRQs-off figures (build/bench/{arch}/irqsoff.log)")
    elif args.icount:
        lines.append(f"bench: {arch}: every IRQs-off window within 5,000 instructions: "
                     f"{'yes' if ok else 'NO'}")
    print("\n".join(lines), flush=True)
    with open(os.path.join(out_dir, "irqsoff.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return ok or not args.icount


SCALE_ROW = re.compile(r"BENCH row kernel pool getpid \d+ (\d+) (\d+) (\d+) (\d+) (\d+) (\d+)")


def scale_point(arch, cpus, args):
    """(mean, p50, p99) of pool's kernel-side getpid on `cpus` CPUs, or None."""
    path = os.path.join(ROOT, "build", "bench", arch, f"scale-{cpus}")
    cmdline = (f"run=bench run.args={args.scale_calls},1,pool,{args.icount},scale"
               " kstack.debug run.driver run.control")
    opts = qemu_options(arch, args.icount)
    opts["smp"] = cpus
    cmd = harness.prepare(arch, f"{path}.img", f"{path}.vars", cmdline, **opts)
    s = harness.boot(cmd, f"{path}.log", args.timeout)
    with open(f"{path}.log", errors="replace") as f:
        m = SCALE_ROW.search(f.read())
    if s.timed_out or not m:
        return None
    return int(m.group(2)) / 1000, int(m.group(3)), int(m.group(4))


def scaling(arches, args):
    """The scaling table of each arch (its boots run side by side, one per
    host CPU); whether every arch's p50 is flat within 2%."""
    unit = "instructions (-icount)" if args.icount else "counter ticks (TCG: ratios only)"
    counts = [int(c) for c in args.scaling.split()]
    jobs = [(arch, cpus) for arch in arches for cpus in counts]
    print(f"bench: scaling: {len(jobs)} boots, {os.cpu_count() or 1} at a time", flush=True)
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        points = dict(zip(jobs, pool.map(lambda j: scale_point(j[0], j[1], args), jobs)))
    ok, lines = True, []
    say = lines.append
    for arch in arches:
        say(f"bench: {arch}: pool per getpid, kernel side, against the number of CPUs; {unit}")
        say(f"  {'CPUs':>4} {'mean':>8} {'p50':>6} {'p99':>6} {'p50 vs 1':>9}")
        base, worst = None, 0.0
        for cpus in counts:
            point = points[(arch, cpus)]
            if point is None:
                say(f"  {cpus:>4} (no result: build/bench/{arch}/scale-{cpus}.log)")
                worst = float("inf")
                continue
            mean, p50, p99 = point
            base = base or p50
            change = (p50 - base) / base * 100
            worst = max(worst, abs(change))
            say(f"  {cpus:>4} {mean:>8.1f} {p50:>6} {p99:>6} {change:>+8.1f}%")
        flat = worst <= 2.0
        say(f"  p50 {'flat' if flat else 'NOT flat'} within 2% (largest change {worst:.1f}%)")
        ok = ok and flat
    print("\n".join(lines), flush=True)
    with open(os.path.join(ROOT, "build", "bench", "scaling.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return ok


def strategies_arg(text):
    """STRATEGIES=: "all", or names joined by '+' (a comma is taken as '+':
    the kernel's run.args would otherwise read the second name as the next
    argument, the -icount flag, and time nothing in instructions)."""
    if text == "all":
        return text
    names, known = text.replace(",", "+").split("+"), harness.kstack_strategies()
    unknown = [n for n in names if n not in known]
    if unknown or not all(names):
        raise argparse.ArgumentTypeError(f"unknown strategy {' '.join(unknown) or repr(text)}: "
                                         f"'all' or names joined by '+' of {' '.join(known)}")
    return "+".join(names)


def main():
    """Each arch in turn, then the HTML page."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arches", default="x86_64 arm64 riscv64")
    ap.add_argument("--calls", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--strategies", default="all", type=strategies_arg)
    ap.add_argument("--icount", type=int, default=0)
    ap.add_argument("--timeout", type=int, default=900)  # the IPC rows lengthen the run
    ap.add_argument("--check", action="store_true", help="fail unless the tables came out "
                    "and off is the fastest on the invalid call")
    ap.add_argument("--scaling", default="1 2 4 8", help="CPU counts of the scaling table "
                    "('' for none)")
    ap.add_argument("--scale-calls", type=int, default=5000)
    ap.add_argument("--linux", action="store_true", help="Debian's own Linux's rows beside "
                    "ours (x86_64, arm64; scripts/linux_run.py)")
    args = ap.parse_args()
    ok = True
    for arch in args.arches.split():
        ok = irqsoff(arch, args) and ok  # first: the report prints its irqsoff.txt
        ok = run_arch(arch, args) and ok
        ok = (not args.icount or ipc_trace(arch, args)) and ok
    if args.icount:
        stage_table(args.arches.split())
    if args.scaling.strip():
        ok = scaling(args.arches.split(), args) and ok
    _load("bench_html").main(["--dir", os.path.join(ROOT, "build", "bench"),
                              "--arches", args.arches])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
