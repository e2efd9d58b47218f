#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/host/test_linux_recorder.py - make test's boot of Debian's own Linux
kernel (x86_64), so the Linux side by side cannot rot.

Fetches Debian's kernel and headers once (scripts/linux_fetch.sh through
`make linux-client linux-recorder LINUX_ARCHES=x86_64`, cached under
build/linux/), builds the client and the recorder module against those
headers, and boots the kernel on two CPUs under plain TCG with
lxmode=record+bench (scripts/linux_run.py): the module is loaded, 60,000
probe calls are recorded on each CPU, 300 Bug 1 trials are staged, then a
short benchmark runs. Then the kit (tools/kstack-conformance) judges the
sample (scripts/linux_conformance.py) and the benchmark's rows are read as
scripts/bench_report.py reads them. The cases check the pipeline and what
is known of Debian's kernel whatever the host's speed: every call ran where
it was pinned, all trials clean, the offsets' geometry (x86_64: 8-byte
steps, 0 to 1024: the kit's range test fails, with the 65th value among
others), every kit test gave a verdict, and the bench rows of all three
calls under linux-on. The Linux kernel's other verdicts are findings,
printed as diagnostics, not judged. One KTAP line per case
("ok N - linux_recorder.<case>").
"""
import os
import subprocess
import sys
import ktap_cases  # tests/host/ktap_cases.py: the cases run as KTAP
from ktap_cases import expect, load_script as load

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ARCH = "x86_64"
LOG = os.path.join(ROOT, "build", "linux", ARCH, "test-record.log")
SAMPLE = os.path.join(ROOT, "build", "linux", ARCH, "test-sample.txt")
state = {}


def built():
    p = subprocess.run(["make", "-s", "--no-print-directory", "linux-client", "linux-recorder",
                        f"LINUX_ARCHES={ARCH}"], cwd=ROOT, capture_output=True, text=True)
    expect(p.returncode == 0, "make linux-client linux-recorder: " + (p.stdout + p.stderr)[-800:])


def booted():
    s = load("linux_run").run(ARCH, "record+bench", LOG, "60000,300,2", "linux-on", smp=2,
                              timeout=900, extra="lxbench=2000,2,0")
    with open(LOG, errors="replace") as f:
        state["text"] = f.read()
    expect(not s.timed_out, f"timed out after {s.secs:.0f} s: {LOG}")
    expect("KSR error" not in state["text"], "the recorder: " + state["text"][-400:])
    expect("BENCH end" in state["text"], f"no BENCH end in {LOG}")
    print(f"    # booted in {s.secs:.1f} s")


def sample_complete():
    lc = load("linux_conformance")
    calls, trials, end = lc.parse(state["text"])
    expect(len(calls) == 120000, f"{len(calls)} calls that stayed on their CPU, of 120000")
    expect(end is not None and end[0] == 300 and len(trials) == 300, f"trials {end}")
    state["judged"] = lc.judge(ARCH, state["text"], SAMPLE)
    state["geometry"] = lc.geometry(calls)


def offsets_geometry():
    step, values, largest = state["geometry"]
    expect(step == 8 and largest == 1024 and values > 64,
           f"steps of {step}, {values} values, largest {largest}: Debian's x86_64 kernel "
           "(8-byte stack alignment, a 0x3FF mask) gives 8-byte steps from 0 to 1024")


def kit_verdicts():
    verdicts, lines, _ = state["judged"]
    for line in lines:
        print(f"    # {line.strip()}")
    tests = load("linux_conformance").kstack_samples.TESTS
    expect(all(t in verdicts for t in tests), f"missing verdicts: {sorted(verdicts)}")
    expect(verdicts["range"][0] == "FAIL", "range must fail on 8-byte steps to 1024")


def bench_rows():
    br = load("bench_report")
    runs = br.parse_log(state["text"].splitlines())
    run = runs.get(ARCH)
    expect(run is not None and run.ended, "no BENCH records")
    for sc in ("getpid", "getppid", "invalid"):
        expect(len(run.values("user", "linux-on", sc, "mean")) == 2, f"{sc}: two rounds")


CASES = [built, booted, sample_complete, offsets_geometry, kit_verdicts, bench_rows]


def main():
    return ktap_cases.run("linux_recorder", CASES)


if __name__ == "__main__":
    sys.exit(main())
