#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The stackshift authors
"""lib/kstack/verify/verify.py - the library's proofs, with Frama-C (Debian's
frama-c-base: EVA and WP), why3 and the provers z3 and cvc4.

  verify.py [--build DIR] [--kernel-libs ROOT] [--only LINE,...] [--jobs N]

Runs, N at a time (the CPU count), the longest first:
  * WP on the ACSL contracts of kstack.h and the library's .c files, the
    run-time errors (-wp-rte) of the same functions included, one Frama-C
    run per function; a KTAP line verify.<function>, ok when every goal is
    proved, and verify.<function>.<property> per property (a clause's
    label, rte, <callee>_requires);
  * the same for the functions that make an offset with the alignment and
    mask unknown (verify/geometry.c): verify.any_geometry.<function>; and
    kstack_offset_of() in each of the 528 geometries of a 32-bit offset:
    verify.any_geometry.kstack_offset_of;
  * EVA (value analysis) from verify/eva_main.c over the C alone: one line
    verify.eva.kstack, ok when it reports zero alarms, reaches the end and
    no CHECK failed; with --kernel-libs, the same for the kernel's
    lib/lfsr113.c and lib/chacha20.c (tests/verify/eva_*.c);
  * the header's ACSL lemmas (the ring's arithmetic), which the function
    runs take as given: verify.lemmas and verify.lemmas.<lemma>;
  * the LFSR113 step keeps a live component live, twice: as 32-bit vector
    goals written from kstack.h's text (lfsr_bv.py) and proved by z3
    through why3 (verify.bitvector.kstack_lfsr_step.alive_<k>), and by
    lfsr_rank.c, built with the host cc
    (verify.kstack_lfsr_step_keeps_state_alive).
Prints KTAP and exits 1 if anything failed. The why3 configuration is made
in DIR (why3 config detect), never read from ~/.why3.conf; DIR also keeps
each tool's log. --only runs the named runs (a function, any_geometry.<function>,
eva.<unit>, lemmas, bitvector.kstack_lfsr_step,
kstack_lfsr_step_keeps_state_alive). docs/verification.md says
what each line proves. Python standard library.
"""
import argparse
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lfsr_bv  # noqa: E402 (this folder on the path first)

HERE = os.path.dirname(os.path.abspath(__file__))
LIB = os.path.dirname(HERE)
FRAMA_C = ["frama-c", "-c11", "-machdep", "gcc_x86_64", f"-cpp-extra-args=-I{LIB}"]
# cvc4 first: it proves almost every goal here in well under a second, where
# z3 runs to the timeout on a few (and, tried first, made the run four times
# longer). z3 gets only what cvc4 leaves. The timeout is per prover and goal;
# the slowest goal takes about 4 s of CPU, so 20 s leaves room for a loaded
# host without making a false goal cost much.
WP = ["-wp", "-wp-rte", "-wp-timeout", "20", "-wp-par", "1"]
PROVERS = ["-wp-prover", "cvc4,z3"]
# WP's memory model for a function: Typed+cast where kstack_wipe()'s void *
# meets a uint8_t array (to the typed model another type) or draw_slow
# compares a const pointer with a plain one (Frama-C casts both), with
# -wp-no-volatile, because WP otherwise forgets what a volatile store wrote
# (the proof is then about the C abstract machine: docs/verification.md).
# WP's simplifier alone: enough for the 528 copies of kstack_offset_of(), and
# a copy that is false fails at once instead of waiting for two provers each.
QED_ONLY = ["-wp-prover", "qed"]
CAST = ["-wp-model", "Typed+cast", "-wp-no-volatile"]
PLAIN_FCTS = ["kstack_offset_of", "kstack_prng_seed", "seed_component", "kstack_prng_next",
              "kstack_prng_draw", "kstack_lfsr_step", "kstack_pool_head", "kstack_pool_level",
              "kstack_pool_draw_fast", "kstack_pool_draw", "kstack_siphash_draw"]
