/* SPDX-License-Identifier: MIT */
/* kernel/ktest.c - select, run and report the in-kernel self-tests (see ktest.h). */
#include "kernel/ktest.h"

#include <stdarg.h>

#include "arch/arch.h"
#include "kernel/printk.h"
#include "lib/cmdline.h"
#include "lib/printf.h"
#include "lib/string.h"

extern const struct ktest __ktest_start[], __ktest_end[];

static int current_failures;

void ktest_fail(const char *file, int line, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    kprintf("    # %s:%d: %s\n", file, line, msg);
    current_failures++;
}

void ktest_note(const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    kprintf("    # %s\n", msg);
}

/* ktest=all, or a comma list of suites ("boot") and single tests ("boot.fdt");
 * a "-" in front leaves one out ("all,-kstack"). */
static bool selected(const struct ktest *t, const char *list, size_t len)
{
    char full[64], minus[66];
    snprintf(full, sizeof(full), "%s.%s", t->suite, t->name);
    snprintf(minus, sizeof(minus), "-%s", t->suite);
    if (cmdline_list_has(list, len, minus))
        return false;
    snprintf(minus, sizeof(minus), "-%s", full);
    if (cmdline_list_has(list, len, minus))
        return false;
    return cmdline_list_has(list, len, "all") || cmdline_list_has(list, len, t->suite) ||
           cmdline_list_has(list, len, full);
}

int ktest_run(const char *cmdline, const char *boot_path)
{
    const char *list;
    size_t len;
    if (!cmdline_find(cmdline, "ktest", &list, &len))
        return 0;
    int total = 0, failed = 0, n = 0;
    for (const struct ktest *t = __ktest_start; t < __ktest_end; t++)
        total += selected(t, list, len);
    kprintf("### BEGIN KTAP %s %s\nKTAP version 1\n1..%d\n", ARCH_NAME, boot_path, total);
    for (const struct ktest *t = __ktest_start; t < __ktest_end; t++) {
        if (!selected(t, list, len))
            continue;
        current_failures = 0;
        /* KTAP's subtest header: if the case never ends (a hang, a panic),
         * the reader knows which one it was. */
        kprintf("    # Subtest: %s.%s\n", t->suite, t->name);
        t->fn();
        failed += current_failures != 0;
        kprintf("%sok %d - %s.%s\n", current_failures ? "not " : "", ++n, t->suite, t->name);
    }
    kprintf("# ktest: %d passed, %d failed\n### END KTAP\n", total - failed, failed);
    return failed;
}
