#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/host/test_conformance.py - tools/kstack-conformance on the synthetic
samples of tests/vectors/conformance/ (gen_samples.py), each test's verdict
against what the sample's design must get, plus the kit's statistics and
LFSR113 solver on their own. KTAP, one case per sample and per check;
tests/run.py reports them as host.conformance.*. Exit status 1 on a failure.
"""
import gzip
import importlib.machinery
import importlib.util
import math
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KIT = os.path.join(ROOT, "tools", "kstack-conformance")
SAMPLES = os.path.join(ROOT, "tests", "vectors", "conformance")
sys.path.insert(0, os.path.join(ROOT, "tests", "vectors"))
import refimpl  # noqa: E402

loader = importlib.machinery.SourceFileLoader("kstack_conformance", KIT)
kit = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
loader.exec_module(kit)

ALL = [name for name, _ in kit.TESTS]
# The tests each sample must fail; it must pass the others.
EXPECTED_FAILURES = {
    "good": [],
    "lfsr113": ["lfsr113_recovery"],
    "same-seed": ["chi_square", "serial_pairs", "cross_cpu"],
    "counter": ["serial_pairs", "migration"],
    "off": ["coverage", "chi_square", "min_entropy", "serial_pairs", "serial_correlation",
            "cross_cpu", "migration"],
    "carry": ["range", "chi_square", "serial_pairs"],
    "biased": ["chi_square", "min_entropy", "serial_pairs"],
    # Runs of one value on each CPU also make the CPUs' pairs look related.
    "repeat": ["serial_pairs", "serial_correlation", "cross_cpu", "migration"],
}


def run_kit(*args):
    p = subprocess.run([sys.executable, KIT, *args], capture_output=True, text=True)
    verdicts = {}
    for line in p.stdout.splitlines():
        word, _, rest = line.partition(" ")
        if word in ("PASS", "FAIL", "SKIP"):
            verdicts[rest.split(":")[0]] = word
    return p.returncode, verdicts, p.stdout + p.stderr


def check_sample(name):
    """[problems] for one sample: every verdict and the exit status."""
    rc, verdicts, out = run_kit(os.path.join(SAMPLES, name + ".txt.gz"))
    problems = []
    for test in ALL:
        want = "FAIL" if test in EXPECTED_FAILURES[name] else "PASS"
        if verdicts.get(test) != want:
            problems.append(f"{test}: {verdicts.get(test, 'missing')}, expected {want}")
    if rc != (1 if EXPECTED_FAILURES[name] else 0):
        problems.append(f"exit status {rc}")
    last = out.strip().splitlines()[-1] if out.strip() else ""
    if last != f"{9 - len(EXPECTED_FAILURES[name])} passed, {len(EXPECTED_FAILURES[name])} failed":
        problems.append(f"last line {last!r}")
    return problems + (["output:"] + out.splitlines() if problems else [])


def check_thresholds():
    """The critical values against independent figures (chi2(63) 131.37 at
    1e-6, the textbook 5% point 82.53, the normal two-sided 5% point 1.960),
    and the kernel's own kstack.distribution bounds (user/tests/test_kstack.c)
    against the kit's: the two judge a sample alike."""
    problems = []
    src = open(os.path.join(ROOT, "user", "tests", "test_kstack.c")).read()
    chi2_milli = int(re.search(r"#define CHI2_63_MILLI\s+(\d+)", src).group(1))
    kit_milli = kit.chi2_critical(63, kit.ALPHA) * 1000
    if not kit_milli - 100 <= chi2_milli <= kit_milli:
        problems.append(f"user/tests/test_kstack.c CHI2_63_MILLI {chi2_milli}, the kit's bound "
                        f"{kit_milli:.0f} (at most 0.1 below it)")
    trials = int(re.search(r"#define TRIALS\s+(\d+)", src).group(1))
    fail_at = int(re.search(r"#define MIGRATION_FAIL_AT\s+(\d+)", src).group(1))
    if fail_at != kit.binom_critical(trials, 1 / 64, kit.ALPHA):
        problems.append(f"user/tests/test_kstack.c MIGRATION_FAIL_AT {fail_at}, the kit's "
                        f"{kit.binom_critical(trials, 1 / 64, kit.ALPHA)} for {trials} trials")
    if "e.min_milli >= %d" % round(kit.MIN_ENTROPY_BITS * 1000) not in src:
        problems.append(f"user/tests/test_kstack.c does not ask min-entropy >= {kit.MIN_ENTROPY_BITS}")
    for got, want, what in ((kit.chi2_critical(63, 1e-6), 131.37, "chi2(63) at 1e-6"),
                            (kit.chi2_critical(63, 0.05), 82.53, "chi2(63) at 0.05"),
                            (kit.normal_two_sided_critical(0.05), 1.960, "z at 0.05")):
        if abs(got - want) > 0.01:
            problems.append(f"{what}: {got:.3f}, expected {want}")
    for n, t in ((1000, 30), (1000, 41), (5000, 120)):
        got, want = kit.binom_upper_tail(n, t, 1 / 64), exact_tail_1_in_64(n, t)
        if abs(got - want) > want * 1e-9:
            problems.append(f"P(Bin({n}, 1/64) >= {t}) = {got:.6e}, exactly {want:.6e}")
    crit = kit.binom_critical(1000, 1 / 64, 1e-7)
    if not exact_tail_1_in_64(1000, crit) <= 1e-7 < exact_tail_1_in_64(1000, crit - 1):
        problems.append(f"binomial critical count {crit} for 1000 trials at 1e-7")
    return problems


