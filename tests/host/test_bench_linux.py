#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/host/test_bench_linux.py - host tests of the Linux side by side
parts that need no boot: Debian's Linux's rows in the benchmark report
(scripts/bench_linux.py, through scripts/bench_report.py --linux), the
pictures' data (scripts/bench_plots.py), the initramfs writer
(scripts/linux_run.py) and the recorder log's reading
(scripts/linux_conformance.py).

The Linux logs are tests/host/bench_linux_canned.log (randomize_kstack_offset
=on, made-up numbers) and the same with every figure of getpid's mean and
the null call lowered (=off), beside tests/host/bench_canned.log. One KTAP
line per case ("ok N - bench_linux.<case>"); tests/run.py collects them.
"""
import gzip
import os
import subprocess
import sys
import tempfile
import ktap_cases  # tests/host/ktap_cases.py: the cases run as KTAP
from ktap_cases import expect, load_script as load

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def read(name):
    with open(os.path.join(HERE, name)) as f:
        return f.read()


def linux_off(text):
    """The =off log: getpid's mean 100 lower, the null call 20 lower."""
    for old, new in ((" 600000 600 ", " 500000 500 "), (" 602000 600 ", " 502000 500 "),
                     (" 604000 600 ", " 504000 500 "),
                     ("null linux-on 400 500", "null linux-on 380 480")):
        text = text.replace(old, new)
    return text.replace("linux-on", "linux-off")


def report(linux_text, ours_extra="BENCH null 0 95 124 9\n"):
    """bench_report.py on the canned log (with a null line) and two Linux logs."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for name, text in (("ours", read("bench_canned.log").replace(
                "BENCH icount 0\n", "BENCH icount 0\n" + ours_extra)),
                ("on", linux_text), ("off", linux_off(linux_text))):
            paths.append(os.path.join(tmp, name + ".log"))
            with open(paths[-1], "w") as f:
                f.write(text)
        cmd = [sys.executable, "-m", "scripts.bench_report", "--log",
               paths[0], "--out", os.path.join(tmp, "out"), "--no-plots",
               "--linux", paths[1], "--linux", paths[2]]
        p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
        return p.returncode, p.stdout + p.stderr


def linux_table():
    rc, out = report(read("bench_linux_canned.log"))
    expect(rc == 0, out[-800:])
    expect("## x86_64: beside Debian's own Linux kernel" in out, "the Linux section")
    section = out.split("beside Debian's own Linux kernel", 1)[1]
    # stackshift off getpid mean 200.0 (199, 200, 201), prng 207.0, Linux off 502, on 602.
    expect("| syscall/getpid | mean | 200.0 | 207.0 | 502.0 | 602.0 |" in section,
           "the getpid mean row: " + section[:900])
    expect("stackshift off 95, Linux off 380 ticks: 0.25 of Linux's path" in section,
           "the null call's ratio")
    expect("stackshift prng +7 ticks at the p50 (+7.0 mean), Linux's randomize_kstack_offset=on "
           "+100 at the p50 (+100.0 mean)" in section, "what each adds: " + section[-900:])


def linux_columns_everywhere():
    rc, out = report(read("bench_linux_canned.log"))
    user = out.split("## x86_64, user:", 1)[1].split("\n## ", 1)[0]
    head = next(l for l in user.splitlines() if l.startswith("| syscall"))
    expect("linux-on" in head and "linux-off" in head, "Linux's columns in the seeds' table")


def other_arch_ignored():
    text = read("bench_linux_canned.log").replace("BENCH arch x86_64", "BENCH arch arm64")
    rc, out = report(text)
    expect(rc == 0 and "no Linux rows for an arch of this log" in out, out[-400:])
    expect("beside Debian's own Linux kernel" not in out, "no Linux section")


def exceedance():
    bp = load("bench_plots")
    got = bp.exceedance({100: 2, 10: 1, 1000: 1})
    expect(got == [(10, 1.0), (100, 0.75), (1000, 0.25)], f"exceedance {got}")


def tails_and_costs_show_linux():
    br, bl, bp = load("bench_report"), load("bench_linux"), load("bench_plots")
    runs = br.parse_log(read("bench_canned.log").splitlines())
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in (("on", read("bench_linux_canned.log")),
                           ("off", linux_off(read("bench_linux_canned.log")))):
            path = os.path.join(tmp, name + ".log")
            with open(path, "w") as f:
                f.write(text)
            bl.merge(runs["x86_64"], path, br.parse_log)
    run = runs["x86_64"]
    tail = bp.tail_script(run, "user", "getpid", "/dev/null", "ticks")
    expect('title "linux-on"' in tail and "set logscale xy" in tail, "a log-log tail with Linux")
    cost = bp.cost_script(run, "user", "/dev/null", "ticks")
    expect('"linux-on" 100.000' in cost, "Linux's added cost is on minus off")
    expect("legacy designs" in cost and "$legacy" in cost, "the legacy panel")
    expect('"crng16"' in cost.split("$modern")[0], "crng16 in the legacy panel")


def initramfs_is_newc():
    lr = load("linux_run")
    with tempfile.TemporaryDirectory() as tmp:
        src, out = os.path.join(tmp, "init"), os.path.join(tmp, "i.cpio.gz")
        with open(src, "wb") as f:
            f.write(b"\x7fELF" + b"x" * 5)
        lr.initramfs(out, [("init", src)])
        with gzip.open(out) as f:
            blob = f.read()
    names, pos = [], 0
    while True:
        expect(blob[pos:pos + 6] == b"070701", f"newc magic at {pos}")
        size, namesize = int(blob[pos + 54:pos + 62], 16), int(blob[pos + 94:pos + 102], 16)
        name = blob[pos + 110:pos + 110 + namesize - 1].decode()
        pos += 110 + namesize
        pos += -pos % 4
        data = blob[pos:pos + size]
        pos += size + (-size % 4)
        names.append((name, data))
        if name == "TRAILER!!!":
            break
    expect([n for n, _ in names] == ["dev", "dev/console", "init", "TRAILER!!!"],
           f"entries {[n for n, _ in names]}")
    expect(names[2][1] == b"\x7fELFxxxxx", "init's bytes")


def recorder_log():
    lc = load("linux_conformance")
    text = ("junk\r\nKSR start x86_64\r\nKSR s 0 400 416 0 1424\r\nKSR s 1 408\r\n"
            "KSR m 0 1 432 448\r\nKSR end 1 2\r\n")
    calls, trials, end = lc.parse(text)
    expect(calls == [(0, 400), (0, 416), (0, 1424), (1, 408)], f"calls {calls}")
    expect(trials == [(0, 1, 432, 448)] and end == (1, 2), f"trials {trials} end {end}")
    sample = lc.sample_text(calls, trials).splitlines()
    expect(sample[1:] == ["0 0", "0 16", "0 1024", "1 8", "migrate 0 1 32 48"], f"{sample}")
    expect(lc.geometry(calls) == (8, 4, 1024), f"geometry {lc.geometry(calls)}")


CASES = [linux_table, linux_columns_everywhere, other_arch_ignored, exceedance,
         tails_and_costs_show_linux, initramfs_is_newc, recorder_log]


def main():
    return ktap_cases.run("bench_linux", CASES)


if __name__ == "__main__":
    sys.exit(main())
