# SPDX-License-Identifier: MIT
"""tests/host/ktap_cases.py - a host test script's cases as KTAP: one result
line per case (`<suite>.<function name>`), a case that raises fails with its
reason and the others still run, a case that returns a string is skipped
with that reason. Exit status 1 if any failed."""


def run(suite, cases):
    print(f"KTAP version 1\n# suite: {suite}\n1..{len(cases)}")
    failed = 0
    for n, case in enumerate(cases, 1):
        skip = None
        try:
            skip = case()
            ok = True
        except Exception as e:  # one broken case must not hide the others
            print(f"    # {type(e).__name__}: {e}")
            ok = False
        failed += not ok
        print(f"{'ok' if ok else 'not ok'} {n} - {suite}.{case.__name__}"
              + (f" # {skip}" if skip else ""))
    return 1 if failed else 0
