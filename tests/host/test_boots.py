#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/host/test_boots.py - host tests of tests/boots.py's expectations:
a boot expects a self-test's output only when its ktest= list runs that
test, so `tests/run.py --ktest LIST` without it does not fail the boot.
Prints one KTAP line per case ("ok N - boots.<case>")."""
import os
import sys

import ktap_cases  # tests/host/ktap_cases.py: the cases run as KTAP
from ktap_cases import expect

sys.path.insert(0, os.path.join(ktap_cases.ROOT, "tests"))
import boots  # noqa: E402  (tests/ is not a package)


def smp3():
    return next(b for b in boots.boot_matrix() if b.name == "x86_64.uefi.smp3")


def ktest_selects_as_the_kernel():
    # kernel/ktest.c: "all", the suite or the test; "-suite" or "-test" leaves it out
    sel = boots.ktest_selects
    expect(sel("ktest=boot,user.security", "user.security"), "named")
    expect(sel("ktest=all", "user.security"), "all")
    expect(sel("x ktest=user y", "user.security"), "the suite")
    expect(not sel("ktest=boot,user.ipc", "user.security"), "not named")
    expect(not sel("ktest=all,-user", "user.security"), "suite left out")
    expect(not sel("ktest=all,-user.security", "user.security"), "test left out")
    expect(not sel("run=hello", "user.security") and not sel("xktest=all", "user.security"),
           "no ktest=")
    expect(not sel("ktest=user.securityx", "user.security"), "a longer name")


def forged_lines_follow_the_ktest_list():
    # smp3 runs user.security: its child's forged results must be marked in
    # the log. Without user.security in the list, nothing is asked of them.
    b = smp3()
    forged = boots.FORGED
    expect(all(p in boots.expectations(b) for p in forged), "smp3 expects the forged lines")
    b.cmdline = boots.replace_ktest(b.cmdline, "boot,user.smp_scheduler,user.ipc")
    expect("ipc.fastpath=0" in b.cmdline, "the rest of the command line kept")
    got = boots.expectations(b)
    expect(not any(p in got for p in forged), "no forged lines expected without user.security")
    expect(r"ipc: fastpath off" in got, "the boot's other expectations kept")
    b.cmdline = boots.replace_ktest(b.cmdline, "all,-user.security")
    expect(not any(p in boots.expectations(b) for p in forged), "left out by -user.security")


CASES = [ktest_selects_as_the_kernel, forged_lines_follow_the_ktest_list]


if __name__ == "__main__":
    sys.exit(ktap_cases.run("boots", CASES))
