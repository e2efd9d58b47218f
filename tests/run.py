#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/run.py - run every test of the project and print one verdict line.

  host unit tests   build/host/test_* (lib/ compiled natively with ASan/UBSan),
                    tests/host/test_*.py (the host scripts), and a check that
                    every tests/mutants/*.mut still applies
  boot tests        each arch booted in QEMU through its firmware path(s);
                    the kernel's KTAP self-test lines are collected, and the
                    boot itself is checked (banner, memory map, CPU count,
                    exit status, no panic)

Every test is one line "ok ..." or "not ok ..."; the last line of the output
is "N passed, N failed" and the exit status is non-zero on any failure,
timeout or crash. Python standard library only.

  tests/run.py [--arch A] [--filter SUBSTR] [--boot NAME] [--ktest LIST]
               [--timeout S] [--jobs N] [--verbose] [--list] [--no-host] [--no-labs]

A full run (no --arch, --boot or --ktest) also checks the course labs
(tests/lab.py check: the tree scores full marks, every skeleton none;
tests/lab.py wrong: every wrong solution of tests/labs/wrong scores less):
their gradings share the pool of `--jobs` with the boots.

--boot picks boots by exact name (repeatable), --ktest replaces the ktest=
list of the boots that run self-tests (e.g. user.bad_input; what a boot
expects of a self-test's output, such as smp3's forged results of
user.security, it expects only if the new list runs that test), --timeout
caps every boot's timeout: tests/mutate.py uses them to run a small subset fast.

This is the front door: what to run and how to report it. The boots and
what each must show are tests/boots.py's; booting one (the image, QEMU,
typed input, the timeout and its register dump, KTAP) is tests/harness.py's;
the labs' check is tests/grading.py's, the mutants' format tests/mutation.py's.
"""
import argparse
import concurrent.futures
import json
import os
import re
import resource
import subprocess
import sys
import threading
import time

import boots
import grading
import harness
import kstack_samples
import mutation
from harness import ARCHES, EXIT_PANIC, ROOT


class Results:
    """The verdicts so far, each printed as it comes ("ok N - name")."""

    def __init__(self, verbose):
        self.passed = self.failed = 0
        self.outcomes = {}  # name -> ok, for the labs' check
        self.verbose = verbose
        self.lock = threading.Lock()

    def report(self, ok, name, details=()):
        """Print one verdict; its details when it failed (or with --verbose)."""
        with self.lock:
            self.outcomes[name] = ok
            if ok:
                self.passed += 1
            else:
                self.failed += 1
            print(f"{'ok' if ok else 'not ok'} {self.passed + self.failed} - {name}")
            if not ok or self.verbose:
                for line in details:
                    print(f"    # {line}")
            sys.stdout.flush()


class Job:
    """One piece of the run for the pool: a host test program, a boot or a
    lab's grading. guess: its seconds when the last run did not time it;
    work(): what it does (it reports its own verdicts); out: what work returned."""

    def __init__(self, name, guess, work):
        self.name, self.guess, self.work, self.out = name, guess, work, None


def host_jobs(results, flt):
    """build/host/test_* (compiled from tests/host/test_*.c) and tests/host/test_*.py
    (run with this Python), as jobs for the pool the boots run in (the
    conformance kit alone takes half a minute); each prints KTAP, and a
    case NAME becomes host.NAME."""
    hostdir = os.path.join(ROOT, "build", "host")
    programs = []
    for exe in sorted(os.listdir(hostdir)) if os.path.isdir(hostdir) else []:
        path = os.path.join(hostdir, exe)
        if exe.startswith("test_") and "." not in exe and os.access(path, os.X_OK):
            programs.append((exe[5:], [path]))
    pydir = os.path.join(ROOT, "tests", "host")
    for script in sorted(os.listdir(pydir)):
        if script.startswith("test_") and script.endswith(".py"):
            programs.append((script[5:-3], [sys.executable, os.path.join(pydir, script)]))
    # The conformance kit takes half a minute, make verify's proofs (host.verify)
    # two to three minutes on a busy host, longer when a contract changed.
    guess = {"conformance": 30, "verify": 180, "linux_recorder": 70, "bench_html": 30}
    return [Job(f"host.{suite}", guess.get(suite, 5), lambda suite=suite, cmd=cmd:
                report_host_program(results, suite,
                                    run_host_program(cmd, 1800 if suite == "verify" else 300)))
            for suite, cmd in programs if not flt or flt in f"host.{suite}"]


def run_host_program(cmd, timeout=300):
    """(exit status or None on a timeout, output lines) of one host test."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, []
    return p.returncode, p.stdout.splitlines() + p.stderr.splitlines()


def report_host_program(results, suite, outcome):
    """Its KTAP cases as host.NAME; a crash after passing cases fails host.SUITE.exit."""
    rc, lines = outcome
    if rc is None:
        results.report(False, f"host.{suite}", ["timed out"])
        return
    cases = harness.parse_ktap(lines)
    for name, ok, diag in cases:
        results.report(ok, f"host.{name}", diag)
    if rc != 0 and all(ok for _, ok, _ in cases):
        results.report(False, f"host.{suite}.exit", [f"exit status {rc}"] + lines[-40:])


def check_wrong_solutions(results, flt):
    """Every tests/labs/wrong/<lab>/*.wrong still applies to this tree (its
    text is there once, inside the lab's regions), without building it."""
    for w in grading.load_wrong(grading.LABS):
        name = f"host.labs.wrong.{w.lab}.{w.name}_applies"
        if not flt or flt in name:
            results.report(not grading.wrong_problems(w), name, grading.wrong_problems(w))


def check_mutants(results, flt):
    """Every tests/mutants/*.mut still applies to this tree (its text is there
    exactly once, its boots exist), without building or running it."""
    mutants = mutation.MUTANT_DIR
    for path in sorted(os.listdir(mutants)) if os.path.isdir(mutants) else []:
        if not path.endswith(".mut"):
            continue
        name = f"host.mutants.{path[:-4]}_applies"
        if flt and flt not in name:
            continue
        try:
            why = mutation.problems(mutation.parse(os.path.join(mutants, path)))
        except ValueError as e:
            why = [str(e)]
        results.report(not why, name, why)


def lab_jobs(results):
    """The course labs' gradings (tests/lab.py), as jobs for the pool the
    boots run in: every skeleton builds and scores less, on every arch
    (labs.<n>.<arch>.skeleton_builds_and_fails_every_graded_test), and every
    wrong solution of tests/labs/wrong scores below full marks
    (labs.<n>.wrong.<name>.scores_below_full). A grading takes a copy of the
    tree and a core, like a boot, so they share the cores rather than wait
    for the last boot."""
    jobs = [Job(f"labs.{lab.number}.{arch}.skeleton", 10,
                lambda lab=lab, arch=arch: results.report(*grading.check_skeleton(lab, arch)))
            for lab in grading.LABS for arch in ARCHES]
    for (n, arch), ws in grading.wrong_groups(grading.LABS).items():
        def grade_wrong(lab=grading.lab_by_number(n), arch=arch, ws=ws):
            for verdict in grading.check_wrong_lab(lab, arch, ws):
                results.report(*verdict)
        jobs.append(Job(f"labs.{n}.{arch}.wrong", 4 * len(ws), grade_wrong))
    return jobs


def check_references(results):
    """The reference (this tree) scores full marks in every lab on every arch,
    from the boots just run, which include every lab's tests."""
    outcomes = dict(results.outcomes)
    for lab in grading.LABS:
        for arch in ARCHES:
            results.report(*grading.check_reference(lab, arch, outcomes))


def boot_once(b):
    """Boot b through the harness: its image and variable store in
    build/<arch>/test/, its serial log there; the finished harness.Session."""
    workdir = os.path.join(ROOT, "build", b.arch, "test")
    os.makedirs(workdir, exist_ok=True)
    path = os.path.join(workdir, b.name)
    cmd = harness.prepare(b.arch, f"{path}.img", f"{path}.vars", boots.boot_cmdline(b.cmdline),
                          build=boots.build_dir(b), boot=b.boot, smp=b.smp,
                          extra=boots.qemu_extra(b), kernel_cmdline=boots.boot_cmdline(b.cmdline),
                          make_vars=b.make_vars)
    return harness.boot(cmd, f"{path}.log", b.timeout, answer=True)


def boot_problems(b, s, text):
    """What is wrong with the boot itself: exit status, timeout (with where
    each CPU was), a panic, expected output missing."""
    problems = []
    if s.rc is None:
        problems.append(f"timed out after {b.timeout} s")
        problems += harness.hung_pcs(b.arch, text)
    elif harness.kernel_status(b.arch, s.rc) != b.status:
        problems.append(f"QEMU exit code {s.rc}, expected kernel status {b.status}")
    if b.status != EXIT_PANIC and "KERNEL PANIC" in text:
        problems.append("kernel panic")
    for pattern in boots.expectations(b):
        if not re.search(pattern, text):
            problems.append(f"missing /{pattern}/ in the serial log")
    return problems


def bench_check(b, log_path, results):
    """scripts/bench_report.py --check on a bench boot's log."""
    report = subprocess.run([sys.executable, "-m", "scripts.bench_report",
                             "--check", "--no-plots", "--log", log_path, "--out",
                             os.path.join(os.path.dirname(log_path), "bench")],
                            capture_output=True, text=True, cwd=ROOT)
    results.report(report.returncode == 0, f"{b.name}.table_and_off_fastest",
                   (report.stdout + report.stderr).splitlines()[-12:])


def run_boot(b, results):
    """Boot b and report its KTAP cases, its conformance samples, its bench
    table and the boot itself (<name>.boot); its CRNG test output or None."""
    s = boot_once(b)
    text = s.text()
    problems = boot_problems(b, s, text)
    if b.ktap:
        complete, cases = harness.ktap_cases(text, s.rc is None)
        if not complete:
            problems.append("no complete KTAP block (### BEGIN/END KTAP)")
        for name, ok, diag in cases:
            results.report(ok, f"{b.name}.{name}", diag)
    if "# kstack-sample " in text:
        samples = s.log_path[:-len(".log")] + ".samples"
        for name, ok, diag in kstack_samples.check(text, samples):
            results.report(ok, f"{b.name}.conformance.{name}", diag)
    if b.bench and not problems:
        bench_check(b, s.log_path, results)
    tail = harness.symbolize(b.arch, harness.console_lines(text)[-40:], boots.build_dir(b))
    details = problems + ([f"serial log {s.log_path}, last 40 lines:"] + tail if problems else
                          [f"{s.secs:.1f} s"])
    results.report(not problems, f"{b.name}.boot", details)
    m = re.search(r"random: test output ([0-9a-f]+)", text)
    return m.group(1) if m else None


def check_groups(matrix, outputs, results):
    """Boots in a ":differ" group must print different CRNG outputs, ":same" equal ones."""
    groups = {}
    for b in matrix:
        if b.group:
            groups.setdefault(b.group, []).append((b.name, outputs.get(b.name)))
    for group, members in sorted(groups.items()):
        name, kind = group.rsplit(":", 1)
        values = [v for _, v in members]
        ok = None not in values and (len(set(values)) == len(values) if kind == "differ"
                                     else len(set(values)) == 1)
        results.report(ok, f"{name}.crng_outputs_{kind}",
                       [f"{n}: {v}" for n, v in members])


def minutes(secs):
    """m:ss"""
    return f"{int(secs) // 60}:{int(secs) % 60:02d}"


TIMES = os.path.join(ROOT, "build", "test-times.json")


def last_times():
    """{boot name: seconds} of the last run (build/test-times.json), or {}."""
    try:
        with open(TIMES) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def save_times(took):
    """Keep this run's boot times for the next run's order and estimate."""
    times = last_times()
    times.update({name: round(secs, 1) for name, secs in took.items()})
    os.makedirs(os.path.dirname(TIMES), exist_ok=True)
    with open(TIMES, "w") as f:
        json.dump(times, f, indent=0, sort_keys=True)


def boot_job(b, results):
    """Boot b as a Job; its out is the boot's CRNG test output (or None)."""
    return Job(b.name, b.timeout / 20, lambda: run_boot(b, results))


def run_pool(todo, results, jobs):
    """Run the jobs `jobs` at a time, with a progress line after each and
    the slowest ones at the end."""
    started, took, lock = time.time(), {}, threading.Lock()
    last = last_times()

    def expected(j):
        """How long j should take: its last run's time, else its guess."""
        return last.get(j.name, j.guess)

    def one(j):
        t0 = time.time()
        j.out = j.work()
        with lock:
            took[j.name] = time.time() - t0
            done, elapsed = len(took), time.time() - started
            # What is left, from the last run's times, shared among the jobs.
            left = sum(expected(x) for x in todo if x.name not in took) / max(1, jobs)
            print(f"# [{done}/{len(todo)}] {j.name} {took[j.name]:.0f} s ... "
                  f"{minutes(elapsed)} elapsed, ~{minutes(left)} left", flush=True)

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        # Longest first (as long as the last run, or as guessed), so that
        # the slow ones do not start last and leave a core idle.
        for f in [pool.submit(one, j) for j in sorted(todo, key=lambda j: -expected(j))]:
            f.result()
    slowest = sorted(took.items(), key=lambda kv: -kv[1])[:8]
    print("# slowest: " + ", ".join(f"{n} {t:.0f} s" for n, t in slowest), flush=True)
    save_times(took)


def cpu_line(wall, jobs):
    """The host CPU time the run's programs (QEMU, make, the compilers, the
    host tests) used, and how many of the cores that kept busy on average:
    well below the number of jobs means the boots waited (guest timers,
    timeouts) rather than computed, and more jobs at once would finish sooner."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = ru.ru_utime + ru.ru_stime
    return (f"# host CPU {cpu:.0f} s (user {ru.ru_utime:.0f} s, system {ru.ru_stime:.0f} s): "
            f"{cpu / max(wall, 1):.2f} of {os.cpu_count()} cores busy on average, {jobs} jobs at once")


def main():
    """Parse the options, run what they pick, print the verdict line."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arch", choices=ARCHES, action="append")
    ap.add_argument("--filter", default="")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--no-host", action="store_true")
    ap.add_argument("--boot", action="append", help="only this boot (exact name); repeatable")
    ap.add_argument("--ktest", help="run these self-tests instead (the kernel's ktest= list)")
    ap.add_argument("--timeout", type=int, help="cap every boot's timeout (seconds)")
    ap.add_argument("--no-labs", action="store_true", help="skip the course labs' check")
    args = ap.parse_args()
    matrix = [b for b in boots.boot_matrix()
              if (not args.arch or b.arch in args.arch) and args.filter in b.name
              and (not args.boot or b.name in args.boot)]
    for b in matrix:
        if args.ktest and "ktest=" in b.cmdline:
            b.cmdline = boots.replace_ktest(b.cmdline, args.ktest)
        if args.timeout:
            b.timeout = min(b.timeout, args.timeout)
    if args.list:
        for b in matrix:
            print(f"{b.name}: cmdline '{b.cmdline}' {b.qemu_extra}")
        return 0
    results = Results(args.verbose)
    started = time.time()
    # A run of chosen boots (--boot, --ktest) is about those boots: the
    # host tests join it only when --filter names them.
    host = not args.no_host and (not (args.boot or args.ktest) or args.filter.startswith("host"))
    if host:
        check_mutants(results, args.filter)
        check_wrong_solutions(results, args.filter)
    labs = not (args.no_labs or args.boot or args.ktest or args.arch) and \
        (not args.filter or args.filter.startswith("labs"))
    booting = [boot_job(b, results) for b in matrix]
    grading_jobs = lab_jobs(results) if labs else []
    testing = host_jobs(results, args.filter) if host else []
    run_pool(testing + booting + grading_jobs, results, args.jobs)
    check_groups(matrix, {j.name: j.out for j in booting}, results)
    if labs:
        check_references(results)
    wall = time.time() - started
    print(f"# {len(testing)} host tests, {len(matrix)} boots and {len(grading_jobs)} lab gradings in "
          f"{wall:.0f} s")
    print(cpu_line(wall, args.jobs))
    print(f"{results.passed} passed, {results.failed} failed")
    return 1 if results.failed or results.passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
