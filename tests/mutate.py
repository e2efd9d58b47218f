#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/mutate.py - mutation testing: break each safety check on purpose and
check that a test notices.

Every tests/mutants/<name>.mut describes one mutant: a small change to one
file that removes or weakens one check the kernel relies on. For each mutant
and each arch it names, this script copies the tree (with the already built
objects of that arch, so only what the change touches recompiles), applies
the change, builds, runs the named subset of the test suite with
tests/run.py, and prints one of

  killed        a test its kills: line names failed
  survived      every test passed: a check no test looks at
  unrelated     something failed, but none of the named tests
  timeout       a boot timed out and no named test failed
  build-failed  the mutant does not compile: a broken .mut, not a kill

(A build that runs tests, as `make host-tests` runs lib/kstack's own, and
fails because one of them failed, is a kill by that test: make test reports
it as host.kstack.<case>. The verdict names it.)

then "N killed, N survived", the other counts and how long it took. Before
any mutant, every distinct subset (arch, boot, ktest) is run once on the
unmutated tree; a red baseline stops the run (exit 1) naming the subset and
its failing tests. A mutant with several arches gets its worst verdict
(killed only if killed on each). The exit status is 0 only if every mutant
run is killed. A mutant marked
`equivalent:` changes nothing a test could observe (the line says why); it
is listed, not run (--run-equivalent runs it anyway, to see it survive).

  tests/mutate.py [--mutants a,b] [--arch A] [--jobs N] [--run-equivalent] [--keep]
  make mutate [MUTANTS=a,b] [ARCH=A]

The .mut format, line by line ('#' starts a comment line):

  breaks: what the change breaks, in one line          (required)
  file: kernel/uaccess.c                                (required)
  arch: x86_64 riscv64 | all | host                     (required)
  boot: main crash-percpu                               (default main)
  ktest: user.bad_input                                 (optional)
  kills: {arch}.*.user.bad_input*                       (required unless equivalent)
  timeout: 300                                          (optional: seconds per boot)
  hangs: the kernel stops before it can print anything  (optional: a hang is the kill)
  host: health                                          (with arch: host)
  equivalent: why no test can see it                    (optional)
  ---
  the exact text to replace (whole lines; it must occur exactly once)
  +++
  its replacement (may be empty: the lines are deleted)

--- / +++ pairs may repeat for more changes in the same file. `boot` names
boots of the arch's last firmware path: `main` is <arch>.<fw> (the full
self-test boot), anything else <arch>.<fw>.<boot> (tests/run.py --list shows
them); a boot whose kernel is built with other make variables
(gate-closed-nodebug: DEBUG_CALLS=0, vuln: VULN=1, irqsoff: IRQSOFF=1, its make_vars in
tests/boots.py) gets the mutant built that way too. `ktest` narrows what those
boots run (run.py --ktest). A host mutant
(lib/, or a script tests/host/test_<host>.py reads) builds the host unit
tests and runs host.<host>.

`kills` is a space-separated list of fnmatch globs matched against the test
names tests/run.py prints in its "ok N - NAME" / "not ok N - NAME" lines;
{arch} stands for the arch being run. `{arch}.build.check_dispatch` names a
build-time check (scripts/check_dispatch.py) that refuses to link the
mutated kernel: the build failing there is the kill. Names: <arch>.<fw>.<ktap case> for a
KTAP case of the main boot (x86_64.uefi.user.bad_input...), <boot
name>.<case> for other boots, <boot name>.boot for a boot's own check
(exit status, panic, expected output, timeout), host.<suite>.<case> for
host tests. A `<boot name>.boot` glob kills only when that boot ended (a
panic, a wrong exit status, missing output), not when it timed out: a hang
is reported as one. `timeout` raises BOOT_TIMEOUT for a mutant whose subset
takes longer than a minute when the checks pass (thousands of trials).
A mutant marked `hangs:` stops the kernel where nothing can report it (the
lock every printk takes is never released): its boot timing out is its
kill, and the line says why no test can do better. A hang inside a KTAP
case is not that: tests/run.py fails the case that never finished.

