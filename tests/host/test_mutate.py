#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/host/test_mutate.py - host tests of tests/mutate.py's verdict on a
mutant whose build failed: lib/kstack's own tests failing during `make
host-tests` are a kill naming them (make test reports them as
host.kstack.<case>), a compiler error is build-failed, and a build-time
check the mutant names (check_dispatch) refusing the kernel is a kill.
One KTAP line per case; tests/run.py collects them."""
import os
import sys

import ktap_cases  # tests/host/ktap_cases.py: the cases run as KTAP
from ktap_cases import expect

sys.path.insert(0, os.path.join(ktap_cases.ROOT, "tests"))
import mutate  # noqa: E402  (tests/ is not a package)
import mutation  # noqa: E402

VERIFY = mutation.parse(os.path.join(ktap_cases.ROOT, "tests", "mutants",
                                     "verify_pool_ring_index_off_by_one.mut"))
LIB_RUN = """cc -O2 ... -o build/host/kstack/kstack_test
ok 1 - kstack.lfsr_known_answers
    # test/test_kernel.c:90: CHECK failed: same
not ok 2 - kstack.pool_same_as_kernel_pool
2 passed, 1 failed
make[1]: *** [Makefile:43: test] Error 1
"""


def unit_test_failure_is_a_kill():
    verdict, detail = mutate.build_verdict(VERIFY, "host", LIB_RUN)
    expect(verdict == "killed", f"{verdict}: {detail}")
    expect("host.kstack.pool_same_as_kernel_pool" in detail, detail)
    expect("lfsr_known_answers" not in detail, "a passing case is not named")


def compile_error_is_build_failed():
    out = "lib/kstack/kstack_pool.c:40:5: error: expected ';' before '}' token\n"
    verdict, detail = mutate.build_verdict(VERIFY, "host", out)
    expect(verdict == "build-failed" and "error" in detail, f"{verdict}: {detail}")


def named_build_check_is_a_kill():
    m = mutation.parse(os.path.join(ktap_cases.ROOT, "tests", "mutants",
                                    "kstack_mask_wider.mut"))
    out = "check_dispatch: x86_64: the dispatcher masks the offset with 0x7f0\n"
    verdict, detail = mutate.build_verdict(m, "x86_64", out)
    expect(verdict == "killed" and "x86_64.build.check_dispatch" in detail, f"{verdict}: {detail}")


CASES = [unit_test_failure_is_a_kill, compile_error_is_build_failed, named_build_check_is_a_kill]


if __name__ == "__main__":
    sys.exit(ktap_cases.run("mutate", CASES))
