#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""scripts/func_lengths.py - every function in user/, tests/ and scripts/
(or the files and folders named) that runs past LIMIT lines.

  python3 scripts/func_lengths.py [--limit N] [--all] [PATH ...]

A function's length is its lines from the one that names it to its last
(C: the closing brace; Python: its last statement), blank lines and
comments inside included. C is read with a small brace parse (comments,
strings and character constants skipped; a brace block at file level
whose text before it ends in `)` is a function), Python with `ast`.
ALLOWED lists the few functions that may be longer, each with its reason.
Prints `path:line: name is N lines` per function over the limit (and not
allowed) and exits 1 if there is one; --all prints every function.
Python standard library only.
"""
import argparse
import ast
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIMIT = 50
DEFAULT_PATHS = ["user", "tests", "scripts"]
# (path, function): why it stays longer than LIMIT. host.func_lengths fails
# on an entry no longer needed.
ALLOWED = {
    # (path, function): why it may run past LIMIT. Empty: no exception today.
}
# Folders under the default paths that are data or other people's code.
SKIP_DIRS = {"__pycache__"}


def strip_c(text):
    """The C text with comments, strings and character constants blanked
    out (newlines kept, so line numbers hold)."""
    out, i, n = [], 0, len(text)
    while i < n:
        two = text[i:i + 2]
        if two in ("/*", "//"):
            end = text.find("*/", i + 2) + 2 if two == "/*" else text.find("\n", i)
            end = n if end < 2 or end == -1 else end
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif text[i] in "\"'":
            j = i + 1
            while j < n and text[j] != text[i] and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (min(j, n - 1) + 1 - i))
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def without_preprocessor(text):
    """Preprocessor lines (and their continuations) blanked out."""
    lines, cont = text.split("\n"), False
    for k, line in enumerate(lines):
        if cont or line.lstrip().startswith("#"):
            cont = line.endswith("\\")
            lines[k] = ""
    return "\n".join(lines)


FUNC_HEAD = re.compile(r"(\w+)\s*\([^;{}]*\)\s*(?:__attribute__\s*\(\(.*?\)\)\s*)*$", re.S)


def c_functions(text):
    """(name, first line, last line) of each function defined in C text."""
    code = without_preprocessor(strip_c(text))
    found, depth, start, head_from = [], 0, 0, 0
    for i, ch in enumerate(code):
        if ch == "{":
            if depth == 0:
                m = FUNC_HEAD.search(code[head_from:i])
                start = (code.count("\n", 0, head_from + m.start()) + 1, m.group(1)) if m else None
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                if start and start[1] not in ("if", "for", "while", "switch"):
                    found.append((start[1], start[0], code.count("\n", 0, i) + 1))
                head_from = i + 1
        elif ch == ";" and depth == 0:
            head_from = i + 1
    return found


def py_functions(text):
    """(name, first line, last line) of each function and method in Python text."""
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.append((node.name, node.lineno, node.end_lineno))
    return found


def functions(path):
    """(name, first line, last line) of each function in a .c or .py file."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    return c_functions(text) if path.endswith(".c") else py_functions(text)


def source_files(paths):
    """The .c and .py files under the paths (relative to ROOT), sorted."""
    out = []
    for p in paths:
        full = os.path.join(ROOT, p)
        if os.path.isfile(full):
            out.append(p)
            continue
        for d, dirs, files in os.walk(full):
            dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS)
            out += [os.path.relpath(os.path.join(d, f), ROOT) for f in files
                    if f.endswith((".c", ".py"))]
    return sorted(out)


def long_functions(paths, limit=LIMIT):
    """(path, line, name, length) of each function over limit lines, not in ALLOWED."""
    out = []
    for path in source_files(paths):
        for name, first, last in functions(os.path.join(ROOT, path)):
            length = last - first + 1
            if length > limit and (path, name) not in ALLOWED:
                out.append((path, first, name, length))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*", default=DEFAULT_PATHS)
    ap.add_argument("--limit", type=int, default=LIMIT)
    ap.add_argument("--all", action="store_true", help="print every function's length")
    args = ap.parse_args()
    found = long_functions(args.paths, 0 if args.all else args.limit)
    for path, line, name, length in found:
        print(f"{path}:{line}: {name} is {length} lines")
    return 1 if found and not args.all else 0


if __name__ == "__main__":
    sys.exit(main())
