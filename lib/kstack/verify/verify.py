#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The stackshift authors
"""lib/kstack/verify/verify.py - the library's proofs, with Frama-C (Debian's
frama-c-base: EVA and WP), why3 and the provers z3 and cvc4.

  verify.py [--build DIR] [--kernel-libs ROOT] [--only NAME,...]

Runs, two at a time:
  * WP on the ACSL contracts of kstack.h and the library's .c files, the
    run-time errors (-wp-rte) of the same functions included; one KTAP line
    verify.<function> per function, ok when every goal is proved;
  * EVA (value analysis) from verify/eva_main.c over the C alone: one line
    verify.eva.kstack, ok when it reports zero alarms, reaches the end and
    no CHECK failed; with --kernel-libs, the same for the kernel's
    lib/lfsr113.c and lib/chacha20.c (tests/verify/eva_*.c);
  * lfsr_rank.c, built with the host cc: the LFSR113 step keeps a live
    component live (verify.kstack_lfsr_step_keeps_state_alive).
Prints KTAP and exits 1 if anything failed. The why3 configuration is made
in DIR (why3 config detect), never read from ~/.why3.conf; DIR also keeps
each tool's log. --only runs the named functions and EVA units (eva.kstack).
docs/verification.md says what each line proves. Python standard library.
"""
import argparse
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
LIB = os.path.dirname(HERE)
FRAMA_C = ["frama-c", "-c11", "-machdep", "gcc_x86_64", f"-cpp-extra-args=-I{LIB}"]
WP = ["-wp", "-wp-rte", "-wp-prover", "z3,cvc4", "-wp-timeout", "20", "-wp-par", "1"]

# The functions WP proves, in two runs. The second needs -wp-model
# Typed+cast, because kstack_wipe() takes a void * (a uint8_t array to WP's
# typed memory model is another type than void's char) and draw_slow
# compares a const pointer with a plain one (Frama-C casts both), and
# -wp-no-volatile,
# because WP otherwise forgets what a volatile store wrote (the proof is then
# about the C abstract machine: docs/verification.md).
WP_RUNS = [
    ([], ["kstack_offset_of", "kstack_prng_seed", "seed_component", "kstack_prng_next",
          "kstack_prng_draw", "kstack_lfsr_step", "kstack_pool_head", "kstack_pool_level",
          "kstack_pool_draw_fast", "kstack_pool_draw", "kstack_siphash_draw"]),
    (["-wp-model", "Typed+cast", "-wp-no-volatile"],
     ["set_stop", "kstack_pool_init", "kstack_pool_discard", "kstack_pool_draw_slow",
      "kstack_pool_refill_step", "kstack_pool_refill", "generate", "kstack_wipe"]),
]
GOAL = re.compile(r"^\[wp\] \[([^\]]+)\] Goal (\S+)(?: : (\w+))?")


def run(cmd, log, env):
    with open(log, "w") as f:
        p = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, env=env, cwd=LIB)
    with open(log) as f:
        return p.returncode, f.read().splitlines()


def wp(extra, fcts, build, env):
    """{function: [failed goals]} (an empty list: every goal proved)."""
    log = os.path.join(build, f"wp-{fcts[0]}.log")
    rc, lines = run(FRAMA_C + ["-pp-annot", os.path.join(HERE, "all.c")] + WP + extra +
                    ["-wp-fct", ",".join(fcts)], log, env)
    result = {f: None for f in fcts}
    by_length = sorted(fcts, key=len, reverse=True)
    for line in lines:
        m = GOAL.match(line)
        if not m:
            continue
        goal = re.sub(r"^typed_(cast_)?", "", m.group(2))
        fct = next((f for f in by_length if goal.startswith(f + "_")), None)
        if fct is None:
            continue
        if result[fct] is None:
            result[fct] = []
        if m.group(3) != "Valid":
            result[fct].append(goal)
    for f in fcts:
        if result[f] is None:
            result[f] = [f"no goal proved or failed: frama-c exit {rc}, see {log}"]
    return result


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
    ap.add_argument("--only", help="comma-separated functions / eva.<unit> to run")
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
    jobs = {}
    with ThreadPoolExecutor(max_workers=2) as pool:
        for extra, fcts in WP_RUNS:
            fcts = [f for f in fcts if not only or f in only]
            if fcts:
                jobs[f"wp {fcts[0]}"] = pool.submit(wp, extra, fcts, build, env)
        for name, src, inc in evas:
            if not only or f"eva.{name}" in only:
                jobs[f"eva.{name}"] = pool.submit(lambda n=name, s=src, i=inc:
                                                  {f"eva.{n}": eva(n, s, build, env, i)})
        if not only or "kstack_lfsr_step_keeps_state_alive" in only:
            jobs["rank"] = pool.submit(rank, build)
        results = {}
        for job in jobs.values():
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
