# SPDX-License-Identifier: MIT
"""tests/host/ktap_cases.py - a host test script's cases as KTAP: one result
line per case (`<suite>.<function name>`), a case that raises fails with its
reason and the others still run, a case that returns a string is skipped
with that reason. Exit status 1 if any failed. Also what the cases share:
expect() and load_script()."""
import importlib
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def expect(cond, what):
    """Fail the case, saying what, unless cond holds."""
    if not cond:
        raise AssertionError(what)


def load_script(name):
    """scripts/<name>.py as a module: scripts.<name>, imported with the top
    of the tree on the path, as `python3 -m scripts.<name>` runs it."""
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    return importlib.import_module(f"scripts.{name}")


def run(suite, cases):
    print(f"KTAP version 1\n# suite: {suite}\n1..{len(cases)}")
    failed = 0
    for n, case in enumerate(cases, 1):
        skip = None
        try:
            skip = case()
            ok = True
        except Exception as e:  # one broken case must not hide the others
            print(f"    # {type(e).__name__}: {e}")
            ok = False
        failed += not ok
        print(f"{'ok' if ok else 'not ok'} {n} - {suite}.{case.__name__}"
              + (f" # {skip}" if skip else ""))
    return 1 if failed else 0


def report(suite, checks):
    """KTAP for checks already made: (name, ok, diagnostics) triples, the
    diagnostics printed under a failed one. Exit status 1 if any failed."""
    print(f"KTAP version 1\n1..{len(checks)}")
    for n, (name, ok, diag) in enumerate(checks, 1):
        print(f"{'ok' if ok else 'not ok'} {n} - {suite}.{name}")
        for d in [] if ok else diag:
            print(f"    # {d}")
    return 1 if any(not ok for _, ok, _ in checks) else 0


def hand_edited_copy(doc, tmp, marker, row):
    """A copy of doc in tmp with one digit changed in the first line that
    starts with row after marker, as a hand edit of a generated table
    would: (the copy's path, the edited line)."""
    path = os.path.join(tmp, os.path.basename(doc))
    with open(doc) as f:
        text = f.read()
    start = text.index(row, text.index(marker))
    line = text[start:text.index("\n", start)]
    digit = next(i for i, ch in enumerate(line) if ch.isdigit())
    edited = line[:digit] + str((int(line[digit]) + 1) % 10) + line[digit + 1:]
    with open(path, "w") as f:
        f.write(text.replace(line, edited))
    return path, edited
