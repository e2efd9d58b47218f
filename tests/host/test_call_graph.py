#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/host/test_call_graph.py - kernel/'s call graph has no circle beyond
the allowed ones and keeps its layering rules (scripts/call_graph.py), and
the check catches a circle, an upward call from a leaf and a forbidden
#include in made-up trees. KTAP: call_graph.<what>. Python standard
library only.
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import call_graph as cg  # noqa: E402
import ktap_cases  # noqa: E402 (tests/host/ktap_cases.py: the KTAP printer)


def problems(root):
    """The circles not allowed, the rules broken and the edges of the tree at root."""
    parsed = cg.parse_tree(root)
    edges = cg.graph(root, parsed)
    bad = [c for c in cg.circles(edges) if cg.allowed_as(c) is None]
    return [" ".join(c) for c in bad], cg.broken_rules(edges, parsed), edges


def made_up(files):
    """problems() of a tree of the given {path: text}."""
    with tempfile.TemporaryDirectory() as root:
        for rel, text in files.items():
            os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w") as f:
                f.write(text)
        return problems(root)


LEAF = {"kernel/latency/latency.c": "void latency_idle(void)\n{\n}\n",
        "kernel/syscall/path.c": "void syscall_path_time(int on)\n{\n    latency_idle();\n}\n"}


def cases():
    """(name, ok, diagnostics) of the checks on made-up trees."""
    loop = made_up({"kernel/a.c": "void a(void)\n{\n    b();\n}\n",
                    "kernel/b.c": "static int c;\nvoid b(void)\n{\n    a();\n}\n"})
    up = made_up(dict(LEAF, **{"kernel/latency/latency.c":
                               "void latency_idle(void)\n{\n    syscall_path_time(1);\n}\n"}))
    include = made_up(dict(LEAF, **{"kernel/sched/sched.c":
                                    '#include "kernel/latency/latency.h"\n'}))
    named = made_up({"kernel/a.c": "void a(void)\n{\n}\n",
                     "kernel/b.c": "/* a() */\nstruct s { int a; };\n"
                                   "void b(struct s *p)\n{\n    p->a = 1;\n}\n"})
    clean = made_up(LEAF)
    return [("catches_a_circle", loop[0] == ["kernel/a kernel/b"], loop),
            ("catches_a_leaf_calling_up", bool(up[1]), up),
            ("catches_a_forbidden_include", bool(include[1]), include),
            ("a_layered_tree_passes", not clean[0] and not clean[1], clean),
            ("a_field_or_comment_is_no_call", not named[2]["kernel/b"], named)]


def main():
    real = problems(cg.ROOT)
    table = real[2].get("kernel/syscall/syscall", {})
    checks = [("reads_the_tree", "kernel/syscall/sys_task" in table, [sorted(table)]),
              ("no_circle_beyond_the_allowed", not real[0], real[0]),
              ("layering_rules_kept", not real[1], real[1])] + cases()
    return ktap_cases.report("call_graph", checks)


if __name__ == "__main__":
    sys.exit(main())
