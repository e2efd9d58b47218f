#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""scripts/bench_ipc_goals.py - the IPC goals of docs/ipc.md, met or not, in
one arch's make bench ICOUNT=1 run (scripts/bench_report.py prints them).

The goals count instructions (-icount), strategy off, client and server two
programs on one CPU, the median (here the median of the rounds' medians):
  ipc/oneway-call0 (one leg)     at most 240 (x86_64), 270 (arm64), 350 (riscv64)
  ipc/call0 (a round trip)       at most twice that
  ipc/call64 (a round trip)      at most 1,200
  pool over off, per leg         at most +10 (ipc/oneway-call0 and -reply0)
with the fastpath on; the same rows with it off (-slow, switched off at run
time: SYS_debug_ipc_fastpath) stand beside them. A run without -icount, or
without the rows, prints nothing for them. Standard library only.
"""
import statistics

ONE_WAY = {"x86_64": 240, "arm64": 270, "riscv64": 350}
CALL64 = 1200
POOL_PER_LEG = 10


def median(run, strategy, syscall):
    """The median of the rounds' medians (p50) of a user-side row, or None."""
    values = [r["p50"] for r in run.rows
              if (r["side"], r["strategy"], r["syscall"]) == ("user", strategy, syscall)]
    return statistics.median(values) if values else None


def pool_extra(run, suffix):
    """The larger of pool's extra instructions per leg over off, or None."""
    extra = []
    for leg in ("ipc/oneway-call0", "ipc/oneway-reply0"):
        off, pool = median(run, "off", leg + suffix), median(run, "pool", leg + suffix)
        if off is None or pool is None:
            return None
        extra.append(pool - off)
    return max(extra)


def number(x):
    return "-" if x is None else f"{x:g}"


def goal_line(what, bound, fast, slow, sign=""):
    """One goal: its bound, the fastpath's figure and verdict, the slow path's."""
    verdict = "no figure" if fast is None else "met" if fast <= bound else "NOT MET"
    return (f"  {what} <= {sign}{bound}: {sign if fast is not None else ''}{number(fast)} "
            f"{verdict} (fastpath off: {sign if slow is not None else ''}{number(slow)})")


def lines(run):
    """The goals' lines for one arch's run; [] unless under -icount with IPC rows."""
    bound = ONE_WAY.get(run.arch)
    if not run.icount or bound is None or median(run, "off", "ipc/oneway-call0") is None:
        return []
    goals = [("ipc/oneway-call0, one leg", bound, "ipc/oneway-call0", ""),
             ("ipc/call0, round trip (twice the leg's goal)", 2 * bound, "ipc/call0", ""),
             ("ipc/call64, round trip", CALL64, "ipc/call64", "")]
    out = [f"IPC goals ({run.arch}, instructions, strategy off, one CPU, two programs, "
           "median of the rounds' medians; the fastpath on, and switched off beside it):"]
    met = 0
    for what, limit, row, sign in goals:
        fast, slow = median(run, "off", row), median(run, "off", row + "-slow")
        met += fast is not None and fast <= limit
        out.append(goal_line(what, limit, fast, slow, sign))
    fast, slow = pool_extra(run, ""), pool_extra(run, "-slow")
    met += fast is not None and fast <= POOL_PER_LEG
    out.append(goal_line("pool over off, per leg (the larger of call0 and reply0)", POOL_PER_LEG,
                         fast, slow, "+"))
    out.append(f"  {met} of 4 goals met")
    return out
