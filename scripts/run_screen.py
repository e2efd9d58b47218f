#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""scripts/run_screen.py - `make run`: the subject on one screen.

  python3 -m scripts.run_screen --arch A --log FILE [--shift N | --tcg] [--timeout S]
  python3 -m scripts.run_screen --arch A --log FILE --render-only

Boots the command in the environment variable RUN_QEMU_CMD (the Makefile's
QEMU command line for `make run`, its image already holding
`run=bench run.args=...,screen`, user/bench/bench/bench.c), keeps every line of the
serial console in FILE (build/<arch>/run.log), shows one progress line
while it works (rewritten in place on a terminal) from the program's
"BENCH step" markers, and ends with one table: per strategy the distinct
offsets seen (of 64), their min-entropy, the instructions it adds to a
getpid round trip at the mean, p99 and p99.9 against `off`, how often the
Bug 1 migration attack predicted the next offset, and whether LFSR113 state
recovery succeeded. --render-only reads an existing FILE instead of booting.

Under -icount (the default) QEMU counts instructions exactly and
repeatably; with shift N the counter advances 2^N per instruction and the
table divides by it. --tcg: QEMU's plain wall-clock mode, the table shows
percent changes against `off`, which only mean something within one run.

The records it reads besides scripts/bench_report.py's (user/bench/bench/bench.c):
  BENCH step <i> <n> <strategy>     strategy i of n starts
  BENCH kstack <strategy> <distinct> <min_entropy_milli> <migrate_hits>
      <migrate_clean> <lfsr_fits> <lfsr_hits> <lfsr_predictions> <offsets>
  BENCH kstack <strategy> unavailable
Python standard library only.
"""
import argparse
import os
import re
import sys

from scripts import bench_report  # the records it shares with the report
from tests import harness  # the one place that boots QEMU

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

STEP = re.compile(r"\bBENCH step (\d+) (\d+) (\S+)")
KSTACK = re.compile(r"\bBENCH kstack (\S+) (.*)$")
CHANCE = 1 / 64
SYSCALL = "getpid"  # the call the cost columns are about
# ... timed by the kernel's own timers, entry to exit (kernel/latency/): the
# strategy's whole cost (the offset at entry, any update at exit), without
# the user-space part of the round trip, where the other CPU's timer ticks
# land more often (under -icount QEMU runs the CPUs in turn on one clock).
SIDE = "kernel"
NEXT = ("next: make bench (every syscall, IPC, plots; build/bench/index.html) | "
        "make run CMDLINE=run=attack_migrate (or ktest=all, run=attack_lfsr) | "
        "the labs: docs/labs/README.md")


def boot(cmd, log_path, progress, timeout):
    """Run cmd (a shell command line), every line to log_path; (status, seconds, timed_out)."""
    def on_line(line):
        m = STEP.search(line)
        if m:
            progress.set(f"measuring strategy {m.group(3)} ({m.group(1)}/{m.group(2)})")
        elif "BENCH end" in line:
            progress.set("done, powering off")
            # A machine that cannot power off (BOARD=sifive_u) is
            # stopped once it has had time to.
            session.stop_later(15)
        elif "stackshift 0.1" in line:
            progress.set("kernel up, starting the measurements")
        elif "PANIC" in line:
            progress.set("kernel PANIC (see the log)")

    session = harness.Session(cmd, log_path, timeout, on_line=on_line)
    session.run()
    return session.status, progress.done(), session.timed_out


def parse_kstack(lines):
    """{strategy: dict or None (unavailable)} from the BENCH kstack records."""
    out = {}
    for line in lines:
        m = KSTACK.search(line.rstrip("\r\n").replace("\r", ""))
        if not m:
            continue
        f = m.group(2).split()
        if f == ["unavailable"]:
            out[m.group(1)] = None
            continue
        try:
            v = [int(x) for x in f[:8]]
        except ValueError:
            continue
        if len(v) == 8:
            out[m.group(1)] = dict(zip(["distinct", "min_milli", "mig_hits", "mig_clean",
                                        "lfsr_fits", "lfsr_hits", "lfsr_n", "offsets"], v))
    return out


def cost_cells(run, strategy, scale, tcg):
    """The added cost of one getpid round trip against off: mean, p99, p99.9."""
    cells = []
    for field, _ in bench_report.STATS:
        # The least disturbed of the rounds (blocks in a row): under -icount
        # the CPUs run in turn on one clock, and a timer tick (the other
        # CPU's, or this one's) inside a timed call adds its instructions to
        # it, often enough to move one block's p99.9; it only ever adds.
        off = run.values(SIDE, "off", SYSCALL, field) if run else []
        ours = run.values(SIDE, strategy, SYSCALL, field) if run else []
        off, ours = [min(off)] if off else [], [min(ours)] if ours else []
        if not off or not ours:
            cells.append("-")
        elif strategy == "off":
            cells.append(f"{off[0] if tcg else off[0] / scale:.0f}")
        elif field != "mean" and max(off + ours) >= bench_report.OVERFLOW:
            cells.append("overflow")
        elif tcg:
            cells.append(f"{(ours[0] / off[0] - 1) * 100:+.1f}%" if off[0] else "-")
        else:
            cells.append(f"{(ours[0] - off[0]) / scale:+.0f}")
    return cells


def migration_cell(k, ncpu_note):
    if not k["mig_clean"]:
        return ncpu_note
    return f"{k['mig_hits'] / k['mig_clean'] * 100:.1f}% of {k['mig_clean']}"


def lfsr_cell(strategy, k):
    rate = k["lfsr_hits"] / k["lfsr_n"] * 100 if k["lfsr_n"] else 0
    if strategy == "off":
        return "- (constant)"
    if k["lfsr_fits"] and rate >= 99:
        return f"YES ({rate:.0f}% predicted)"
    return f"no ({rate:.1f}%)"


def table_head(arch, run, shift, tcg):
    """The table's first line (how it was counted) and its cost column's legend."""
    if tcg:
        head = (f"stackshift {arch}: QEMU TCG, wall-clock ticks ({run.counter if run else '?'}): "
                "WARNING: host noise; only ratios within this one run mean anything")
        return head, "getpid vs off, in the kernel: mean / p99 / p99.9"
    head = (f"stackshift {arch}: exact, repeatable instruction counts (QEMU -icount "
            f"shift={shift}, align=off, sleep=off"
            + (f"; the counter advances {1 << shift} per instruction, divided out" if shift else "")
            + ")")
    return head, "+instructions per getpid vs off, in the kernel: mean / p99 / p99.9"


def table(arch, lines, shift, tcg):
    """The screen's table as lines (at most ~30), and whether it came out whole."""
    runs = bench_report.parse_log(lines)
    run = runs.get(arch) or next(iter(runs.values()), None)
    kstack = parse_kstack(lines)
    scale = 1 << shift
    head, cost = table_head(arch, run, shift, tcg)
    width = [10, 12, 9, 26, 17, 20]
    cols = ["strategy", "offsets/64", "min-ent.", "getpid cost vs off", "Bug 1 migration",
            "LFSR113 recovery"]
    out = [head, "", "  ".join(c.ljust(w) for c, w in zip(cols, width)).rstrip(),
           "  ".join("-" * w for w in width)]
    ncpu_note = "- (one CPU)" if any("needs two CPUs" in l for l in lines) else "-"
    order = [s for s in bench_report.STRATEGY_ORDER if s in kstack] + \
        [s for s in kstack if s not in bench_report.STRATEGY_ORDER]
    for s in order:
        k = kstack[s]
        if k is None:
            row = [s, "not available on this CPU/firmware"]
            out.append("  ".join([s.ljust(width[0]), row[1]]))
            continue
        costs = " / ".join(cost_cells(run, s, scale, tcg))
        costs = f"({costs})" if s == "off" else costs
        row = [s, f"{k['distinct']}", f"{k['min_milli'] / 1000:.2f}", costs,
               migration_cell(k, ncpu_note), lfsr_cell(s, k)]
        out.append("  ".join(c.ljust(w) for c, w in zip(row, width)).rstrip())
    trials = max((k["mig_clean"] for k in kstack.values() if k), default=0)
    offsets = max((k["offsets"] for k in kstack.values() if k), default=0)
    calls = run.rows[0]["count"] if run and run.rows else 0
    rounds = len({r["round"] for r in run.rows}) if run else 0
    out += ["",
            f"{cost.split(':')[0]}: {cost.split(': ')[1]}: the least of {rounds} blocks of {calls} calls "
            "(timer ticks only add), "
            "timed by the kernel from entry to exit; off's own "
            + ("ticks" if tcg else "instructions") + " in brackets",
            f"offsets, min-entropy: {offsets} probe calls (uniform: 64 and 6.00 bits); Bug 1: "
            + (f"{trials} staged migrations (chance {CHANCE * 100:.2f}%, docs/attacks.md)"
               if trials else "not run: it needs two CPUs (docs/attacks.md)"),
            "LFSR113 recovery: observe offsets on CPU 0, solve for the 113 state bits, "
            "predict the next ones (chance 1.56%)"]
    whole = bool(kstack) and run is not None and run.ended
    return out, whole


