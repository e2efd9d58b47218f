# SPDX-License-Identifier: MIT
"""scripts/bench_linux.py - Debian's own Linux beside stackshift in the
benchmark's report (scripts/bench_report.py --linux LOG, written by
`make bench LINUX=1`: scripts/bench.py boots Debian's kernel through
scripts/linux_run.py with randomize_kstack_offset=on and =off).

A Linux log holds the same BENCH records as user/bench's (linux/client/
lx_bench.c writes them): user-side rows and cdf lines whose strategy is
linux-on or linux-off, and one `BENCH linux-null NAME UNKNOWN GETPID EMPTY`
line, the fastest of 2000 calls as in BENCH null. merge() adds them to the
stackshift run of the same arch, so every table and plot shows them beside
every strategy; table() prints the absolute figures (instructions per call
under -icount: mean, p99, p99.9) and the ratios the README quotes.
Python standard library only.
"""
import re
import statistics

NULL = re.compile(r"\bBENCH linux-null (\S+) (\d+) (\d+) (\d+)")
RELEASE = re.compile(r"Linux version (\S+)")
SHOWN = ["off", "prng", "pool"]  # stackshift's columns beside Linux's
LINUX = ["linux-off", "linux-on"]


def merge(run, path, parse_log):
    """Add the rows, cdf buckets and null figures of one Linux log to run
    (a bench_report.Run of the same arch); the log's arch, or None."""
    with open(path, errors="replace") as f:
        # A record may follow the firmware's screen codes on one line
        # ("...[2JBENCH arch x86_64"): each BENCH starts a line of its own.
        lines = f.read().replace("BENCH ", "\nBENCH ").splitlines()
    runs = parse_log(lines)
    if not runs:
        return None
    arch, lx = next(iter(runs.items()))
    if run is None or arch != run.arch:
        return arch
    run.rows += [dict(r, counter=lx.counter) for r in lx.rows]  # Linux's own counter
    for key, buckets in lx.cdf.items():
        run.cdf.setdefault(key, {}).update(buckets)
    nulls = getattr(run, "linux_null", {})
    for line in lines:
        m = NULL.search(line)
        if m:
            nulls[m.group(1)] = tuple(int(x) for x in m.groups()[1:])
    run.linux_null = nulls
    return arch


def _mean(run, strategy, syscall, field):
    vals = run.values("user", strategy, syscall, field)
    return statistics.fmean(vals) if vals else None


def _fmt(x):
    return "-" if x is None else f"{x:.1f}"


def _ratio(a, b):
    return "-" if a is None or not b else f"{a / b:.2f}"


def figures_table(run):
    """Absolute figures, user side, per call: stackshift's and Linux's."""
    cols = [s for s in SHOWN if run.values("user", s, "getpid", "mean")]
    lx = [s for s in LINUX if run.values("user", s, "getpid", "mean")]
    head = ["syscall", "stat"] + [f"stackshift {s}" for s in cols] + \
        [f"Linux {s[6:]}" for s in lx] + ["pool / Linux on" if "pool" in cols and
                                          "linux-on" in lx else None]
    head = [h for h in head if h]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for sc in ("getpid", "getppid", "invalid"):
        for field, label in (("mean", "mean"), ("p99", "p99"), ("p999", "p99.9")):
            row = [f"syscall/{sc}", label] + [_fmt(_mean(run, s, sc, field)) for s in cols + lx]
            if len(head) > len(row):
                row.append(_ratio(_mean(run, "pool", sc, field), _mean(run, "linux-on", sc, field)))
            out.append("| " + " | ".join(row) + " |")
    return out


def ratio_lines(run):
    """The README's claims, as this run measured them."""
    u = "instructions" if run.icount else "ticks"
    out = []
    null = getattr(run, "linux_null", {})
    if 0 in run.null and "linux-off" in null:
        ours, theirs = run.null[0][0], null["linux-off"][0]
        out.append(f"null system call (an unknown number, fastest of 2000, counter reads "
                   f"included): stackshift off {ours}, Linux off {theirs} {u}: "
                   f"{ours / theirs:.2f} of Linux's path (the budget: a third)")
    def at(strategy, field):
        return _mean(run, strategy, "getpid", field)

    # p50: the path itself; the mean also carries the ticks and refills.
    for s in ("prng", "pool"):
        vals = [at(x, f) for x in (s, "off", "linux-on", "linux-off") for f in ("p50", "mean")]
        if None in vals:
            continue
        mine50, mine, off50, off, on50, on, loff50, loff = vals
        out.append(f"getpid, added by the offset: stackshift {s} {mine50 - off50:+.0f} {u} at "
                   f"the p50 ({mine - off:+.1f} mean), Linux's randomize_kstack_offset=on "
                   f"{on50 - loff50:+.0f} at the p50 ({on - loff:+.1f} mean)")
    if None not in (at("off", "p50"), at("linux-off", "p50")):
        out.append(f"getpid with no offset at all (p50): stackshift {at('off', 'p50'):.0f}, "
                   f"Linux {at('linux-off', 'p50'):.0f} {u} "
                   f"({at('off', 'p50') / at('linux-off', 'p50'):.2f} of Linux's)")
    return out


def table(run):
    """The section of the report, as lines; [] without Linux rows."""
    if not any(r["strategy"] in LINUX for r in run.rows):
        return []
    what = "instructions per call (-icount)" if run.icount else "counter ticks per call (TCG)"
    lines = [f"## {run.arch}: beside Debian's own Linux kernel", "",
             f"user side, round trip; {what}; per-round values averaged; Linux off/on: "
             "randomize_kstack_offset=off/on on its command line, same QEMU, CPU model and "
             "-icount settings, the same client code (linux/client/lx_bench.c)", ""]
    lines += figures_table(run) + [""] + ratio_lines(run)
    lines.append("the means and the upper percentiles also carry what lands in a timed call: "
                 "stackshift's latency timers, on during these blocks, drain their ring into "
                 "the histograms in one call of 512, and each kernel's timer ticks (stackshift "
                 "1000 a second, Debian's Linux 250); the p50 is the path itself")
    return lines

