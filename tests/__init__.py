# SPDX-License-Identifier: MIT
"""tests/ as a package, for the scripts that boot through the test harness:
scripts/ run as modules from the top of the tree (`python3 -m
scripts.bench`, as the Makefile runs them) import it as `from tests import
harness`. The programs in tests/ themselves (run.py, lab.py, mutate.py)
run as scripts and import each other by their plain names."""
