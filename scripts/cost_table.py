#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""scripts/cost_table.py - the strategies' cost table of docs/kstack.md, made
from `make bench ICOUNT=1`'s CSV files, never typed in.

  python3 -m scripts.cost_table [--csv DIR] [--update FILE | --check FILE]

DIR holds <arch>.csv, one per arch (scripts/bench_report.py's results.csv,
copied; default docs/data/bench-icount). Each cell is what a strategy adds
to one getpid in the kernel (its in-kernel timers, entry to exit) against
`off`, in instructions under -icount shift=0: the mean, p99 and p99.9, each
the least of the rounds (a timer tick inside a timed call only ever adds).
--update rewrites the table between the markers in FILE; --check exits 1
if FILE's table is not what the CSV files give (tests/host runs it on
docs/kstack.md). Without either, the table is printed.
"""
import argparse
import csv
import os
import sys

from scripts import doc_table  # the table between its markers
from tests import harness  # the strategies' one list: kernel/uapi/kstack.h

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARCHES = ["x86_64", "arm64", "riscv64"]

STRATEGIES = harness.kstack_strategies()
STATS = ["mean", "p99", "p999"]
BEGIN = "<!-- cost table: scripts/cost_table.py --update docs/kstack.md -->"
END = "<!-- end of the cost table -->"


def load(path):
    """{(strategy, stat): least value over the rounds} of getpid, kernel side."""
    best = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["side"] != "kernel" or r["syscall"] != "getpid":
                continue
            for stat in STATS:
                v = float(r[stat])
                key = (r["strategy"], stat)
                best[key] = min(best.get(key, v), v)
    return best


def cell(best, strategy):
    """"+a / +b / +c" against off (off itself: its own counts in brackets)."""
    if (strategy, "mean") not in best:
        return "not available"
    if strategy == "off":
        return "(" + " / ".join(f"{best['off', s]:.0f}" for s in STATS) + ")"
    return " / ".join(f"{best[strategy, s] - best['off', s]:+.0f}" for s in STATS)


def table(csv_dir):
    """The table's markdown lines."""
    arches = [a for a in ARCHES if os.path.exists(os.path.join(csv_dir, f"{a}.csv"))]
    data = {a: load(os.path.join(csv_dir, f"{a}.csv")) for a in arches}
    out = ["| strategy | " + " | ".join(arches) + " |",
           "|---|" + "---|" * len(arches)]
    # A strategy no CSV has yet (added since the last make bench ICOUNT=1)
    # gets its row when the CSVs are made again.
    for s in (s for s in STRATEGIES if any((s, "mean") in data[a] for a in arches)):
        out.append(f"| `{s}` | " + " | ".join(cell(data[a], s) for a in arches) + " |")
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--csv", default=os.path.join(ROOT, "docs", "data", "bench-icount"))
    ap.add_argument("--update", metavar="FILE")
    ap.add_argument("--check", metavar="FILE")
    args = ap.parse_args(argv)
    path = args.update or args.check
    return doc_table.apply(table(args.csv), path, bool(args.update), (BEGIN, END),
                           f"python3 -m scripts.cost_table --update {path}")


if __name__ == "__main__":
    sys.exit(main())
