#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""scripts/linux_conformance.py - the conformance kit on Debian's own Linux
kernel (make conformance-linux).

For each arch: boot Debian's kernel (build/linux/<arch>/vmlinuz) on two CPUs
under plain TCG with the recorder module and its client
(scripts/linux_run.py --mode record: 60,000 probe calls pinned to each CPU,
125,000 on x86_64, whose 8-byte steps make twice the values, then 300
staged Bug 1 migrations), turn the recorded depths into the kit's
sample format (offset = depth minus the least depth seen: the handler's
frame is at a fixed distance above the entry's offset), keep it as
build/linux/<arch>/sample.txt, run tools/kstack-conformance on it and print
its verdicts (in Linux's own geometry, --align and --values, where the kit
takes them) beside this kernel's (what make test requires of each
stackshift strategy's own sample, tests/kstack_samples.py). Then the
geometry the sample shows: the step between offsets, how many values, the
largest.

  python3 -m scripts.linux_conformance [--arches "x86_64 arm64"] [--log-dir DIR]
  python3 -m scripts.linux_conformance --from-log LOG --sample OUT   (no boot)

Exit status 0 when every boot recorded a complete sample (whatever the
kit's verdicts: they are findings about Linux, not about this project).
Python standard library only.
"""
import argparse
import os
import re
import subprocess
import sys

from tests import kstack_samples  # the tests and what each strategy must get

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KIT = os.path.join(ROOT, "tools", "kstack-conformance")

# Calls per CPU: x86_64's offsets come in 8-byte steps (128 values, twice
# the default geometry's), for which the kit asks about twice the calls.
CALLS = {"x86_64": 125000, "arm64": 60000}
TRIALS = 300
SHOWN = ["pool", "prng", "off"]  # this kernel's columns


def parse(text):
    """(calls [(cpu, depth)], trials [(from, to, leaked, next)], (clean, spoilt) or None)."""
    calls, trials, end = [], [], None
    for m in re.finditer(r"^KSR (s|m|end) (.*?)\r?$", text, re.M):
        f = [int(x) for x in m.group(2).split()]
        if m.group(1) == "s":
            calls += [(f[0], d) for d in f[1:] if d]  # 0: the call left its CPU
        elif m.group(1) == "m":
            trials.append(tuple(f))
        else:
            end = (f[0], f[1])
    return calls, trials, end


def sample_text(calls, trials):
    """The kit's format; offsets relative to the least depth of any call."""
    base = min([d for _, d in calls] + [t[i] for t in trials for i in (2, 3)])
    lines = ["# cpu offset: Debian's Linux, recorded by linux/recorder (depth - least depth)"]
    lines += [f"{cpu} {d - base}" for cpu, d in calls]
    lines += [f"migrate {a} {b} {l - base} {n - base}" for a, b, l, n in trials]
    return "\n".join(lines) + "\n"


def geometry(calls):
    """(step, values, largest) of the offsets."""
    base = min(d for _, d in calls)
    offs = sorted({d - base for _, d in calls})
    step = 0
    for o in offs:
        step = o if step == 0 else __import__("math").gcd(step, o)
    return step, len(offs), offs[-1]


def geometry_options(step):
    """--align/--values for Linux's own geometry (a 10-bit mask, 0x3FF, in
    steps of the stack's alignment), where the kit takes them; [] else."""
    helptext = subprocess.run([sys.executable, KIT, "--help"], capture_output=True,
                              text=True).stdout
    if "--align" not in helptext or not step:
        return []
    return ["--align", str(step), "--values", str(1024 // step)]


def kit(path, options=()):
    """{test: (verdict, line)} and the kit's whole output."""
    p = subprocess.run([sys.executable, KIT, path, *options], capture_output=True, text=True)
    verdicts = {}
    for line in p.stdout.splitlines():
        word, _, rest = line.partition(" ")
        if word in ("PASS", "FAIL", "SKIP"):
            verdicts[rest.split(":")[0]] = (word, rest)
    return verdicts, p.stdout + p.stderr


def ours(test, strategy):
    """What make test requires of this kernel's sample of a strategy."""
    return "FAIL" if test in kstack_samples.EXPECT[strategy] else "PASS"


def table(results):
    """The verdicts, Linux's beside this kernel's, as lines."""
    arches = list(results)
    head = ["test"] + [f"Linux {a}" for a in arches] + [f"stackshift {s}" for s in SHOWN]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for t in kstack_samples.TESTS:
        row = [t] + [results[a][0].get(t, ("-", ""))[0] for a in arches]
        lines.append("| " + " | ".join(row + [ours(t, s) for s in SHOWN]) + " |")
    lines.append("")
    lines.append("stackshift columns: what make test requires of this kernel's own samples "
                 "(tests/kstack_samples.py), checked on every arch")
    return lines


def judge(arch, text, out):
    """Write the sample, run the kit; (verdicts, report lines) or None."""
    calls, trials, end = parse(text)
    if not calls or end is None:
        return None
    with open(out, "w") as f:
        f.write(sample_text(calls, trials))
    step, values, largest = geometry(calls)
    options = geometry_options(step)
    verdicts, output = kit(out, options)
    lines = [f"conformance-linux: {arch}: {len(calls)} calls, {end[0]} clean migration trials "
             f"({end[1]} spoilt); offsets in steps of {step} bytes, {values} values, "
             f"0 to {largest}; sample {os.path.relpath(out, ROOT)}"
             + (f"; kit {' '.join(options)}" if options else "")]
    lines += [f"  {v[0]} {v[1]}" for v in verdicts.values()]
    return verdicts, lines, output


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arches", default="x86_64 arm64")
    ap.add_argument("--from-log", help="judge this recorder log instead of booting")
    ap.add_argument("--sample", help="with --from-log: where to write the sample")
    ap.add_argument("--timeout", type=int, default=900)
    args = ap.parse_args(argv)
    from scripts import linux_run as run
    results, ok = {}, True
    for arch in args.arches.split():
        if arch == "riscv64":
            print("conformance-linux: riscv64: Debian 12 ships no riscv64 kernel: skipped")
            continue
        if args.from_log:
            log, out = args.from_log, args.sample
        else:
            d = os.path.join(ROOT, "build", "linux", arch)
            log, out = os.path.join(d, "record.log"), os.path.join(d, "sample.txt")
            print(f"conformance-linux: {arch}: booting Debian's kernel with the recorder "
                  f"(2 CPUs, {CALLS[arch]} calls on each, {TRIALS} migration trials)",
                  flush=True)
            s = run.run(arch, "record", log, f"{CALLS[arch]},{TRIALS},2", smp=2,
                        timeout=args.timeout)
            print(f"conformance-linux: {arch}: {s.secs:.0f} s", flush=True)
        with open(log, errors="replace") as f:
            judged = judge(arch, f.read(), out)
        if judged is None:
            print(f"conformance-linux: {arch}: no complete sample in {log}")
            ok = False
            continue
        results[arch] = judged
        print("\n".join(judged[1]) + "\n", flush=True)
    if results:
        print("\n".join(table(results)))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
