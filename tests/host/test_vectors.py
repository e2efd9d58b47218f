#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/host/test_vectors.py - the committed known answers in tests/vectors/
are exactly what tests/vectors/gen.py writes (nobody edited them by hand, and
refimpl.py did not change without them). One KTAP case, vectors.up_to_date.
"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
p = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "vectors", "gen.py"), "--check"],
                   capture_output=True, text=True)
print("KTAP version 1\n1..1")
for line in (p.stdout + p.stderr).splitlines():
    print(f"    # {line}")
print(f"{'ok' if p.returncode == 0 else 'not ok'} 1 - vectors.up_to_date")
sys.exit(1 if p.returncode else 0)
