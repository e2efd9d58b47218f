#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/lab.py - the course labs: write a student's skeleton, grade a tree.

  tests/lab.py skeleton LAB DEST     make lab LAB=n DEST=dir
  tests/lab.py grade LAB [--arch A]  make grade LAB=n [ARCH=a]
  tests/lab.py check [--lab N]       (tests/run.py) the reference scores full
                                     marks, every skeleton builds and fails
                                     every graded test (no test passes on a stub)
  tests/lab.py list

A lab's code lives in the main tree, which is the reference solution. Each
region a student writes is marked in a C, header or assembly file:

    /* LAB 3 BEGIN: the four quarter rounds of a column round */
    ... the solution ...
    /* LAB 3 STUB
    ... what the skeleton has instead (may be empty) ...
    LAB 3 END */

The skeleton of lab n is the tree with lab n's regions replaced by a line
"/* LAB n TODO: <what> */" and their stubs; other labs' regions keep their
solutions. A lab's tests are ordinary KTAP tests of the suite (kernel self-
tests and their subtests), each worth some points; `grade` builds the tree
for each arch, boots it once with only the lab's self-tests (ktest=...),
and prints every test with its points and "Score: X/Y" (exit status 1
below full marks). A test that did not run scores nothing. The labs'
handouts are docs/labs/NN-name.md. Python standard library only.
"""
import argparse
import concurrent.futures
import fnmatch
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mutate  # noqa: E402  (copy_tree: a tree copy that keeps the built objects)
import run  # noqa: E402  (the boot matrix and the arch list)

ROOT = run.ROOT
SOURCE_DIRS = ("kernel", "arch", "lib", "user", "boot")
SOURCE_EXTS = (".c", ".h", ".S")
BEGIN = re.compile(r"^\s*/\* LAB (\d+) BEGIN: (.+?) \*/\s*$")
STUB = re.compile(r"^\s*/\* LAB (\d+) STUB\s*$")
END = re.compile(r"^\s*LAB (\d+) END \*/\s*$")


@dataclass
class Lab:
    number: int
    name: str
    ktest: str        # the self-tests a grading boot runs (kernel ktest= list; "" as the boot has it)
    points: list      # (KTAP name pattern, points); the pattern may use * and ?
    boot: str = ""    # the boot of tests/run.py to grade on: "" the arch's main one, or e.g. "attack"
    # (the full test run boots it too, with all the lab's tests: its results
    # stand for the reference tree's grade in make test). The kernel graded
    # is built with that boot's make_vars (e.g. VULN=1 for the "vuln" boot).

    @property
    def handout(self):
        return f"docs/labs/{self.number:02d}-{self.name}.md"


LABS = [
    Lab(1, "syscall", "user.syscalls,user.bad_input,user.registers_preserved", [
        ("syscalls.clock_gettime", 3),
        ("syscalls.clock_gettime_bad_clock", 1),
        ("badinput.clock_gettime_bad_pointer*", 2),
        ("badinput.clock_gettime_into_read_only_memory", 2),
        ("badinput.clock_gettime_runs_off_the_heap", 2),
    ]),
    Lab(2, "percpu", "", [
        ("boot", 10),
    ], boot="crash-percpu"),
    Lab(3, "crng", "random", [
        ("random.chacha20_rfc8439_vectors", 6),
        ("random.outputs_vary", 1),
        ("random.fast_key_erasure_and_wiped_batches", 1),
        ("random.per_cpu_prng_seeded_and_distinct", 2),
    ]),
    Lab(4, "prng", "kstack.distribution_and_bounds", [
        ("kstack.distribution_and_bounds", 10),
    ], boot="kstack"),
    Lab(5, "latency", "latency", [
        ("latency.percentiles_of_known_samples", 10),
    ]),
    Lab(6, "attack", "attack.lfsr", [
        ("attack.lfsr.prng", 6),
        ("attack.lfsr.prng-task", 2),
        ("attack.lfsr.pool", 1),
        ("attack.lfsr.siphash", 1),
    ], boot="attack"),
    Lab(7, "ipc", "user.console_server,user.console_stdout", [
        ("ipc.console_write_returns_count", 2),
        ("ipc.console_write_through_server", 3),
        ("ipc.console_write_length_cut_to_message", 3),
        ("ipc.console_server_refuses_quit_from_a_client", 2),
        ("ipc.console_badge_is_the_pid", 2),
        ("ipc.console_service_refuses_die_and_quit_from_a_program", 2),
    ]),
    Lab(8, "exploit", "vuln", [
        ("vuln.stats.wilson_interval", 1),
        ("vuln.stats.median", 1),
        ("vuln.fill_use.off", 3),
        ("vuln.fill_use.prng", 1),
        ("vuln.fill_use.pool", 1),
        ("vuln.fill_use.*.retrying", 1),
        ("vuln.fill_use.prng.predicted", 2),
    ], boot="vuln"),
]


def lab_by_number(n):
    for lab in LABS:
        if lab.number == n:
            return lab
    raise SystemExit(f"lab: no lab {n} (tests/lab.py list)")


def source_files(root):
    for top in SOURCE_DIRS:
        for d, _, names in os.walk(os.path.join(root, top)):
            for n in sorted(names):
                if n.endswith(SOURCE_EXTS):
                    yield os.path.join(d, n)


def regions(path):
    """[(lab, what, first line, stub line, end line)] of one file (0-based
    line numbers of the BEGIN, STUB and END markers); ValueError if the
    markers do not pair up."""
    found, open_ = [], None
    with open(path, errors="replace") as f:
        lines = f.read().split("\n")
    for i, line in enumerate(lines):
        for kind, rx in (("begin", BEGIN), ("stub", STUB), ("end", END)):
            m = rx.match(line)
            if not m:
                continue
            n = int(m.group(1))
            if kind == "begin" and open_ is None:
                open_ = [n, m.group(2), i, None]
            elif kind == "stub" and open_ and open_[0] == n and open_[3] is None:
                open_[3] = i
            elif kind == "end" and open_ and open_[0] == n and open_[3] is not None:
                found.append((n, open_[1], open_[2], open_[3], i))
                open_ = None
            else:
                raise ValueError(f"{path}:{i + 1}: LAB {n} {kind.upper()} out of place")
    if open_:
        raise ValueError(f"{path}:{open_[2] + 1}: LAB {open_[0]} BEGIN without its STUB/END")
    return lines, found


def write_skeleton(root, lab):
    """Replace lab's regions under root by their stubs; how many there were."""
    count = 0
    for path in source_files(root):
        lines, found = regions(path)
        mine = [r for r in found if r[0] == lab.number]
        if not mine:
            continue
        for n, what, begin, stub, end in reversed(mine):
            indent = re.match(r"\s*", lines[begin]).group(0)
            lines[begin:end + 1] = [f"{indent}/* LAB {n} TODO: {what} */"] + lines[stub + 1:end]
            count += 1
        with open(path, "w") as f:
            f.write("\n".join(lines))
    return count


