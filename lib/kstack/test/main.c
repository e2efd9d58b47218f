/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The stackshift authors */
/*
 * lib/kstack/test/main.c - runs every host test of lib/kstack:
 *     kstack_test <vectors dir>
 * test_vectors.c checks the library against tests/vectors/, test_bump.c the
 * stack bump itself, and (built only inside stackshift, where lib/lfsr113.c
 * and friends exist) test_kernel.c checks it against the kernel's code.
 */
#include "check.h"

#include <stdlib.h>

int check_failures;
const char *check_vectors_dir;
static int passed, failed;

void check_run(const char *name, void (*fn)(void))
{
    check_failures = 0;
    fn();
    if (check_failures)
        failed++;
    else
        passed++;
    printf("%sok %d - kstack.%s\n", check_failures ? "not " : "", passed + failed, name);
    fflush(stdout);
}

int check_summary(void)
{
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}

void run_vector_tests(void);
void run_bump_tests(void);
void run_kernel_tests(void);

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s <tests/vectors directory>\n", argv[0]);
        return 2;
    }
    check_vectors_dir = argv[1];
    run_vector_tests();
    run_bump_tests();
#ifdef KSTACK_TEST_KERNEL
    run_kernel_tests();
#endif
    return check_summary();
}
