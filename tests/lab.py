#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/lab.py - the course labs: write a student's skeleton, grade a tree.

  tests/lab.py skeleton LAB DEST     make lab LAB=n DEST=dir
  tests/lab.py grade LAB [--arch A]  make grade LAB=n [ARCH=a]
  tests/lab.py check [--lab N]       (tests/run.py) the reference scores full
                                     marks, every skeleton builds and fails
                                     every graded test (no test passes on a stub)
  tests/lab.py wrong [--lab N] [--name X]
                                     (tests/run.py) every wrong solution of
                                     tests/labs/wrong/ scores below full marks
  tests/lab.py list

A lab's code lives in the main tree, which is the reference solution. Each
region a student writes is marked in a C, header or assembly file:

    /* LAB 3 BEGIN: the four quarter rounds of a column round */
    ... the solution ...
    /* LAB 3 STUB
    ... what the skeleton has instead (may be empty) ...
    LAB 3 END */

The skeleton of lab n is the tree with lab n's regions replaced by a line
"/* LAB n TODO: <what> */" and their stubs; other labs' regions keep their
solutions. A lab's tests are ordinary KTAP tests of the suite (kernel self-
tests and their subtests, and host tests' cases: known answers, checked
first and once, as they take seconds), each worth some points; `grade`
builds the tree for each arch, boots it once with only the lab's
self-tests (ktest=...), and prints every test with its points, a failing
one with its diagnostics and the boot's log, and "Score: X/Y" (exit
status 1 below full marks). A test that did not run scores nothing; a
name with a failing result line fails whatever other lines say of it. The labs'
handouts are docs/labs/NN-name.md. The engine behind these commands is
tests/grading.py. Python standard library only.
"""
import argparse
import os
import sys
import time

import grading
from grading import LABS, lab_by_number
from harness import ARCHES


def main():
    """The subcommands: list, skeleton, grade, check, wrong."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("skeleton")
    p.add_argument("lab", type=int)
    p.add_argument("dest")
    p = sub.add_parser("grade")
    p.add_argument("lab", type=int)
    p.add_argument("--arch", choices=ARCHES, action="append")
    p = sub.add_parser("check")
    p.add_argument("--lab", type=int, action="append")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    p = sub.add_parser("wrong")
    p.add_argument("--lab", type=int, action="append")
    p.add_argument("--name", action="append", help="only this wrong solution; repeatable")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    sub.add_parser("list")
    args = ap.parse_args()
    if args.cmd == "list":
        for lab in LABS:
            print(f"{lab.number:2} {lab.name:10} {lab.handout}")
        return 0
    if args.cmd == "skeleton":
        grading.skeleton(lab_by_number(args.lab), os.path.abspath(args.dest))
        return 0
    if args.cmd == "grade":
        return grading.grade(lab_by_number(args.lab), args.arch or ARCHES)
    labs = [lab_by_number(n) for n in args.lab] if args.lab else LABS
    started = time.time()
    verdicts = grading.check_wrong(labs, args.jobs, args.name) if args.cmd == "wrong" \
        else grading.check(labs, args.jobs)
    failed = 0
    for ok, name, diag in verdicts:
        print(f"{'ok' if ok else 'not ok'} - {name}")
        for d in diag if args.cmd == "wrong" or not ok else []:
            print(f"    # {d}")
        failed += not ok
    print(f"# {len(verdicts)} checked in {time.time() - started:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
