#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""scripts/bench_report.py - turn the benchmark's serial log into tables, CSV and plots.

  scripts/bench_report.py --log FILE --out DIR [--check]

DIR is normally build/bench/<arch>. A log holding several arches gets one
subdirectory DIR/<arch>/ each. Python standard library only; the plots need
gnuplot (Debian: gnuplot-nox) and are skipped, with a message, without it.

The raw format, the contract with the kernel and user/bench. One record a
line, fields separated by single spaces; anything before "BENCH" on the line
(a serial-console prefix) and a trailing \\r are ignored, and so is every
line that is not a record:

  BENCH arch <arch>                    starts an arch's records
  BENCH counter <name> <hz>            tsc | pmccntr | cntvct | cycle | time; hz 0 = unknown
  BENCH icount <0|1>                   1: QEMU -icount, values are instruction counts
  BENCH timer <hz>                     the timer's counter (side "timer"), ticks a second
  BENCH row <side> <strategy> <syscall> <round> <count> <mean_x1000> <p50> <p99> <p999> <max>
  BENCH cdf <side> <strategy> <syscall> <lower>:<count> <lower>:<count> ...
  BENCH null <timed> <unknown> <getpid> <empty>
                                       the fastest of 2000 calls with strategy off,
                                       timers off (0) or on (1), or timers off and
                                       kstack.erase on (2), counter reads included;
                                       <empty> is the cost of the reads alone
  BENCH end                            the arch's benchmark finished

(`make run`'s summary adds BENCH step and BENCH kstack records, which
scripts/run_screen.py reads and this script ignores.)

side is "user" (round trip timed in user space), "kernel" (the in-kernel
timers) or "timer" (the tick's lateness, in ticks of the timer's counter); strategy and syscall are any tokens without spaces (strategies as
kernel/uapi/kstack.h lists them: off, counter, ... hw; syscalls getpid getppid
invalid, and the IPC round trips below). Values are integer counter ticks;
the mean is times 1000. A row is one round of one (side, strategy, syscall);
cdf lines give histogram buckets (lower edge and count) summed over all
rounds, and several lines for one key add up. A percentile of 2^20
(1048576) or more means the histogram's overflow bucket (lib/hist.h): the
value is at least that, and is shown as such.

IPC rows (user side only, strategies off, prng and pool): one round trip,
an ipc_call answered by the ipc_reply_recv of an echo server in another
program, timed in the caller (user/common/bench_ipc.h):
  ipc/call0  ipc/call4  ipc/call64              server on the caller's CPU
  ipc/call0-xcpu  ipc/call4-xcpu  ipc/call64-xcpu  server on another CPU
call0 is the tag alone, call4 four register words, call64 64 buffer words
each way. One-way rows, measured in calls of their own (call0 and call64):
  ipc/oneway-call0  ipc/oneway-call64    call leg: the client's counter just
                                          before ipc_call to the server's just
                                          after its ipc_reply_recv returns
  ipc/oneway-reply0  ipc/oneway-reply64  reply leg: the server's just before
                                          ipc_reply_recv to the client's return
  ipc/oneway-...-xcpu                    the same, server on another CPU
                                          (left out where the CPUs' counters
                                          share no zero, e.g. arm64 PMCCNTR)

Interrupt rows (strategies off, prng and pool), idle, with a getpid loop on
every CPU (-getpid) and with an IPC storm on every CPU (-ipc: call0 round
trips to the echo server):
  irq/uart  irq/uart-getpid  irq/uart-ipc      user side: from making the UART
                                          raise its interrupt to the driver
                                          thread's return from notify_wait
  irq/timer irq/timer-getpid irq/timer-ipc     side timer: the tick handler's
                                          entry less the deadline the kernel
                                          programmed, in the timer counter's
                                          ticks (BENCH timer gives its Hz)

