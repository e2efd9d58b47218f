#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/host/test_bench_report.py - host tests of scripts/bench_report.py.

Runs the script on tests/host/bench_canned.log (3 rounds, x86_64, made-up
numbers chosen so the cells below are known by hand, system calls, IPC
round trips and one-way legs) and on edited copies of
it, and prints one KTAP line per case ("ok N - bench_report.<case>");
tests/run.py collects them. Exit status 1 when any case failed.
"""
import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import ktap_cases  # tests/host/ktap_cases.py: the cases run as KTAP

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CANNED = os.path.join(HERE, "bench_canned.log")

br = ktap_cases.load_script("bench_report")


def canned():
    with open(CANNED) as f:
        return f.read()


def run(log_text, *args, plots=False, env=None):
    """Run the script on log_text; (exit status, stdout + stderr, out dir files)."""
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "serial.log")
        with open(log, "w") as f:
            f.write(log_text)
        out = os.path.join(tmp, "out")
        cmd = [sys.executable, "-m", "scripts.bench_report", "--log", log, "--out", out, *args]
        if not plots:
            cmd.append("--no-plots")
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
        files = {}
        for name in sorted(os.listdir(out)) if os.path.isdir(out) else []:
            with open(os.path.join(out, name), "rb") as f:
                files[name] = f.read()
        return p.returncode, p.stdout + p.stderr, files


def table(output, heading):
    """{(row, stat): {column: cell}} of the Markdown table under a "## heading"."""
    lines = output.split("## " + heading, 1)[1].split("\n## ", 1)[0].splitlines()
    rows = [[c.strip() for c in l.strip().strip("|").split("|")] for l in lines if l.startswith("|")]
    head = rows[0]
    return {(r[0], r[1]): dict(zip(head, r)) for r in rows[2:]}


def expect(cond, what):
    if not cond:
        raise AssertionError(what)


def expect_eq(got, want, what):
    if got != want:
        raise AssertionError(f"{what}: got {got!r}, expected {want!r}")


OUT = run(canned())  # the canned log, once, shared by the cases that only read it
USER = table(OUT[1], "x86_64, user:")


def csv_header_and_rows():
    rc, _, files = OUT
    expect_eq(rc, 0, "exit status")
    lines = files["results.csv"].decode().splitlines()
    expect_eq(lines[0], "arch,counter,side,strategy,syscall,round,count,mean,p50,p99,p999,max",
              "header")
    expect_eq(len(lines) - 1, 99,
              "rows (36 user + 12 kernel + 30 ipc + 21 one-way; the malformed one dropped)")
    expect_eq(lines[1], "x86_64,tsc,user,off,getpid,0,100000,199.000,197,210,300,1200", "row 1")
    expect("x86_64,tsc,user,off,getppid,0,100000,209.500,207,220,310,1240" in lines, "209.500")


def percent_change():
    # getpid mean: off rounds 199/200/201, counter 205/206/207: 206/200 - 1.
    expect_eq(USER[("syscall/getpid", "mean")]["counter"], "+3.00% (R)", "counter getpid mean")
    # invalid mean: crng16 170 against off 150: +13.333%.
    expect_eq(USER[("syscall/invalid", "mean")]["crng16"], "+13.33% (R)", "crng16 invalid mean")
    expect_eq(USER[("syscall/getpid", "p99.9")]["crng16"], "+156.67% (R)", "crng16 getpid p99.9")
    change, _ = br.compare([199, 200, 201], [205, 206, 207])
    expect(abs(change - 3.0) < 1e-9, f"compare() change {change}")


def regression_mark():
    # prng getppid mean: 214.5 +- 1.24 against 210 +- 1.24: wholly above.
    expect_eq(USER[("syscall/getppid", "mean")]["prng"], "+2.14% (R)", "prng getppid mean")
    expect_eq(br.compare([10, 10.1, 10.2], [12, 12.1, 12.2])[1], "R", "compare() mark")


def improvement_mark():
    # counter getppid p99: 201 +- 2.48 against 222 +- 4.97: wholly below.
    expect_eq(USER[("syscall/getppid", "p99")]["counter"], "-9.46% (I)", "counter getppid p99")
    expect_eq(br.compare([12, 12.1, 12.2], [10, 10.1, 10.2])[1], "I", "compare() mark")


def overlap_no_mark():
    # counter getppid mean 180/200/220 (+-49.7) against 210 (+-1.24): overlap.
    expect_eq(USER[("syscall/getppid", "mean")]["counter"], "-4.76%", "counter getppid mean")
    # prng getppid p99 [223.5, 228.5] against off's [217.0, 227.0]: overlap.
    expect_eq(USER[("syscall/getppid", "p99")]["prng"], "+1.80%", "prng getppid p99")
    expect_eq(br.compare([1, 2, 3], [2, 3, 4])[1], "", "compare() mark")


def student_t():
    mean, lo, hi = br.interval([1, 2, 3])  # sd 1, df 2: t = 4.303
    expect(mean == 2 and abs(hi - 2 - 4.303 / 3 ** 0.5) < 1e-9 and abs(lo + hi - 4) < 1e-9,
           f"interval {mean} {lo} {hi}")
    expect_eq(br.t95(4), 2.776, "t95(4)")
    expect_eq(br.t95(35), 2.042, "t95(35) uses df 30")
    expect_eq(br.t95(1000), 1.960, "t95(1000)")
    expect_eq(br.interval([5])[1:], (None, None), "one round: no interval")


def absolute_off():
    row = USER[("syscall/getpid", "mean")]
    expect_eq(row["off (ticks)"], "200.000", "off mean ticks")
    expect_eq(row["off (ns)"], "200.0", "off mean ns at 1 GHz")
    expect_eq(USER[("syscall/invalid", "p99")]["off (ticks)"], "160", "off p99")
    _, out, _ = run(canned().replace("counter tsc 1000000000", "counter tsc 0"))
    expect("off (ns)" not in out, "no ns column when hz is 0")


def few_rounds():
    text = "\n".join(l for l in canned().splitlines() if not re.search(r"BENCH row \S+ \S+ \S+ [12] ", l))
    rc, out, files = run(text)
    expect_eq(rc, 0, "exit status")
    expect("fewer than 2 rounds" in out, "note about rounds missing")
    user = table(out, "x86_64, user:")
    expect(all("(R)" not in c and "(I)" not in c for r in user.values() for c in r.values()),
           "marks with one round")
    expect_eq(user[("syscall/getpid", "mean")]["counter"], "+3.02%", "205/199 - 1")


def icount_label():
    _, out, _ = run(canned().replace("BENCH icount 0", "BENCH icount 1"))
    expect("instructions (exact, -icount)" in out, "icount label")
    expect("not hardware timings" not in out, "TCG note with icount")
    expect("off (instructions)" in out, "column name with icount")
    expect("not hardware timings" in OUT[1], "TCG note without icount")
    expect("counter ticks (tsc)" in OUT[1], "tick label without icount")


def published_table():
    pub = table(OUT[1], "x86_64: beside")
    row = pub[("syscall/getpid", "mean")]
    expect_eq(row["old rdtsc [published, AWS Sapphire Rapids, VM]"], "+13.32%", "published old")
    expect_eq(row["counter [this run, user]"], "+3.00% (R)", "ours beside it")
    _, out, _ = run(canned().replace("BENCH arch x86_64", "BENCH arch arm64"))
    pub = table(out, "arm64: beside")
    expect_eq(pub[("syscall/invalid", "p99.9")]["old get_random_u16 [published, AWS Graviton3, "
                                                 "baseline ~0.19 us per syscall]"], "+168.83%", "arm64")
    expect_eq(pub[("syscall/invalid", "p99.9")]["crng16 [this run, user]"], "+168.00% (R)", "crng16")
    _, out, _ = run(canned().replace("BENCH arch x86_64", "BENCH arch riscv64"))
    expect("no published system call figures for riscv64" in out, "riscv64 note")


def noise_ignored():
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        runs = br.parse_log(["junk BENCH arch arm64\r\n", "[ 1.0] BENCH counter cntvct 62500000\r",
                             "BENCH row user off invalid 0 10 5000 5 5 5 5\r", "BENCHMARK row x",
                             "BENCH row user off invalid zero 10 5000 5 5 5 5"])
    expect("line 5: malformed record ignored" in err.getvalue(), "warning for line 5")
    run_ = runs["arm64"]
    expect_eq((run_.counter, run_.hz, len(run_.rows)), ("cntvct", 62500000, 1), "parsed")
    expect("malformed record ignored" in OUT[1], "warning for the canned malformed line")


def check_passes():
    rc, out, _ = run(canned(), "--check")
    expect_eq(rc, 0, "exit status")
    expect("check: ok" in out, "check line")


def check_fails_when_off_not_fastest():
    # Off's invalid rounds become 160-ish: counter (156) and prng (155) beat it.
    text = re.sub(r"(BENCH row user off invalid \d+ 100000 )\d+", r"\g<1>160000", canned())
    rc, out, _ = run(text, "--check")
    expect_eq(rc, 1, "exit status")
    expect("counter is faster than off on invalid by mean" in out, "names counter")
    expect("prng is faster than off on invalid by mean" in out, "names prng")
    rc, _, _ = run(canned().replace("BENCH end", ""), "--check")
    expect_eq(rc, 1, "an unfinished log fails --check")


def two_arches():
    # A log holding two arches: one subdirectory each, one table each.
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "serial.log")
        with open(log, "w") as f:
            f.write(canned() + canned().replace("BENCH arch x86_64", "BENCH arch riscv64"))
        br_out, out = os.path.join(tmp, "out"), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            rc = br.main(["--log", log, "--out", br_out, "--no-plots"])
        expect_eq(rc, 0, "exit status")
        out = out.getvalue()
        expect("## x86_64, user:" in out and "## riscv64, user:" in out, "both tables")
        for arch in ("x86_64", "riscv64"):
            with open(os.path.join(br_out, arch, "results.csv")) as f:
                rows = f.read().splitlines()[1:]
            expect_eq(len(rows), 99, f"{arch} rows")
            expect(all(r.startswith(arch + ",") for r in rows), f"{arch} rows' arch")


def plots():
    if not shutil.which("gnuplot"):
        return "SKIP gnuplot is not installed"
    rc, out, files = run(canned(), plots=True)
    expect_eq(rc, 0, "exit status")
    for name in ("tail-getpid.png", "tail-kernel-invalid.png", "cost-user.png", "cost-kernel.png"):
        expect(files.get(name, b"").startswith(b"\x89PNG"), f"{name} missing or not a PNG")
    expect("gnuplot failed" not in out, out)
    return None


def no_gnuplot():
    env = dict(os.environ, PATH=os.path.join(HERE, "no-such-dir"))
    rc, out, files = run(canned(), plots=True, env=env)
    expect_eq(rc, 0, "exit status")
    expect("gnuplot is missing" in out, "message")
    expect("results.csv" in files and not any(n.endswith(".png") for n in files), "files")


def null_budget():
    text = canned().replace("BENCH icount 0", "BENCH icount 1\nBENCH null 0 95 124 9\n"
                            "BENCH null 1 160 190 9")
    _, out, _ = run(text)
    expect("unknown number 95, getpid 124" in out, "null counts")
    expect("budget for the unknown number: 77 (a third of Linux 6.1's 230): 18 over" in out,
           "over budget")
    expect("timers on: unknown number 160 (+65), getpid 190 (+66)" in out, "timers' cost")
    expect("kstack.erase" not in out, "no erase line without its record")
    _, out, _ = run(text + "\nBENCH null 2 2060 2090 9")
    expect("kstack.erase on: unknown number 2060 (+1965), getpid 2090 (+1966)" in out,
           "the erase's cost")
    _, out, _ = run(text.replace("BENCH null 0 95", "BENCH null 0 77"))
    expect("230): within" in out, "within budget")
    _, out, _ = run(canned().replace("BENCH icount 0", "BENCH icount 0\nBENCH null 0 95 124 9"))
    expect("unknown number 95" in out and "budget" not in out, "no budget without icount")
    expect("Null system call" not in OUT[1], "nothing without a null record")


def ipc_rows():
    # The IPC rows reach the CSV with their names exactly, user side only,
    # and are ordered after the system calls.
    _, _, files = OUT
    lines = files["results.csv"].decode().splitlines()[1:]
    names = {l.split(",")[4] for l in lines if ",ipc/" in l}
    expect_eq(names, {"ipc/call0", "ipc/call4", "ipc/call64", "ipc/call0-xcpu",
                      "ipc/oneway-call0", "ipc/oneway-reply0", "ipc/oneway-call0-xcpu"},
              "ipc names")
    expect("x86_64,tsc,user,off,ipc/call0,0,2000,7090.000,7000,7500,9000,20000" in lines, "row")
    expect(not any(",kernel," in l and ",ipc/" in l for l in lines), "no kernel-side ipc rows")
    with contextlib.redirect_stderr(io.StringIO()):  # the malformed line's warning
        run_ = br.parse_log(canned().splitlines())["x86_64"]
    expect_eq(run_.keys("user", 2), ["getpid", "getppid", "invalid", "ipc/call0", "ipc/call4",
                                     "ipc/call64", "ipc/oneway-call0", "ipc/oneway-reply0",
                                     "ipc/call0-xcpu", "ipc/oneway-call0-xcpu"], "order")
    expect_eq(sum(b for b in run_.cdf[("user", "off", "ipc/call0")].values()), 6000, "ipc cdf")


def ipc_table():
    # ipc/call0 mean: off 7090/7100/7110, prng 7490/7500/7510: 7500/7100 - 1.
    expect_eq(USER[("ipc/call0", "mean")]["off (ticks)"], "7100.000", "off mean")
    expect_eq(USER[("ipc/call0", "mean")]["prng"], "+5.63% (R)", "prng call0 mean")
    expect_eq(USER[("ipc/call0", "mean")]["pool"], "-0.56%", "pool call0 mean: overlap")
    expect_eq(USER[("ipc/call64", "mean")]["prng"], "+2.49% (R)", "prng call64 mean")
    expect_eq(USER[("ipc/call64", "mean")]["pool"], "-4.98% (I)", "pool call64 mean")
    expect_eq(USER[("ipc/call4", "mean")]["pool"], "-", "no pool rows for call4")
    expect_eq(USER[("ipc/call0-xcpu", "mean")]["prng"], "+5.52% (R)", "prng xcpu mean")
    expect_eq(USER[("ipc/call0-xcpu", "p99")]["prng"], "+2.50% (R)", "xcpu p99 (no spread)")
    row = USER[("ipc/call0-xcpu", "p99.9")]
    expect_eq((row["off (ticks)"], row["prng"]), (">= 1048576", "overflow"), "overflow")
    expect("syscall/ipc" not in OUT[1], "ipc rows are not named syscall/")
    expect("ipc/: one round trip" in OUT[1] and "overflow: a percentile" in OUT[1], "notes")
    expect(not any(k[0].startswith("ipc/") for k in table(OUT[1], "x86_64, kernel:")),
           "no ipc rows in the kernel table")


def one_way_table():
    # ipc/oneway-call0 mean: off 3540/3550/3560, prng 3740/3750/3760: +5.63%;
    # pool 3520/3530/3540 overlaps off (half-width 24.8): no mark.
    expect_eq(USER[("ipc/oneway-call0", "mean")]["off (ticks)"], "3550.000", "off mean")
    expect_eq(USER[("ipc/oneway-call0", "mean")]["prng"], "+5.63% (R)", "prng call leg")
    expect_eq(USER[("ipc/oneway-call0", "mean")]["pool"], "-0.56%", "pool call leg: overlap")
    expect_eq(USER[("ipc/oneway-reply0", "mean")]["prng"], "+5.70% (R)", "prng reply leg")
    expect_eq(USER[("ipc/oneway-call0-xcpu", "mean")]["off (ticks)"], "91000.000", "xcpu")
    expect_eq(USER[("ipc/oneway-call0-xcpu", "mean")]["prng"], "-", "no prng xcpu leg")
    expect("ipc/oneway-: one way, measured" in OUT[1], "note")
    expect("half the round trip" not in OUT[1] and "derived" not in OUT[1], "nothing derived")
    expect_eq(br.SYSCALL_ORDER.index("ipc/oneway-reply64") + 1,
              br.SYSCALL_ORDER.index("ipc/call0-xcpu"), "one-way after the round trips")


def ipc_published():
    col = "this run: mean, off, same CPU (ticks)"
    pub = table(OUT[1], "x86_64: IPC beside")
    row = pub[("seL4 (sel4bench)", "Intel Skylake")]
    expect_eq((row["cycles"], row[col]), ("757", "7100.0 (ipc/call0)"), "x86_64")
    expect("not comparable" in OUT[1], "labelled not comparable")
    _, out, _ = run(canned().replace("BENCH arch x86_64", "BENCH arch arm64"))
    pub = table(out, "arm64: IPC beside")
    expect_eq(pub[("seL4 (sel4bench)", "Arm Cortex-A57")]["cycles"], "829", "A57")
    expect_eq(pub[("L4Re", "Arm Cortex-A76")][col], "3550.0 (ipc/oneway-call0)",
              "one-way beside the measured call leg")
    _, out, _ = run(canned().replace("BENCH arch x86_64", "BENCH arch riscv64")
                    .replace("BENCH icount 0", "BENCH icount 1"))
    row = table(out, "riscv64: IPC beside")[("seL4 (sel4bench)", "SiFive U54")]
    expect_eq(row["cycles"], "1128", "U54")
    expect_eq(row[col.replace("ticks", "instructions")], "7100.0 (ipc/call0)", "icount")
    _, out, _ = run("\n".join(l for l in canned().splitlines() if "ipc/" not in l))
    expect_eq(table(out, "x86_64: IPC beside")[("seL4 (sel4bench)", "Intel Skylake")][col], "-",
              "no ipc rows")


def check_fails_without_off_ipc():
    text = "\n".join(l for l in canned().splitlines() if "off ipc/call64 " not in l)
    rc, out, _ = run(text, "--check")
    expect_eq(rc, 1, "exit status")
    expect("no off rows for ipc/call64: nothing to compare with" in out, "names ipc/call64")


def check_fails_when_ipc_header_lies():
    # The header of the IPC rows names the strategies they were timed under:
    # a run of STRATEGIES=off+pool that says "off, prng and pool" fails, and
    # so does one that leaves out a strategy it timed.
    header = "under off, prng and pool, caller"
    expect(header in canned(), "the canned log has the header")
    text = "\n".join(l for l in canned().splitlines() if not re.search(r" prng ipc/", l))
    rc, out, _ = run(text, "--check")
    expect_eq(rc, 1, "prng named but not timed")
    expect("the IPC header says off, pool, prng but the IPC rows are timed under off, pool"
           in out, "says which")
    rc, _, _ = run(text.replace(header, "under off and pool, caller"), "--check")
    expect_eq(rc, 0, "the header that names off and pool passes")
    rc, _, _ = run(canned().replace(header, "under off and pool, caller"), "--check")
    expect_eq(rc, 1, "prng timed but not named")
    rc, _, _ = run(text.replace(header, "xx"), "--check")
    expect_eq(rc, 0, "a log without the header (an older bench) is not judged")


def timer_table():
    # Timer rows (side timer) get a table of their own, in the timer
    # counter's ticks at BENCH timer's rate, even under -icount; --check
    # does not ask them for an invalid row.
    rows = "\n".join(f"BENCH row timer {s} irq/timer{load} {r} 200 {v * 1000} {v} {v} {v} {v}"
                     for s, v in (("off", 40), ("prng", 44)) for load in ("", "-getpid")
                     for r in range(3))
    text = canned().replace("BENCH icount 0", "BENCH icount 1\nBENCH timer 62500000")
    rc, out, files = run(text.replace("BENCH end", rows + "\nBENCH end"), "--check")
    expect_eq(rc, 0, "check passes")
    t = table(out, "x86_64, timer:")
    expect_eq(t[("irq/timer", "mean")]["off (ticks)"], "40.000", "off in ticks, not instructions")
    expect_eq(t[("irq/timer", "mean")]["off (ns)"], "640.0", "ns at the timer's rate")
    expect_eq(t[("irq/timer-getpid", "mean")]["prng"], "+10.00% (R)", "prng")
    expect("ticks of the timer's counter (not instructions), 62500000 Hz" in out, "unit")
    expect("irq/: interrupt latency" in out, "note")
    expect(",timer,off,irq/timer," in files["results.csv"].decode(), "csv")
    expect(not any(k[0].startswith("irq/") for k in table(out, "x86_64, user:")), "own table")


def strategies_joined_by_comma():
    """make bench STRATEGIES=off,pool: the kernel's run.args splits at commas,
    so scripts/bench.py passes the names joined by '+' and refuses a name
    it does not know (else the second name was read as the -icount flag)."""
    bench = ktap_cases.load_script("bench")
    expect(bench.strategies_arg("off,prng,pool") == "off+prng+pool", "commas become '+'")
    expect(bench.strategies_arg("all") == "all", "all")
    for bad in ("off,bogus", "off,,pool", ""):
        try:
            bench.strategies_arg(bad)
            expect(False, f"{bad!r} refused")
        except Exception as e:  # argparse.ArgumentTypeError
            expect("unknown strategy" in str(e), f"{bad!r}: {e}")


CASES = [csv_header_and_rows, percent_change, regression_mark, improvement_mark, overlap_no_mark,
         student_t, absolute_off, few_rounds, icount_label, published_table, noise_ignored,
         check_passes, check_fails_when_off_not_fastest, two_arches, plots, no_gnuplot,
         null_budget, ipc_rows, ipc_table, one_way_table, ipc_published,
         check_fails_without_off_ipc, check_fails_when_ipc_header_lies, timer_table,
         strategies_joined_by_comma]


def main():
    return ktap_cases.run("bench_report", CASES)


if __name__ == "__main__":
    sys.exit(main())
