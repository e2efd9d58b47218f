/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The stackshift authors */
/*
 * lib/kstack/test/check.h - the smallest test framework: CHECK() records a
 * failure (file, line, expression) and carries on; RUN() runs one test and
 * prints "ok N - name" or "not ok N - name"; check_summary() prints
 * "N passed, N failed" and returns the exit status.
 */
#ifndef KSTACK_TEST_CHECK_H
#define KSTACK_TEST_CHECK_H

#include <stdio.h>

extern int check_failures; /* in the test running now */

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            printf("    # %s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);                  \
            check_failures++;                                                                      \
        }                                                                                          \
    } while (0)

#define CHECK_EQ(a, b)                                                                             \
    do {                                                                                           \
        unsigned long long check_a_ = (a), check_b_ = (b);                                         \
        if (check_a_ != check_b_) {                                                                \
            printf("    # %s:%d: %s == 0x%llx, expected 0x%llx\n", __FILE__, __LINE__, #a,         \
                   check_a_, check_b_);                                                            \
            check_failures++;                                                                      \
        }                                                                                          \
    } while (0)

/* Run test fn under its name. */
void check_run(const char *name, void (*fn)(void));
#define RUN(fn) check_run(#fn, fn)

/* Print "N passed, N failed"; 0 when none failed. */
int check_summary(void);

/* Where the known-answer files are (argv[1] of the test program). */
extern const char *check_vectors_dir;

#endif
