#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/host/test_verify.py - make verify inside make test (docs/verification.md).

Runs lib/kstack/verify/verify.py over lib/kstack, lib/lfsr113.c and
lib/chacha20.c (its lines verify.<function>, verify.eva.<unit>, which
tests/run.py prints as host.verify.*), then, when every one passed, each
contract mutant (tests/mutants/*.mut with `host: verify`) in a copy of those
files, re-proving only the runs its `kills:` lines belong to:
verify.mutant.<name>_killed is ok when a line its `kills:` names (a
property, verify.<function>.<property>) fails. Results are kept in
build/verify/ under a hash of every file they depend on and of the tools'
versions, so an unchanged tree answers at once. A course lab's tree (no
lib/kstack/verify) has nothing to verify: skipped. Python standard library.
"""
import fnmatch
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import mutation  # noqa: E402 (tests/ on the path first)
VERIFY = os.path.join("lib", "kstack", "verify", "verify.py")
INPUTS = ["lib/kstack", "lib/lfsr113.c", "lib/lfsr113.h", "lib/chacha20.c", "lib/chacha20.h",
          "tests/verify"]
BUILD = os.path.join(ROOT, "build", "verify")
TOOLS = ""  # tool_versions(), once main() knows frama-c is there


def files(root):
    for path in INPUTS:
        full = os.path.join(root, path)
        if os.path.isfile(full):
            yield path
        for d, subdirs, names in os.walk(full):
            subdirs[:] = [s for s in subdirs if s != "build"]
            for n in names:
                if n.endswith((".c", ".h", ".py")):
                    yield os.path.relpath(os.path.join(d, n), root)


def digest(root, extra=""):
    h = hashlib.sha256(extra.encode())
    for path in sorted(files(root)):
        h.update(path.encode())
        with open(os.path.join(root, path), "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:16]


def verify(root, only=None):
    """(exit status, KTAP lines) of verify.py on the tree at root, cached."""
    key = digest(root, (only or "") + TOOLS)
    cache = os.path.join(BUILD, f"result-{key}.ktap")
    if os.path.exists(cache):
        with open(cache) as f:
            lines = f.read().splitlines()
        return int(lines[0]), lines[1:]
    cmd = [sys.executable, os.path.join(root, VERIFY), "--kernel-libs", root,
           "--build", os.path.join(BUILD, "run-" + key)]
    if only:
        cmd += ["--only", only]
    p = subprocess.run(cmd, capture_output=True, text=True)
    lines = p.stdout.splitlines() + [f"# {l}" for l in p.stderr.splitlines()]
    os.makedirs(BUILD, exist_ok=True)
    with open(cache, "w") as f:
        f.write("\n".join([str(p.returncode)] + lines) + "\n")
    return p.returncode, lines


def verdicts(lines):
    """{name: ok} of KTAP result lines."""
    out = {}
    for line in lines:
        for word, ok in (("not ok ", False), ("ok ", True)):
            if line.startswith(word) and " - " in line:
                out[line.split(" - ", 1)[1].strip()] = ok
                break
    return out


def run_of(line):
    """The verify.py run a line belongs to: a property line
    <function>.<property> is its function's run (any_geometry.<function>
    eva.<unit> and bitvector.<function> are runs of their own)."""
    parts = line.split(".")
    return ".".join(parts[:2] if parts[0] in ("any_geometry", "eva", "bitvector") else parts[:1])


def tool_versions():
    """The provers' and Frama-C's versions: part of the results' key, so that
    another tool never answers from a result it did not compute."""
    out = []
    for cmd in (["frama-c", "-version"], ["why3", "--version"], ["z3", "--version"],
                ["cvc4", "--version"]):
        try:
            p = subprocess.run(cmd, capture_output=True, text=True)
            out.append(p.stdout.splitlines()[0] if p.stdout else "")
        except OSError:
            out.append("missing")
    return "\n".join(out)


def mutant_killed(m):
    """(killed?, diagnostics) of one contract mutant, applied to a copy."""
    names = [k[len("host."):] for k in m.kills("host")]
    only = ",".join(sorted({run_of(n[len("verify."):]) for n in names}))
    with tempfile.TemporaryDirectory() as tmp:
        for path in files(ROOT):
            os.makedirs(os.path.dirname(os.path.join(tmp, path)), exist_ok=True)
            shutil.copy(os.path.join(ROOT, path), os.path.join(tmp, path))
        try:
            mutation.apply(m, tmp)
        except Exception as e:  # a mutant that no longer applies is not a kill
            return False, [f"does not apply: {e}"]
        rc, lines = verify(tmp, only)
    got = verdicts(lines)
    named = {n: ok for n, ok in got.items() if any(fnmatch.fnmatch(n, g) for g in names)}
    killed = bool(named) and not all(named.values())
    return killed, [f"{n}: {'ok' if ok else 'not ok'}" for n, ok in named.items()] or lines[-10:]


def main():
    if not os.path.exists(os.path.join(ROOT, VERIFY)):
        print("KTAP version 1\n1..0 # SKIP no lib/kstack/verify in this tree")
        return 0
    if not shutil.which("frama-c"):
        print("KTAP version 1\n1..1\nnot ok 1 - verify.tools\n    # frama-c not installed "
              "(scripts/deps.sh installs frama-c-base, why3, z3, cvc4)")
        return 1
    global TOOLS
    TOOLS = tool_versions()
    rc, lines = verify(ROOT)
    results = [l for l in lines if l.startswith(("ok ", "not ok ", "    #", "# "))]
    mutants = [m for m in mutation.load() if m.fields.get("host") == "verify"]
    extra = []
    if rc != 0:
        extra = [(False, f"verify.mutant.{m.name}_killed",
                  ["not run: the unmutated tree does not verify"]) for m in mutants]
    else:
        with ThreadPoolExecutor(max_workers=2) as pool:
            for m, (killed, diag) in zip(mutants, pool.map(mutant_killed, mutants)):
                extra.append((killed, f"verify.mutant.{m.name}_killed",
                              [f"breaks: {m.fields.get('breaks', '')}"] + diag))
    total = len(verdicts(lines)) + len(extra)
    print("KTAP version 1")
    print(f"1..{total}")
    n = 0
    for line in results:
        if line.startswith(("ok ", "not ok ")):
            n += 1
            word, rest = line.split(" - ", 1)
            print(f"{word.rsplit(' ', 1)[0]} {n} - {rest}")
        elif line.startswith("    #"):
            print(line)
    for ok, name, diag in extra:
        n += 1
        print(f"{'ok' if ok else 'not ok'} {n} - {name}")
        if not ok:
            for d in diag:
                print(f"    # {d}")
    return 0 if rc == 0 and all(ok for ok, _, _ in extra) else 1


if __name__ == "__main__":
    sys.exit(main())
