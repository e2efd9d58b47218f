# SPDX-License-Identifier: MIT
"""tests/grading.py - the course labs' engine, behind tests/lab.py (its
docstring describes the labs, their marked regions and the grade) and the
labs' part of tests/run.py: the labs (LABS), their regions, the skeletons,
grading a tree (its host tests, then its grading boot through tests/run.py
as a subprocess), the check that the reference scores full marks and every
skeleton none, and the wrong-solution corpus (tests/labs/wrong).
Python standard library only.
"""
import concurrent.futures
import fnmatch
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

import boots
from harness import ARCHES, RESULT_LINE, ROOT, console_lines, copy_tree, ktap_results

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
    points: list      # (KTAP name pattern, points); the pattern may use * and ?.
    # "host.<prog>.<case>": a case of the host test build/host/test_<prog>
    # (tests/host/test_<prog>.c, compiled with the host cc against the
    # student's files): graded once, before any boot, as it takes seconds.
    boot: str = ""    # the boot of tests/run.py to grade on: "" the arch's main one, or e.g. "attack"
    # Seconds a wrong solution's boot may take: some hang, and there is no
    # need to wait 240 for those (the right solution's boot takes 2 to 4 s;
    # a hang is a failed grade whatever the timeout).
    wrong_timeout: int = 30
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
        ("syscalls.clock_gettime_bad_clock_high_bits", 1),
        ("syscalls.clock_gettime_values", 2),
        ("badinput.clock_gettime_bad_pointer*", 2),
        ("badinput.clock_gettime_into_read_only_memory", 2),
        ("badinput.clock_gettime_runs_off_the_heap", 2),
        # the handler itself on the host (tests/host/test_sys_clock.c): the
        # clock past 2^32 ns, every other clock id, the buffer left alone
        # after a refusal, and no range a checked copy refuses handed to
        # the raw copy (the boots' bad pointers all land in unmapped
        # memory, where an unchecked copy fails safely too)
        ("host.sys_clock.reads_the_clock", 1),
        ("host.sys_clock.time_past_2_to_the_32_ns", 1),
        ("host.sys_clock.refuses_every_other_clock", 1),
        ("host.sys_clock.refuses_before_writing", 1),
        ("host.sys_clock.copies_through_the_checked_copy", 2),
        ("host.sys_clock.refuses_what_a_checked_copy_refuses", 2),
    ]),
    Lab(2, "percpu", "", [
        ("boot", 10),
    ], boot="crash-percpu", wrong_timeout=30),
    Lab(3, "crng", "random", [
        ("host.chacha20.rfc_2_3_2_block_function", 2),
        ("host.chacha20.rfc_a_1_block_vectors", 2),
        ("host.chacha20.rfc_a_2_encryption_vectors", 1),
        ("random.chacha20_rfc8439_vectors", 6),
        ("random.outputs_vary", 1),
        ("random.fast_key_erasure_and_wiped_batches", 1),
        ("random.per_cpu_prng_seeded_and_distinct", 2),
    ]),
    # (the .kstack boot of make test runs every strategy: its
    # kstack.distribution_and_bounds stands for the _prng one here)
    Lab(4, "prng", "kstack.distribution_and_bounds_prng,kstack.migration_attack_prng", [
        ("host.lfsr113.test_plan_seed_12345", 2),
        ("host.lfsr113.known_answers_short", 2),
        ("host.lfsr113.known_answers_long", 2),
        ("kstack.distribution_and_bounds*", 10),
        ("kstack.migration_attack.prng", 4),
    ], boot="kstack", wrong_timeout=180),
    Lab(5, "latency", "latency", [
        ("host.hist.percentiles_known_answers", 4),
        ("host.hist.percentiles_adversarial", 2),
        ("host.hist.percentiles_random", 2),
        ("host.hist.overflow", 1),
        ("latency.percentiles_of_known_samples", 10),
    ]),
    Lab(6, "attack", "attack.lfsr", [
        ("host.lfsr113_solve.recovers_state_and_predicts", 2),
        ("host.lfsr113_solve.missing_draw_is_a_contradiction", 1),
        ("host.lfsr113_solve.random_offsets_are_a_contradiction", 1),
        ("attack.lfsr.prng", 6),
        ("attack.lfsr.prng-task", 2),
        ("attack.lfsr.pool", 1),
        ("attack.lfsr.siphash", 1),
    ], boot="attack"),
    Lab(7, "ipc", "user.console_server,user.console_stdout", [
        ("ipc.console_write_returns_count", 2),
        ("ipc.console_write_through_server", 3),
        ("ipc.console_write_length_cut_to_message", 3),
        ("ipc.console_replies_carry_the_label", 1),
        ("ipc.console_server_refuses_quit_from_a_client", 2),
        ("ipc.console_badge_is_the_pid", 2),
        ("ipc.console_service_refuses_die_and_quit_from_a_program", 2),
        ("ipc.console_service_survives_an_unknown_label", 1),
        # answer() itself on the host (tests/host/test_console_server.c):
        # input waiting, counters set, badges 0 and 7, one request at a time
        ("host.console_server.write_replies_the_count_and_stays_in_the_message", 1),
        ("host.console_server.read_replies_what_was_received", 2),
        ("host.console_server.read_of_100_bytes_stays_in_the_message", 2),
        ("host.console_server.stats_in_the_protocol_order", 1),
        ("host.console_server.quit_stops_cleanly_for_init_only", 1),
        ("host.console_server.die_stops_at_once_for_init_only", 1),
        ("host.console_server.unknown_label_answered_and_served_on", 1),
    ]),
    Lab(8, "exploit", "vuln", [
        ("vuln.stats.wilson_interval", 1),
        ("vuln.stats.median", 1),
        ("vuln.fill_use.off", 3),
        ("vuln.fill_use.prng", 1),
        ("vuln.fill_use.pool", 1),
        ("vuln.fill_use.*.retrying", 1),
        ("vuln.fill_use.prng.predicted", 2),
        # part 2: the spray, which the offset does not stop (kstack.erase does)
        ("vuln.spray.off", 1),
        ("vuln.spray.prng", 1),
        ("vuln.spray.pool", 1),
    ], boot="vuln"),
]


