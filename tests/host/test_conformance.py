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
    "lfsr113": ["lfsr113_recovery", "linear_complexity"],
    "same-seed": ["chi_square", "serial_pairs", "cross_cpu"],
    "counter": ["serial_pairs", "migration"],
    "off": ["coverage", "chi_square", "min_entropy", "serial_pairs", "serial_correlation",
            "cross_cpu", "migration", "linear_complexity"],
    "carry": ["range", "chi_square", "serial_pairs"],
    "biased": ["chi_square", "min_entropy", "serial_pairs"],
    # Runs of one value on each CPU also make the CPUs' pairs look related.
    "repeat": ["serial_pairs", "serial_correlation", "cross_cpu", "migration"],
    # A correct 8-byte-ABI stream: its geometry line makes it pass everything.
    "align8": [],
    "uniprocessor": [],
}
# The tests a sample gets "N/A" for, neither passed nor failed.
NOT_APPLICABLE = {"uniprocessor": ["cross_cpu", "migration"]}


def start_kit(*args):
    return subprocess.Popen([sys.executable, KIT, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def finish_kit(p):
    stdout, stderr = p.communicate()
    verdicts = {}
    for line in stdout.splitlines():
        word, _, rest = line.partition(" ")
        if word in ("PASS", "FAIL", "SKIP", "N/A"):
            verdicts[rest.split(":")[0]] = word
    return p.returncode, verdicts, stdout + stderr


def run_kit(*args):
    return finish_kit(start_kit(*args))


# The samples' kit runs, started together the first time one is needed: the
# host's cores work on them at once (each takes a few seconds).
RUNS = {}


def sample_run(name):
    if not RUNS:
        RUNS.update({n: start_kit(os.path.join(SAMPLES, n + ".txt.gz")) for n in EXPECTED_FAILURES})
    return finish_kit(RUNS[name])


def check_sample(name):
    """[problems] for one sample: every verdict and the exit status."""
    rc, verdicts, out = sample_run(name)
    problems = []
    fails, na = EXPECTED_FAILURES[name], NOT_APPLICABLE.get(name, [])
    for test in ALL:
        want = "FAIL" if test in fails else "N/A" if test in na else "PASS"
        if verdicts.get(test) != want:
            problems.append(f"{test}: {verdicts.get(test, 'missing')}, expected {want}")
    if rc != (1 if fails else 0):
        problems.append(f"exit status {rc}")
    last = out.strip().splitlines()[-1] if out.strip() else ""
    want_last = f"{len(ALL) - len(fails) - len(na)} passed, {len(fails)} failed"
    if last != want_last + (f", {len(na)} not applicable" if na else ""):
        problems.append(f"last line {last!r}")
    return problems + (["output:"] + out.splitlines() if problems else [])


KSTACK_H = "user/tests/test_kstack/kstack_test.h"  # the kernel test's thresholds


def check_thresholds():
    """The critical values against independent figures (chi2(63) 131.37 at
    1e-6, the textbook 5% point 82.53, the normal two-sided 5% point 1.960),
    and the kernel's own kstack.distribution bounds (user/tests/test_kstack/kstack_test.h)
    against the kit's: the two judge a sample alike; docs/porting.md's
    recording recipe asks for at least as many calls as the kit needs."""
    problems = []
    here = os.path.join(ROOT, "user", "tests", "test_kstack")
    src = open(os.path.join(ROOT, KSTACK_H)).read()
    parts = "".join(open(os.path.join(here, f)).read() for f in ("distribution.c", "pool.c"))
    chi2_milli = int(re.search(r"#define CHI2_63_MILLI\s+(\d+)", src).group(1))
    kit_milli = kit.chi2_critical(63, kit.ALPHA) * 1000
    if not kit_milli - 100 <= chi2_milli <= kit_milli:
        problems.append(f"{KSTACK_H} CHI2_63_MILLI {chi2_milli}, the kit's bound "
                        f"{kit_milli:.0f} (at most 0.1 below it)")
    trials = int(re.search(r"#define TRIALS\s+(\d+)", src).group(1))
    fail_at = int(re.search(r"#define MIGRATION_FAIL_AT\s+(\d+)", src).group(1))
    if fail_at != kit.binom_critical(trials, 1 / 64, kit.ALPHA):
        problems.append(f"{KSTACK_H} MIGRATION_FAIL_AT {fail_at}, the kit's "
                        f"{kit.binom_critical(trials, 1 / 64, kit.ALPHA)} for {trials} trials")
    min_milli = int(re.search(r"#define MIN_ENTROPY_MILLI\s+(\d+)", src).group(1))
    if min_milli != round(kit.MIN_ENTROPY_BITS * 1000) or \
            parts.count("e.min_milli >= MIN_ENTROPY_MILLI") != 2:
        problems.append(f"user/tests/test_kstack/ does not ask min-entropy >= "
                        f"{kit.MIN_ENTROPY_BITS} in distribution.c and pool.c")
    porting = open(os.path.join(ROOT, "docs", "porting.md")).read()
    m = re.search(r"([\d,]+) in all \(the kit needs ([\d,]+)\)", porting)
    need = kit.min_entropy_sample_needed()
    if not m or int(m.group(1).replace(",", "")) < need or int(m.group(2).replace(",", "")) != need:
        problems.append(f"docs/porting.md's recording recipe: {m and m.group(0)!r}, the kit needs "
                        f"{need} calls in all")
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
    if rc != 0 or verdicts.get("migration") != "SKIP" or "8 passed, 0 failed" not in text:
        problems.append("--addresses/--skip run: " + text.replace("\n", " | "))
    return problems


def check_geometry_options():
    """--align/--values agree with a sample's geometry line or stop the kit;
    the good sample (16-byte steps) judged as an 8-byte one fails range."""
    align8 = os.path.join(SAMPLES, "align8.txt.gz")
    problems = []
    slow = ("--skip", "serial_pairs,serial_correlation,cross_cpu")  # align8's own case runs them
    rc, verdicts, out = run_kit("--align", "8", "--values", "64", *slow, align8)
    if rc != 0 or "mask 0x1f8" not in out:
        problems.append("align8 with --align 8 --values 64: " + out.replace("\n", " | "))
    rc, _, out = run_kit("--align", "16", align8)
    if rc == 0 or "geometry 8 64" not in out:
        problems.append(f"--align 16 against 'geometry 8 64' not refused: {out.strip()}")
    rc, verdicts, out = run_kit("--align", "8", *slow, os.path.join(SAMPLES, "good.txt.gz"))
    if verdicts.get("range") != "FAIL" or rc != 1:
        problems.append("good judged with --align 8: range " + verdicts.get("range", "missing"))
    rc, _, out = run_kit("--values", "48", os.path.join(SAMPLES, "good.txt.gz"))
    if rc == 0 or "power of two" not in out:
        problems.append(f"--values 48 accepted: {out.strip()}")
    kit.set_geometry(16, 64)
    return problems


def complexity_distribution(n):
    """[sequences of n bits with linear complexity L, for L = 0..n], by
    running Berlekamp-Massey on every one of the 2^n."""
    counts = [0] * (n + 1)
    for v in range(2 ** n):
        counts[kit.linear_complexity([(v >> i) & 1 for i in range(n)])] += 1
    return counts


def check_complexity_rate():
    """The linear-complexity test's false-fail rate: the kit's P(L <= t)
    against the exact count over all 2^12 sequences, and the complexity of
    known sequences (an m-sequence of x^5 + x^2 + 1: 5; LFSR113's bits: 113)."""
    n, problems = 12, []
    counts = complexity_distribution(n)
    for t in range(n // 2 + 1):
        exact = math.log2(sum(counts[:t + 1])) - n
        if abs(kit.log2_low_complexity_rate(n, t) - exact) > 1e-9:
            problems.append(f"P(L <= {t}) for {n} bits: 2^{kit.log2_low_complexity_rate(n, t):.3f}, "
                            f"exactly 2^{exact:.3f}")
    m = [1, 0, 0, 0, 0]
    while len(m) < 100:
        m.append(m[-5] ^ m[-3])  # s(i) = s(i-5) + s(i-3): x^5 + x^2 + 1
    if kit.linear_complexity(m) != 5:
        problems.append(f"m-sequence of degree 5: complexity {kit.linear_complexity(m)}")
    g = refimpl.Lfsr113Bits((1, 2, 3, 4))
    bits = [(g.next() >> 4) & 1 for _ in range(400)]
    if kit.linear_complexity(bits) != 113:
        problems.append(f"LFSR113 bit 4: complexity {kit.linear_complexity(bits)}, not 113")
    return problems


def lfsr113_every(d, label):
    g = refimpl.Lfsr113Bits((0x9E3779B9 + label, 0x7F4A7C15, 0xF39CC060, 0x5CEDC834))
    while True:
        for _ in range(d - 1):
            g.next()  # another user's output
        yield g.next() & 0x3F0


def xorshift32(label):
    x = 0x2545F491 + label
    while True:
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        yield x & 0x3F0


def lcg(label, shift):
    """Numerical Recipes' 32-bit LCG; the offset from bits shift..shift+5."""
    x = label
    while True:
        x = (1664525 * x + 1013904223) & 0xFFFFFFFF
        yield ((x >> shift) & 63) << 4


def chacha(label):
    while True:
        for b in refimpl.chacha20_stream(bytes(32), 0, bytes([label]) + bytes(11), 4096):
            yield (b & 63) << 4


# (generator per CPU, whether linear_complexity must fail, why)
LINEAR_GENERATORS = {
    "lfsr113_every_2nd": (lambda c: lfsr113_every(2, c), True, "a decimated LFSR is an LFSR"),
    "lfsr113_every_3rd": (lambda c: lfsr113_every(3, c), True, "the same, 3 users"),
    "xorshift32": (xorshift32, True, "a 32-bit linear state"),
    "lcg_bits_4_9": (lambda c: lcg(c, 4), True, "bit k of an LCG mod 2^32 has period 2^(k+1)"),
    # Not linear over GF(2): bit 26's period is 2^27, its complexity about
    # half the window, like a random bit's. Predictable all the same (32 bits
    # of state), but not by this test.
    "lcg_bits_26_31": (lambda c: lcg(c, 26), False, "carries make the top bits nonlinear"),
    "chacha20": (chacha, False, "a stream cipher"),
}


def check_linear_generators():
    """linear_complexity on 2 CPUs x 2 windows of each generator: fails the
    GF(2)-linear ones, passes the others."""
    problems = []
    for name, (make, must_fail, why) in LINEAR_GENERATORS.items():
        sample = kit.Sample()
        for cpu in range(2):
            gen = make(cpu)
            sample.calls += [(cpu, next(gen), None) for _ in range(kit.LC_WINDOW * 2)]
        ok, detail = kit.test_linear_complexity(sample)
        if ok == must_fail:
            problems.append(f"{name} ({why}): {'PASS' if ok else 'FAIL'}, expected "
                            f"{'FAIL' if must_fail else 'PASS'}: {detail}")
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
          ("geometry_options", check_geometry_options),
          ("complexity_rate", check_complexity_rate),
          ("linear_generators", check_linear_generators),
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
