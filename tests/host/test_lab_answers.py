#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/host/test_lab_answers.py - a student's tree (tests/lab.py skeleton)
leaves out the files that hold other copies of lab solutions
(grading.ANSWER_PATHS, tests/grading.py): every listed path exists in this tree, so the list has
not gone stale, remove_answers() deletes files and directories alike, and
the copy of lib/kstack/kstack.h it leaves (the kernel builds the library's
ring and SipHash) no longer has the bump or LFSR113.
One KTAP case, lab.answer_paths_exist_and_are_removed.
"""
import os
import shutil
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import grading as lab  # noqa: E402  (the labs' engine behind tests/lab.py)


def check():
    problems = [f"{rel}: not in this tree" for rel in lab.ANSWER_PATHS
                if not os.path.exists(os.path.join(ROOT, rel))]
    with tempfile.TemporaryDirectory() as d:
        for rel in lab.ANSWER_PATHS:  # a directory with a file in it, or a file
            path = os.path.join(d, rel)
            os.makedirs(path if os.path.isdir(os.path.join(ROOT, rel)) else os.path.dirname(path),
                        exist_ok=True)
            if not os.path.isdir(os.path.join(ROOT, rel)):
                open(path, "w").close()
            else:
                open(os.path.join(path, "f"), "w").close()
        header = os.path.join(d, lab.KSTACK_HEADER)
        shutil.copyfile(os.path.join(ROOT, lab.KSTACK_HEADER), header)
        lab.remove_answers(d)
        problems += [f"{rel}: still there" for rel in lab.ANSWER_PATHS
                     if os.path.exists(os.path.join(d, rel))]
        cut = open(header).read()
        problems += [f"{lab.KSTACK_HEADER}: {word} left in a lab's copy" for word in
                     ("kstack_lfsr_step", "alloca", "0xFFFFFFFFu") if word in cut]
        problems += [f"{lab.KSTACK_HEADER}: {word} missing from a lab's copy" for word in
                     ("kstack_pool_draw", "kstack_siphash_draw", "kstack_offset_of") if word not in cut]
    return problems


problems = check()
print("KTAP version 1\n1..1")
for p in problems:
    print(f"    # {p}")
print(f"{'not ok' if problems else 'ok'} 1 - lab.answer_paths_exist_and_are_removed")
sys.exit(1 if problems else 0)