def lab_by_number(n):
    """The Lab numbered n (exits if there is none)."""
    for lab in LABS:
        if lab.number == n:
            return lab
    raise SystemExit(f"lab: no lab {n} (tests/lab.py list)")


def source_files(root):
    """The C, header and assembly files under root's source folders."""
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
# the dispatcher check's test programs (the bump, lab 4), make verify's
# harnesses and proofs (they use LFSR113 and the bump's header), and the wrong
# solutions of tests/labs/wrong (each quotes the reference). A student's tree
# leaves them out; the Makefile and the host tests skip what is missing.
# The kernel builds lib/kstack's ring and SipHash, so those stay, and
# KSTACK_HEADER_CUTS takes the bump and LFSR113 out of their header.
ANSWER_PATHS = ("lib/kstack/kstack_prng.c", "lib/kstack/kstack_chacha20.c", "lib/kstack/test",
                "lib/kstack/Makefile", "tests/vectors", "tools/kstack-conformance",
                "tests/host/test_kstack_lib.py", "tests/host/test_conformance.py",
                "tests/host/test_vectors.py", "tests/host/test_lab_answers.py",
                "tests/host/test_check_dispatch.py", "tests/labs", "lib/kstack/verify",
                "tests/verify", "tests/host/test_verify.py")
KSTACK_HEADER = "lib/kstack/kstack.h"
# (what, regex) pairs cut from KSTACK_HEADER: each must match exactly once.
KSTACK_HEADER_CUTS = (
    ("the stack bump (lab 4)", r"/\*\n \* KSTACK_BUMP\(offset\).*?: \"memory\"\)\n"),
    ("LFSR113 (lab 4)", r"/\* ---- prng: LFSR113.*?(?=/\* ---- pool)"),
)


def cut_kstack_header(root):
    """Cut KSTACK_HEADER_CUTS out of root's lib/kstack/kstack.h."""
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
    """Delete ANSWER_PATHS from the tree at root and cut the header."""
    for rel in ANSWER_PATHS:
        path = os.path.join(root, rel)
        if os.path.isdir(path):
            shutil.rmtree(path)
        elif os.path.exists(path):
            os.remove(path)
    cut_kstack_header(root)


