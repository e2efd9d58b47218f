#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/host/test_kstack_lib.py - lib/kstack's own host tests, reported by
tests/run.py as host.kstack.*: runs `make -C lib/kstack test` (which
`make host-tests` also runs) and passes its KTAP lines through. Exit status
1 when a case failed or the build broke.
"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

p = subprocess.run(["make", "-s", "--no-print-directory", "-C", os.path.join(ROOT, "lib", "kstack"),
                    "test", "BUILD=" + os.path.join(ROOT, "build", "host", "kstack"),
                    "VECTORS=" + os.path.join(ROOT, "tests", "vectors")],
                   capture_output=True, text=True)
sys.stdout.write(p.stdout)
sys.stderr.write(p.stderr)
sys.exit(1 if p.returncode else 0)
