/* SPDX-License-Identifier: MIT */
/* Host tests for lib/result_guard.c. */
#include <stdio.h>

#include "check.h"
#include "lib/result_guard.h"

/* What the console shows after `in` goes through a fresh guard, written in
 * pieces of `piece` bytes (one write each). */
static const char *guarded(const char *in, size_t piece, bool vouched)
{
    static char shown[512];
    struct result_guard g = {0};
    size_t n = strlen(in), len = 0;
    for (size_t i = 0; i < n; i += piece) {
        size_t k = n - i < piece ? n - i : piece;
        len += result_guard(&g, in + i, k, shown + len, vouched);
    }
    shown[len] = '\0';
    return shown;
}

TEST(results_are_marked)
{
    CHECK_EQ_STR(guarded("ok 1 - a.b\n", 64, false), "ok~ 1 - a.b\n");
    CHECK_EQ_STR(guarded("not ok 2 - a.b\n", 64, false), "not ok~ 2 - a.b\n");
    CHECK_EQ_STR(guarded("    ok 3 - a.b\n", 64, false), "    ok~ 3 - a.b\n");
    CHECK_EQ_STR(guarded("\t ok 3\n", 64, false), "\t ok~ 3\n");
    CHECK_EQ_STR(guarded("### END KTAP\n", 64, false), "##~# END KTAP\n");
    CHECK_EQ_STR(guarded("text\nok 4 - x\n", 64, false), "text\nok~ 4 - x\n");
    CHECK_EQ_STR(guarded("text\rok 4 - x\n", 64, false), "text\rok~ 4 - x\n");
}

/* Bytes some reader takes for a line break or a blank (Python's
 * splitlines() and strip(), a terminal): the line starts after them. */
TEST(lines_after_other_breaks_are_marked)
{
    CHECK_EQ_STR(guarded("zz\vok 1 - x\n", 64, false), "zz\vok~ 1 - x\n");
    CHECK_EQ_STR(guarded("zz\x1cok 1 - x\n", 64, false), "zz\x1cok~ 1 - x\n");
    CHECK_EQ_STR(guarded("zz\x1fok 1 - x\n", 64, false), "zz\x1fok~ 1 - x\n");
    CHECK_EQ_STR(guarded("\xc2\xa0ok 1 - x\n", 64, false), "\xc2\xa0ok~ 1 - x\n");
    CHECK_EQ_STR(guarded("zz\xe2\x80\xa8ok 1 - x\n", 64, false), "zz\xe2\x80\xa8ok~ 1 - x\n");
    CHECK_EQ_STR(guarded("zz\xc2\x85not ok 1 - x\n", 64, false), "zz\xc2\x85not ok~ 1 - x\n");
    CHECK_EQ_STR(guarded("zz\f###\n", 64, false), "zz\f##~#\n");
    for (size_t piece = 1; piece <= 3; piece++)
        CHECK_EQ_STR(guarded("zz\xe2\x80\xa9 ok 1\n", piece, false), "zz\xe2\x80\xa9 ok~ 1\n");
}

TEST(split_writes_are_marked)
{
    for (size_t piece = 1; piece <= 4; piece++) {
        CHECK_EQ_STR(guarded("not ok 1 - x\n", piece, false), "not ok~ 1 - x\n");
        CHECK_EQ_STR(guarded("  ok 1 - x\n", piece, false), "  ok~ 1 - x\n");
    }
}

TEST(other_text_is_untouched)
{
    const char *lines[] = {"okay 1\n", "hello ok 1 - x\n", "no ok\n",  "not okay\n",
                           "ok\n",     "# ok 1\n",         "## two\n", "nothing\n",
                           ""};
    for (unsigned i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
        CHECK_EQ_STR(guarded(lines[i], 64, false), lines[i]);
}

TEST(vouched_writers_are_untouched)
{
    CHECK_EQ_STR(guarded("ok 1 - a.b\n### END KTAP\n", 64, true), "ok 1 - a.b\n### END KTAP\n");
}

TEST(a_line_begun_by_a_vouched_writer)
{
    /* "o" from the kernel, "k 1 - x" from a program: still one forged line. */
    struct result_guard g = {0};
    char out[32];
    size_t len = result_guard(&g, "o", 1, out, true);
    len += result_guard(&g, "k 1 - x\n", 8, out + len, false);
    out[len] = '\0';
    CHECK_EQ_STR(out, "ok~ 1 - x\n");
}

RUN_TESTS("result_guard", CASE(results_are_marked), CASE(lines_after_other_breaks_are_marked),
          CASE(split_writes_are_marked), CASE(other_text_is_untouched),
          CASE(vouched_writers_are_untouched), CASE(a_line_begun_by_a_vouched_writer))
