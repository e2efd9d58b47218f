#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/host/test_cost_table.py - host tests of scripts/cost_table.py, which
makes docs/kstack.md's cost table from `make bench ICOUNT=1`'s CSV files
(docs/data/bench-icount): the committed table is exactly what those files
give, a hand-edited number is caught, and the cells are the least of the
rounds minus `off`'s. One KTAP line per case; tests/run.py collects them.
"""
import os
import subprocess
import sys
import tempfile
import ktap_cases  # tests/host/ktap_cases.py: the cases run as KTAP

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DOC = os.path.join(ROOT, "docs", "kstack.md")
HEADER = "arch,counter,side,strategy,syscall,round,count,mean,p50,p99,p999,max\n"


def expect(cond, what):
    if not cond:
        raise AssertionError(what)


def cost_table(*args):
    return subprocess.run([sys.executable, "-m", "scripts.cost_table", *args], capture_output=True,
                          text=True, cwd=ROOT)


def doc_table_matches_the_csv():
    p = cost_table("--check", DOC)
    expect(p.returncode == 0, p.stderr.strip())


def hand_edit_is_caught():
    with tempfile.TemporaryDirectory() as tmp:
        doc, edited = ktap_cases.hand_edited_copy(DOC, tmp, "<!-- cost table:", "| `pool` |")
        p = cost_table("--check", doc)
        expect(p.returncode == 1, f"an edited pool row passed: {edited}")


def cells_are_least_rounds_minus_off():
    with tempfile.TemporaryDirectory() as tmp:
        rows = [
            # off: rounds 100/200 (mean), the least is taken
            "arm64,cntvct,kernel,off,getpid,0,1000,100.000,99,120,130,200\n",
            "arm64,cntvct,kernel,off,getpid,1,1000,200.000,99,220,230,300\n",
            "arm64,cntvct,kernel,pool,getpid,0,1000,112.500,99,131,150,300\n",
            "arm64,cntvct,kernel,pool,getpid,1,1000,111.000,99,133,140,300\n",
            "arm64,cntvct,user,pool,getpid,0,1000,1.000,1,1,1,1\n",  # another side: ignored
        ]
        with open(os.path.join(tmp, "arm64.csv"), "w") as f:
            f.write(HEADER + "".join(rows))
        # hw measured on x86_64 only: arm64's cell says it could not run.
        with open(os.path.join(tmp, "x86_64.csv"), "w") as f:
            f.write(HEADER + "x86_64,tsc,kernel,off,getpid,0,1000,50.000,50,50,50,50\n"
                    "x86_64,tsc,kernel,hw,getpid,0,1000,60.000,60,61,62,70\n")
        p = cost_table("--csv", tmp)
        expect(p.returncode == 0, p.stderr)
        expect("| `off` | (50 / 50 / 50) | (100 / 120 / 130) |" in p.stdout, p.stdout)
        expect("| `pool` | not available | +11 / +11 / +10 |" in p.stdout, p.stdout)
        expect("| `hw` | +10 / +11 / +12 | not available |" in p.stdout, p.stdout)
        # siphash in no CSV (a strategy added since): no row until one has it.
        expect("`siphash`" not in p.stdout, p.stdout)


CASES = [doc_table_matches_the_csv, hand_edit_is_caught, cells_are_least_rounds_minus_off]


def main():
    return ktap_cases.run("cost_table", CASES)


if __name__ == "__main__":
    sys.exit(main())
