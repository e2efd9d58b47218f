# SPDX-License-Identifier: MIT
"""tests/mutation.py - the mutants' format (tests/mutants/*.mut; tests/mutate.py's
docstring describes it): parse one, check that it applies to a tree (its
text there exactly once, its boots in the matrix), apply it. tests/mutate.py
runs them; tests/run.py checks that every one still applies.
Python standard library only.
"""
import os
from dataclasses import dataclass, field

import boots
from harness import ARCHES, ROOT

MUTANT_DIR = os.path.join(ROOT, "tests", "mutants")
FIELDS = {"breaks", "file", "arch", "boot", "ktest", "host", "equivalent", "kills", "timeout", "hangs"}


@dataclass
class Mutant:
    name: str
    path: str
    fields: dict = field(default_factory=dict)
    hunks: list = field(default_factory=list)  # [(old, new)]

    @property
    def arches(self):
        a = self.fields.get("arch", "")
        return ARCHES if a == "all" else a.split()

    def kills(self, arch):
        """The fnmatch globs of the tests that must fail, {arch} filled in."""
        return [k.replace("{arch}", arch) for k in self.fields.get("kills", "").split()]

    @property
    def equivalent(self):
        return self.fields.get("equivalent", "")


def parse(path):
    """A Mutant from a .mut file; raises ValueError on a malformed one."""
    m = Mutant(os.path.basename(path)[:-4], path)
    old = new = None
    with open(path) as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for n, line in enumerate(lines, 1):
        if line == "---":
            if old is not None:
                m.hunks.append(("\n".join(old), "\n".join(new or [])))
            old, new = [], None
        elif line == "+++" and old is not None and new is None:
            new = []
        elif new is not None:
            new.append(line)
        elif old is not None:
            old.append(line)
        elif line.startswith("#") or not line.strip():
            continue
        else:
            key, sep, value = line.partition(":")
            if not sep or key.strip() not in FIELDS:
                raise ValueError(f"{path}:{n}: expected 'field: value', field one of "
                                 + ", ".join(sorted(FIELDS)))
            m.fields[key.strip()] = value.strip()
    if old is not None:
        if new is None:
            raise ValueError(f"{path}: a '---' block without its '+++'")
        m.hunks.append(("\n".join(old), "\n".join(new)))
    return m


def load(names=None):
    """Every tests/mutants/*.mut, or only those named (exits on an unknown name)."""
    paths = sorted(p for p in os.listdir(MUTANT_DIR) if p.endswith(".mut"))
    mutants = [parse(os.path.join(MUTANT_DIR, p)) for p in paths]
    if names:
        known = {m.name for m in mutants}
        unknown = [n for n in names if n not in known]
        if unknown:
            raise SystemExit(f"mutate: no such mutant: {', '.join(unknown)}")
        mutants = [m for m in mutants if m.name in names]
    return mutants



def boot_names(m, arch):
    """The names of the boots the mutant's `boot:` line picks on arch."""
    fw = boots.main_fw(arch)
    return [f"{arch}.{fw}" if b == "main" else f"{arch}.{fw}.{b}"
            for b in m.fields.get("boot", "main").split()]


def problems(m, root=ROOT):
    """Why the mutant cannot be run on the tree at root (empty: it applies)."""
    out = []
    for key in ("breaks", "file", "arch"):
        if not m.fields.get(key):
            out.append(f"no '{key}:' line")
    if not m.hunks:
        out.append("no '---' / '+++' change")
    if not m.equivalent and not m.fields.get("kills"):
        out.append("no 'kills:' line (the tests that must fail)")
    if out:
        return out
    arch = m.fields["arch"]
    if arch == "host":
        if not m.fields.get("host"):
            out.append("arch: host needs a 'host:' line (the host test to run)")
        elif not any(os.path.exists(os.path.join(root, "tests", "host", f"test_{m.fields['host']}{ext}"))
                     for ext in (".c", ".py")):
            out.append(f"no host test tests/host/test_{m.fields['host']}.c or .py")
    else:
        bad = [a for a in m.arches if a not in ARCHES]
        if bad or not m.arches:
            out.append(f"unknown arch {' '.join(bad) or '(none)'}: "
                       f"use {' '.join(ARCHES)}, all or host")
        known = {b.name for b in boots.boot_matrix()}
        for a in m.arches:
            out += [f"no boot {b} (tests/run.py --list)" for b in boot_names(m, a)
                    if a in ARCHES and b not in known]
    path = os.path.join(root, m.fields["file"])
    if not os.path.isfile(path):
        return out + [f"no file {m.fields['file']}"]
    text = open(path).read()
    for i, (old, _) in enumerate(m.hunks, 1):
        count = text.count(old) if old else 0
        if count != 1:
            first = old.strip().split("\n")[0] if old.strip() else "(empty)"
            out.append(f"change {i}: the text starting '{first}' occurs {count} times "
                       f"in {m.fields['file']}, not once")
    return out


def apply(m, root):
    """Make the mutant's changes to its file in the tree at root."""
    path = os.path.join(root, m.fields["file"])
    text = open(path).read()
    for old, new in m.hunks:
        if not new and text.count(old + "\n") == 1:
            old += "\n"  # delete the lines, not just their text
        if text.count(old) != 1:
            raise RuntimeError(f"{m.name}: text not found exactly once in {m.fields['file']}")
        text = text.replace(old, new)
    with open(path, "w") as f:
        f.write(text)
