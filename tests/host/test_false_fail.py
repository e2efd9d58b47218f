#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/host/test_false_fail.py - tests/false_fail.py finds every
statistical threshold's false-fail rate at most 1e-6 per make test run, the
thresholds it computes them for are the ones in the code, and each still
fails what a broken implementation scores. KTAP cases
false_fail.per_run, false_fail.constants and false_fail.broken_fails.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import false_fail  # noqa: E402

print("KTAP version 1\n1..3")
p = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "false_fail.py")],
                   capture_output=True, text=True)
for line in (p.stdout + p.stderr).splitlines():
    print(f"    # {line}")
print(f"{'ok' if p.returncode == 0 else 'not ok'} 1 - false_fail.per_run")

kit = false_fail.kit
KSTACK_H = "user/tests/test_kstack/kstack_test.h"  # its thresholds
src = open(os.path.join(ROOT, KSTACK_H)).read()
bad = []
samples = int(re.search(r"#define SAMPLES\s+(\d+)", src).group(1))
if samples != 120000:
    bad.append(f"{KSTACK_H} SAMPLES {samples}; tests/false_fail.py assumes 120000")
# user/tests/test_kstack/kstack_test.h's migration thresholds: make test's (TRIALS) and a lab
# grade's (LAB_TRIALS), each the critical count of its trials.
for trials, fail_at in (("TRIALS", "MIGRATION_FAIL_AT"), ("LAB_TRIALS", "LAB_MIGRATION_FAIL_AT")):
    t = int(re.search(rf"#define {trials}\s+(\d+)", src).group(1))
    f = int(re.search(rf"#define {fail_at}\s+(\d+)", src).group(1))
    if (t, f) not in ((10000, 232), (1000, 43)):
        bad.append(f"{KSTACK_H} {trials} {t}, {fail_at} {f}: tests/false_fail.py and "
                   f"docs/testing.md assume 10000/232 and 1000/43")
for n, want in ((5000, 133), (1000, 43), (10000, 232)):
    got = kit.binom_critical(n, 1 / 64, kit.ALPHA)
    if got != want:
        bad.append(f"binomial critical count for {n} trials at {kit.ALPHA:g}: {got}, the "
                   f"docs and user/common/kstack_probe.h say {want}")
for b in bad:
    print(f"    # {b}")
print(f"{'not ok' if bad else 'ok'} 2 - false_fail.constants")

# What a broken implementation scores, against each bound.
bad = []
n = samples
chi2_bound = kit.chi2_critical(63, kit.ALPHA)
one_missing = sum((c - n / 64) ** 2 / (n / 64) for c in [0] + [n / 63] * 63)  # never gives one value
five_percent = sum((n / 64 * f - n / 64) ** 2 / (n / 64) for f in [1.05, 0.95] * 32)
for what, score in (("one value missing", one_missing), ("5% off uniform", five_percent)):
    if score < chi2_bound:
        bad.append(f"chi-square: {what} scores {score:.1f}, below the bound {chi2_bound:.1f}")
if n * 2 ** -5.8 >= n / 32:
    bad.append("min-entropy: a generator on 32 values passes")
for trials, fail_at in ((10000, 232), (5000, 133), (1000, 43)):
    if trials / 20 < fail_at:
        bad.append(f"{trials} trials: one in 20 predicted ({trials // 20}) passes (< {fail_at})")
ones_low = 16384 * 7 // 8 // 2  # one byte in 8 forced to zero: 7168 ones expected
if not ones_low <= 7680:
    bad.append(f"random.outputs_vary: a byte in 8 zeroed scores {ones_low}, inside the window")
for b in bad:
    print(f"    # {b}")
print(f"{'not ok' if bad else 'ok'} 3 - false_fail.broken_fails")

# The repetitions are counted from tests/boots.py: every .kstack boot and
# the 16-CPU boot (ktest=all) run the kstack suite, the .vuln boots the
# vuln demo, and a boot that stops at once (a panic status) runs nothing.
bad = []
matrix = false_fail.boots.boot_matrix()
want = {b.name for b in matrix if b.name.endswith(".kstack") or b.name == "x86_64.uefi.smp16"}
got = {b.name for b in matrix if false_fail.runs_suite(b, "kstack")}
if got != want:
    bad.append(f"boots counted as running the kstack suite: {sorted(got ^ want)} differ")
if false_fail.KSTACK_BOOTS != len(want):
    bad.append(f"KSTACK_BOOTS {false_fail.KSTACK_BOOTS}, the boot matrix has {len(want)}")
vuln = sum(1 for b in matrix if b.name.endswith(".vuln"))
if false_fail.VULN_BOOTS != vuln:
    bad.append(f"VULN_BOOTS {false_fail.VULN_BOOTS}, the boot matrix has {vuln} .vuln boots")
for b in bad:
    print(f"    # {b}")
print(f"{'not ok' if bad else 'ok'} 4 - false_fail.boots_counted")