def skeleton(lab, dest):
    """Write lab's skeleton tree to dest (a new folder), a git repository."""
    if os.path.exists(dest):
        raise SystemExit(f"lab: {dest} exists; give a new directory")
    shutil.copytree(ROOT, dest, symlinks=True,
                    ignore=lambda d, names: [n for n in names if n in ("build", ".git")
                                             and os.path.abspath(d) == ROOT])
    remove_answers(dest)
    # newlib takes minutes to build: the new tree shares this one's cache
    # (NEWLIB_CACHE, else build/newlib; lib/user/newlib.mk) rather than rebuild it.
    cache = os.environ.get("NEWLIB_CACHE") or os.path.join(ROOT, "build", "newlib")
    cache = os.path.realpath(os.path.join(ROOT, cache))
    if os.path.isdir(cache):
        os.makedirs(os.path.join(dest, "build"), exist_ok=True)
        os.symlink(cache, os.path.join(dest, "build", "newlib"))
    count = write_skeleton(dest, lab)
    # A git repository holding the skeleton as its first commit, so that
    # `git diff` shows the student's work (build/ stays out of it).
    ignore = os.path.join(dest, ".gitignore")
    if "/build/" not in (open(ignore).read().split() if os.path.exists(ignore) else []):
        with open(ignore, "a") as f:
            f.write("/build/\n")
    git = ["git", "-c", "user.name=stackshift lab", "-c", "user.email=lab@localhost"]
    try:
        for cmd in (["init", "-q"], ["add", "-A"],
                    ["commit", "-q", "-m", f"lab {lab.number} ({lab.name}): the skeleton"]):
            subprocess.run(git + cmd, cwd=dest, check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"lab: no git repository in {dest} ({e})")
    print(f"lab {lab.number} ({lab.name}): {count} regions to write in {dest}; "
          f"read {lab.handout}, then `make grade LAB={lab.number}` "
          f"(`git diff` shows your changes)")


def grading_boot(lab, arch):
    """The name of the boot that grades lab on arch."""
    main = f"{arch}.{boots.main_fw(arch)}"
    return f"{main}.{lab.boot}" if lab.boot else main


def grading_builds(lab, arch):
    """The build folders a graded copy needs: build/<arch> and the one of
    the grading boot's kernel (build/<arch>-vuln for lab 8, say)."""
    name = grading_boot(lab, arch)
    found = [b for b in boots.boot_matrix() if b.name == name]
    return [arch] + [boots.build_dir(b) for b in found]


def grading_make_vars(lab, arch):
    """The make variables of the lab's grading boot (tests/boots.py's Boot.make_vars),
    e.g. ["VULN=1"]: the kernel that boot runs is built with them."""
    name = grading_boot(lab, arch)
    found = [b for b in boots.boot_matrix() if b.name == name]
    if not found:
        raise SystemExit(f"lab: lab {lab.number} grades on boot {name}, which tests/run.py lacks")
    return [f"{k}={v}" for k, v in sorted(found[0].make_vars.items())]



def host_programs(lab):
    """The host test programs whose cases the lab grades ("host.<prog>.<case>"
    patterns: build/host/test_<prog>, from tests/host/test_<prog>.c)."""
    return sorted({pat.split(".")[1] for pat, _ in lab.points if pat.startswith("host.")})


def host_results(root, lab):
    """{name: (ok, diagnostics)} of the lab's host test programs, built with
    the host cc from the tree at root: seconds, no boot."""
    out = {}
    for prog in host_programs(lab):
        target = f"build/host/test_{prog}"
        p = subprocess.run(["make", "-s", "--no-print-directory", target], cwd=root,
                           capture_output=True, text=True)
        if p.returncode != 0:
            err = [l for l in (p.stdout + p.stderr).splitlines() if "error" in l]
            out[f"host.{prog}.build"] = (False, [f"{target} does not build"] + err[:5])
            continue
        try:
            p = subprocess.run([os.path.join(root, target)], cwd=root, capture_output=True,
                               text=True, timeout=120)
        except subprocess.TimeoutExpired:
            out[f"host.{prog}.build"] = (False, [f"{target} timed out"])
            continue
        res = ktap_results(p.stdout, "host.")
        if p.returncode != 0 and all(ok for ok, _ in res.values()):
            res[f"host.{prog}.exit"] = (False, [f"exit status {p.returncode}"]
                                        + (p.stdout + p.stderr).splitlines()[-10:])
        out.update(res)
    return out


