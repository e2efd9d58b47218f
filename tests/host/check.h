/* SPDX-License-Identifier: MIT */
/*
 * tests/host/check.h - a tiny KTAP-printing test framework for host unit tests.
 *
 * Each host test program is a list of TEST() functions run by RUN_TESTS();
 * every TEST prints one "ok N - name" or "not ok N - name" line (KTAP), and
 * the program exits non-zero when any failed. CHECK() records a failure with
 * the file, line and expression, and carries on, so one run shows every
 * broken case. tests/run.py collects these lines with the boot tests'.
 */
#ifndef TESTS_HOST_CHECK_H
#define TESTS_HOST_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures; /* failures in the current TEST */

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            printf("    # %s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);                  \
            check_failures++;                                                                      \
        }                                                                                          \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                                         \
    do {                                                                                           \
        long long check_a_ = (long long)(a), check_b_ = (long long)(b);                            \
        if (check_a_ != check_b_) {                                                                \
            printf("    # %s:%d: %s == %lld, expected %s == %lld\n", __FILE__, __LINE__, #a,       \
                   check_a_, #b, check_b_);                                                        \
            check_failures++;                                                                      \
        }                                                                                          \
    } while (0)

#define CHECK_EQ_STR(a, b)                                                                         \
    do {                                                                                           \
        const char *check_a_ = (a), *check_b_ = (b);                                               \
        if (strcmp(check_a_, check_b_) != 0) {                                                     \
            printf("    # %s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #a,         \
                   check_a_, check_b_);                                                            \
            check_failures++;                                                                      \
        }                                                                                          \
    } while (0)

#define TEST(name) static void name(void)

struct check_case {
    const char *name;
    void (*fn)(void);
};

#define CASE(fn)                                                                                   \
    {                                                                                              \
#fn, fn                                                                                    \
    }

/* Runs every case, prints KTAP, returns the exit status for main(). */
static inline int run_cases(const char *suite, const struct check_case *cases, int n)
{
    int failed = 0;
    printf("KTAP version 1\n# suite: %s\n1..%d\n", suite, n);
    for (int i = 0; i < n; i++) {
        check_failures = 0;
        cases[i].fn();
        printf("%sok %d - %s.%s\n", check_failures ? "not " : "", i + 1, suite, cases[i].name);
        failed += check_failures != 0;
    }
    return failed != 0;
}

#define RUN_TESTS(suite, ...)                                                                      \
    int main(void)                                                                                 \
    {                                                                                              \
        static const struct check_case cases_[] = {__VA_ARGS__};                                   \
        return run_cases(suite, cases_, (int)(sizeof(cases_) / sizeof(cases_[0])));                \
    }

#endif
