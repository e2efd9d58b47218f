#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/false_fail.py - the false-fail rate of every statistical threshold
in the tests, computed exactly (binomial tails from log-gamma sums, the
chi-square tail as tools/kstack-conformance computes it). Prints one line
per threshold: where it is, the rate per test, the repetitions in one
make test run, and the rate per run; exits 1 if a rate per run is above
1e-6. docs/testing.md is the table this prints. Standard library only.
"""
import importlib.machinery
import importlib.util
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_loader = importlib.machinery.SourceFileLoader(
    "kit", os.path.join(ROOT, "tools", "kstack-conformance"))
_spec = importlib.util.spec_from_loader("kit", _loader)
kit = importlib.util.module_from_spec(_spec)
_loader.exec_module(kit)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import boots  # noqa: E402  (tests/boots.py: make test's boots)

LIMIT = 1e-6


def runs_suite(b, suite):
    """Does boot b run the ktest suite `suite` to the end? Its ktest= list
    names it (or a test in it) or says all, and does not drop it whole."""
    words = [w for w in b.cmdline.split() if w.startswith("ktest=")]
    if not words or b.status != boots.EXIT_OK or not b.ktap:
        return False  # a boot that stops early (a panic status) runs no suite
    items = words[0][len("ktest="):].split(",")
    if "-" + suite in items:
        return False
    return "all" in items or suite in items or any(i.startswith(suite + ".") for i in items)


def count_boots(suite, **make_vars):
    return sum(1 for b in boots.boot_matrix() if runs_suite(b, suite) and
               all(b.make_vars.get(k) == v for k, v in make_vars.items()))


# Counted from tests/boots.py, so that a boot added there counts here.
KSTACK_BOOTS = count_boots("kstack")        # the .kstack boots and x86_64.uefi.smp16 (ktest=all)
VULN_BOOTS = count_boots("vuln", VULN="1")  # <arch>.<fw>.vuln: only a VULN=1 kernel has the bug
ATTACK_BOOTS = count_boots("attack")        # one per arch, and x86_64.uefi.smp16
RANDOM_BOOTS = 100   # at most every boot of make test runs the `random` ktests
LAB_GRADE_ARCHES = 3  # make grade LAB=4: one grading boot per arch


def log_pmf(n, k, p):
    return (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
            + k * math.log(p) + (n - k) * math.log1p(-p))


def upper(n, t, p):
    """P(Binomial(n, p) >= t)."""
    return sum(math.exp(log_pmf(n, k, p)) for k in range(max(t, 0), n + 1))


def lower(n, t, p):
    """P(Binomial(n, p) <= t)."""
    return sum(math.exp(log_pmf(n, k, p)) for k in range(0, min(t, n) + 1))


def rows():
    a = kit.ALPHA
    samples = 120000
    yield ("tests/kernel/test_random.c random.outputs_vary: ones in 16384 bits in 7681..8703",
           lower(16384, 7680, 0.5) + upper(16384, 8704, 0.5), RANDOM_BOOTS)
    yield ("tests/kernel/test_random.c random.outputs_vary: no two of 256 u64 equal",
           256 * 255 / 2 / 2 ** 64, RANDOM_BOOTS)
    yield ("user/tests/test_kstack/distribution.c: all 64 offsets seen in 120,000",
           64 * (63 / 64) ** samples, 8 * KSTACK_BOOTS)
    yield ("user/tests/test_kstack/distribution.c: chi2(63) < 147.46",
           kit.chi2_sf(147.46, 63), 8 * KSTACK_BOOTS)
    yield ("user/tests/test_kstack/distribution.c: min-entropy >= 5.8 bits of 120,000",
           min(1.0, 64 * upper(samples, kit.min_entropy_limit(samples) + 1, 1 / 64)),
           8 * KSTACK_BOOTS)
    yield ("user/tests/test_kstack/pool.c pool_hostile: the same chi2 and min-entropy bounds",
           kit.chi2_sf(147.46, 63) + min(1.0, 64 * upper(samples, kit.min_entropy_limit(samples) + 1,
                                                        1 / 64)), KSTACK_BOOTS)
    yield ("user/tests/test_kstack/migration.c migration_attack: fewer than 232 of 10,000",
           upper(10000, 232, 1 / 64), 6 * KSTACK_BOOTS)
    # A lab's grade (tests/lab.py, lab 4: prng), not make test: once per arch.
    yield ("user/tests/test_kstack/migration.c migration_attack, a lab's grade: fewer than 43 of 1,000",
           upper(1000, 43, 1 / 64), LAB_GRADE_ARCHES)
    yield ("user/demos/attack_migrate.c: fewer than 133 of 5,000", upper(5000, 133, 1 / 64),
           6 * ATTACK_BOOTS)
    yield ("user/demos/attack_lfsr.c: fewer than 43 of 1,000", upper(1000, 43, 1 / 64),
           5 * ATTACK_BOOTS)
    yield ("user/demos/attack_lfsr.c: an LFSR113 state fits 40 offsets (per window)",
           2.0 ** -127, 5 * ATTACK_BOOTS * 64)
    # Bug 1 with kstack.erase, or with a refused request: a win only by an
    # interrupt saving the token's user register at that depth (about 1e-4
    # under load; 1e-3 assumed).
    yield ("user/demos/vuln_demo.c spray.<s>.erased: at most 51 of 1,024",
           upper(1024, 52, 1e-3), 3 * VULN_BOOTS)
    yield ("user/demos/vuln_demo.c refused_fill_plants_nothing: at most 25 of 256",
           upper(256, 26, 1e-3), VULN_BOOTS)
    yield (f"tools/kstack-conformance: each statistical test at ALPHA={a:g}", a,
           9 * KSTACK_BOOTS)  # 9 strategies
    # linear_complexity on a kernel sample: 2 CPUs x 8 windows of 320 offsets,
    # 7 Berlekamp-Massey runs each (6 offset bits, then them concatenated).
    runs = 2 * kit.LC_WINDOWS_PER_STREAM * (kit.BITS + 1)
    bit_t = kit.low_complexity_bound(kit.LC_WINDOW, a / runs)
    cat_t = kit.low_complexity_bound(kit.LC_WINDOW * kit.BITS, a / runs)
    rate = (2 * kit.LC_WINDOWS_PER_STREAM
            * (kit.BITS * 2 ** kit.log2_low_complexity_rate(kit.LC_WINDOW, bit_t)
               + 2 ** kit.log2_low_complexity_rate(kit.LC_WINDOW * kit.BITS, cat_t)))
    yield (f"tools/kstack-conformance linear_complexity: L <= {bit_t} of {kit.LC_WINDOW} bits "
           f"or <= {cat_t} of {kit.LC_WINDOW * kit.BITS}, {runs} runs", rate, 9 * KSTACK_BOOTS)


def main():
    worst = 0.0
    for what, rate, reps in rows():
        run = min(1.0, rate * reps)
        worst = max(worst, run)
        print(f"{rate:9.2e} x {reps:4d} = {run:9.2e}  {what}")
    print(f"largest per run: {worst:.2e} (limit {LIMIT:g})")
    return 0 if worst <= LIMIT else 1


if __name__ == "__main__":
    sys.exit(main())