def boot_results(root, lab, arch, timeout=240):
    """{name: (ok, diagnostics)} of the lab's grading boot on one arch
    (built first), and the boot's log path; a build that fails gives one
    failing "<boot>.build"."""
    boot = grading_boot(lab, arch)
    log = os.path.join(root, "build", arch, "test", f"{boot}.log")
    # CCACHE=: a graded copy's changed files are always new to ccache, whose
    # misses cost about a second more per kernel (the Makefile's CCACHE)
    p = subprocess.run(["make", "-s", "--no-print-directory", f"ARCH={arch}", "CCACHE=",
                        *grading_make_vars(lab, arch), "image"], cwd=root,
                       capture_output=True, text=True)
    if p.returncode != 0:
        err = [l for l in (p.stdout + p.stderr).splitlines() if "error" in l]
        return {f"{boot}.build": (False, [f"{arch}: does not build: "
                                          f"{err[0] if err else p.stderr[-300:]}"])}, log
    p = subprocess.run([sys.executable, os.path.join(root, "tests", "run.py"), "--no-host",
                        "--jobs", "1", "--boot", boot, "--timeout", str(timeout),
                        *(["--ktest", lab.ktest] if lab.ktest else [])],
                       cwd=root, capture_output=True, text=True)
    return ktap_results(p.stdout, after=True), log


def score_parts(lab, results, arch, prefix, host):
    """(score, total, lines, failed) of the lab's host patterns (host) or boot
    patterns (not host) against results {name without prefix: (ok, diagnostics)}."""
    score = total = 0
    out, failed = [], False
    for pattern, pts in lab.points:
        if pattern.startswith("host.") != host:
            continue
        total += pts
        names = [n for n in results if fnmatch.fnmatchcase(n, pattern)]
        ok = bool(names) and all(results[n][0] for n in names)
        why = "" if names else "  (did not run)"
        score += pts if ok else 0
        failed |= not ok
        out.append(f"  {'ok    ' if ok else 'FAILED'} {arch:8} {pattern:48} "
                   f"{pts if ok else 0}/{pts}{why}")
        for n in [] if ok else names:
            if not results[n][0]:
                out.append(f"           not ok {prefix}{n}")
                out += [f"               {d}" for d in results[n][1][-12:]]
    return score, total, out, failed


def why_not_run(lab, res, boot_diag, log):
    """Why the lab's tests that did not run (no result line in `res`) did
    not: the boot's panic with its first lines, its timeout with the last
    lines before it, or a line that names the test but is no KTAP result
    (stray bytes before "ok", say); [] if every test ran."""
    missing = [pat for pat, _ in lab.points if not pat.startswith("host.")
               and not any(fnmatch.fnmatchcase(n, pat) for n in res)]
    if not missing:
        return []
    try:
        with open(log, "rb") as f:
            lines = console_lines(f.read().decode("utf-8", "replace").replace("\r", ""))
    except OSError:
        return [f"           {len(missing)} tests did not run and there is no log ({log})"]
    panic = next((i for i, l in enumerate(lines) if "KERNEL PANIC" in l), None)
    if panic is not None:
        return ["           the kernel panicked before they ran; the panic's first lines:"] + \
            [f"               {l}" for l in lines[panic:panic + 8]]
    timeout = next((d.lstrip("# ") for d in boot_diag if d.lstrip("# ").startswith("timed out")),
                   None)
    if timeout:
        tail = [l for l in lines if l.strip()][-8:]
        return [f"           the boot {timeout} before they ran; its last lines:"] + \
            [f"               {l}" for l in tail]
    out = []
    for pat in missing:
        name = "".join(r"\S*" if c == "*" else r"\S" if c == "?" else re.escape(c) for c in pat)
        rx = re.compile(r"ok \d+ - " + name + r"(\s|$)")
        stray = [l for l in lines if rx.search(l) and not RESULT_LINE.match(l)]
        if stray:
            out.append(f"           {pat}: a line names it but is not a KTAP result "
                       f"(stray bytes before it?): {stray[-1]!r}")
    return out or ["           the boot ended without running them (see the log)"]


