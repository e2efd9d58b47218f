# SPDX-License-Identifier: MIT
"""scripts/doc_table.py - a generated table kept in a doc between two marker
lines (docs/kstack.md's cost table, docs/ipc.md's stage table): print it,
write it in (--update FILE) or check that the doc holds it (--check FILE).
Standard library only.
"""
import sys


def replace_between(text, begin, end, lines):
    """text with the lines between the markers begin and end replaced."""
    start, stop = text.index(begin) + len(begin), text.index(end)
    return text[:start] + "\n" + "\n".join(lines) + "\n" + text[stop:]


def apply(lines, path, update, markers, remake):
    """Print lines (no path), write them between markers in path (update),
    or check path holds them; the exit status. remake: the command that
    writes the table again, for the message when the check fails."""
    if not path:
        print("\n".join(lines))
        return 0
    with open(path) as f:
        text = f.read()
    if markers[0] not in text or markers[1] not in text:
        print(f"{path} has no table markers ({markers[0]})", file=sys.stderr)
        return 1
    new = replace_between(text, *markers, lines)
    if update:
        with open(path, "w") as f:
            f.write(new)
        return 0
    if new != text:
        print(f"{path}: the table is not what its data gives (run {remake})", file=sys.stderr)
        return 1
    return 0
