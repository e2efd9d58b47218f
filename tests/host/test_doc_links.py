#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/host/test_doc_links.py - the docs' links into the code hold
(scripts/check_doc_links.py on README.md and docs/), and the check catches
each way a link goes stale: a line that moved, a text that shows another
number than its anchor, a link without a title, a symbol that is gone or
only in a comment, a link it cannot read. KTAP: doc_links.<doc> and
doc_links.catches_<what>. Python standard library only.
"""
import os
import sys

import ktap_cases  # tests/host/ktap_cases.py: loads scripts/ as a package

links = ktap_cases.load_script("check_doc_links")

DOC = "docs/example.md"  # where the made-up texts below claim to live


def problems(text):
    return links.check_doc(DOC, {}, text)


def kmain_line():
    """The line of kernel/main.c that defines kmain."""
    with open(os.path.join(links.ROOT, "kernel", "main.c")) as f:
        return next(i for i, l in enumerate(f, 1) if l.startswith("void kmain("))


def cases():
    """(name, ok, diagnostics) of the checks on made-up texts."""
    n = kmain_line()
    good = f'[kernel/main.c:{n}](../kernel/main.c#L{n} "void kmain(")'
    drifted = good.replace(f"main.c:{n}", f"main.c:{n - 3}").replace(f"#L{n}", f"#L{n - 3}")
    out = [("a_good_link_passes", not problems(good), problems(good)),
           ("catches_a_line_that_moved", bool(problems(drifted)), [drifted]),
           ("catches_text_and_anchor_apart",
            bool(problems(good.replace(f"main.c:{n}]", f"main.c:{n + 1}]"))), [good]),
           ("catches_a_link_without_title",
            bool(problems(good.replace(' "void kmain("', ""))), [good]),
           ("catches_a_missing_file", bool(problems("[x](../kernel/no_such_file.c)")), []),
           ("catches_a_symbol_gone", bool(problems("`kernel/main.c:no_such_function()`")), []),
           ("catches_a_symbol_only_in_a_comment",
            bool(problems("`kernel/syscall/syscall.c:syscall_dispatch()`")), []),
           ("a_code_reference_passes", not problems("`kernel/main.c:kmain()`"),
            problems("`kernel/main.c:kmain()`")),
           ("catches_a_link_it_cannot_read",
            bool(problems(f'[a](../kernel/main.c#L{n} "void "kmain"")')), [])]
    fixed = links.fixed_text(DOC, drifted, {})
    out.append(("fix_moves_a_drifted_link_to_its_title", fixed == good, [drifted, fixed]))
    return out


def main():
    docs = links.default_files()
    made_up = cases()
    cache = {}
    checks = []
    for doc in docs:
        why = links.check_doc(doc, cache)
        name = "".join(c if c.isalnum() else "_" for c in doc[:-3])
        checks.append((name, not why, why))
    return ktap_cases.report("doc_links", checks + made_up)


if __name__ == "__main__":
    sys.exit(main())