Output: DIR/results.csv (one line per row record); printed, DIR/irqsoff.txt
if there is one (scripts/bench.py writes the IRQs-off tracker's worst
windows and their sites there before it runs this), and per arch and side,
the seeds' table (percent change of mean, p99 and p99.9 against "off", with
(R)/(I) when the 95% Student-t intervals over the rounds do not overlap) and
a table beside the published figures; DIR/tail-<syscall>.png (user side)
and DIR/tail-kernel-<syscall>.png, the latency tails as exceedance plots,
and DIR/cost-<side>.png, what each strategy adds to getpid
(scripts/bench_plots.py; "/" in a syscall becomes "-"); beside the IPC rows,
other kernels' published IPC costs for scale. --linux LOG (repeatable) adds
Debian's own Linux's rows from `make bench LINUX=1` (scripts/bench_linux.py):
its columns in every table and plot, and a table of absolute figures with
the ratios the README quotes. --check exits 1 unless every arch has finished tables, every
syscall in them has rows for "off", "off" has the lowest mean on the
invalid syscall, and the IPC rows' header line ("bench: ipc round trips ...
under off, prng and pool, ...") names the strategies the IPC rows were
timed under, no more and no fewer.
"""
import argparse
import csv
import math
import os
import re
import shutil
import statistics
import subprocess
import sys

from tests import harness  # the strategies' one list: kernel/uapi/kstack.h

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

STRATEGY_ORDER = harness.kstack_strategies()
ONE_WAY = ["ipc/oneway-call0", "ipc/oneway-reply0", "ipc/oneway-call64", "ipc/oneway-reply64"]
SYSCALL_ORDER = ["getpid", "getppid", "invalid", "ipc/call0", "ipc/call4", "ipc/call64",
                 *ONE_WAY, "ipc/call0-xcpu", "ipc/call4-xcpu", "ipc/call64-xcpu",
                 *[n + "-xcpu" for n in ONE_WAY]]
OVERFLOW = 1 << 20  # lib/hist.h: the lower edge of the overflow bucket (HIST_MAX + 1)
SIDES = {"user": "round trip timed in user space", "kernel": "in-kernel timers, entry to exit",
         "timer": "timer interrupt, handler entry less the programmed deadline"}
STATS = [("mean", "mean"), ("p99", "p99"), ("p999", "p99.9")]  # (field, label as the seeds)
CSV_HEADER = ["arch", "counter", "side", "strategy", "syscall", "round", "count",
              "mean", "p50", "p99", "p999", "max"]

# Two-sided 95% Student-t critical values, t(0.975, df). Between entries the
# next smaller df is used (a wider, more cautious interval); 1.960 beyond 120.
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
       9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120,
       17: 2.110, 18: 2.101, 19: 2.093, 20: 2.086, 21: 2.080, 22: 2.074, 23: 2.069, 24: 2.064,
       25: 2.060, 26: 2.056, 27: 2.052, 28: 2.048, 29: 2.045, 30: 2.042, 40: 2.021, 60: 2.000,
       120: 1.980}

# background.md, "Published results to reproduce and beat": change against
# randomisation off, 10 million calls per syscall, Arm's fastpath tool.
# (syscall, stat label, old, per-CPU PRNG) in percent.
PUBLISHED = {
    "arm64": {
        "machine": "AWS Graviton3, baseline ~0.19 us per syscall",
        "old": ("crng16", "old get_random_u16"), "new": ("prng", "per-CPU PRNG"),
        "rows": [("getpid", "mean", 15.62, 3.43), ("getpid", "p99", 155.01, 3.20),
                 ("getpid", "p99.9", 156.71, 2.93), ("getppid", "mean", 14.09, 2.12),
                 ("getppid", "p99", 152.81, 1.55), ("invalid", "mean", 13.89, 3.32),
                 ("invalid", "p99.9", 168.83, 3.77)]},
    "x86_64": {
        "machine": "AWS Sapphire Rapids, VM",
        "old": ("counter", "old rdtsc"), "new": ("prng", "per-CPU PRNG"),
        "rows": [("getpid", "mean", 13.32, 4.60), ("getpid", "p99", 13.38, 18.08),
                 ("getpid", "p99.9", 16.26, 19.38), ("getppid", "mean", 11.96, 5.26),
                 ("getppid", "p99.9", 11.42, 22.37), ("invalid", "mean", 10.58, 2.91),
                 ("invalid", "p99.9", 10.35, 21.97)]},
}

# Other kernels' IPC on real hardware, beside this run's ipc/call0
# (round trip) or ipc/oneway-call0 (one way) under off: (kernel, machine,
# what was measured, cycles, one_way).
PUBLISHED_IPC = {
    "x86_64": [("seL4 (sel4bench)", "Intel Skylake", "Call + ReplyRecv round trip", 757, False)],
    "arm64": [("seL4 (sel4bench)", "Arm Cortex-A57", "Call + ReplyRecv round trip", 829, False),
              ("L4Re", "Arm Cortex-A76", "one-way IPC", 384, True)],
    "riscv64": [("seL4 (sel4bench)", "SiFive U54", "Call + ReplyRecv round trip", 1128, False)],
}

RECORD = re.compile(r"\bBENCH (arch|counter|icount|timer|row|cdf|null|end)\b ?(.*)$")
# user/bench/bench/bench.c's per-CPU pool counters, printed at the end.
POOL_LINE = re.compile(r"bench: pool on cpu(\d+): (\d+) refills, (\d+) on the path "
                       r"\(ring found empty\), (\d+) fallback offsets")

# user/bench/bench/bench_ipc_rows.c's header of the IPC rows: the strategies
# it says it times ("off, prng and pool", or those STRATEGIES= chose).
IPC_HEADER = re.compile(r"bench: ipc round trips \(.*?\) under (.+?), caller on CPU")

# The null system call budget: a third of Linux 6.1's path length on
# the same QEMU, measured the same way (background.md: 230 on x86_64 and 293
# on arm64 for an unknown number); riscv64 has a budget of its own.
NULL_BUDGET = {"x86_64": (77, "a third of Linux 6.1's 230"),
               "arm64": (98, "a third of Linux 6.1's 293"),
               "riscv64": (100, "the project's own")}


class Run:
    """Everything the log says about one arch."""

    def __init__(self, arch):
        self.arch = arch
        self.counter, self.hz, self.icount, self.ended = "unknown", 0, False, False
        self.timer_hz = 0   # the timer's counter (side "timer")
        self.rows = []      # dicts with the CSV fields, ints except mean (mean_x1000)
        self.cdf = {}       # (side, strategy, syscall) -> {lower: count}
        self.null = {}      # timed (0/1) -> (unknown, getpid, empty)
        self.pool = []      # per CPU: (cpu, refills, on the path, fallback offsets)
        self.ipc_named = None  # the strategies the IPC header names, if it was printed

    def values(self, side, strategy, syscall, field):
        """Per-round values of one stat (the mean in ticks, not times 1000)."""
        return [r["mean"] / 1000 if field == "mean" else r[field] for r in self.rows
                if (r["side"], r["strategy"], r["syscall"]) == (side, strategy, syscall)]

    def keys(self, side, index):
        """Strategies (index 1) or syscalls (index 2) of a side, in display order."""
        seen = [k for k in dict.fromkeys((r["side"], r["strategy"], r["syscall"])
                                         for r in self.rows) if k[0] == side]
        names = list(dict.fromkeys(k[index] for k in seen))
        order = STRATEGY_ORDER if index == 1 else SYSCALL_ORDER
        return [n for n in order if n in names] + [n for n in names if n not in order]


def warn(msg):
    print(f"bench_report: {msg}", file=sys.stderr)


def parse_log(lines):
    """{arch: Run} from the log's lines, in the order the arches appear."""
    runs, run = {}, None
    for n, line in enumerate(lines, 1):
        pool = POOL_LINE.search(line)
        if pool and run is not None:
            run.pool.append(tuple(int(x) for x in pool.groups()))
        header = IPC_HEADER.search(line)
        if header and run is not None:
            run.ipc_named = set(re.split(r", | and ", header.group(1)))
        m = RECORD.search(line.rstrip("\r\n").replace("\r", ""))
        if not m:
            continue
        kind, f = m.group(1), m.group(2).split()
        try:
            if kind == "arch":
                run = runs.setdefault(f[0], Run(f[0]))
                continue
            if run is None:
                run = runs.setdefault("unknown", Run("unknown"))
            if kind == "counter":
                run.counter, run.hz = f[0], int(f[1])
            elif kind == "icount":
                run.icount = f[0] == "1"
            elif kind == "timer":
                run.timer_hz = int(f[0])
            elif kind == "end":
                run.ended = True
            elif kind == "null":
                run.null[int(f[0])] = tuple(int(x) for x in f[1:4])
            elif kind == "row":
                if len(f) != 10 or f[0] not in SIDES:
                    raise ValueError("bad row")
                ints = [int(x) for x in f[3:]]
                run.rows.append(dict(zip(["side", "strategy", "syscall"], f[:3]),
                                     **dict(zip(CSV_HEADER[5:], ints))))
            elif kind == "cdf":
                if f[0] not in SIDES:
                    raise ValueError("bad side")
                buckets = run.cdf.setdefault(tuple(f[:3]), {})
                for pair in f[3:]:
                    lower, count = (int(x) for x in pair.split(":"))
                    buckets[lower] = buckets.get(lower, 0) + count
        except (IndexError, ValueError):
            warn(f"line {n}: malformed record ignored: {line.strip()}")
    return runs


