# SPDX-License-Identifier: MIT
"""tests/kstack_samples.py - this kernel's own offsets through the portable
conformance kit (tools/kstack-conformance), as another OS's would go.

user/tests/test_kstack/ prints, for every strategy, the offsets of 120,000
probe calls (half pinned to CPU 0, half to CPU 1) as "kstack-sample" lines
and the first 1,000 cleanly staged Bug 1 trials as "kstack-migrate" lines,
one character per offset ('0' + offset / 16; '~' for a value no offset can
be). tests/run.py calls check() on the log of every boot that printed them:
the lines become one sample file per strategy in the kit's format, the kit
judges each, and each verdict is compared with EXPECT.
"""
import os
import re
import subprocess
import sys

try:  # as tests.kstack_samples (scripts/ run as modules from the top)
    from tests import harness
except ImportError:  # by its plain name, as tests/run.py imports it
    import harness

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KIT = os.path.join(ROOT, "tools", "kstack-conformance")
TESTS = ["range", "coverage", "chi_square", "min_entropy", "serial_pairs",
         "serial_correlation", "cross_cpu", "migration", "lfsr113_recovery",
         "linear_complexity"]

# The tests a strategy's sample must fail, for the strategies that must fail
# some. A strong strategy must pass every other test, and every strategy not
# named here (a new one too) must pass them all. A weak one (WEAK) must fail
# at least these; its other verdicts hang on the host's timing (counter
# reads a clock) and are shown, not judged.
MUST_FAIL = {
    "off": {"coverage", "chi_square", "min_entropy", "serial_pairs", "migration",
            "linear_complexity"},
    "counter": {"migration"},
    "crng16": {"migration"},
    # LFSR113 drawn in a row: the kit recovers its state from 40 offsets,
    # which is exactly what a leak of offsets does to `prng` (docs/attacks.md),
    # and each offset bit's stream has linear complexity 113.
    "prng": {"lfsr113_recovery", "linear_complexity"},
    "prng-task": {"lfsr113_recovery", "linear_complexity"},
}
# Every strategy (tests/harness.py reads them from kernel/uapi/kstack.h).
EXPECT = {name: MUST_FAIL.get(name, set()) for name in harness.kstack_strategies()}
WEAK = {"off", "counter", "crng16"}

LINE = re.compile(r"^\s*# kstack-(sample|migrate) (\S+) (?:(\d+) )?(\S+)$", re.M)


def decode(ch):
    """The offset one character stands for; 1 (never a valid offset) for '~'."""
    return (ord(ch) - ord("0")) * 16 if "0" <= ch <= "p" else 1


def extract(text):
    """{strategy: sample text in the kit's format} from a serial log."""
    records, trials = {}, {}
    for kind, name, cpu, chars in LINE.findall(text):
        if kind == "sample":
            records.setdefault(name, []).extend(f"{cpu} {decode(c)}" for c in chars)
        else:
            pairs = trials.setdefault(name, [])
            pairs.extend(f"migrate 0 1 {decode(chars[i])} {decode(chars[i + 1])}"
                         for i in range(0, len(chars) - 1, 2))
    return {name: "# cpu offset\n" + "\n".join(lines + trials.get(name, [])) + "\n"
            for name, lines in records.items()}


def judge(name, verdicts):
    """[problems] of one strategy's verdicts against EXPECT."""
    must_fail = EXPECT.get(name)
    if must_fail is None:
        return [f"no strategy {name!r} in kernel/uapi/kstack.h"]
    # SKIP: the boot recorded nothing for that test (a --ktest run of one
    # part); kstack.migration_attack judges Bug 1 in the kernel as well.
    # N/A: a one-CPU boot, which cannot have a second CPU or a migration.
    problems = [f"{t}: {verdicts.get(t, 'missing')}, must FAIL" for t in sorted(must_fail)
                if verdicts.get(t) not in ("FAIL", "SKIP", "N/A")]
    if name not in WEAK:
        problems += [f"{t}: {verdicts.get(t, 'missing')}, must PASS" for t in TESTS
                     if t not in must_fail and verdicts.get(t) not in ("PASS", "SKIP", "N/A")]
    return problems


def run_kit(path, skip):
    cmd = [sys.executable, KIT, path] + (["--skip", ",".join(skip)] if skip else [])
    p = subprocess.run(cmd, capture_output=True, text=True)
    verdicts = {}
    for line in p.stdout.splitlines():
        word, _, rest = line.partition(" ")
        if word in ("PASS", "FAIL", "SKIP", "N/A"):
            verdicts[rest.split(":")[0]] = word
    return verdicts, p.stdout + p.stderr


def check(text, outdir):
    """[(strategy, ok, [lines])] for every strategy's sample in a log (none
    in a lab's tree, which does not have the kit)."""
    if not os.path.exists(KIT):
        return []
    samples = extract(text)
    os.makedirs(outdir, exist_ok=True)
    results = []
    for name, sample in sorted(samples.items()):
        path = os.path.join(outdir, f"{name}.txt")
        with open(path, "w") as f:
            f.write(sample)
        cpus = {line.split()[0] for line in sample.splitlines()[1:] if line[0].isdigit()}
        # One CPU: the kit says N/A for cross_cpu and migration by itself.
        skip = ["migration"] if "\nmigrate " not in sample and len(cpus) > 1 else []
        verdicts, out = run_kit(path, skip)
        problems = judge(name, verdicts)
        results.append((name, not problems, problems + [f"sample {path}:"] +
                        out.strip().splitlines()))
    return results
