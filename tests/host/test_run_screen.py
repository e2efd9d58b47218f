#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/host/test_run_screen.py - host tests of scripts/run_screen.py, the
table `make run` ends with.

Renders tests/host/run_screen_canned.log (the summary records of a real
arm64 `make run` under -icount shift=3, the rest of the console left out)
and edited copies of it with --render-only, and checks the cells against
values worked out by hand from the records. One KTAP line per case
("ok N - run_screen.<case>"); tests/run.py collects them. Exit status 1
when any case failed.
"""
import os
import subprocess
import sys
import tempfile
import ktap_cases  # tests/host/ktap_cases.py: the cases run as KTAP

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPT = ["-m", "scripts.run_screen"]  # run from the top of the tree, as make run does
CANNED = os.path.join(HERE, "run_screen_canned.log")


def canned():
    with open(CANNED) as f:
        return f.read()


def render(text, *args):
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "run.log")
        with open(log, "w") as f:
            f.write(text)
        p = subprocess.run([sys.executable, *SCRIPT, "--arch", "arm64", "--log", log,
                            "--render-only", *args], capture_output=True, text=True, cwd=ROOT)
        return p.returncode, p.stdout + p.stderr


def row(out, strategy):
    for line in out.splitlines():
        if line.split()[:1] == [strategy]:
            return line
    raise AssertionError(f"no row for {strategy}")


def expect(cond, what):
    if not cond:
        raise AssertionError(what)


OUT = render(canned(), "--shift", "3")


def one_screen():
    rc, out = OUT
    expect(rc == 0, f"exit status {rc}")
    expect(len(out.splitlines()) <= 30, f"{len(out.splitlines())} lines")
    expect("exact, repeatable instruction counts (QEMU -icount shift=3" in out, "header")
    expect("BENCH" not in out, "raw records on the screen")
    expect("make bench" in out and "docs/labs/" in out, "what to run next")


def costs():
    # pool getpid, kernel side, the least of 3 rounds: mean 672.000 against
    # off's 555.160 ticks, 8 per instruction: +15 (14.6); p99.9 672 against
    # 552: +15, though pool's round 0 has 2624 there (a tick landed).
    _, out = OUT
    expect("+15 / +15 / +15" in row(out, "pool"), row(out, "pool"))
    expect("(69 / 69 / 69)" in row(out, "off"), row(out, "off"))
    _, out1 = render(canned(), "--shift", "0")
    expect("+117 / +120 / +120" in row(out1, "pool"), "shift 0: ticks are instructions")
    # Every round disturbed: it shows.
    text = canned().replace("BENCH row kernel pool getpid 1 1000 672000 672 672 672 672",
                            "BENCH row kernel pool getpid 1 1000 672000 672 672 2624 2624")
    text = text.replace("BENCH row kernel pool getpid 2 1000 672000 672 672 672 672",
                        "BENCH row kernel pool getpid 2 1000 672000 672 672 2624 2624")
    _, out2 = render(text, "--shift", "3")
    expect("+15 / +15 / +259" in row(out2, "pool"), row(out2, "pool"))


def offsets_and_attacks():
    _, out = OUT
    r = row(out, "counter")
    expect(" 64 " in r and "5.47" in r and "100.0% of 200" in r and "no (2.4%)" in r, r)
    r = row(out, "prng")
    expect("YES (100% predicted)" in r and "2.0% of 200" in r, r)
    expect("- (constant)" in row(out, "off"), row(out, "off"))


def lfsr_partial_is_no():
    # A state that fits but predicts 90%: not a recovery.
    text = canned().replace("BENCH kstack prng 64 5779 4 200 1 500 500", "BENCH kstack prng 64 5779 4 200 1 450 500")
    _, out = render(text, "--shift", "3")
    expect("no (90.0%)" in row(out, "prng"), row(out, "prng"))


def unavailable_and_one_cpu():
    text = canned().replace("BENCH kstack hw 64 5820 2 200 0 7 500 20000", "BENCH kstack hw unavailable")
    text = text.replace("BENCH kstack pool 64 5787 3 200", "BENCH kstack pool 64 5787 0 0")
    text += "bench: the migration attack needs two CPUs: skipped\n"
    _, out = render(text, "--shift", "3")
    expect("not available" in row(out, "hw"), row(out, "hw"))
    expect("- (one CPU)" in row(out, "pool"), row(out, "pool"))


def unfinished_fails():
    rc, out = render(canned().replace("BENCH end", ""), "--shift", "3")
    expect(rc == 1 and "did not finish" in out, f"rc {rc}: {out[-300:]}")
    rc, out = render("\n".join(l for l in canned().splitlines() if "BENCH kstack" not in l))
    expect(rc == 1, "no summary records must fail")


def tcg_mode():
    rc, out = render(canned(), "--tcg")
    expect(rc == 0 and "WARNING" in out and "only ratios" in out, "warning")
    # pool mean 672.000 / 555.160 - 1 = +21.0%.
    expect("+21.0%" in row(out, "pool"), row(out, "pool"))


CASES = [one_screen, costs, offsets_and_attacks, lfsr_partial_is_no, unavailable_and_one_cpu,
         unfinished_fails, tcg_mode]


def main():
    return ktap_cases.run("run_screen", CASES)


if __name__ == "__main__":
    sys.exit(main())
