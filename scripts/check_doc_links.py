#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""scripts/check_doc_links.py - the docs' links into the code, checked.

A link to a line of the code names what it points at, in the link's title:

    `kmain` ([kernel/main.c:279](../kernel/main.c#L279 "kmain"))

and it holds while line 279 of kernel/main.c contains `kmain`. For every
Markdown file given (default: README.md, docs/, docs/labs/, lib/kstack/*.md)
this checks, as KTAP (`host.doc_links.<file>`):

  - every relative link reaches a file or folder of the tree;
  - a link with a line anchor (#L<n>) has a title, line n exists and holds
    the title's text, and a line number the link's text shows (`file.c:n`,
    or a bare `n`) is n;
  - a code reference in backticks, `path/file.c:symbol` (or `symbol()`),
    names a file of the tree that contains the symbol as a whole word.

--fix moves every anchored link whose line no longer holds its title to
the line that does (the nearest one to the old number when several do),
in the anchor and in the text, and rewrites the file. It never guesses a
title: a link without one, or whose title is nowhere in its file, stays an
error to fix by hand. Python standard library only.
"""
import argparse
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# [text](target "title"): target has no spaces; the title is optional and
# may hold a quote as \" (CommonMark's escape). The text is what precedes
# on the same line (an image's alt text may start on an earlier one).
LINK = re.compile(r'\[([^\]\n]*)\]\(([^)\s]+)(?:\s+"((?:[^"\\]|\\.)*)")?\)'
                  r'|\]\(([^)\s]+)(?:\s+"((?:[^"\\]|\\.)*)")?\)')


def parts(m):
    """(text, target, title) of a LINK match; the title unescaped, or None."""
    text, target, title = (m.group(1), m.group(2), m.group(3)) if m.group(2) else \
        ("", m.group(4), m.group(5))
    return text, target, (re.sub(r'\\(.)', r"\1", title) if title is not None else None)


def quoted(title):
    """title as it is written inside a link's quotes."""
    return title.replace("\\", "\\\\").replace('"', '\\"')
CODE_REF = re.compile(r"`((?:[\w.-]+/)*[\w.-]+\.(?:c|h|S|py|mk|ld)):(\w+)(?:\(\w*\))?`")
SKIP_TARGET = re.compile(r"^(?:[a-z]+:|#|mailto:)")


def default_files():
    """The Markdown files whose links are checked."""
    names = ["README.md"] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))) + \
        sorted(glob.glob(os.path.join(ROOT, "docs", "labs", "*.md"))) + \
        sorted(glob.glob(os.path.join(ROOT, "lib", "kstack", "*.md")))
    return [os.path.relpath(os.path.join(ROOT, n), ROOT) for n in names]


def read_lines(path, cache):
    """The lines of a file of the tree (cached), or None if it is not one."""
    if path not in cache:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                cache[path] = f.read().split("\n")
        except (IsADirectoryError, FileNotFoundError):
            cache[path] = None
    return cache[path]


def resolve(doc, target):
    """(absolute path, line or None) of a relative link from doc."""
    path, _, anchor = target.partition("#")
    m = re.fullmatch(r"L(\d+)(?:-L?\d+)?", anchor)
    full = os.path.normpath(os.path.join(os.path.dirname(os.path.join(ROOT, doc)), path))
    return full, (int(m.group(1)) if m else None)


def shown_number(text):
    """The line number a link's text shows (`file.c:12` or `12`), or None."""
    m = re.fullmatch(r"(?:.*:)?(\d+)", text.strip())
    return int(m.group(1)) if m else None


def nearest_holding(lines, title, near):
    """The 1-based line nearest `near` that contains title, or None."""
    hits = [i + 1 for i, l in enumerate(lines) if title in l]
    return min(hits, key=lambda n: abs(n - near)) if hits else None


def link_problems(doc, m, cache):
    """What is wrong with one link (a list of strings)."""
    text, target, title = parts(m)
    if SKIP_TARGET.match(target) or target.startswith("http"):
        return []
    full, line = resolve(doc, target)
    if not os.path.exists(full):
        return [f"{target}: no such file"]
    if line is None:
        return []
    lines = read_lines(full, cache)
    where = os.path.relpath(full, ROOT)
    out = []
    if shown_number(text) is not None and shown_number(text) != line:
        out.append(f"[{text}]({target}): the text shows line {shown_number(text)}, "
                   f"the anchor {line}")
    if not title:
        out.append(f"[{text}]({target}): no title naming what line {line} holds")
    elif lines is None or line > len(lines) or title not in lines[line - 1]:
        moved = nearest_holding(lines or [], title, line)
        out.append(f"[{text}]({target}): {where}:{line} does not hold \"{title}\"" +
                   (f" (line {moved} does: scripts/check_doc_links.py --fix)" if moved
                    else " (nowhere in the file)"))
    return out


def code_text(path, lines):
    """The file's lines with its comments blanked (C's /* */ and //, and #
    in Python and make), so that a symbol only a comment still names counts
    as gone."""
    text = "\n".join(lines)
    if path.endswith((".c", ".h", ".S", ".ld")):
        text = re.sub(r"/\*.*?\*/", lambda c: re.sub(r"[^\n]", " ", c.group(0)), text, flags=re.S)
        text = re.sub(r"//[^\n]*", "", text)
    else:
        text = re.sub(r"(?m)#[^\n]*", "", text)
    return text


def code_ref_problems(m, cache):
    """What is wrong with a `path:symbol` reference."""
    path, symbol = m.group(1), m.group(2)
    if "/" not in path:
        return []          # a bare file name: not a path into the tree
    lines = read_lines(os.path.join(ROOT, path), cache)
    if lines is None:
        return [f"`{m.group(0)[1:-1]}`: no such file"]
    if not re.search(rf"\b{re.escape(symbol)}\b", code_text(path, lines)):
        return [f"`{m.group(0)[1:-1]}`: {path} has no {symbol}"]
    return []


def check_doc(doc, cache, text=None):
    """Every problem of one Markdown file (its text, if given, instead of
    what is on disk), as 'doc:line: problem'."""
    out = []
    if text is None:
        with open(os.path.join(ROOT, doc), encoding="utf-8") as f:
            text = f.read()
    for n, line in enumerate(text.split("\n"), 1):
        out += [f"{doc}:{n}: {p}" for m in LINK.finditer(line) for p in link_problems(doc, m, cache)]
        # a link this script cannot read (a quote inside its title, say) is
        # not checked: that is an error too, not a pass
        unread = LINK.sub("", line)
        out += [f"{doc}:{n}: a link this check cannot parse: {u.group(0)}"
                for u in re.finditer(r"\]\((?!https?:|#|mailto:)[^)]*\)", unread)]
        out += [f"{doc}:{n}: {p}" for m in CODE_REF.finditer(line) for p in code_ref_problems(m, cache)]
    return out


def fix_link(doc, m, cache):
    """The link m pointing at the line that holds its title (the nearest one
    to its old line), in its anchor and its text; m itself if none does."""
    text, target, title = parts(m)
    if not title or SKIP_TARGET.match(target) or target.startswith("http"):
        return m.group(0)
    full, line = resolve(doc, target)
    lines = read_lines(full, cache) if os.path.exists(full) else None
    if line is None or lines is None:
        return m.group(0)
    holds = line <= len(lines) and title in lines[line - 1]
    moved = line if holds else nearest_holding(lines, title, line)
    if moved is None or (moved == line and shown_number(text) in (None, line)):
        return m.group(0)
    if shown_number(text) is not None:
        text = re.sub(r"\d+$", str(moved), text.strip())
    path = target.partition("#")[0]
    opening = f"[{text}]" if m.group(2) else "]"
    return f'{opening}({path}#L{moved} "{quoted(title)}")'


def fixed_text(doc, text, cache):
    """text (of doc) with every movable link moved."""
    return LINK.sub(lambda m: fix_link(doc, m, cache), text)


def fix_doc(doc, cache):
    """Rewrite doc with every movable link moved; how many lines changed."""
    path = os.path.join(ROOT, doc)
    with open(path, encoding="utf-8") as f:
        old = f.read()
    new = fixed_text(doc, old, cache)
    if new != old:
        with open(path, "w", encoding="utf-8") as f:
            f.write(new)
    return sum(a != b for a, b in zip(old.split("\n"), new.split("\n")))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", help="Markdown files (default: README.md and docs/)")
    ap.add_argument("--fix", action="store_true", help="move drifted anchors to their titles' lines")
    args = ap.parse_args()
    files = [os.path.relpath(os.path.abspath(f), ROOT) for f in args.files] or default_files()
    cache = {}
    if args.fix:
        for doc in files:
            n = fix_doc(doc, cache)
            if n:
                print(f"{doc}: {n} lines with links moved")
    print("KTAP version 1")
    print(f"1..{len(files)}")
    failed = 0
    for i, doc in enumerate(files, 1):
        problems = check_doc(doc, cache)
        failed += bool(problems)
        name = "doc_links." + re.sub(r"[^\w]+", "_", doc[:-3] if doc.endswith(".md") else doc)
        print(f"{'not ok' if problems else 'ok'} {i} - {name}")
        for p in problems:
            print(f"    # {p}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