CAST_FCTS = ["set_stop", "kstack_pool_init", "kstack_pool_discard", "kstack_pool_draw_slow",
             "kstack_pool_refill_step", "kstack_pool_refill", "generate", "kstack_wipe"]
# The functions that make an offset, proved again in verify/geometry.c with
# the alignment and mask unknown (any geometry the header allows).
ANY_GEOMETRY_FCTS = ["kstack_prng_draw", "kstack_siphash_draw", "kstack_pool_draw_fast",
                     "kstack_pool_draw", "kstack_pool_draw_slow"]
# Seconds of CPU each run took on an idle host (the rest take one or two):
# the pool starts the longest first, so that the last to finish is short.
HEAVY = {"kstack_pool_refill_step": 20, "kstack_pool_draw_slow": 12,
         "any_geometry.kstack_pool_draw_slow": 12, "kstack_prng_seed": 10, "generate": 8,
         "kstack_pool_draw_fast": 8, "any_geometry.kstack_pool_draw_fast": 8,
         "kstack_pool_refill": 6, "eva.chacha20": 6, "eva.kstack": 6,
         "any_geometry.kstack_offset_of": 5, "kstack_siphash_draw": 5,
         "any_geometry.kstack_siphash_draw": 5}
# The run of the header's ACSL lemmas (the ring's arithmetic): WP proves a
# lemma only when asked for it by name or as @lemma, never under -wp-fct;
# the function runs take the lemmas as given, this run proves them.
LEMMAS = "lemma"
GOAL = re.compile(r"^\[wp\] \[([^\]]+)\] Goal (\S+)(?: : (\w+))?")


def wp_jobs():
    """(line, source, WP options, functions) of every WP run: one run per
    function, so that two cores share them evenly and a mutant reruns only
    the function it breaks."""
    all_c, geometry_c = os.path.join(HERE, "all.c"), os.path.join(HERE, "geometry.c")
    jobs = [(f, all_c, CAST if f in CAST_FCTS else [], [f]) for f in PLAIN_FCTS + CAST_FCTS]
    jobs += [(f"any_geometry.{f}", geometry_c, CAST if f in CAST_FCTS else [], [f])
             for f in ANY_GEOMETRY_FCTS]
    return jobs + [("lemmas", all_c, [], [LEMMAS])]


def every_geometry_offset_of(build):
    """A unit holding kstack.h's kstack_offset_of(), contract and body as the
    header has them, once per geometry the header allows for a 32-bit offset:
    alignment 2^a, mask bits a..b, 0 <= a <= b <= 31 (528 copies). WP's
    simplifier proves each copy's goals by evaluation; geometry.c cannot
    (the provers do not bound an AND of two unknowns)."""
    with open(os.path.join(LIB, "kstack.h")) as f:
        header = f.read()
    m = re.search(r"/\*@[^/]*?ensures offset_ok[^/]*?\*/\nstatic inline uint32_t "
                  r"kstack_offset_of\(uint32_t raw\)\n\{.*?\n\}\n", header, re.S)
    if not m:
        return None, []
    out = ["#include <stdint.h>", '#include "kstack.h"', "#undef KSTACK_OFFSET_ALIGN",
           "#undef KSTACK_OFFSET_MASK"]
    fcts = []
    for a in range(32):
        for b in range(a, 32):
            align, mask = 1 << a, (1 << (b + 1)) - (1 << a)
            fcts.append(f"kstack_offset_of_{a}_{b}")
            out += [f"#define KSTACK_OFFSET_ALIGN {align:#x}u", f"#define KSTACK_OFFSET_MASK {mask:#x}u",
                    f"#define kstack_offset_of {fcts[-1]}", m.group(0).rstrip("\n"),
                    "#undef kstack_offset_of", "#undef KSTACK_OFFSET_ALIGN", "#undef KSTACK_OFFSET_MASK"]
    path = os.path.join(build, "every_geometry_offset_of.c")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    return path, fcts


def run(cmd, log, env):
    with open(log, "w") as f:
        p = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, env=env, cwd=LIB)
    with open(log) as f:
        return p.returncode, f.read().splitlines()