The format (parse, check, apply) is tests/mutation.py's; the boots are
tests/boots.py's. Python standard library only.
"""
import argparse
import concurrent.futures
import fnmatch
import os
import re
import shutil
import subprocess
import sys
import threading
import time

import boots
import harness
from harness import ARCHES, ROOT, outcomes
from mutation import boot_names, load, problems, apply

WORK_DIR = os.path.join(ROOT, "build", "mutate")

BOOT_TIMEOUT = 60  # s: a full self-test boot takes 7-15 s; a hung mutant is killed


# The make variables that choose another kernel build (build/<arch>-nodebug,
# build/<arch>-vuln, build/<arch>-irqsoff: the Makefile's BUILD); a boot's
# others only run QEMU.
BUILD_VARS = ("DEBUG_CALLS", "VULN", "IRQSOFF")


def build_vars(m, arch):
    """The distinct build variables of the boots the mutant names (tests/boots.py's
    Boot.make_vars), each a sorted list: [["VULN=1"]] for the vuln boot; none
    for a host mutant."""
    if arch == "host":
        return []
    names = set(boot_names(m, arch))
    sets = {tuple(sorted(f"{k}={v}" for k, v in b.make_vars.items() if k in BUILD_VARS))
            for b in boots.boot_matrix() if b.name in names}
    return [list(vs) for vs in sorted(sets) if vs]


def build_targets(arch, var_sets=()):
    """The make command lines that build what an arch's tests boot: the
    image, and one more for each set of build variables (e.g. DEBUG_CALLS=0
    or VULN=1) that a boot uses."""
    if arch == "host":
        return [["host-tests"]]
    return [[f"ARCH={arch}", "image"]] + [[f"ARCH={arch}", *vs, "image"] for vs in var_sets]


def build_base(tasks):
    """Bring the real tree's objects up to date once, so every copy starts built."""
    needed = {}
    for m, a in tasks:
        sets = needed.setdefault(a, [])
        sets += [vs for vs in ([] if a == "host" else build_vars(m, a)) if vs not in sets]
    for a, sets in sorted(needed.items()):
        for target in build_targets(a, sets):
            p = subprocess.run(["make", "-s", "--no-print-directory", *target], cwd=ROOT,
                               capture_output=True, text=True)
            if p.returncode != 0:
                sys.exit(f"mutate: the unmutated tree does not build ({' '.join(target)}):\n"
                         + p.stdout[-2000:] + p.stderr[-2000:])


def boot_timeout(m, arch):
    """BOOT_TIMEOUT, or a boot's own limit if it counts instructions
    (-icount runs several times slower than a plain TCG boot)."""
    names = set(boot_names(m, arch))
    slow = [b.timeout for b in boots.boot_matrix() if b.name in names and "icount" in b.qemu_extra]
    return max([BOOT_TIMEOUT, int(m.fields.get("timeout", 0))] + slow)


def subset_cmd(m, arch, root):
    """The tests/run.py command line that runs the mutant's subset."""
    cmd = [sys.executable, os.path.join(root, "tests", "run.py"), "--jobs", "1"]
    if arch == "host":
        return cmd + ["--filter", f"host.{m.fields['host']}"]
    cmd += ["--no-host", "--arch", arch, "--timeout", str(boot_timeout(m, arch))]
    cmd += [x for b in boot_names(m, arch) for x in ("--boot", b)]
    if m.fields.get("ktest"):
        cmd += ["--ktest", m.fields["ktest"]]
    return cmd


def subset_key(m, arch):
    """What makes two mutants' subsets the same run (arch, boots or host test, ktest)."""
    return (arch, m.fields.get("host", "") if arch == "host" else m.fields.get("boot", "main"),
            m.fields.get("ktest", ""))




def timed_out(stdout):
    """Whether run.py reported a timeout."""
    return "timed out" in stdout