def t95(df):
    return T95[max(k for k in T95 if k <= df)] if df <= 120 else 1.960


def interval(values):
    """(mean, low, high) of the 95% Student-t interval; low = high = None for n < 2."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, None, None
    half = t95(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def compare(off, other):
    """(percent change of the mean, mark): mark is "R" (other's interval wholly
    above off's: slower), "I" (wholly below: faster) or "" (overlap, or fewer
    than 2 rounds). The change is None when off's mean is 0."""
    o, olo, ohi = interval(off)
    s, slo, shi = interval(other)
    change = (s - o) / o * 100 if o else None
    mark = ""
    if olo is not None and slo is not None:
        mark = "R" if slo > ohi else "I" if shi < olo else ""
    return change, mark


def row_name(syscall):
    """A table's row name: "syscall/getpid", but "ipc/call0" as it is."""
    return syscall if "/" in syscall else f"syscall/{syscall}"


def cell(off, other, field="mean"):
    if not off or not other:
        return "-"
    if field != "mean" and max(off + other) >= OVERFLOW:
        return "overflow"
    change, mark = compare(off, other)
    text = "n/a" if change is None else f"{change:+.2f}%"
    return text + (f" ({mark})" if mark else "")


def number(x, decimals):
    """x with the given decimals; without, as an integer when it is one, else 1 decimal."""
    if decimals:
        return f"{x:.{decimals}f}"
    return str(int(x)) if x == int(x) else f"{x:.1f}"


