#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/host/test_func_lengths.py - no function in user/, tests/ or
scripts/ runs past scripts/func_lengths.py's LIMIT (about 50 lines) unless
its ALLOWED list names it with a reason, and that list holds nothing it no
longer needs; and the measure itself catches what it must: a long C
function (braces in comments and strings ignored, an initialiser at file
level not taken for one) and a long Python function or method.
KTAP: func_lengths.<tree> and func_lengths.<what>. Python standard library only.
"""
import os
import sys
import tempfile

import ktap_cases  # tests/host/ktap_cases.py: the cases run as KTAP
from ktap_cases import expect

lengths = ktap_cases.load_script("func_lengths")


def over_limit(tree):
    found = lengths.long_functions([tree])
    expect(not found, "; ".join(f"{p}:{line}: {name} is {n} lines (limit {lengths.LIMIT}; "
                                f"split it, or name it in ALLOWED with the reason)"
                                for p, line, name, n in found))


def user():
    over_limit("user")


def tests():
    over_limit("tests")


def scripts():
    over_limit("scripts")


def allowed_entries_still_needed():
    """Each ALLOWED function exists and is still over the limit."""
    stale = []
    for (path, name), why in lengths.ALLOWED.items():
        expect(why.strip(), f"{path}: {name} is allowed without a reason")
        full = os.path.join(lengths.ROOT, path)
        found = lengths.functions(full) if os.path.exists(full) else []
        if not any(n == name and last - first + 1 > lengths.LIMIT for n, first, last in found):
            stale.append(f"{path}: {name}")
    expect(not stale, "no longer over the limit or gone (drop them from ALLOWED): "
           + ", ".join(stale))


def catches_a_long_function():
    """A file with a 51-line function and a 50-line one: only the first is reported."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "case.c")
        with open(path, "w") as f:
            f.write("int longer(int x)\n{\n" + body(47) + "    return x;\n}\n"
                    "int limit(int x)\n{\n" + body(46) + "    return x;\n}\n")
        got = [(name, n) for _, _, name, n in lengths.long_functions([path])]
    expect(got == [("longer", 51)], f"reported {got}, expected longer (51 lines) alone")


def body(n):
    return "".join(f"    x += {i};\n" for i in range(n))


def c_length_measured():
    text = ("/* { a brace in a comment */\n"
            "static const int table[] = {\n1,\n2,\n};\n"
            "struct s { int a; };\n"
            "static int f(int x)\n{\n" + body(60) + "    return x; /* } */\n}\n"
            "int g(void) { const char *s = \"}{\"; return s[0]; }\n")
    got = {name: last - first + 1 for name, first, last in lengths.c_functions(text)}
    expect(got == {"f": 64, "g": 1}, f"functions measured {got}, expected f: 64 lines, g: 1")


def c_macro_function_measured():
    text = "TEST(navigation)\n{\n" + body(55) + "}\n"
    got = [(name, last - first + 1) for name, first, last in lengths.c_functions(text)]
    expect(got == [("TEST", 58)], f"measured {got}, expected TEST: 58 lines")


def python_length_measured():
    text = ("def f(x):\n" + body(55).replace("    x +=", "    x = x +") + "    return x\n\n\n"
            "class C:\n    def m(self):\n        return 1\n")
    got = {name: last - first + 1 for name, first, last in lengths.py_functions(text)}
    expect(got == {"f": 57, "m": 2}, f"functions measured {got}, expected f: 57 lines, m: 2")


if __name__ == "__main__":
    sys.exit(ktap_cases.run("func_lengths", [user, tests, scripts, allowed_entries_still_needed, catches_a_long_function,
                                             c_length_measured, c_macro_function_measured,
                                             python_length_measured]))
