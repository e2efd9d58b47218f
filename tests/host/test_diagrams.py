#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/host/test_diagrams.py - the SVG diagrams in docs/diagrams/ are
exactly what docs/diagrams/gen.py writes (nobody edited them by hand, and
gen.py did not change without them), and each is well-formed XML with an
<svg> root. KTAP cases diagrams.up_to_date and diagrams.well_formed.
"""
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DIR = os.path.join(ROOT, "docs", "diagrams")
NAMES = ("stack-offset.svg", "bug1-migration.svg", "bug2-preemption.svg")

p = subprocess.run([sys.executable, os.path.join(DIR, "gen.py"), "--check"],
                   capture_output=True, text=True)
print("KTAP version 1\n1..2")
for line in (p.stdout + p.stderr).splitlines():
    print(f"    # {line}")
print(f"{'ok' if p.returncode == 0 else 'not ok'} 1 - diagrams.up_to_date")
bad = []
for name in NAMES:
    try:
        root = ET.parse(os.path.join(DIR, name)).getroot()
        if root.tag != "{http://www.w3.org/2000/svg}svg":
            bad.append(f"{name}: the root is {root.tag}, not svg")
    except (OSError, ET.ParseError) as e:
        bad.append(f"{name}: {e}")
for line in bad:
    print(f"    # {line}")
print(f"{'ok' if not bad else 'not ok'} 2 - diagrams.well_formed")
sys.exit(1 if p.returncode or bad else 0)