def unit(run, side="user"):
    if side == "timer":
        return "ticks of the timer's counter (not instructions)"
    return "instructions (exact, -icount)" if run.icount else f"counter ticks ({run.counter})"


def side_row(run, side, sc, field, label, others, width):
    """One table row: the call, the statistic, off's value (and in ns),
    then each other strategy's change; and whether a cell had < 2 rounds."""
    hz = run.timer_hz if side == "timer" else run.hz
    off = run.values(side, "off", sc, field)
    row, few = [row_name(sc), label], False
    if off:
        o = statistics.fmean(off)
        over = field != "mean" and max(off) >= OVERFLOW
        row.append(f">= {OVERFLOW}" if over else number(o, 3 if field == "mean" else 0))
        if hz > 0:
            ns = f"{(OVERFLOW if over else o) * 1e9 / hz:.1f}"
            row.append(f">= {ns}" if over else ns)
    else:
        row += ["-"] * (width - 2)
    for s in others:
        vals = run.values(side, s, sc, field)
        few |= min(len(off), len(vals)) < 2
        row.append(cell(off, vals, field))
    return "| " + " | ".join(row) + " |", few


def side_notes(run, side, syscalls, few):
    """The lines under a side's table: what the cells mean, and a note for
    each family of rows present (ipc/, ipc/oneway-, irq/) and overflow."""
    rounds = sorted({r["round"] for r in run.rows if r["side"] == side})
    lines = ["", f"{len(rounds)} rounds; cells: change of the per-round average against off; "
             "(R) slower, (I) faster: 95% Student-t intervals over the rounds do not overlap"]
    if few:
        lines.append("note: fewer than 2 rounds for some cells: no (R)/(I) marks possible there")
    if any(sc.startswith("ipc/") for sc in syscalls):
        lines.append("ipc/: one round trip (ipc_call answered by ipc_reply_recv in another "
                     "program) timed in the caller; call0 the tag alone, call4 4 register "
                     "words, call64 64 buffer words; -xcpu: the server on another CPU; "
                     "-fpu: both sides use FP/SIMD between calls; -slow: the IPC fastpath "
                     "switched off")
    if any(sc.startswith("ipc/oneway-") for sc in syscalls):
        lines.append("ipc/oneway-: one way, measured: call leg from the client's user mode "
                     "before ipc_call to the server's after ipc_reply_recv returns, reply leg "
                     "from the server's before ipc_reply_recv to the client's after ipc_call")
    if any(sc.startswith("irq/") for sc in syscalls):
        lines.append("irq/: interrupt latency, idle, with a getpid loop on every CPU (-getpid), "
                     "with an IPC storm on every CPU (-ipc); irq/uart: the UART raising its "
                     "interrupt to the driver thread's return from notify_wait; irq/timer: "
                     "the tick handler's entry less its programmed deadline"
                     + (" (under -icount too, ticks of the timer's counter)" if run.icount
                        and side == "timer" else "")
                     + ("" if run.icount else "; QEMU TCG: ratios only"))
    if any(r["side"] == side and r["syscall"] in syscalls and r[f] >= OVERFLOW
           for r in run.rows for f in ("p99", "p999")):
        lines.append(f"overflow: a percentile in lib/hist.h's overflow bucket: at least "
                     f"{OVERFLOW} ticks, no change computed")
    return lines