# Copies of lab solutions outside the marked regions: lib/kstack's LFSR113
# and ChaCha20 (labs 3 and 4) and its tests, the known-answer reference
# implementations (lab 3, 4), the conformance kit's GF(2) solver (lab 6) and
# the dispatcher check's test programs (the bump, lab 4). A student's tree
# leaves them out; the Makefile and the host tests skip what is missing.
# The kernel builds lib/kstack's ring and SipHash, so those stay, and
# KSTACK_HEADER_CUTS takes the bump and LFSR113 out of their header.
ANSWER_PATHS = ("lib/kstack/kstack_prng.c", "lib/kstack/kstack_chacha20.c", "lib/kstack/test",
                "lib/kstack/Makefile", "tests/vectors", "tools/kstack-conformance",
                "tests/host/test_kstack_lib.py", "tests/host/test_conformance.py",
                "tests/host/test_vectors.py", "tests/host/test_lab_answers.py",
                "tests/host/test_check_dispatch.py")
KSTACK_HEADER = "lib/kstack/kstack.h"
# (what, regex) pairs cut from KSTACK_HEADER: each must match exactly once.
KSTACK_HEADER_CUTS = (
    ("the stack bump (lab 4)", r"/\*\n \* KSTACK_BUMP\(offset\).*?\} while \(0\)\n"),
    ("LFSR113 (lab 4)", r"/\* ---- prng: LFSR113.*?(?=/\* ---- pool)"),
)


