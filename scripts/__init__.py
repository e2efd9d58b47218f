# SPDX-License-Identifier: MIT
"""scripts/ as a package: the scripts that boot (bench.py, longrun.py,
run_screen.py, linux_run.py, linux_conformance.py) run as modules from the
top of the tree (`python3 -m scripts.bench`, as the Makefile runs them),
importing the test harness as `from tests import harness` and each other
as `from scripts import ...`. The others also run as plain programs."""