def side_table(run, side):
    """The seeds' layout for one side, as Markdown lines; [] without data."""
    strategies, syscalls = run.keys(side, 1), run.keys(side, 2)
    if not syscalls:
        return []
    others = [s for s in strategies if s != "off"]
    hz = run.timer_hz if side == "timer" else run.hz
    head = ["syscall", "stat", "off (instructions)" if run.icount and side != "timer"
            else "off (ticks)"]
    head += ["off (ns)"] if hz > 0 else []
    lines = [f"## {run.arch}, {side}: {SIDES[side]}", f"values: {unit(run, side)}"
             + (f", {hz} Hz" if hz > 0 else ""), ""]
    lines += ["| " + " | ".join(head + others) + " |", "|" + "---|" * (len(head) + len(others))]
    few = False
    for sc in syscalls:
        for field, label in STATS:
            line, row_few = side_row(run, side, sc, field, label, others, len(head))
            lines.append(line)
            few |= row_few
    return lines + side_notes(run, side, syscalls, few)


def published_table(run):
    pub = PUBLISHED.get(run.arch)
    if pub is None:
        return [f"## {run.arch}: published figures", "",
                f"There are no published system call figures for {run.arch} to compare with."]
    (old, old_name), (new, new_name) = pub["old"], pub["new"]
    src = f"published, {pub['machine']}"
    lines = [f"## {run.arch}: beside the published figures", "",
             f"| syscall | stat | {old_name} [{src}] | {new_name} [{src}] "
             f"| {old} [this run, user] | {new} [this run, user] |", "|---|---|---|---|---|---|"]
    field_of = {label: field for field, label in STATS}
    for sc, label, p_old, p_new in pub["rows"]:
        off = run.values("user", "off", sc, field_of[label])
        ours = [cell(off, run.values("user", s, sc, field_of[label]), field_of[label])
                for s in (old, new)]
        lines.append(f"| syscall/{sc} | {label} | {p_old:+.2f}% | {p_new:+.2f}% | "
                     + " | ".join(ours) + " |")
    lines += ["", "published: the project's background notes (background.md, 'Published results "
              "to reproduce and beat'): 10 million calls per syscall, Arm's fastpath tool; "
              "this run: the user-side table above, same rule for (R)/(I)"]
    return lines


def published_ipc_table(run):
    """Other kernels' IPC on real hardware beside this run's ipc/call0 or
    ipc/oneway-call0 under off, for scale only; [] for an arch without such
    figures."""
    pub = PUBLISHED_IPC.get(run.arch)
    if pub is None:
        return []
    ticks = "instructions" if run.icount else "ticks"
    lines = [f"## {run.arch}: IPC beside other kernels (for scale only)", "",
             f"| kernel [published, real hardware] | machine | what | cycles "
             f"| this run: mean, off, same CPU ({ticks}) |", "|---|---|---|---|---|"]
    for kernel, machine, what, cycles, one_way in pub:
        ours_name = "ipc/oneway-call0" if one_way else "ipc/call0"
        off = run.values("user", "off", ours_name, "mean")
        ours = f"{statistics.fmean(off):.1f} ({ours_name})" if off else "-"
        lines.append(f"| {kernel} | {machine} | {what} | {cycles} | {ours} |")
    lines += ["", "published: other kernels on real hardware, in CPU cycles; this run: "
              f"QEMU, in {unit(run)}, on an emulated CPU: not comparable, only the scale"]
    return lines


def write_csv(run, path):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(CSV_HEADER)
        for r in run.rows:
            mean = f"{r['mean'] // 1000}.{r['mean'] % 1000:03d}"
            w.writerow([run.arch, r.get("counter", run.counter), r["side"], r["strategy"],
                        r["syscall"], r["round"],
                        r["count"], mean, r["p50"], r["p99"], r["p999"], r["max"]])