def main(argv=None):
    """Boot (unless --render-only), then the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arch", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--shift", type=int, default=0, help="the -icount shift QEMU runs with")
    ap.add_argument("--tcg", action="store_true", help="plain TCG: wall-clock ticks")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--render-only", action="store_true", help="no boot: render FILE")
    args = ap.parse_args(argv)
    status, seconds = 0, None
    if not args.render_only:
        cmd = os.environ.get("RUN_QEMU_CMD")
        if not cmd:
            print("run_screen: RUN_QEMU_CMD is not set (make run sets it)", file=sys.stderr)
            return 2
        if args.tcg:
            print("stackshift: WARNING: TCG=1: wall-clock timings under QEMU TCG are host "
                  "noise; only ratios between strategies within this run mean anything")
        progress = harness.Progress(args.arch)
        try:
            status, seconds, timed_out = boot(cmd, args.log, progress, args.timeout)
        except KeyboardInterrupt:
            print(f"\nstackshift: interrupted; the console so far is in {args.log}")
            return 130
        if timed_out:
            print(f"stackshift: timed out after {args.timeout} s; the console is in {args.log}")
    with open(args.log, errors="replace") as f:
        lines = f.read().splitlines()
    out, whole = table(args.arch, lines, args.shift, args.tcg)
    if not whole:
        print(f"stackshift: {args.arch}: the measurements did not finish (QEMU exit status "
              f"{status}); the last lines of {args.log}:")
        print("\n".join("  " + l for l in lines[-15:]))
        return 1
    print("\n".join(out))
    print(NEXT)
    print(f"raw console: {args.log}" + (f"; {seconds:.0f} s" if seconds is not None else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
