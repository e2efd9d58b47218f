/* SPDX-License-Identifier: MIT */
/*
 * Host tests for lib/printf.c: every case is compared with the host libc's
 * snprintf (an independent implementation of the same C99 rules), plus the
 * truncation contract. lib/printf.c is compiled with its names prefixed lib_.
 */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "check.h"

int lib_snprintf(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Compare lib_snprintf with libc's for one format and arguments. */
#define SAME(...)                                                                                  \
    do {                                                                                           \
        char want_[256], got_[256];                                                                \
        int wn_ = snprintf(want_, sizeof want_, __VA_ARGS__);                                      \
        int gn_ = lib_snprintf(got_, sizeof got_, __VA_ARGS__);                                    \
        CHECK_EQ_STR(got_, want_);                                                                 \
        CHECK_EQ_INT(gn_, wn_);                                                                    \
    } while (0)

TEST(integers)
{
    SAME("%d %i %u", 0, -1, 42u);
    SAME("%d %d", INT_MAX, INT_MIN);
    SAME("%ld %lu", LONG_MIN, ULONG_MAX);
    SAME("%lld %llu", LLONG_MIN, ULLONG_MAX);
    SAME("%hhd %hhu %hd %hu", 300, 300, 70000, 70000);
    SAME("%zu %zd %td %jd", (size_t)123, (ssize_t)-5, (ptrdiff_t)-7, (intmax_t)INT64_MIN);
    SAME("%x %X %o", 0xdeadbeefu, 0xdeadbeefu, 0777u);
    SAME("%lx %llX", 0xffffffff80000000ul, 0x123456789abcdefull);
}

TEST(flags_width_precision)
{
    SAME("[%5d] [%-5d] [%05d] [%+d] [% d]", 42, 42, 42, 42, 42);
    SAME("[%08x] [%#x] [%#X] [%#o] [%#o]", 0xbeefu, 0xbeefu, 0xbeefu, 8u, 0u);
    SAME("[%.3d] [%8.3d] [%-8.3d]", 7, 7, -7);
    const char *zero_and_precision = "[%08.3d]"; /* C99: '0' is ignored */
    SAME(zero_and_precision, 7);
    SAME("[%.0d] [%.0x] [%5.0d] [%#.0o]", 0, 0u, 0, 0u);
    SAME("[%*d] [%-*d] [%*d] [%.*d]", 6, 1, 6, 1, -6, 1, 4, 3);
    SAME("[%+05d] [% 05d] [%-+5d]", 12, 12, 12);
    SAME("[%#016lx]", 0xffffffff80001234ul);
}

TEST(strings_and_chars)
{
    SAME("[%s] [%10s] [%-10s] [%.2s] [%*.*s]", "abc", "abc", "abc", "abc", 6, 1, "xyz");
    SAME("[%c] [%3c] [%-3c]", 'a', 'b', 'c');
    SAME("100%% done %s", "");
}

TEST(pointers)
{
    char buf[64];
    lib_snprintf(buf, sizeof buf, "%p", (void *)0xffffffff80001000ul);
    CHECK_EQ_STR(buf, "0xffffffff80001000");
    lib_snprintf(buf, sizeof buf, "%18p|", (void *)0x10ul);
    CHECK_EQ_STR(buf, "              0x10|");
}

TEST(truncation)
{
    char buf[8];
    memset(buf, 'z', sizeof buf);
    int n = lib_snprintf(buf, 5, "%s-%d", "abcdef", 12345);
    CHECK_EQ_INT(n, 12);
    CHECK_EQ_STR(buf, "abcd");
    CHECK(buf[5] == 'z'); /* nothing written past the given size */
    n = lib_snprintf(buf, 0, "%d", 99);
    CHECK_EQ_INT(n, 2);
    CHECK(buf[0] == 'a');
    n = lib_snprintf(buf, 1, "%d", 99);
    CHECK_EQ_INT(n, 2);
    CHECK_EQ_STR(buf, "");
}

TEST(random_formats_match_libc)
{
    /* A fixed-seed sweep over flag, width, precision and value combinations. */
    static const char *flags[] = {"", "-", "0", "+", " ", "#", "-+", "0#"};
    static const char *conv[] = {"d", "u", "x", "X", "o", "lld", "llx"};
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 5000; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        char fmt[32];
        int prec = (int)(s >> 40) % 12 - 1;
        int width = (int)(s >> 20) % 20;
        const char *c = conv[(s >> 8) % 7];
        if (prec < 0)
            snprintf(fmt, sizeof fmt, "%%%s%d%s", flags[s % 8], width, c);
        else
            snprintf(fmt, sizeof fmt, "%%%s%d.%d%s", flags[s % 8], width, prec, c);
        long long v = (long long)(s >> (s % 64));
        if (c[0] == 'l' || c[0] == 'd') {
            if (c[0] == 'l')
                SAME(fmt, v);
            else
                SAME(fmt, (int)v);
        } else {
            SAME(fmt, (unsigned)v);
        }
        if (check_failures) {
            printf("    # format was \"%s\"\n", fmt);
            return;
        }
    }
}

RUN_TESTS("printf", CASE(integers), CASE(flags_width_precision), CASE(strings_and_chars),
          CASE(pointers), CASE(truncation), CASE(random_formats_match_libc))