def grade_tree(root, lab, arches, stop_early=False, progress=False):
    """(score, total, lines) of the tree at root: the lab's host tests first
    (cheap), then its grading boot on each arch. stop_early: stop at the
    first part with a failure (the rest scores nothing; the wrong-solution
    corpus only needs to know the grade is below full)."""
    score = total = 0
    lines = []
    full = sum(p for pat, p in lab.points if pat.startswith("host.")) + \
        len(arches) * sum(p for pat, p in lab.points if not pat.startswith("host."))
    if host_programs(lab):
        if progress:
            print(f"  building and running the host tests ({', '.join(host_programs(lab))})",
                  flush=True)
        s, t, out, failed = score_parts(lab, host_results(root, lab), "host", "", True)
        score, total, lines = score + s, total + t, lines + out
        if progress:
            print("\n".join(out), flush=True)
        if failed and stop_early:
            return score, full, lines + ["  (stopped at the first failing part)"]
    for arch in arches:
        if progress:
            print(f"  {arch}: building the kernel (the first build takes about a minute) "
                  f"and booting {grading_boot(lab, arch)}", flush=True)
        results, log = boot_results(root, lab, arch, lab.wrong_timeout if stop_early else 240)
        prefix = grading_boot(lab, arch) + "."
        res = {n[len(prefix):]: v for n, v in results.items() if n.startswith(prefix)}
        s, t, out, failed = score_parts(lab, res, arch, prefix, False)
        if failed:
            build = results.get(prefix + "build")
            out += [f"           {build[1][0]}"] if build else \
                why_not_run(lab, res, results.get(prefix + "boot", (True, []))[1], log)
            out.append(f"           the boot's log: {log}")
        score, total, lines = score + s, total + t, lines + out
        if progress:
            print("\n".join(out), flush=True)
        if failed and stop_early:
            return score, full, lines + ["  (stopped at the first failing part)"]
    return score, full, lines


def grade_arch(root, lab, arch):
    """(score, total, lines) for one arch of the tree at root, with the host tests."""
    return grade_tree(root, lab, [arch])


def score_arch(lab, arch, outcomes):
    """(score, total, lines) from test outcomes {full name: ok} of a run
    that included the lab's grading boot and the host tests."""
    prefix = grading_boot(lab, arch) + "."
    boot = {n[len(prefix):]: (ok, []) for n, ok in outcomes.items() if n.startswith(prefix)}
    host = {n: (ok, []) for n, ok in outcomes.items() if n.startswith("host.")}
    s1, t1, l1, _ = score_parts(lab, host, "host", "", True)
    s2, t2, l2, _ = score_parts(lab, boot, arch, prefix, False)
    return s1 + s2, t1 + t2, l1 + l2


def grade(lab, arches, root=ROOT):
    """make grade: grade the tree at root, print the score; exit status."""
    print(f"lab {lab.number} ({lab.name}), {lab.handout}", flush=True)
    score, total, _ = grade_tree(root, lab, arches, progress=True)
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
        copy_tree(dest, arch, builds=grading_builds(lab, arch))
        n = write_skeleton(dest, lab) if as_skeleton else 0
        return (n, *grade_arch(dest, lab, arch))
    finally:
        shutil.rmtree(dest, ignore_errors=True)


def check_reference(lab, arch, outcomes=None):
    """The verdict (ok, name, diagnostics) that the reference scores full
    marks: from `outcomes` of a full test run if given (its boots ran every
    lab's tests already), else from a graded copy."""
    s, t, lines = score_arch(lab, arch, outcomes) if outcomes is not None \
        else graded_copy(lab, arch, False)[1:]
    return (s == t, f"labs.{lab.number}.{arch}.reference_full_marks", lines)