def verdict(m, arch, rc, stdout):
    """(verdict, detail) of one finished subset run on a built mutant."""
    res = outcomes(stdout)
    failed = [n for n, ok in res.items() if not ok]
    hung = timed_out(stdout)
    named = [n for n in failed if any(fnmatch.fnmatchcase(n, g) for g in m.kills(arch))
             and not (hung and n.endswith(".boot"))]
    if named:
        return "killed", ", ".join(named[:3])
    if hung and m.fields.get("hangs"):
        return "killed", "timed out, as expected: " + m.fields["hangs"]
    if hung:
        return "timeout", ", ".join(failed[:3]) or "timed out"
    if failed or rc != 0:
        return "unrelated", ", ".join(failed[:3]) or stdout.strip()[-200:]
    if not res:
        return "unrelated", "no tests ran"
    return "survived", "every test passed"


def unit_tests_failed(output):
    """The unit tests a build ran and that failed, named as tests/run.py
    names them: `make host-tests` runs lib/kstack's own tests (make test's
    host.kstack.*), whose KTAP cases are called kstack.<case>."""
    return [f"host.{name}" for name, ok, _ in harness.parse_ktap(output.splitlines()) if not ok]


def build_verdict(m, arch, output):
    """A build that failed: killed if a build-time check the mutant names
    (kills: {arch}.build.check_dispatch) refused it, or if unit tests the
    build runs failed (a host mutant that lib/kstack's own tests catch before
    the named test runs: make test fails there too), else build-failed."""
    failed = unit_tests_failed(output)
    if failed:
        return "killed", (", ".join(failed[:3]) + " (run by the build, before "
                          + ", ".join(m.kills(arch)) + ")")
    checks = sorted(set(re.findall(r"^(check_\w+): " + re.escape(arch) + ": (?!warning)",
                                   output, re.M)))
    refused = [f"{arch}.build.{c}" for c in checks]
    named = [n for n in refused if any(fnmatch.fnmatchcase(n, g) for g in m.kills(arch))]
    if named:
        return "killed", ", ".join(named)
    err = [l for l in output.splitlines() if "error" in l or l.startswith("check_")]
    return "build-failed", (err[0] if err else output.strip()[-200:])


def run_one(m, arch):
    """Build and test one mutant on one arch: (verdict, detail, seconds)."""
    start = time.time()
    dest = os.path.join(WORK_DIR, f"{m.name}.{arch}")
    shutil.rmtree(dest, ignore_errors=True)
    try:
        harness.copy_tree(dest, arch)
        apply(m, dest)
        for target in build_targets(arch, build_vars(m, arch)):
            # CCACHE=: a mutant's files are new to ccache (grading.py says why)
            p = subprocess.run(["make", "-s", "--no-print-directory", "CCACHE=", *target], cwd=dest,
                               capture_output=True, text=True)
            if p.returncode != 0:
                return build_verdict(m, arch, p.stdout + p.stderr) + (time.time() - start,)
        p = subprocess.run(subset_cmd(m, arch, dest), cwd=dest, capture_output=True, text=True)
        v, detail = verdict(m, arch, p.returncode, p.stdout)
        return v, detail, time.time() - start
    finally:
        if not KEEP:
            shutil.rmtree(dest, ignore_errors=True)


def baselines(tasks):
    """Run every distinct subset once on the unmutated tree; exit on a red one."""
    seen = {}
    for m, arch in tasks:
        key = subset_key(m, arch)
        if key in seen:
            continue
        start = time.time()
        p = subprocess.run(subset_cmd(m, arch, ROOT), cwd=ROOT, capture_output=True, text=True)
        res = outcomes(p.stdout)
        failed = [n for n, ok in res.items() if not ok]
        seen[key] = failed
        name = f"arch {key[0]}, {'host' if arch == 'host' else 'boot'} {key[1]}, ktest {key[2] or '-'}"
        if p.returncode != 0 or failed or not res:
            sys.exit(f"mutate: baseline red for {name} (unmutated tree): "
                     + (", ".join(failed) or p.stdout.strip()[-300:] or "no tests ran")
                     + "\nfix the tree or the test before judging mutants")
        print(f"# baseline {name}: {len(res)} ok in {time.time() - start:.0f} s", flush=True)