def cut_kstack_header(root):
    path = os.path.join(root, KSTACK_HEADER)
    if not os.path.exists(path):
        return
    text = open(path).read()
    for what, pattern in KSTACK_HEADER_CUTS:
        text, n = re.subn(pattern, f"/* ({what}: left out of a course lab's tree) */\n", text,
                          flags=re.S)
        if n != 1:
            raise SystemExit(f"lab: {KSTACK_HEADER}: {what} matched {n} times, not once")
    with open(path, "w") as f:
        f.write(text)


def remove_answers(root):
    for rel in ANSWER_PATHS:
        path = os.path.join(root, rel)
        if os.path.isdir(path):
            shutil.rmtree(path)
        elif os.path.exists(path):
            os.remove(path)
    cut_kstack_header(root)


def skeleton(lab, dest):
    if os.path.exists(dest):
        raise SystemExit(f"lab: {dest} exists; give a new directory")
    shutil.copytree(ROOT, dest, symlinks=True,
                    ignore=lambda d, names: [n for n in names if n in ("build", ".git")
                                             and os.path.abspath(d) == ROOT])
    remove_answers(dest)
    count = write_skeleton(dest, lab)
    print(f"lab {lab.number} ({lab.name}): {count} regions to write in {dest}; "
          f"read {lab.handout}, then `make grade LAB={lab.number}`")


def grading_boot(lab, arch):
    main = f"{arch}.{mutate.main_fw(arch)}"
    return f"{main}.{lab.boot}" if lab.boot else main


def grading_make_vars(lab, arch):
    """The make variables of the lab's grading boot (tests/run.py's Boot.make_vars),
    e.g. ["VULN=1"]: the kernel that boot runs is built with them."""
    name = grading_boot(lab, arch)
    boots = [b for b in run.boot_matrix() if b.name == name]
    if not boots:
        raise SystemExit(f"lab: lab {lab.number} grades on boot {name}, which tests/run.py lacks")
    return [f"{k}={v}" for k, v in sorted(boots[0].make_vars.items())]


def grade_arch(root, lab, arch, quiet=False):
    """(score, total, lines) for one arch of the tree at root."""
    p = subprocess.run(["make", "-s", "--no-print-directory", f"ARCH={arch}",
                        *grading_make_vars(lab, arch), "image"], cwd=root,
                       capture_output=True, text=True)
    total = sum(pts for _, pts in lab.points)
    if p.returncode != 0:
        err = [l for l in (p.stdout + p.stderr).splitlines() if "error" in l]
        return 0, total, [f"  {arch}: does not build: {err[0] if err else p.stderr[-300:]}"]
    p = subprocess.run([sys.executable, os.path.join(root, "tests", "run.py"), "--no-host",
                        "--jobs", "1", "--boot", grading_boot(lab, arch), "--timeout", "240",
                        *(["--ktest", lab.ktest] if lab.ktest else [])],
                       cwd=root, capture_output=True, text=True)
    outcomes = {}
    for line in p.stdout.splitlines():
        m = re.match(r"^(ok|not ok) \d+ - (\S+)", line)
        if m:
            outcomes[m.group(2)] = m.group(1) == "ok"
    return score_arch(lab, arch, outcomes)