def check_skeleton(lab, arch):
    """The verdict (ok, name, diagnostics) that the skeleton builds and fails every graded test."""
    n, s2, t2, lines2 = graded_copy(lab, arch, True)
    builds = not any("does not build" in l for l in lines2)
    passing = [l for l in lines2 if l.strip().startswith("ok")]
    return (n > 0 and builds and s2 == 0,
            f"labs.{lab.number}.{arch}.skeleton_builds_and_fails_every_graded_test",
            [f"{n} regions replaced; score {s2}/{t2}"] +
            [f"passes on the stub: {l.strip()}" for l in passing] + lines2)


def check(labs, jobs=2, outcomes=None):
    """Both verdicts for every lab and arch, `jobs` at a time (the trees must be built)."""
    pairs = [(lab, arch) for lab in labs for arch in ARCHES]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return [v for vs in pool.map(lambda p: (check_reference(*p, outcomes),
                                                check_skeleton(*p)), pairs) for v in vs]


# ---- the wrong-solution corpus ---------------------------------------------
#
# tests/labs/wrong/<lab>/<name>.wrong: one plausible student mistake each,
# a change to the reference solution inside the lab's regions. The check
# applies each to a copy of the tree and grades it (stopping at the first
# failing part: host tests first, then the boot): the grade must be below
# full marks, or the grader would pass a wrong solution. The format, like
# tests/mutants/*.mut ('#' starts a comment line):
#   mistake: what the student got wrong, in one line   (required)
#   caught-by: host.hist.percentiles_known_answers     (the graded tests, as in
#                                                       Lab.points, that must fail)
#   arch: x86_64 riscv64                               (default arm64)
#   file: lib/hist.c                                   (required before a change)
#   ---
#   the exact text to replace (inside one of the lab's regions, once in the file)
#   +++
#   its replacement
# `file:` may come again before another --- / +++ pair. Every lab region
# is arch-neutral code, so a mistake is caught the same way on any arch;
# arm64 is the default because its grading boots are the quickest (U-Boot
# starts at once; x86_64's firmware takes about 4 s a boot, riscv64's
# U-Boot counts down 2 s).
WRONG_DIR = os.path.join(ROOT, "tests", "labs", "wrong")


@dataclass
class Wrong:
    lab: int
    name: str
    mistake: str = ""
    arches: tuple = ("arm64",)
    hunks: list = None  # [(file, old, new)]
    caught_by: tuple = ()  # Lab.points patterns that must be among the failing ones


def parse_wrong(path):
    """A Wrong from a .wrong file; ValueError on a malformed one."""
    w = Wrong(int(os.path.basename(os.path.dirname(path))),
              os.path.basename(path)[:-len(".wrong")], hunks=[])
    file, old, new = None, None, None
    lines = open(path).read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()

    def flush():
        if old is not None:
            if new is None:
                raise ValueError(f"{path}: a '---' block without its '+++'")
            w.hunks.append((file, "\n".join(old), "\n".join(new)))

    for n, line in enumerate(lines, 1):
        if line == "---":
            if file is None:
                raise ValueError(f"{path}:{n}: '---' before any 'file:'")
            flush()
            old, new = [], None
        elif line == "+++" and old is not None and new is None:
            new = []
        elif new is not None and not line.startswith("file: "):
            new.append(line)
        elif old is not None and new is None:
            old.append(line)
        elif line.startswith("#") or not line.strip():
            continue
        else:
            key, sep, value = line.partition(":")
            key, value = key.strip(), value.strip()
            if key == "file":
                flush()
                file, old, new = value, None, None
            elif key == "mistake":
                w.mistake = value
            elif key == "arch":
                w.arches = tuple(value.split())
            elif key == "caught-by":
                w.caught_by = tuple(value.replace(",", " ").split())
            else:
                raise ValueError(f"{path}:{n}: expected mistake:, caught-by:, arch: or file:")
    flush()
    if not w.mistake or not w.hunks:
        raise ValueError(f"{path}: needs a 'mistake:' line and at least one change")
    return w


def load_wrong(labs):
    """Every wrong solution of tests/labs/wrong/<n>/ for the given labs."""
    out = []
    for lab in labs:
        d = os.path.join(WRONG_DIR, str(lab.number))
        for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            if name.endswith(".wrong"):
                out.append(parse_wrong(os.path.join(d, name)))
    return out


