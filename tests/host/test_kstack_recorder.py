#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/host/test_kstack_recorder.py - tools/kstack-recorder (the
reference recorder another kernel compiles) over its simulated kernel
(sim.c): built with the host's cc under -Werror, it records 2 CPUs x
60,000 calls and 200 staged migrations; tools/kstack-conformance passes
the design that draws at entry and fails the exit-time one on migration
alone. KTAP cases kstack_recorder.*, reported as host.kstack_recorder.*.
The kit's serial_pairs and cross_cpu are left out (their own samples test
them; here they would only cost time). Standard library only.
"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SRC = os.path.join(ROOT, "tools", "kstack-recorder")
KIT = os.path.join(ROOT, "tools", "kstack-conformance")
SLOW = "serial_pairs,cross_cpu"


def verdicts(path):
    p = subprocess.run([sys.executable, KIT, "--skip", SLOW, path], capture_output=True, text=True)
    got = {}
    for line in p.stdout.splitlines():
        word, _, rest = line.partition(" ")
        if word in ("PASS", "FAIL", "N/A"):
            got[rest.split(":")[0]] = word
    return got, p.stdout + p.stderr


def record(tmp, exe, design):
    path = os.path.join(tmp, f"{design}.txt")
    with open(path, "w") as f:
        p = subprocess.run([exe, design, "2", "60000", "200"], stdout=f, stderr=subprocess.PIPE,
                           text=True)
    return path, p.returncode, p.stderr


def check_design(tmp, exe, design, must_fail):
    path, rc, err = record(tmp, exe, design)
    if rc:
        return [f"sim {design} exited {rc}: {err.strip()}"]
    got, out = verdicts(path)
    bad = [f"{t}: {v}, expected {'FAIL' if t in must_fail else 'PASS'}" for t, v in got.items()
           if v != ("FAIL" if t in must_fail else "PASS")]
    if "migration" not in got:
        bad.append("no migration verdict: the recorder staged no trials")
    return bad + (out.splitlines() if bad else [])


def main():
    print("KTAP version 1\n1..3")
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "sim")
        p = subprocess.run([os.environ.get("CC", "cc"), "-std=c99", "-O2", "-Wall", "-Wextra",
                            "-Werror", os.path.join(SRC, "recorder.c"), os.path.join(SRC, "sim.c"),
                            "-o", exe], capture_output=True, text=True)
        builds = p.returncode == 0
        for line in ([] if builds else p.stderr.splitlines()):
            print(f"    # {line}")
        print(f"{'ok' if builds else 'not ok'} 1 - kstack_recorder.builds")
        failed = not builds
        for n, (design, must_fail) in enumerate((("entry", set()), ("exit", {"migration"})), 2):
            problems = check_design(tmp, exe, design, must_fail) if builds else ["not built"]
            for line in problems:
                print(f"    # {line}")
            print(f"{'not ok' if problems else 'ok'} {n} - kstack_recorder.{design}_time_design")
            failed |= bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
