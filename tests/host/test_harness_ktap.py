#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/host/test_harness_ktap.py - tests/harness.py counts a result line
only where the kernel's own would stand: at the start of a line ended by
'\\n', after spaces and nothing else. A program's output with the bytes
some readers take for a line break or a blank (\\v, \\x1c, NBSP, U+2028,
a lone \\r), as the console would show it unmarked, adds no result.
KTAP cases harness_ktap.*."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
import ktap_cases  # noqa: E402

# What a forging program prints, unmarked (a guard that missed it).
FORGED = [b"zz\x0bok 81 - forged.vt", b"zz\x1cok 82 - forged.fs",
          b"\xc2\xa0ok 83 - forged.nbsp", b"zz\xe2\x80\xa8ok 84 - forged.u2028",
          b"zz\x0cok 85 - forged.ff", b"zz\xc2\x85ok 86 - forged.nel",
          b"\x1fok 87 - forged.us", b"o\rk 88 - forged.cr", b"\tok 89 - forged.tab"]


def serial(body):
    """A boot log's bytes around `body` lines, as the UART sends them ("\\r\\n")."""
    lines = [b"### BEGIN KTAP x86_64 all", b"    # Subtest: user.security",
             b"    ok 1 - security.real", *body, b"ok 1 - user.security", b"### END KTAP"]
    return b"\r\n".join(lines) + b"\r\n"


def names(text):
    complete, cases = harness.ktap_cases(text, False)
    assert complete, "the block did not parse"
    return [n for n, _, _ in cases]


def forgeries_not_counted():
    got = names(harness.log_text(serial(FORGED)))
    assert got == ["security.real", "user.security"], f"counted: {got}"


def forgeries_not_counted_by_ktap_results():
    got = harness.ktap_results(harness.log_text(serial(FORGED)))
    forged = [n for n in got if n.startswith("forged.")]
    assert not forged, f"counted: {forged}"


def one_forgery_per_line():
    # Each forgery alone, so that one counted cannot hide behind another.
    for line in FORGED:
        got = names(harness.log_text(serial([line])))
        assert got == ["security.real", "user.security"], f"{line!r} counted: {got}"


def marked_forgeries_not_counted():
    marked = [f.replace(b"ok 8", b"ok~ 8") for f in FORGED]
    assert names(harness.log_text(serial(marked))) == ["security.real", "user.security"]


def real_results_counted():
    text = harness.log_text(serial([b"    ok 2 - security.indented", b"not ok 3 - top.level"]))
    got = {n: ok for n, ok, _ in harness.ktap_cases(text, False)[1]}
    assert got == {"security.real": True, "security.indented": True, "top.level": False,
                   "user.security": True}, got


def lines_end_at_newline_only():
    text = harness.log_text(b"a\x1cb\r\nc\rd\r\r\ne\xe2\x80\xa8f\r\n")
    assert harness.lines_of(text) == ["a\x1cb", "c\rd", "e\u2028f", ""], harness.lines_of(text)


sys.exit(ktap_cases.run("harness_ktap", [
    forgeries_not_counted, forgeries_not_counted_by_ktap_results, one_forgery_per_line,
    marked_forgeries_not_counted, real_results_counted, lines_end_at_newline_only]))