# A goal's property: the label of its clause in the source (ensures,
# assert, loop invariant, behaviour), "rte" for a run-time error (undefined
# behaviour), <callee>_requires for a callee's precondition at a call.
PROPERTY = [
    (re.compile(r"(?:^|_)assert_rte_"), lambda m, g: "rte"),
    (re.compile(r"(?:^|_)call_(\w+?)_(?:\d+_)?requires"), lambda m, g: f"{m.group(1)}_requires"),
    (re.compile(r"(?:^|_)(?:ensures|assert|loop_invariant)_([a-z]\w*?)"
                r"(?:_part\d+)?(?:_preserved|_established)?$"), lambda m, g: m.group(1)),
]


def prop_of(goal):
    for pattern, name in PROPERTY:
        m = pattern.search(goal)
        if m:
            p = name(m, goal)
            unnamed = re.fullmatch(r"\d+(_\w+)?|preserved|established|part\d+", p)
            return None if unnamed else p
    return None


def wp(line, source, extra, fcts, build, env):
    """{line: [failed goals]} for the run's function (an empty list: every
    goal proved), and {line.property: [failed goals]} for its properties."""
    log = os.path.join(build, f"wp-{line}.log")
    provers = [] if "-wp-prover" in extra else PROVERS  # (a second -wp-prover adds to the first)
    select = ["-wp-prop", "@lemma"] if fcts == [LEMMAS] else ["-wp-fct", ",".join(fcts)]
    rc, lines = run(FRAMA_C + ["-pp-annot", source] + WP + provers + extra + select, log, env)
    result, props = None, {}
    for text in lines:
        m = GOAL.match(text)
        if not m:
            continue
        goal = re.sub(r"^typed_(cast_)?", "", m.group(2))
        fct = next((f for f in sorted(fcts, key=len, reverse=True) if goal.startswith(f + "_")), None)
        if fct is None:
            continue
        result = result or []
        bad = [goal] if m.group(3) != "Valid" else []
        result += bad
        prop = goal[len(fct) + 1:] if fct == LEMMAS else prop_of(goal[len(fct) + 1:])
        if prop:  # (a run of several functions is of copies of one: kstack_offset_of)
            props.setdefault(f"{line}.{prop}", []).extend(bad)
    if result is None:
        result = [f"no goal proved or failed: frama-c exit {rc}, see {log}"]
    return {line: result, **props}


def eva(name, source, build, env, includes):
    """[what went wrong] of one EVA run ([] when clean)."""
    log = os.path.join(build, f"eva-{name}.log")
    rc, lines = run(FRAMA_C[:-1] + [f"-cpp-extra-args={includes}", "-no-annot", source, "-eva",
                    "-main", "eva_main", "-eva-slevel", "300"], log, env)
    text = "\n".join(lines)
    bad = [f"frama-c exit {rc}"] if rc else []
    bad += [l.strip() + " " + lines[i + 1].strip() for i, l in enumerate(lines[:-1])
            if l.startswith("[eva:alarm]")]
    bad += sorted({l.strip() for l in lines if "Frama_C_show_each_failed_check" in l})
    if "Frama_C_show_each_reached_the_end" not in text:
        bad.append("the analysis never reached the end of eva_main")
    m = re.search(r"(\d+) alarms? generated", text)
    if m and int(m.group(1)):
        bad.append(f"{m.group(1)} alarms (log: {log})")
    return bad


def bitvector(build, env):
    """The LFSR113 step's liveness as 32-bit vector goals (lfsr_bv.py, from
    kstack.h's text), proved by z3 through why3: {line: [...], line.alive_<k>:
    [...]}. z3 only: cvc4 1.8 runs out of time on these through why3 1.5.1."""
    line = "bitvector.kstack_lfsr_step"
    try:
        with open(os.path.join(LIB, "kstack.h")) as f:
            text, goals = lfsr_bv.theory(f.read())
    except ValueError as e:
        return {line: [f"lfsr_bv.py: {e}"]}
    source = os.path.join(build, "lfsr_step_bv.mlw")
    with open(source, "w") as f:
        f.write(text)
    rc, lines = run(["why3", "prove", "-C", env["WHY3CONFIG"], "-P", "z3", "-t", "20", source],
                    os.path.join(build, "why3-lfsr_step_bv.log"), env)
    verdict = dict(re.findall(r"Goal (\w+)\.\nProver result is: (\w+)", "\n".join(lines)))
    props = {f"{line}.{g}": [] if verdict.get(g) == "Valid" else
             [f"{g}: {verdict.get(g, f'no answer, why3 exit {rc}')}"] for g in goals}
    return {line: [bad for p in props.values() for bad in p], **props}


