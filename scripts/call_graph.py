#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""scripts/call_graph.py - the include and call graph of kernel/, and its circles.

A node is a unit: a file without its extension, so kernel/sched/sched.c and
kernel/sched/sched.h are one node (kernel/sched/sched). An edge A -> B is
either an #include of one of B's files in one of A's, or a use in A, inside
a function body or an initializer, of a function that only B defines (a
call, or its address taken: a table of handlers depends on them too).
Declarations do not count, and neither do macro bodies (they are counted
where they are expanded, only if that is a call spelt out). Functions
defined in more than one unit (the same static name twice) are left out.

A circle is a strongly connected component of more than one unit (Tarjan).
One is known and allowed, for its reason (ALLOWED below); any other is a
layering mistake. So is an edge that breaks one of RULES (the stack
offset strategies and the latency timers are leaves; the scheduler knows
neither, not even by #include). `--check` prints them and exits 1.

    scripts/call_graph.py            the circles, and the edges that tie each
    scripts/call_graph.py --edges    every edge A -> B (why: the symbol used)
    scripts/call_graph.py --check    exit 1 on a circle not in ALLOWED or a broken rule
    scripts/call_graph.py --root DIR the same for another checkout
Python standard library only.
"""
import argparse
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

# Circles that are the shape of the thing, not a mistake. A circle passes
# if all its units are in one of these sets.
ALLOWED = {
    "the IPC/handle/task loop": {
        # A handle table dispatches hold and release by kind into the
        # objects (endpoints, notifications, devices), which look handles
        # up in it; tasks own the tables and end the objects' waiters; the
        # objects sleep and wake threads; the scheduler tells the task
        # layer that a task's last thread died (task_ended_locked); the
        # user copies find the current task's address space.
        "kernel/ipc/", "kernel/task", "kernel/sched/sched", "kernel/sched/switch_core",
        "kernel/uaccess",
    },
}

# (from, to, why): no unit under `from` may use a function of one under `to`.
RULES = [
    ("kernel/kstack_offset/", ("kernel/syscall/", "kernel/sched/", "kernel/task", "kernel/ipc/"),
     "the stack offset strategies are a leaf: the system call layer switches the path"),
    ("kernel/latency/", ("kernel/syscall/", "kernel/sched/", "kernel/task", "kernel/ipc/"),
     "the latency timers are a leaf: the system call layer switches the path"),
    ("kernel/sched/", ("kernel/kstack_offset/", "kernel/latency/latency", "kernel/syscall/"),
     "the scheduler runs the layers above only through the idle work sched_init is given"),
    ("kernel/printk", ("kernel/console", "kernel/panic"),
     "printk is below the console and panic: the console hands it its writer"),
]
# (from, to, why): no file under `from` may #include one under `to`.
INCLUDE_RULES = [
    ("kernel/sched/", ("kernel/kstack_offset/", "kernel/latency/", "kernel/syscall/"),
     "the scheduler includes neither the strategies nor the timers"),
]

KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "_Alignof", "_Static_assert",
            "__typeof__", "typeof", "__asm__", "asm", "defined", "__attribute__",
            "__builtin_expect", "do", "else", "case", "goto", "_Generic"}


def strip(text):
    """The C text without comments, strings, characters and preprocessor lines
    (#include lines are read before this)."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'"(\\.|[^"\\\n])*"', '""', text)
    text = re.sub(r"'(\\.|[^'\\\n])*'", "''", text)
    out, cont = [], False
    for line in text.split("\n"):
        pre = cont or line.lstrip().startswith("#")
        cont = pre and line.rstrip().endswith("\\")
        out.append("" if pre else line)
    return "\n".join(out)


def top_level(text):
    """(head, body) for every top-level braced block: the text before its
    opening brace since the last ';' or '}' at depth 0, and the block."""
    blocks, depth, start, head_from = [], 0, 0, 0
    for i, ch in enumerate(text):
        if ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                blocks.append((text[head_from:start], text[start:i + 1]))
                head_from = i + 1
        elif ch == ";" and depth == 0:
            head_from = i + 1
    return blocks


FUNC_HEAD = re.compile(r"\b([A-Za-z_]\w*)\s*\([^()]*(\([^()]*\)[^()]*)*\)\s*$", re.S)


def parse(path):
    """(includes, defined functions, identifiers used in bodies) of one file."""
    with open(path, errors="replace") as f:
        raw = f.read()
    includes = re.findall(r'^\s*#\s*include\s+"([^"]+)"', raw, flags=re.M)
    text = strip(raw)
    defined, used = set(), set()
    for head, body in top_level(text):
        m = FUNC_HEAD.search(head)
        if m and "=" not in head:
            # A static function is its file's own, unless a header shares it.
            if path.endswith(".h") or not re.search(r"\bstatic\b", head):
                defined.add(m.group(1))
        elif "=" not in head:
            continue  # a struct, union or enum: field names, not uses
        # Not a field (after . or ->) and not a label or designator.
        used.update(re.findall(r"(?<![.>\w])\s*\b([A-Za-z_]\w*)\b(?!\s*:)", body))
    return includes, defined, used - KEYWORDS


def unit(rel):
    return os.path.splitext(rel)[0]


def kernel_files(root):
    for top, _, files in os.walk(os.path.join(root, "kernel")):
        for name in sorted(files):
            if name.endswith((".c", ".h")):
                yield os.path.relpath(os.path.join(top, name), root)


def parse_tree(root=ROOT):
    return {rel: parse(os.path.join(root, rel)) for rel in kernel_files(root)}


def graph(root=ROOT, parsed=None):
    """{unit: {unit: why}}, why being the first symbol seen that ties them."""
    parsed = parsed or parse_tree(root)
    owners = {}
    for rel, (_, defined, _) in parsed.items():
        for name in defined:
            owners.setdefault(name, set()).add(unit(rel))
    edges = {}
    for rel, (includes, _, used) in parsed.items():
        a = unit(rel)
        out = edges.setdefault(a, {})
        for name in sorted(used):
            own = owners.get(name, ())
            if len(own) == 1:
                b = next(iter(own))
                if b != a:
                    out.setdefault(b, name + "()")
    return edges


def circles(edges):
    """The strongly connected components of more than one unit (Tarjan), sorted."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(out)


def allowed_as(circle):
    """The name of the allowed loop that holds every unit of circle, or None."""
    for name, units in ALLOWED.items():
        if all(any(u == a or (a.endswith("/") and u.startswith(a)) for a in units)
               for u in circle):
            return name
    return None


def broken_rules(edges, parsed):
    """One line for each edge or #include that breaks RULES or INCLUDE_RULES."""
    out = []
    for frm, tos, why in RULES:
        for a in sorted(edges):
            for b, sym in sorted(edges[a].items()):
                if a.startswith(frm) and b.startswith(tos):
                    out.append(f"{a} -> {b} ({sym}): {why}")
    for frm, tos, why in INCLUDE_RULES:
        for rel, (includes, _, _) in sorted(parsed.items()):
            for inc in includes:
                if rel.startswith(frm) and inc.startswith(tos):
                    out.append(f"{rel} includes {inc}: {why}")
    return out


def describe(circle, edges):
    lines = []
    for a in circle:
        for b, why in sorted(edges.get(a, {}).items()):
            if b in circle:
                lines.append(f"    {a} -> {b} ({why})")
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 on a circle not allowed")
    ap.add_argument("--edges", action="store_true", help="print every edge")
    ap.add_argument("--root", default=ROOT, help="the checkout to read (default: this one)")
    args = ap.parse_args()
    parsed = parse_tree(args.root)
    edges = graph(args.root, parsed)
    if args.edges:
        for a in sorted(edges):
            for b, why in sorted(edges[a].items()):
                print(f"{a} -> {b} ({why})")
        return 0
    bad = 0
    for c in circles(edges):
        name = allowed_as(c)
        bad += name is None
        print(f"circle of {len(c)} units ({name or 'NOT ALLOWED'}):")
        if name is None or not args.check:
            print("\n".join(describe(c, edges)))
    rules = broken_rules(edges, parsed)
    for line in rules:
        print("broken rule: " + line)
    return 1 if args.check and (bad or rules) else 0


if __name__ == "__main__":
    sys.exit(main())