# ---- Plots (gnuplot) ------------------------------------------------------
# Each plot is one gnuplot script on stdin with its data inline (datablocks),
# so no temporary files are left (scripts/bench_plots.py writes them).


def gnuplot(script):
    p = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True)
    if p.returncode != 0:
        warn("gnuplot failed: " + p.stderr.strip().replace("\n", "; "))


def _sibling(name):
    """scripts/<name>.py, loaded beside this file (the scripts are not a package)."""
    import importlib.util
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), name + ".py")
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _bench_plots():
    """scripts/bench_plots.py (the pictures)."""
    return _sibling("bench_plots")


def plots(run, outdir):
    """tail-*.png (exceedance, log-log) per call and side, cost-<side>.png
    (added instructions, the legacy designs in their own panel):
    scripts/bench_plots.py says what each shows."""
    if not shutil.which("gnuplot"):
        print("plots: gnuplot is missing (Debian package gnuplot-nox, see scripts/deps.sh): "
              "skipped")
        return
    bp, made = _bench_plots(), []
    what = "instructions" if run.icount else "counter ticks"
    for side in SIDES:
        for sc in run.keys(side, 2) + sorted({k[2] for k in run.cdf if k[0] == side}):
            name = ("tail-" if side == "user" else f"tail-{side}-") + sc.replace("/", "-") + ".png"
            unit_ = "timer ticks" if side == "timer" else what
            script = bp.tail_script(run, side, sc, os.path.join(outdir, name), unit_)
            if name not in made and script:
                gnuplot(script)
                made.append(name)
        script = side != "timer" and bp.cost_script(run, side,
                                                    os.path.join(outdir, f"cost-{side}.png"), what)
        if script:
            gnuplot(script)
            made.append(f"cost-{side}.png")
    print(f"plots: {', '.join(made) if made else 'none (no data)'} in {outdir}")


# ---- Main -----------------------------------------------------------------
def ipc_header_problems(run):
    """The IPC header must name exactly the strategies that have IPC rows."""
    if run.ipc_named is None:
        return []
    timed = {r["strategy"] for r in run.rows if r["syscall"].startswith("ipc/")}
    if run.ipc_named == timed:
        return []
    return [f"{run.arch}: the IPC header says {', '.join(sorted(run.ipc_named))} but the "
            f"IPC rows are timed under {', '.join(sorted(timed)) or 'none'}"]


def check(run):
    """Problems that make --check fail, as strings."""
    bad = ipc_header_problems(run)
    if not run.ended:
        bad.append(f"{run.arch}: no 'BENCH end': the benchmark did not finish")
    sides = [s for s in SIDES if run.keys(s, 2)]
    if not sides:
        bad.append(f"{run.arch}: no rows, no tables")
    for side in sides:
        for sc in run.keys(side, 2):
            if sc != "invalid" and not run.values(side, "off", sc, "mean"):
                bad.append(f"{run.arch} {side}: no off rows for {sc}: nothing to compare with")
        if side == "timer":
            continue  # interrupt rows only: nothing to rank on invalid
        off = run.values(side, "off", "invalid", "mean")
        if not off:
            bad.append(f"{run.arch} {side}: no off rows for invalid")
            continue
        o = statistics.fmean(off)
        for s in run.keys(side, 1):
            vals = run.values(side, s, "invalid", "mean")
            if s == "off" or s.startswith("linux"):  # Debian's Linux: another kernel
                continue
            if vals and statistics.fmean(vals) < o:
                bad.append(f"{run.arch} {side}: {s} is faster than off on invalid by mean "
                           f"({statistics.fmean(vals):.3f} < {o:.3f})")
    return bad


