#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/host/test_kstack_build.py - lib/kstack builds, with its own
Makefile's flags and -Werror, under gcc and clang for each of the three
arches (`make -C lib/kstack objects CC=...`), and a C++ program that
includes kstack.h links against the C objects (its extern "C" guard).
KTAP cases kstack_build.<compiler>.<arch> and kstack_build.cxx.<compiler>;
tests/run.py reports them as host.kstack_build.*. clang and clang++ come
from scripts/deps.sh. Standard library only.
"""
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIB = os.path.join(ROOT, "lib", "kstack")
TRIPLES = {"x86_64": "x86_64-linux-gnu", "arm64": "aarch64-linux-gnu",
           "riscv64": "riscv64-linux-gnu"}

CXX_MAIN = r"""
#include "kstack.h"
int main()
{
    struct kstack_siphash s;
    uint8_t key[16] = {1, 2, 3};
    kstack_siphash_init(&s, key, 0);
    uint32_t offset = kstack_siphash_draw(&s);
    return kstack_offset_valid(offset) ? 0 : 1;
}
"""


def compilers():
    """(label, arch, CC for make) of every build to try."""
    for arch, triple in TRIPLES.items():
        yield "gcc", arch, f"{triple}-gcc"
        yield "clang", arch, f"clang --target={triple}"


def build(tmp, label, arch, cc):
    """[problems] of building the library's objects with cc."""
    if shutil.which(cc.split()[0]) is None:
        return None
    out = os.path.join(tmp, f"{label}-{arch}")
    p = subprocess.run(["make", "-s", "--no-print-directory", "-C", LIB, "objects",
                        f"CC={cc}", f"BUILD={out}"], capture_output=True, text=True)
    if p.returncode:
        return [f"make objects CC='{cc}' failed:"] + (p.stdout + p.stderr).splitlines()[-8:]
    made = sorted(f for f in os.listdir(out) if f.endswith(".o"))
    return [] if len(made) == 4 else [f"objects made: {made}"]


def cxx_links(tmp, cxx, cc):
    """[problems] of a C++ main() linked with the library's C objects (host)."""
    if shutil.which(cxx) is None or shutil.which(cc) is None:
        return None
    out = os.path.join(tmp, f"host-{cc}")
    p = subprocess.run(["make", "-s", "--no-print-directory", "-C", LIB, "objects", f"CC={cc}",
                        f"BUILD={out}"], capture_output=True, text=True)
    if p.returncode:
        return ["C objects:"] + (p.stdout + p.stderr).splitlines()[-8:]
    src = os.path.join(tmp, "main.cc")
    with open(src, "w") as f:
        f.write(CXX_MAIN)
    objs = [os.path.join(out, o) for o in sorted(os.listdir(out)) if o.endswith(".o")]
    exe = os.path.join(tmp, f"cxx-{cxx}")
    p = subprocess.run([cxx, "-std=c++11", "-Wall", "-Wextra", "-Werror", "-I", LIB, src, *objs,
                        "-o", exe], capture_output=True, text=True)
    if p.returncode:
        return [f"{cxx} link failed:"] + p.stderr.splitlines()[-8:]
    p = subprocess.run([exe])
    return [] if p.returncode == 0 else [f"the program exited {p.returncode}"]


def main():
    cases = [(f"kstack_build.{label}.{arch}", lambda t, a=(label, arch, cc): build(t, *a))
             for label, arch, cc in compilers()]
    cases += [("kstack_build.cxx.g++", lambda t: cxx_links(t, "g++", "gcc")),
              ("kstack_build.cxx.clang++", lambda t: cxx_links(t, "clang++", "clang"))]
    print(f"KTAP version 1\n1..{len(cases)}")
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n, (name, fn) in enumerate(cases, 1):
            problems = fn(tmp)
            if problems is None:
                print(f"ok {n} - {name} # SKIP compiler not installed")
                continue
            for line in problems:
                print(f"    # {line}")
            print(f"{'not ok' if problems else 'ok'} {n} - {name}")
            failed += bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
