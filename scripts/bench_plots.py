# SPDX-License-Identifier: MIT
"""scripts/bench_plots.py - the benchmark's pictures (scripts/bench_report.py
draws them through here; gnuplot).

tail-<syscall>.png, tail-kernel-<syscall>.png
    Latency tails as exceedance plots: for each strategy (and Debian's
    Linux, when its rows are in), the fraction of calls slower than x
    against x, both axes logarithmic. A CDF on a linear 0-to-1 axis puts
    every strategy's line at the top, where nothing can be told apart; here
    the tail (1 in 100, 1 in 1,000, ... calls) is spread over the picture.
cost-<side>.png
    What each strategy adds to a call: instructions (ticks under TCG) of
    the mean, p99 and p99.9 of getpid minus off's (Linux: randomize_kstack_offset
    =on minus =off), on a logarithmic axis (nothing drawn where it adds less
    than half an instruction), in two panels: the legacy designs (counter,
    crng16: the CRNG on every call costs hundreds of times more) on their
    own, so the others' few instructions are not flattened by them.
Python standard library only.
"""
import statistics

LEGACY = ["counter", "crng16"]
STATS = [("mean", "mean"), ("p99", "p99"), ("p999", "p99.9")]
TERMINAL = ('if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) '
            '{{ set terminal pngcairo noenhanced size {w},{h} }} '
            'else {{ set terminal png noenhanced size {w},{h} }}\n')


def quote(s):
    return '"' + s.replace('"', "'") + '"'


def exceedance(buckets):
    """[(x, fraction of calls at x or above)] from histogram buckets."""
    total, above, out = sum(buckets.values()), 0, []
    for lower in sorted(buckets, reverse=True):
        above += buckets[lower]
        out.append((lower, above / total))
    return out[::-1]


def tail_script(run, side, syscall, path, unit):
    """The gnuplot script of one exceedance plot, or None without data."""
    names = run.keys(side, 1) + sorted({k[1] for k in run.cdf if k[0] == side} -
                                       set(run.keys(side, 1)))
    series = [(s, run.cdf[(side, s, syscall)]) for s in names if (side, s, syscall) in run.cdf]
    series = [(s, b) for s, b in series if sum(b.values()) > 0]
    if not series:
        return None
    most = max(sum(b.values()) for _, b in series)
    out = [TERMINAL.format(w=1000, h=600), f"set output {quote(path)}",
           f"set title {quote(f'{run.arch} {syscall}, {side} side: latency tail per strategy')}",
           f"set xlabel {quote(unit + ' per call (x)')}",
           'set ylabel "fraction of calls taking x or more"', "set logscale xy",
           "set format y '%g'",
           f"set yrange [{0.5 / most:g}:2]", "set key outside right", "set grid"]
    plots, floor = [], 0.5 / most
    for i, (name, buckets) in enumerate(series):
        points = exceedance(buckets)
        out.append(f"$d{i} << EOD")
        out += [f"{max(x, 1)} {frac:.9g}" for x, frac in points]
        # No call took more than the last bucket: down to the floor there
        # (a series in one bucket, Linux's under -icount, is that line alone).
        out += [f"{max(points[-1][0], 1) + 1} {floor:.9g}", "EOD"]
        width = 3 if name.startswith("linux") else 2
        dash = " dashtype 2" if name.startswith("linux") else ""
        # fsteps: past a bucket's edge the fraction is already the next one's.
        plots.append(f"$d{i} using 1:2 with fsteps linewidth {width}{dash} title {quote(name)}")
    out.append("plot " + ", ".join(plots))
    return "\n".join(out) + "\n"


def added(run, side, strategy, field):
    """Mean per-round value of one stat minus its baseline's (off; for
    Linux's linux-on, linux-off); None without rows."""
    base = "linux-off" if strategy.startswith("linux") else "off"
    mine, ref = (run.values(side, s, "getpid", field) for s in (strategy, base))
    if not mine or not ref:
        return None
    return statistics.fmean(mine) - statistics.fmean(ref)


def cost_panel(run, side, names, title, block):
    """One panel's data block and plot command (a clustered histogram)."""
    out, high = [f"${block} << EOD", "name mean p99 p99.9"], 1.0
    for s in names:
        vals = [added(run, side, s, f) for f, _ in STATS]
        high = max([high] + [v for v in vals if v is not None])
        # A log axis: what adds less than half an instruction (or saves) is not drawn.
        out.append(" ".join([quote(s)] + ["?" if v is None or v < 0.5 else f"{v:.3f}"
                                          for v in vals]))
    out += ["EOD", f"set title {quote(title)}", f"set yrange [0.5:{high * 3:g}]",
            f"plot for [i=2:4] ${block} using i:xtic(1) title columnheader(i)"]
    return out


def cost_script(run, side, path, unit):
    """Two panels of added cost per strategy, or None without data."""
    others = [s for s in run.keys(side, 1) if s != "off" and s != "linux-off"]
    legacy = [s for s in others if s in LEGACY]
    modern = [s for s in others if s not in LEGACY]
    if not others:
        return None
    out = [TERMINAL.format(w=1200, h=600), f"set output {quote(path)}",
           "set style data histograms", "set style histogram clustered gap 1",
           "set style fill solid 0.8 border -1", "set grid ytics", 'set datafile missing "?"',
           "set xtics rotate by -30 nomirror", "set key top left", "set logscale y",
           f"set ylabel {quote(f'{unit} added to getpid')}",
           f"set multiplot layout 1,{2 if legacy and modern else 1} "
           f"title {quote(f'{run.arch}, {side} side: what each strategy adds to getpid')}"]
    if legacy:
        out += cost_panel(run, side, legacy, "legacy designs (the CRNG or a timestamp per call)",
                          "legacy")
    if modern:
        out += cost_panel(run, side, modern, "the others (Linux: on minus off)", "modern")
    out.append("unset multiplot")
    return "\n".join(out) + "\n"
