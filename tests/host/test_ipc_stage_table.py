#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/host/test_ipc_stage_table.py - host tests of docs/ipc.md's stage
table and floor table: scripts/ipc_stage_table.py makes them from the
ipc_stage_trace files of one make bench ICOUNT=1 run (docs/data/ipc-stages),
and the committed tables are exactly what those files give; a hand-edited
number in either is caught; functions go to their stages and the unnamed
ones are listed; the floor groups the fastpath's leg beside the goal;
--take copies a run's files in; and
scripts/ipc_trace.py's analysis of the instruction log that
scripts/ipc_stage_trace.py records splits calls at the marker, keeps those
with two kernel runs and takes the most common.
One KTAP line per case; tests/run.py collects them.
"""
import os
import subprocess
import sys
import tempfile
import ktap_cases  # tests/host/ktap_cases.py: the cases run as KTAP
from ktap_cases import ROOT, expect, load_script

DOC = os.path.join(ROOT, "docs", "ipc.md")
trace = load_script("ipc_trace")  # the one reader of QEMU's logs


def stage_table(*args):
    return subprocess.run([sys.executable, "-m", "scripts.ipc_stage_table", *args],
                          capture_output=True, text=True, cwd=ROOT)


def doc_table_matches_the_data():
    p = stage_table("--check", DOC)
    expect(p.returncode == 0, p.stderr.strip())


def hand_edit_is_caught():
    with tempfile.TemporaryDirectory() as tmp:
        doc, edited = ktap_cases.hand_edited_copy(DOC, tmp, "<!-- stage table:",
                                                  "| **call leg, kernel** |")
        p = stage_table("--check", doc)
        expect(p.returncode == 1, f"an edited total passed: {edited}")


def floor_hand_edit_is_caught():
    # The floor table is checked as the stage table is: a changed total fails.
    with tempfile.TemporaryDirectory() as tmp:
        doc, edited = ktap_cases.hand_edited_copy(DOC, tmp, "<!-- floor table:",
                                                  "| **one leg** |")
        p = stage_table("--check", doc)
        expect(p.returncode == 1, f"an edited floor total passed: {edited}")
        doc, edited = ktap_cases.hand_edited_copy(DOC, tmp, "<!-- floor table:",
                                                  "| hand-off and switch")
        expect(stage_table("--check", doc).returncode == 1, f"an edited stage passed: {edited}")


DATA = """# made up
path fast calls 9 10 12
path fast leg call total 60
path fast leg call function x86_syscall_entry 18
path fast leg call function ipc_fast_call 30
path fast leg call function mystery 12
path fast leg reply total 61
path slow calls 5 5 5
path slow leg call total 50
path slow leg call function endpoint_call_locked 20
path slow leg call function unstage 30
path slow leg reply total 52
"""


def stages_from_functions():
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "x86_64.txt"), "w") as f:
            f.write(DATA)
        p = stage_table("--data", tmp)
    expect(p.returncode == 0, p.stderr)
    out = p.stdout
    expect("| stage | x86_64 fastpath off | x86_64 fastpath on |" in out, out)
    expect("| entry and exit stubs | 0 | 18 |" in out, out)
    expect("| fastpath (fastpath.c) | 0 | 30 |" in out, out)
    expect("| handlers, message copies (sys_ipc.c) | 30 | 0 |" in out, out)
    expect("| rendezvous (endpoint.c, handle.c) | 20 | 0 |" in out, out)
    expect("| other | 0 | 12 |" in out, out)
    expect("| **call leg, kernel** | 50 | 60 |" in out and "| reply leg, kernel | 52 | 61 |" in out,
           out)
    expect("* x86_64, fastpath on: 9 of 10 complete calls traced agree; other: `mystery`" in out,
           out)
    expect("scheduler hand-off" not in out, "a stage with no instructions has no row")


def floor_from_functions():
    # The fastpath's call leg, grouped, beside the goal; the slow path is not in it.
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "x86_64.txt"), "w") as f:
            f.write(DATA)
        out = stage_table("--data", tmp).stdout
    floor = out[out.index("| stage, fastpath on (call leg, kernel) | x86_64 |"):]
    expect("| entry and exit stubs | 18 |" in floor, floor)
    expect("| the fastpath: lock, guards, delivery, the end of the wait, unlock | 30 |" in floor,
           floor)
    expect("| locks, IRQs, current thread, other | 12 |" in floor, floor)
    expect("| **one leg** | **60** |" in floor and "| goal for `ipc/oneway-call0` | 240 |" in floor
           and "| the leg less the goal | -180 |" in floor, floor)
    expect("handlers around" not in floor, "the slow path's unstage is not in the floor")


def take_copies_the_run():
    # --take RUN copies RUN/<arch>/ipc-stages.txt in before the tables are made.
    with tempfile.TemporaryDirectory() as tmp:
        run, data = os.path.join(tmp, "bench"), os.path.join(tmp, "data")
        os.makedirs(os.path.join(run, "arm64"))
        os.makedirs(data)
        with open(os.path.join(run, "arm64", "ipc-stages.txt"), "w") as f:
            f.write(DATA)
        p = stage_table("--data", data, "--take", run)
        expect(p.returncode == 0 and "took arm64" in p.stderr, p.stderr)
        expect(sorted(os.listdir(data)) == ["arm64.txt"], os.listdir(data))
        expect("| **one leg** | **60** |" in p.stdout and "| arm64 fastpath on |" in p.stdout,
               p.stdout)
        expect(stage_table("--data", data, "--take", data).returncode == 1, "an empty run fails")


K = 1 << 63  # a kernel address
SYMBOLS = trace.Symbols(f"{K:016x} T entry\n{K + 0x100:016x} T handler\n"
                        f"{K + 0x200:016x} T switch\n{K + 0x1000:016x} B _kernel_end\n")


def trace_log(calls):
    """A QEMU -d exec log, one line per instruction, of these address lists."""
    lines = ["noise before the first marker"]
    for call in calls:
        lines += [f"Trace 0: 0x7f00 [00000000/{pc:016x}/00000000/ff020000] " for pc in call]
    return "\n".join(lines) + "\n"


def trace_analysis():
    m = 0x401000
    clean = [m, m + 4, K, K + 0x104, K + 0x204, 0x402000, K, K + 4, m + 8]
    ticked = [m, m + 4, K, K + 4, 0x402000, K + 0x100, 0x402004, K, m + 8]  # three kernel runs
    longer = [m, m + 4, K, K + 4, K + 0x104, K + 0x204, 0x402000, K, m + 8]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "log")
        with open(path, "w") as f:
            f.write(trace_log([clean, ticked, clean, longer, clean, [m]]))
        r = trace.analyse(path, m, SYMBOLS)
    expect(r["calls"] == (3, 4, 5), f"calls {r['calls']}")
    expect(dict(r["call"]) == {"entry": 1, "handler": 1, "switch": 1}, f"call leg {r['call']}")
    expect(dict(r["reply"]) == {"entry": 2}, f"reply leg {r['reply']}")
    lines = trace.lines_for("fast", r)
    expect("path fast leg call total 3" in lines and "path fast calls 3 4 5" in lines, lines)


CASES = [doc_table_matches_the_data, hand_edit_is_caught, floor_hand_edit_is_caught,
         stages_from_functions, floor_from_functions, take_copies_the_run, trace_analysis]


def main():
    return ktap_cases.run("ipc_stage_table", CASES)


if __name__ == "__main__":
    sys.exit(main())