KEEP = False
# worst last: a mutant's verdict over its arches is the worst one of them
VERDICTS = ["killed", "survived", "unrelated", "timeout", "build-failed"]


def parse_args():
    """The command line."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mutants", default="", help="comma-separated names (default: all)")
    ap.add_argument("--arch", choices=ARCHES + ["host"], help="only this arch's runs")
    ap.add_argument("--jobs", type=int, default=2, help="mutants built and run at once")
    ap.add_argument("--run-equivalent", action="store_true")
    ap.add_argument("--keep", action="store_true", help="keep the copies in build/mutate/")
    return ap.parse_args()


def run_all(tasks, arches_of, jobs):
    """Build and test every (mutant, arch) task, `jobs` at a time; print each
    mutant's worst verdict over its arches when its last one is in; the count
    of each verdict."""
    results = {m.name: {} for m, _ in tasks}
    counts = dict.fromkeys(VERDICTS, 0)
    lock = threading.Lock()

    def finished(m, arch, res):
        with lock:
            results[m.name][arch] = res
            if len(results[m.name]) < len(arches_of[m.name]):
                return
            verdicts = [v for v, _, _ in results[m.name].values()]
            verdict = next(v for v in reversed(VERDICTS) if v in verdicts)
            counts[verdict] += 1
            print(f"{verdict:9} {m.name}: {m.fields['breaks']}")
            for a, (v, detail, secs) in sorted(results[m.name].items()):
                print(f"    # {a}: {v} in {secs:.0f} s: {detail}")
            sys.stdout.flush()

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futs = {pool.submit(run_one, m, a): (m, a) for m, a in tasks}
        for f in concurrent.futures.as_completed(futs):
            m, a = futs[f]
            try:
                res = f.result()
            except Exception as e:  # a broken copy or apply: report, go on
                res = ("build-failed", str(e), 0.0)
            finished(m, a, res)
    return counts


def main():
    """Check the mutants apply, build the base, run the baselines, then every
    mutant; "N killed, N survived" last."""
    global KEEP
    args = parse_args()
    KEEP = args.keep
    started = time.time()
    names = [n for n in args.mutants.split(",") if n]
    mutants = load(names)
    bad = {m.name: problems(m) for m in mutants}
    bad = {k: v for k, v in bad.items() if v}
    if bad:
        for name, why in bad.items():
            print(f"mutate: {name} does not apply: " + "; ".join(why), file=sys.stderr)
        return 2
    arches_of = {m.name: [a for a in (["host"] if m.fields["arch"] == "host" else m.arches)
                          if not args.arch or a == args.arch] for m in mutants}
    todo = [m for m in mutants if arches_of[m.name] and (args.run_equivalent or not m.equivalent)]
    for m in mutants:
        if m.equivalent and not args.run_equivalent:
            print(f"equivalent {m.name}: {m.equivalent}")
    tasks = [(m, a) for m in todo for a in arches_of[m.name]]
    build_base(tasks)
    baselines(tasks)
    other = sum(1 for m in mutants if not arches_of[m.name])
    print(f"# {len(todo)} mutants, {len(tasks)} builds and runs, {args.jobs} at a time"
          + (f"; {other} only for other arches, not run" if other else ""), flush=True)
    counts = run_all(tasks, arches_of, args.jobs)
    secs = time.time() - started
    equivalent = sum(1 for m in mutants if m.equivalent and not args.run_equivalent)
    print(f"# {equivalent} equivalent (not run); " + ", ".join(
        f"{counts[v]} {v}" for v in VERDICTS[2:]))
    print(f"# {secs // 60:.0f} min {secs % 60:.0f} s")
    print(f"{counts['killed']} killed, {counts['survived']} survived")
    return 0 if counts["killed"] == len(todo) else 1


if __name__ == "__main__":
    sys.exit(main())
