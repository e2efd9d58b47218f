#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/host/test_lab_commands.py - every `make ...` command the course
labs' handouts (docs/labs/*.md) give a student is one this Makefile takes.

Each command, in a code span (which may wrap over lines) or a code block,
is split like a shell would: its targets must be the Makefile's (a phony
target from its database, or a file make knows how to build: `make -n`),
its variables ones the Makefile reads, ARCH and LAB values that exist.
A `make run ... CMDLINE=run=<program>` must boot with what the program
needs to print results rather than "unavailable": the command line make
run builds (`make print-run-cmdline`) holds run.control when the program
chooses a stack offset strategy, and kstack.debug when it reads offsets
or the latency counter. One KTAP line per handout ("ok N -
lab_commands.<handout>"), with the commands that are wrong; exit status 1
if any is.
"""
import glob
import os
import re
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import grading  # noqa: E402  (the labs, for LAB=)
from harness import ARCHES  # noqa: E402

ARCH_NAMES = set(ARCHES) | {"aarch64"}
# A program calling one of these needs the switch beside it on the command line.
NEEDS = (("SYS_kstack_set", "run.control"), ("kstack_set(", "run.control"),
         ("SYS_latency_ctl", "kstack.debug"), ("kstack_calibrate(", "kstack.debug"),
         ("kstack_offset_now(", "kstack.debug"), ("SYS_kstack_probe", "kstack.debug"))


def commands(text):
    """The `make ...` commands of a handout: code spans (joined over line
    breaks) and lines of code blocks, cut at `&&`, `;`, `|` or a comment."""
    found = []
    for span in re.findall(r"`([^`]+)`", text):
        found.append(" ".join(span.split()))
    for line in text.splitlines():
        if line.startswith("    ") and line.strip().startswith("make "):
            found.append(line.strip())
    out = []
    for c in found:
        if not c.startswith("make ") and not c == "make":
            continue
        c = re.split(r"\s(?:&&|;|\||#)\s?", c)[0]
        out.append(c)
    return out


def makefile_text():
    """The Makefile and the make fragments it includes."""
    paths = [os.path.join(ROOT, "Makefile")] + glob.glob(os.path.join(ROOT, "**", "*.mk"),
                                                         recursive=True)
    return "\n".join(open(p).read() for p in paths if "/build/" not in p)


def phony_targets():
    """The targets of the Makefile's database (make -pq), rules and phonies."""
    p = subprocess.run(["make", "-pq", "-C", ROOT], capture_output=True, text=True)
    return {m.group(1) for m in re.finditer(r"^([A-Za-z0-9_./%-]+):", p.stdout, re.M)}


def program_needs(program):
    """The switches run=<program> needs (NEEDS), from its source."""
    srcs = glob.glob(os.path.join(ROOT, "user", "**", f"{program}.c"), recursive=True)
    text = "".join(open(s).read() for s in srcs)
    return srcs, {switch for call, switch in NEEDS if call in text}


def problems(cmd, targets, mk):
    """What is wrong with one command (a list of reasons)."""
    try:
        words = shlex.split(cmd)[1:]
    except ValueError as e:
        return [f"cannot be split like a shell would: {e}"]
    out, assigns = [], {}
    for w in words:
        if "=" in w:
            var, value = w.split("=", 1)
            assigns[var] = value
            if not re.search(rf"\b{re.escape(var)}\b", mk):
                out.append(f"the Makefile reads no variable {var}")
        elif w.startswith("-"):
            continue
        elif w not in targets:
            dry = subprocess.run(["make", "-n", "-C", ROOT, w], capture_output=True, text=True)
            if dry.returncode != 0:
                out.append(f"no target {w}")
    if "ARCH" in assigns and assigns["ARCH"] not in ARCH_NAMES:
        out.append(f"no arch {assigns['ARCH']}")
    if "LAB" in assigns and not any(str(l.number) == assigns["LAB"] for l in grading.LABS):
        out.append(f"no lab {assigns['LAB']}")
    m = re.search(r"\brun=(\w+)", assigns.get("CMDLINE", ""))
    if "run" in words and m:
        srcs, needs = program_needs(m.group(1))
        if not srcs:
            out.append(f"no program {m.group(1)} under user/")
        p = subprocess.run(["make", "-s", "--no-print-directory", "-C", ROOT, "print-run-cmdline"]
                           + [f"{k}={v}" for k, v in assigns.items()],
                           capture_output=True, text=True)
        line = p.stdout.split()
        for switch in sorted(needs - set(line)):
            out.append(f"run={m.group(1)} needs {switch} (it would print \"unavailable\"); "
                       f"make run boots with: {p.stdout.strip()}")
    return out


def main():
    targets, mk = phony_targets(), makefile_text()
    handouts = sorted(glob.glob(os.path.join(ROOT, "docs", "labs", "*.md")))
    print(f"1..{len(handouts)}")
    failed = 0
    for i, path in enumerate(handouts, 1):
        cmds = commands(open(path).read())
        bad = [(c, why) for c in cmds for why in problems(c, targets, mk)]
        for c, why in bad:
            print(f"# {os.path.basename(path)}: `{c}`: {why}")
        name = os.path.basename(path)[:-3].replace("-", "_")
        print(f"# {len(cmds)} commands")
        print(f"{'not ok' if bad else 'ok'} {i} - lab_commands.{name}")
        failed += bool(bad)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