def wrong_problems(w, root=ROOT):
    """Why the wrong solution cannot be applied to the tree at root: each
    change's text must occur once in its file, inside one of the lab's
    regions (between BEGIN and STUB)."""
    out = [f"unknown arch {a}" for a in w.arches if a not in ARCHES]
    patterns = [pat for pat, _ in lab_by_number(w.lab).points]
    out += [f"caught-by: {c} is not one of lab {w.lab}'s graded tests"
            for c in w.caught_by if c not in patterns]
    for i, (file, old, _) in enumerate(w.hunks, 1):
        path = os.path.join(root, file)
        if not os.path.isfile(path):
            out.append(f"change {i}: no file {file}")
            continue
        text = open(path).read()
        if text.count(old) != 1:
            out.append(f"change {i}: its text occurs {text.count(old)} times in {file}, not once")
            continue
        at = text[:text.index(old)].count("\n")
        last = at + old.count("\n")
        lines, found = regions(path)
        if not any(n == w.lab and begin < at and last < stub for n, _, begin, stub, _ in found):
            out.append(f"change {i}: not inside a LAB {w.lab} region of {file}")
    return out


def apply_wrong(w, root):
    """Apply w to the tree at root; {path: original text} to restore it."""
    saved = {}
    for file, old, new in w.hunks:
        path = os.path.join(root, file)
        text = open(path).read()
        saved.setdefault(path, text)
        if text.count(old) != 1:
            raise RuntimeError(f"{w.name}: its text is not once in {file}")
        with open(path, "w") as f:
            f.write(text.replace(old, new))
    return saved


def check_wrong_lab(lab, arch, wrongs):
    """Verdicts (ok, name, diagnostics) for the wrong solutions of one lab
    on one arch, graded one after another in one copy of the tree."""
    work = os.path.join(ROOT, "build", "labs")
    os.makedirs(work, exist_ok=True)
    dest = tempfile.mkdtemp(prefix=f"wrong{lab.number}.{arch}.", dir=work)
    out = []
    try:
        shutil.rmtree(dest)
        copy_tree(dest, arch, builds=grading_builds(lab, arch))
        for w in wrongs:
            name = f"labs.{lab.number}.wrong.{w.name}.scores_below_full"
            if len(w.arches) > 1:
                name = f"labs.{lab.number}.wrong.{w.name}.{arch}.scores_below_full"
            why = wrong_problems(w, dest)
            if why:
                out.append((False, name, [w.mistake] + why))
                continue
            started = time.time()
            saved = apply_wrong(w, dest)
            try:
                score, total, lines = grade_tree(dest, lab, [arch], stop_early=True)
            finally:
                for path, text in saved.items():
                    with open(path, "w") as f:
                        f.write(text)
            # what caught it: the failing parts (the grade stops at the first)
            caught = [l.split()[2] for l in lines if l.strip().startswith("FAILED")]
            missed = [c for c in w.caught_by if c not in caught]
            why = ([] if score < total else ["the grader gives a wrong solution full marks"]) + \
                ([f"caught-by names {', '.join(missed)}, which passed"] if missed else [])
            out.append((score < total and not missed, name,
                        [f"{w.mistake}: scored {score}/{total} in {time.time() - started:.0f} s"
                         + (f"; failed {', '.join(caught)}" if caught else "")]
                        + (why + lines if why else [])))
    finally:
        shutil.rmtree(dest, ignore_errors=True)
    return out


def wrong_groups(labs, names=None):
    """{(lab number, arch): [Wrong]}: the wrong solutions graded in one copy
    of the tree, biggest group first (names: only these)."""
    groups = {}
    for w in load_wrong(labs):
        if names and w.name not in names:
            continue
        for arch in w.arches:
            groups.setdefault((w.lab, arch), []).append(w)
    return dict(sorted(groups.items(), key=lambda g: -len(g[1])))


def check_wrong(labs, jobs=2, names=None):
    """Every wrong solution of the labs scores below full marks; one copy of
    the tree per lab and arch, `jobs` of them at a time."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [pool.submit(check_wrong_lab, lab_by_number(n), arch, ws)
                   for (n, arch), ws in wrong_groups(labs, names).items()]
        return [v for f in futures for v in f.result()]