def rank(build):
    exe = os.path.join(build, "lfsr_rank")
    subprocess.run([os.environ.get("CC", "cc"), "-std=c11", "-O1", "-Wall", "-Wextra", "-Werror",
                    f"-I{LIB}", os.path.join(HERE, "lfsr_rank.c"), "-o", exe], check=True)
    p = subprocess.run([exe], capture_output=True, text=True)
    diag = [l[2:] for l in p.stdout.splitlines() if l.startswith("# ")]
    return {"kstack_lfsr_step_keeps_state_alive": [] if p.returncode == 0 else diag or ["failed"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(LIB, "build", "verify"))
    ap.add_argument("--kernel-libs", metavar="ROOT", help="also EVA over ROOT/lib/lfsr113.c, chacha20.c")
    ap.add_argument("--only", help="comma-separated lines to run (functions, eva.<unit>, "
                    "any_geometry.<function>)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2,
                    help="tool runs at a time (default: the CPU count)")
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    os.makedirs(build, exist_ok=True)
    env = dict(os.environ, WHY3CONFIG=os.path.join(build, "why3.conf"), HOME=build, PWD=LIB)
    with open(os.path.join(build, "why3-detect.log"), "w") as f:
        subprocess.run(["why3", "config", "detect", "-C", env["WHY3CONFIG"]], stdout=f,
                       stderr=subprocess.STDOUT, env=env, check=True)
    only = set(args.only.split(",")) if args.only else None
    evas = [("kstack", os.path.join(HERE, "eva_main.c"), f"-I{LIB}")]
    if args.kernel_libs:
        root = os.path.abspath(args.kernel_libs)
        evas += [(n, os.path.join(root, "tests", "verify", f"eva_{n}.c"), f"-I{root}")
                 for n in ("lfsr113", "chacha20")]
    work = []  # (line, function returning {line: [what failed]})
    for line, source, extra, fcts in wp_jobs():
        work.append((line, lambda *a: wp(*a, build, env), (line, source, extra, fcts)))
    if not only or "any_geometry.kstack_offset_of" in only:
        source, fcts = every_geometry_offset_of(build)
        work.append(("any_geometry.kstack_offset_of",
                     lambda s, f: wp("any_geometry.kstack_offset_of", s, QED_ONLY, f, build, env)
                     if s else {"any_geometry.kstack_offset_of": ["kstack_offset_of not found"]},
                     (source, fcts)))
    for name, src, inc in evas:
        work.append((f"eva.{name}", lambda n, s, i: {f"eva.{n}": eva(n, s, build, env, i)},
                     (name, src, inc)))
    work.append(("kstack_lfsr_step_keeps_state_alive", lambda: rank(build), ()))
    work.append(("bitvector.kstack_lfsr_step", lambda: bitvector(build, env), ()))
    work = [w for w in work if not only or w[0] in only]
    work.sort(key=lambda w: -HEAVY.get(w[0], 0))  # the longest first
    results = {}
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for job in [pool.submit(fn, *a) for _, fn, a in work]:
            results.update(job.result())
    print("KTAP version 1")
    print(f"1..{len(results)}")
    failed = 0
    for n, (name, bad) in enumerate(sorted(results.items()), 1):
        print(f"{'not ok' if bad else 'ok'} {n} - verify.{name}")
        for line in bad[:20]:
            print(f"    # {line}")
        failed += bool(bad)
    print(f"# verify: {len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