def null_lines(run):
    """The bare path: strategy off, timers off and on, against the budget."""
    if 0 not in run.null:
        return []
    unknown, pid, empty = run.null[0]
    out = [f"Null system call, strategy off, timers off: the fastest of 2000 calls in "
           f"{unit(run)}, the {empty} of the two counter reads included",
           f"  unknown number {unknown}, getpid {pid}"]
    if run.icount and run.arch in NULL_BUDGET:
        budget, why = NULL_BUDGET[run.arch]
        verdict = "within" if unknown <= budget else f"{unknown - budget} over"
        out.append(f"  budget for the unknown number: {budget} ({why}): {verdict}")
    if 1 in run.null:
        t_unknown, t_pid, _ = run.null[1]
        out.append(f"  timers on: unknown number {t_unknown} (+{t_unknown - unknown}), "
                   f"getpid {t_pid} (+{t_pid - pid}): the timers' own cost")
    if 2 in run.null:
        e_unknown, e_pid, _ = run.null[2]
        out.append(f"  kstack.erase on: unknown number {e_unknown} (+{e_unknown - unknown}), "
                   f"getpid {e_pid} (+{e_pid - pid}): clearing the used stack on the way out")
    return out


def _bench_linux():
    """scripts/bench_linux.py (Debian's Linux rows)."""
    return _sibling("bench_linux")


def arguments(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--log", required=True, help="the serial log of the benchmark")
    ap.add_argument("--out", required=True, help="output directory, e.g. build/bench/x86_64")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 unless the tables were made and off is fastest on invalid")
    ap.add_argument("--no-plots", action="store_true", help="skip the PNG plots")
    ap.add_argument("--linux", action="append", default=[], metavar="LOG",
                    help="a log of Debian's Linux (make bench LINUX=1): its rows beside ours")
    return ap.parse_args(argv)


def load_runs(args):
    """{arch: Run} from the log, with any Linux logs' rows merged in; and
    the Linux side-by-side module (None without --linux)."""
    with open(args.log, errors="replace") as f:
        runs = parse_log(f)
    lx = _bench_linux() if args.linux else None
    for path in args.linux:
        arch = lx.merge(None, path, parse_log)
        if lx.merge(runs.get(arch), path, parse_log) is None or arch not in runs:
            warn(f"{path}: no Linux rows for an arch of this log: ignored")
    return runs, lx


def print_tables(run, lx, outdir):
    """Every table of one arch's run, in the report's order."""
    for side in SIDES:
        lines = side_table(run, side)
        if lines:
            print("\n".join(lines) + "\n")
    print("\n".join(published_table(run)) + "\n")
    for lines in (lx.table(run) if lx else [], published_ipc_table(run),
                  _sibling("bench_ipc_goals").lines(run),  # docs/ipc.md's goals, under -icount
                  null_lines(run)):
        if lines:
            print("\n".join(lines) + "\n")
    irqsoff = os.path.join(outdir, "irqsoff.txt")
    if os.path.exists(irqsoff):  # scripts/bench.py's IRQs-off boot, made before this
        with open(irqsoff) as f:
            print("IRQs-off windows (the make IRQSOFF=1 kernel under the irqsoff "
                  "workload):\n" + f.read())
    for cpu, refills, path, fallback in run.pool:
        print(f"pool on cpu{cpu}: {refills} refills, {path} of them by a draw that found "
              f"the ring empty; {fallback} fallback offsets (LFSR113)")


def report_run(run, args, lx, outdir):
    """One arch: its tables, CSV and plots; the problems check() finds."""
    os.makedirs(outdir, exist_ok=True)
    if not run.ended:
        warn(f"{run.arch}: no 'BENCH end' in the log: the benchmark did not finish")
    print(f"# {run.arch}: counter {run.counter}"
          + (f" at {run.hz} Hz" if run.hz > 0 else ", frequency unknown")
          + f"; values are {unit(run)}")
    if not run.icount:
        print("note: QEMU TCG timings are not hardware timings: only ratios between "
              "strategies mean anything")
    print_tables(run, lx, outdir)
    write_csv(run, os.path.join(outdir, "results.csv"))
    print(f"csv: {os.path.join(outdir, 'results.csv')} ({len(run.rows)} rows)")
    if not args.no_plots:
        plots(run, outdir)
    return check(run)


def main(argv=None):
    args = arguments(argv)
    runs, lx = load_runs(args)
    if not any(r.rows for r in runs.values()):
        warn(f"no BENCH row records in {args.log}")
        return 1
    problems = []
    for run in runs.values():
        outdir = args.out if len(runs) == 1 else os.path.join(args.out, run.arch)
        problems += report_run(run, args, lx, outdir)
    if args.check:
        for p in problems:
            print(f"check: FAIL: {p}")
        if problems:
            return 1
        print("check: ok: tables made, off is the fastest strategy on invalid")
    return 0


if __name__ == "__main__":
    sys.exit(main())