def exact_tail_1_in_64(n, t):
    """P(X >= t), X ~ Binomial(n, 1/64), in exact integers: the sum of
    C(n, k) 63^(n-k) over k >= t, divided by 64^n."""
    from fractions import Fraction
    return float(Fraction(sum(math.comb(n, k) * 63 ** (n - k) for k in range(t, n + 1)), 64 ** n))


def check_solver():
    """A known LFSR113 state comes back from 40 of its offsets; one flipped
    offset bit, or a keystream, gives no state."""
    seed = (0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344)
    g = refimpl.Lfsr113Bits(seed)
    offsets = [g.next() & 0x3F0 for _ in range(kit.LFSR_WINDOW)]
    model = kit.lfsr113_model(kit.LFSR_WINDOW)
    pivots, consistent = kit.eliminate(model, offsets)
    problems = []
    want, shift = 0, 0
    for word, (k, _, _) in zip(seed, kit.LFSR113_PARAMS):
        top = word >> (32 - k)  # x(0) is the word's top bit
        want |= int(format(top, f"0{k}b")[::-1], 2) << shift
        shift += k
    if not (consistent and len(pivots) == 113 and kit.solve(pivots) == want):
        problems.append("the seed's state was not recovered")
    flipped = list(offsets)
    flipped[25] ^= 0x40
    if kit.lfsr113_recovered(model, flipped):
        problems.append("a flipped bit still fits an LFSR113")
    stream = [(b & 63) << 4 for b in refimpl.chacha20_stream(bytes(32), 0, bytes(12), 40)]
    if kit.lfsr113_recovered(model, stream):
        problems.append("a ChaCha20 keystream fits an LFSR113")
    if kit.lfsr113_recovered(model, [0] * kit.LFSR_WINDOW):
        problems.append("all-zero offsets (the zero state) counted as recovered")
    return problems


def check_related_cpus():
    """Two CPUs whose offsets differ by a constant never agree, but are not
    independent: cross_cpu must say so; a fresh stream on the second CPU
    must pass."""
    base = [(b & 63) << 4 for b in refimpl.chacha20_stream(bytes(32), 0, bytes(12), 30000)]
    other = [(b & 63) << 4 for b in refimpl.chacha20_stream(bytes(32), 0, bytes(11) + b"\1", 30000)]
    problems = []
    for second, want in (([(v + 16) % 1024 for v in base], False), (other, True)):
        sample = kit.Sample()
        sample.calls = [(0, v, None) for v in base] + [(1, v, None) for v in second]
        ok, detail = kit.test_cross_cpu(sample)
        if ok != want:
            problems.append(f"{'independent' if want else 'shifted'} second CPU: {detail}")
    return problems


def check_interrupted_lfsr113():
    """A per-CPU LFSR113 one of whose draws in 45 goes to another program's
    call (the recorder never sees it) is still recovered: the gaps drift
    through the windows of 40, and the tenth window falls between two.
    With 8 windows a stream it would not be."""
    g = refimpl.Lfsr113Bits((0xDEADBEEF, 0x0BADF00D, 0xCAFEBABE, 0x8BADF00D))
    offsets = []
    for i in range(3000):
        drawn = g.next() & 0x3F0
        if i % 45 != 5:
            offsets.append(drawn)
    sample = kit.Sample()
    sample.calls = [(0, v, None) for v in offsets]
    ok, detail = kit.test_lfsr113_recovery(sample)
    return [f"not flagged: {detail}"] if ok else []


def check_addresses_and_skip():
    """--addresses turns stack addresses into offsets per thread; --skip
    leaves a test out of both counts."""
    with gzip.open(os.path.join(SAMPLES, "good.txt.gz"), "rt") as f:
        lines = f.read().splitlines()
    out = []
    for line in lines:
        fields = line.split()
        if fields and fields[0].isdigit():  # cpu offset thread call
            top = 0xFFFF800000010000 + 0x4000 * int(fields[0])
            fields[1] = hex(top - int(fields[1]))
        out.append(" ".join(fields))
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(out) + "\n")
    try:
        rc, verdicts, text = run_kit("--addresses", "--skip", "migration,lfsr113_recovery", f.name)
    finally:
        os.unlink(f.name)
    problems = []
    if rc != 0 or verdicts.get("migration") != "SKIP" or "7 passed, 0 failed" not in text:
        problems.append("--addresses/--skip run: " + text.replace("\n", " | "))
    return problems


def check_samples_up_to_date():
    """The committed samples are what gen_samples.py writes."""
    p = subprocess.run([sys.executable, os.path.join(SAMPLES, "gen_samples.py"), "--check"],
                       capture_output=True, text=True)
    return [] if p.returncode == 0 else (p.stdout + p.stderr).splitlines() or ["differs"]


CASES = [(f"sample_{name.replace('-', '_')}", lambda n=name: check_sample(n))
         for name in EXPECTED_FAILURES]
CASES += [("related_cpus", check_related_cpus), ("interrupted_lfsr113", check_interrupted_lfsr113), ("thresholds", check_thresholds), ("lfsr113_solver", check_solver),
          ("addresses_and_skip", check_addresses_and_skip),
          ("samples_up_to_date", check_samples_up_to_date)]


def main():
    print(f"KTAP version 1\n1..{len(CASES)}")
    failed = 0
    for i, (name, fn) in enumerate(CASES, 1):
        problems = fn()
        for p in problems:
            print(f"    # {p}")
        print(f"{'not ok' if problems else 'ok'} {i} - conformance.{name}")
        sys.stdout.flush()
        failed += bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