def score_arch(lab, arch, outcomes):
    """(score, total, lines) from test outcomes {full name: ok} of a run
    that included the lab's grading boot."""
    prefix = grading_boot(lab, arch) + "."
    results = {n[len(prefix):]: ok for n, ok in outcomes.items() if n.startswith(prefix)}
    total = sum(pts for _, pts in lab.points)
    score, out = 0, []
    for pattern, pts in lab.points:
        names = [n for n in results if fnmatch.fnmatchcase(n, pattern)]
        ok = bool(names) and all(results[n] for n in names)
        why = "" if names else "  (did not run)"
        score += pts if ok else 0
        out.append(f"  {'ok    ' if ok else 'FAILED'} {arch:8} {pattern:48} "
                   f"{pts if ok else 0}/{pts}{why}")
    return score, total, out


def grade(lab, arches, root=ROOT):
    score = total = 0
    print(f"lab {lab.number} ({lab.name}), {lab.handout}")
    for arch in arches:
        s, t, lines = grade_arch(root, lab, arch)
        print("\n".join(lines), flush=True)
        score, total = score + s, total + t
    print(f"Score: {score}/{total}")
    return 0 if score == total else 1


def graded_copy(lab, arch, as_skeleton):
    """Grade a copy of this tree (built objects kept, so only what the
    skeleton changes recompiles; its boot logs stay out of build/<arch>/test):
    (regions replaced, score, total, lines)."""
    work = os.path.join(ROOT, "build", "labs")
    os.makedirs(work, exist_ok=True)
    dest = tempfile.mkdtemp(prefix=f"lab{lab.number}.{arch}.", dir=work)
    try:
        shutil.rmtree(dest)
        mutate.copy_tree(dest, arch)
        n = write_skeleton(dest, lab) if as_skeleton else 0
        return (n, *grade_arch(dest, lab, arch))
    finally:
        shutil.rmtree(dest, ignore_errors=True)


def check_one(lab, arch, outcomes=None):
    """Two verdicts (ok, name, diagnostics): the reference scores full marks
    (from `outcomes` of a full test run if given: its boots ran every lab's
    tests already; else from a graded copy), the skeleton builds and fails every graded test."""
    s, t, lines = score_arch(lab, arch, outcomes) if outcomes is not None \
        else graded_copy(lab, arch, False)[1:]
    n, s2, t2, lines2 = graded_copy(lab, arch, True)
    builds = not any("does not build" in l for l in lines2)
    passing = [l for l in lines2 if l.strip().startswith("ok")]
    return [(s == t, f"labs.{lab.number}.{arch}.reference_full_marks", lines),
            (n > 0 and builds and s2 == 0,
             f"labs.{lab.number}.{arch}.skeleton_builds_and_fails_every_graded_test",
             [f"{n} regions replaced; score {s2}/{t2}"] +
             [f"passes on the stub: {l.strip()}" for l in passing] + lines2)]


def check(labs, jobs=2, outcomes=None):
    """check_one for every lab and arch, `jobs` at a time (the trees must be built)."""
    pairs = [(lab, arch) for lab in labs for arch in run.ARCHES]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return [v for vs in pool.map(lambda p: check_one(*p, outcomes), pairs) for v in vs]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("skeleton")
    p.add_argument("lab", type=int)
    p.add_argument("dest")
    p = sub.add_parser("grade")
    p.add_argument("lab", type=int)
    p.add_argument("--arch", choices=run.ARCHES, action="append")
    p = sub.add_parser("check")
    p.add_argument("--lab", type=int, action="append")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    sub.add_parser("list")
    args = ap.parse_args()
    if args.cmd == "list":
        for lab in LABS:
            print(f"{lab.number:2} {lab.name:10} {lab.handout}")
        return 0
    if args.cmd == "skeleton":
        skeleton(lab_by_number(args.lab), os.path.abspath(args.dest))
        return 0
    if args.cmd == "grade":
        return grade(lab_by_number(args.lab), args.arch or run.ARCHES)
    labs = [lab_by_number(n) for n in args.lab] if args.lab else LABS
    failed = 0
    for ok, name, diag in check(labs, args.jobs):
        print(f"{'ok' if ok else 'not ok'} - {name}")
        for d in ([] if ok else diag):
            print(f"    # {d}")
        failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
