#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/host/test_lab.py - host tests of the course labs (tests/lab.py;
its engine, tests/grading.py).

The markers of a lab region pair up or are refused; a skeleton gets the
stub, keeps the indentation and leaves other labs alone; every lab of the
table has its handout and at least one region in this tree. One KTAP line
per case ("ok N - lab.<case>"); exit status 1 when any case failed. (That
each skeleton builds and scores below full marks, and this tree full
marks, is checked by tests/run.py's labs.* results: those need boots.)
"""
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import grading as lab  # noqa: E402  (the labs' engine behind tests/lab.py)
import harness  # noqa: E402  (KTAP parsing)

SOURCE = """int f(void)
{
    /* LAB 7 BEGIN: return the answer */
    return 42;
    /* LAB 7 STUB
    return 0;
    LAB 7 END */
}
int g(void)
{
    /* LAB 8 BEGIN: another lab's region */
    return 8;
    /* LAB 8 STUB
    LAB 8 END */
}
"""
cases = []


def case(name):
    def wrap(fn):
        cases.append((name, fn))
        return fn
    return wrap


def tree(text):
    d = tempfile.mkdtemp()
    os.makedirs(os.path.join(d, "kernel"))
    with open(os.path.join(d, "kernel", "f.c"), "w") as f:
        f.write(text)
    return d


@case("skeleton_puts_the_stub_in")
def _():
    d = tree(SOURCE)
    n = lab.write_skeleton(d, lab.Lab(7, "x", "", []))
    out = open(os.path.join(d, "kernel", "f.c")).read()
    return n == 1 and "    /* LAB 7 TODO: return the answer */\n    return 0;\n}" in out \
        and "return 42" not in out and "LAB 7 END" not in out


@case("skeleton_leaves_other_labs_alone")
def _():
    d = tree(SOURCE)
    lab.write_skeleton(d, lab.Lab(7, "x", "", []))
    out = open(os.path.join(d, "kernel", "f.c")).read()
    return "return 8;" in out and "LAB 8 BEGIN" in out


@case("empty_stub_deletes_the_solution")
def _():
    d = tree(SOURCE)
    lab.write_skeleton(d, lab.Lab(8, "x", "", []))
    out = open(os.path.join(d, "kernel", "f.c")).read()
    return "return 8;" not in out and "/* LAB 8 TODO: another lab's region */\n}" in out


@case("unpaired_markers_refused")
def _():
    refused = 0
    for bad in (SOURCE.replace("    /* LAB 7 STUB\n", ""),             # no STUB
                SOURCE.replace("    LAB 7 END */\n", ""),              # no END
                SOURCE.replace("LAB 7 END", "LAB 9 END")):             # wrong number
        try:
            lab.regions(os.path.join(tree(bad), "kernel", "f.c"))
        except ValueError:
            refused += 1
    return refused == 3


@case("every_lab_has_a_handout_and_regions")
def _():
    counts = {}
    for path in lab.source_files(ROOT):
        for r in lab.regions(path)[1]:
            counts[r[0]] = counts.get(r[0], 0) + 1
    return all(os.path.isfile(os.path.join(ROOT, l.handout)) and counts.get(l.number)
               and l.points for l in lab.LABS) and set(counts) <= {l.number for l in lab.LABS}


@case("ktap_a_later_ok_does_not_undo_a_failure")
def _():
    text = ("not ok 1 - x86_64.uefi.a.b\n    # a.c:3: got 1, expected 2\nok 2 - x86_64.uefi.c\n"
            "ok 3 - x86_64.uefi.a.b\n")
    r = harness.ktap_results(text, after=True)  # tests/run.py's order: diagnostics after
    return r["x86_64.uefi.a.b"] == (False, ["# a.c:3: got 1, expected 2"]) \
        and r["x86_64.uefi.c"][0] and "ktap_plan" not in r


@case("ktap_plan_counts_nested_results")
def _():
    good = "KTAP version 1\n1..2\n    1..2\n    ok 1 - s.a\n    ok 2 - s.b\nok 1 - s\nok 2 - t\n"
    short = "1..3\n    1..2\n    ok 1 - s.a\nok 1 - s\nok 2 - t\n"
    bad = harness.ktap_results(short, "host.")
    return "host.ktap_plan" not in harness.ktap_results(good, "host.") and \
        not bad["host.ktap_plan"][0] and len(bad["host.ktap_plan"][1]) == 2


@case("wrong_solutions_parse_and_apply")
def _():
    if not os.path.isdir(lab.WRONG_DIR):
        return True  # a student's tree (tests/lab.py leaves the corpus out)
    wrongs = lab.load_wrong(lab.LABS)
    per_lab = {l.number: sum(w.lab == l.number for w in wrongs) for l in lab.LABS}
    return all(n >= 8 for n in per_lab.values()) and \
        not any(lab.wrong_problems(w) for w in wrongs)


@case("wrong_solution_outside_a_region_refused")
def _():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "1", "x.wrong")
        os.makedirs(os.path.dirname(path))
        with open(path, "w") as f:
            f.write("mistake: edits outside the lab\nfile: kernel/syscall/syscall.c\n---\n"
                    "#include \"kernel/kstack_offset/draw.h\"\n+++\n\n")
        return any("not inside" in p for p in lab.wrong_problems(lab.parse_wrong(path)))


@case("wrong_solution_caught_by_names_a_graded_test")
def _():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "5", "x.wrong")
        os.makedirs(os.path.dirname(path))
        with open(path, "w") as f:
            f.write("caught-by: host.hist.no_such_case\nmistake: m\nfile: lib/hist.c\n---\n"
                    "    if (rank == 0)\n+++\n    if (rank == 1)\n")
        w = lab.parse_wrong(path)
        return w.caught_by == ("host.hist.no_such_case",) and \
            any("not one of lab 5's graded tests" in p for p in lab.wrong_problems(w))


def why(text, diag=()):
    """grading.why_not_run for lab 7 of a boot whose log is `text`, where
    one graded test ran."""
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "boot.log")
        with open(log, "w") as f:
            f.write(text)
        return lab.why_not_run(lab.lab_by_number(7),
                               {"ipc.console_write_returns_count": (True, [])}, list(diag), log)


@case("grade_names_a_panic_a_timeout_and_a_stray_line")
def _():
    panic = why("boot\nKERNEL PANIC on CPU 0: page fault\nrip 0x1\n")
    timeout = why("boot\nlast words\n" + harness.MONITOR_MARK + ": info registers -a\nRAX=0\n",
                  ["# timed out after 30 s"])
    stray = why("\x1b[0mok 3 - ipc.console_write_through_server\n")
    quiet = why("boot\n")
    return "panicked" in panic[0] and "KERNEL PANIC on CPU 0: page fault" in panic[1] \
        and "timed out after 30 s" in timeout[0] and timeout[-1].strip() == "last words" \
        and "RAX" not in "".join(timeout) \
        and "ipc.console_write_through_server: a line names it but is not" in stray[0] \
        and "ended without running them" in quiet[0]


def main():
    print(f"1..{len(cases)}")
    failed = 0
    for i, (name, fn) in enumerate(cases, 1):
        try:
            ok = bool(fn())
        except Exception as e:  # a crash is a failure, with the reason
            print(f"# {name}: {type(e).__name__}: {e}")
            ok = False
        failed += not ok
        print(f"{'ok' if ok else 'not ok'} {i} - lab.{name}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
