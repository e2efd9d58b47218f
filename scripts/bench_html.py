#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""scripts/bench_html.py - one page for people from `make bench`'s results.

  scripts/bench_html.py --dir build/bench [--arches "x86_64 arm64 riscv64"]

Reads, for each arch, what scripts/bench.py leaves in DIR/<arch>/: report.txt
(scripts/bench_report.py's printed tables, Markdown), results.csv and the
PNG plots, and writes DIR/index.html: one self-contained page (inline CSS,
the plots embedded as base64 data URIs) with the tables, the plots and
links to the CSV files (relative, beside the page). Prints the page's path.
Python standard library only.
"""
import argparse
import base64
import html
import os
import sys

CSS = """
body { font-family: sans-serif; margin: 2em auto; max-width: 1200px; color: #222;
       background: #fff; padding: 0 1em; }
h1 { border-bottom: 2px solid #345; padding-bottom: .2em; }
h2 { margin-top: 2em; color: #345; }
h3 { margin-top: 1.5em; }
table { border-collapse: collapse; margin: .5em 0 1em; font-size: 90%; }
th, td { border: 1px solid #bbb; padding: .25em .6em; text-align: right; }
th { background: #e8edf3; }
td:first-child, td:nth-child(2), th:first-child { text-align: left; }
tr:nth-child(even) td { background: #f6f8fa; }
p.note { color: #555; font-size: 90%; margin: .2em 0; }
pre { background: #f6f8fa; padding: .5em; overflow-x: auto; }
figure { display: inline-block; margin: .5em; }
figure img { max-width: 560px; border: 1px solid #ccc; }
figcaption { font-size: 85%; color: #555; }
nav a { margin-right: 1em; }
"""


def esc(s):
    return html.escape(s, quote=True)


def markdown_to_html(text):
    """The subset scripts/bench_report.py prints: '# ' and '## ' headings,
    '|' tables (second line the separator), other lines as notes."""
    out, table = [], []

    def flush():
        if not table:
            return
        rows = [[c.strip() for c in r.strip().strip("|").split("|")] for r in table]
        out.append("<table>")
        out.append("<tr>" + "".join(f"<th>{esc(c)}</th>" for c in rows[0]) + "</tr>")
        for r in rows[1:]:
            if all(set(c) <= set("-: ") for c in r):
                continue
            out.append("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in r) + "</tr>")
        out.append("</table>")
        table.clear()

    for line in text.splitlines():
        if line.startswith("|"):
            table.append(line)
            continue
        flush()
        if line.startswith("## "):
            out.append(f"<h3>{esc(line[3:])}</h3>")
        elif line.startswith("# "):
            out.append(f"<p><b>{esc(line[2:])}</b></p>")
        elif line.strip():
            out.append(f'<p class="note">{esc(line)}</p>')
    flush()
    return "\n".join(out)


def png_uri(path):
    with open(path, "rb") as f:
        return "data:image/png;base64," + base64.b64encode(f.read()).decode("ascii")


def arch_section(bench_dir, arch):
    d = os.path.join(bench_dir, arch)
    parts = [f'<h2 id="{esc(arch)}">{esc(arch)}</h2>']
    report = os.path.join(d, "report.txt")
    if os.path.exists(report):
        with open(report, errors="replace") as f:
            parts.append(markdown_to_html(f.read()))
    else:
        parts.append('<p class="note">no report (the benchmark did not run or failed)</p>')
    if os.path.exists(os.path.join(d, "results.csv")):
        parts.append(f'<p>raw rows: <a href="{esc(arch)}/results.csv">{esc(arch)}/results.csv</a>'
                     + (f' &middot; serial log: <a href="{esc(arch)}/bench.log">{esc(arch)}/bench.log'
                        "</a>" if os.path.exists(os.path.join(d, "bench.log")) else "") + "</p>")
    pngs = sorted(n for n in os.listdir(d) if n.endswith(".png")) if os.path.isdir(d) else []
    # What each strategy adds first, then the latency tails.
    pngs.sort(key=lambda n: (not n.startswith("cost-"), n))
    if pngs:
        parts.append("<div>")
        for n in pngs:
            parts.append(f'<figure><a href="{esc(arch)}/{esc(n)}"><img alt="{esc(n)}" '
                         f'src="{png_uri(os.path.join(d, n))}"></a>'
                         f"<figcaption>{esc(n)}</figcaption></figure>")
        parts.append("</div>")
    return "\n".join(parts)


def write_index(bench_dir, arches):
    arches = [a for a in arches if os.path.isdir(os.path.join(bench_dir, a))]
    body = [f"<h1>stackshift: make bench</h1>",
            '<p class="note">Per arch: the change of each stack offset strategy against '
            "<code>off</code> (scripts/bench_report.py), the comparison with the published "
            "figures, Debian's own Linux beside them (<code>make bench LINUX=1</code>) and the "
            "plots. Under QEMU TCG only ratios within one run mean anything; "
            "under <code>ICOUNT=1</code> the values are exact instruction counts.</p>",
            "<nav>" + "".join(f'<a href="#{esc(a)}">{esc(a)}</a>' for a in arches) + "</nav>"]
    body += [arch_section(bench_dir, a) for a in arches]
    page = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>stackshift benchmark</title><style>{CSS}</style></head>\n<body>\n"
            + "\n".join(body) + "\n</body></html>\n")
    path = os.path.join(bench_dir, "index.html")
    with open(path, "w") as f:
        f.write(page)
    return path


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", required=True, help="build/bench")
    ap.add_argument("--arches", default="x86_64 arm64 riscv64")
    args = ap.parse_args(argv)
    path = write_index(args.dir, args.arches.split())
    print(f"bench: the report for people: {os.path.abspath(path)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
