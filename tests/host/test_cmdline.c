/* SPDX-License-Identifier: MIT */
/* Host tests for lib/cmdline.c. */
#include <stdio.h>

#include "check.h"
#include "lib/cmdline.h"

TEST(find_and_get)
{
    const char *cl = " console=ttyS0,115200  ktest=all quiet  ktest=boot,fdt\tx=";
    char buf[16];
    CHECK(cmdline_get(cl, "console", buf, sizeof buf));
    CHECK_EQ_STR(buf, "ttyS0,115200");
    CHECK(cmdline_get(cl, "ktest", buf, sizeof buf)); /* the last one wins */
    CHECK_EQ_STR(buf, "boot,fdt");
    CHECK(cmdline_get(cl, "quiet", buf, sizeof buf));
    CHECK_EQ_STR(buf, "");
    CHECK(cmdline_get(cl, "x", buf, sizeof buf));
    CHECK_EQ_STR(buf, "");
    CHECK(!cmdline_get(cl, "cons", buf, sizeof buf)); /* prefixes do not match */
    CHECK(!cmdline_get(cl, "ttyS0", buf, sizeof buf));
    CHECK(cmdline_get(cl, "console", buf, 4));
    CHECK_EQ_STR(buf, "tty");
    CHECK(!cmdline_get("", "a", buf, sizeof buf));
}

TEST(flags_and_numbers)
{
    const char *cl = "a b=1 c=off d=yes n=42 h=0x1F bad=12z big=99999999999999999999999";
    CHECK(cmdline_flag(cl, "a"));
    CHECK(cmdline_flag(cl, "b"));
    CHECK(!cmdline_flag(cl, "c"));
    CHECK(cmdline_flag(cl, "d"));
    CHECK(!cmdline_flag(cl, "e"));
    CHECK_EQ_INT(cmdline_ulong(cl, "n", 7), 42);
    CHECK_EQ_INT(cmdline_ulong(cl, "h", 7), 31);
    CHECK_EQ_INT(cmdline_ulong(cl, "bad", 7), 7);
    CHECK_EQ_INT(cmdline_ulong(cl, "big", 7), 7);
    CHECK_EQ_INT(cmdline_ulong(cl, "missing", 7), 7);
}

TEST(lists)
{
    const char *l = "boot,fdt,acpi";
    CHECK(cmdline_list_has(l, 13, "boot"));
    CHECK(cmdline_list_has(l, 13, "acpi"));
    CHECK(!cmdline_list_has(l, 13, "fd"));
    CHECK(!cmdline_list_has(l, 12, "acpi")); /* length bounds the list */
    CHECK(!cmdline_list_has("", 0, "boot"));
}

RUN_TESTS("cmdline", CASE(find_and_get), CASE(flags_and_numbers), CASE(lists))
