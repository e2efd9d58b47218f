#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/host/test_bench_ipc_goals.py - host tests of scripts/bench_ipc_goals.py,
the IPC goals that scripts/bench_report.py prints for a make bench ICOUNT=1
run: each goal met or not from the median of the rounds' medians, the slow
path's figure beside it, pool's extra instructions per leg, and nothing
without -icount. One KTAP line per case; tests/run.py collects them.
"""
import contextlib
import io
import os
import subprocess
import sys
import tempfile
import ktap_cases  # tests/host/ktap_cases.py: the cases run as KTAP
from ktap_cases import ROOT, expect, load_script

br, goals = load_script("bench_report"), load_script("bench_ipc_goals")

# (strategy, row, p50 of rounds 0, 1, 2): medians 235, 500, 1100; pool +9
# on the call leg and +11 on the reply leg; the slow rows beside them.
ROWS = [("off", "ipc/oneway-call0", (250, 230, 235)), ("off", "ipc/oneway-reply0", (236,) * 3),
        ("pool", "ipc/oneway-call0", (244,) * 3), ("pool", "ipc/oneway-reply0", (247,) * 3),
        ("off", "ipc/call0", (500,) * 3), ("off", "ipc/call64", (1100, 1300, 1000)),
        ("off", "ipc/oneway-call0-slow", (560,) * 3), ("off", "ipc/oneway-reply0-slow", (561,) * 3),
        ("pool", "ipc/oneway-call0-slow", (574,) * 3),
        ("pool", "ipc/oneway-reply0-slow", (575,) * 3), ("off", "ipc/call0-slow", (1121,) * 3),
        ("off", "ipc/call64-slow", (2205,) * 3),
        ("off", "getpid", (70,) * 3), ("off", "invalid", (68,) * 3)]


def log(arch="x86_64", icount=1):
    lines = [f"BENCH arch {arch}", "BENCH counter tsc 1000000000", f"BENCH icount {icount}"]
    for strategy, row, p50s in ROWS:
        lines += [f"BENCH row user {strategy} {row} {r} 100 {v * 1000} {v} {v} {v} {v}"
                  for r, v in enumerate(p50s)]
    return "\n".join(lines + ["BENCH end"]) + "\n"


def goal_lines(text):
    with contextlib.redirect_stderr(io.StringIO()):
        runs = br.parse_log(text.splitlines())
    return goals.lines(next(iter(runs.values())))


def verdicts():
    out = goal_lines(log())
    expect(out[0].startswith("IPC goals (x86_64"), out[0])
    want = ["ipc/oneway-call0, one leg <= 240: 235 met (fastpath off: 560)",
            "ipc/call0, round trip (twice the leg's goal) <= 480: 500 NOT MET (fastpath off: 1121)",
            "ipc/call64, round trip <= 1200: 1100 met (fastpath off: 2205)",
            "pool over off, per leg (the larger of call0 and reply0) <= +10: +11 NOT MET "
            "(fastpath off: +14)",
            "2 of 4 goals met"]
    for w in want:
        expect(any(line.strip() == w for line in out), f"missing {w!r} in {out}")


def per_arch_bounds():
    out = goal_lines(log("riscv64"))
    expect(any("<= 350: 235 met" in line for line in out), out)
    expect(any("<= 700: 500 met" in line for line in out), out)


def nothing_without_icount():
    expect(goal_lines(log(icount=0)) == [], "printed without -icount")
    expect(goal_lines(log(arch="mips")) == [], "printed for an arch without goals")
    no_ipc = "\n".join(line for line in log().splitlines() if "ipc/" not in line)
    expect(goal_lines(no_ipc) == [], "printed without IPC rows")


def missing_slow_rows():
    text = "\n".join(line for line in log().splitlines() if "-slow" not in line)
    out = goal_lines(text)
    expect(any(line.strip() == "ipc/call64, round trip <= 1200: 1100 met (fastpath off: -)"
               for line in out), out)


def report_prints_them():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bench.log")
        with open(path, "w") as f:
            f.write(log())
        p = subprocess.run([sys.executable, "-m", "scripts.bench_report",
                            "--log", path, "--out", os.path.join(tmp, "out"), "--no-plots"],
                           capture_output=True, text=True, cwd=ROOT)
    expect(p.returncode == 0, p.stderr)
    expect("IPC goals (x86_64" in p.stdout and "2 of 4 goals met" in p.stdout, p.stdout[-2000:])


CASES = [verdicts, per_arch_bounds, nothing_without_icount, missing_slow_rows, report_prints_them]


def main():
    return ktap_cases.run("bench_ipc_goals", CASES)


if __name__ == "__main__":
    sys.exit(main())
