/* SPDX-License-Identifier: MIT */
/*
 * kernel/ktest.h - in-kernel self-tests, reported in KTAP.
 *
 *   KTEST(boot, bss_is_zero) { KEXPECT(x == 0); }
 *
 * defines test "boot.bss_is_zero". Tests are collected by the linker (section
 * .ktest) in link order and run by ktest_run() when the command line asks
 * (ktest=all, or ktest=<suite>,<suite.name>,..., with -<suite> or -<suite.name>
 * to leave some out). Output:
 *
 *   ### BEGIN KTAP <arch> <boot path>
 *   KTAP version 1
 *   1..N
 *   ok 1 - boot.bss_is_zero
 *   not ok 2 - boot.something     (preceded by "# file:line: ..." lines)
 *   ### END KTAP
 *
 * tests/run.py reads the lines between the markers.
 */
#ifndef KERNEL_KTEST_H
#define KERNEL_KTEST_H

#include "kernel/types.h"

struct ktest {
    const char *suite;
    const char *name;
    void (*fn)(void);
};

#define KTEST(suite_, name_)                                                                       \
    static void ktest_##suite_##_##name_(void);                                                    \
    static const struct ktest ktest_entry_##suite_##_##name_                                       \
        __attribute__((used, section(".ktest"), aligned(8))) = {#suite_, #name_,                   \
                                                                ktest_##suite_##_##name_};         \
    static void ktest_##suite_##_##name_(void)

/* Record a failed expectation in the running test (the test goes on). */
void ktest_fail(const char *file, int line, const char *fmt, ...) __printf(3, 4);
/* Print a "# ..." diagnostic line inside the running test. */
void ktest_note(const char *fmt, ...) __printf(1, 2);

#define KEXPECT(cond)                                                                              \
    do {                                                                                           \
        if (!(cond))                                                                               \
            ktest_fail(__FILE__, __LINE__, "expected %s", #cond);                                  \
    } while (0)

#define KEXPECT_EQ(a, b)                                                                           \
    do {                                                                                           \
        unsigned long long ka_ = (unsigned long long)(a), kb_ = (unsigned long long)(b);           \
        if (ka_ != kb_)                                                                            \
            ktest_fail(__FILE__, __LINE__, "%s == %#llx, expected %s == %#llx", #a, ka_, #b, kb_); \
    } while (0)

/* Run the tests the command line selects; returns how many failed. */
int ktest_run(const char *cmdline, const char *boot_path);

#endif
