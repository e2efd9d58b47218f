/* SPDX-License-Identifier: MIT */
/*
 * Host tests for lib/string.c, compiled with names prefixed lib_ (see
 * lib_rename.h) and compared against the host libc on the same inputs,
 * including overlapping moves, every alignment and sign of the bytes.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

/* First: it renames lib/string.h's functions to lib_*, so they can be
 * compared with the host libc's in one program. */
#include "lib_rename.h"

#include "lib/string.h"
#undef memcpy
#undef memmove
#undef memset
#undef memcmp
#undef memchr
#undef strlen
#undef strnlen
#undef strcmp
#undef strncmp
#undef strchr

static int sign(int v)
{
    return (v > 0) - (v < 0);
}

TEST(copy_move_set)
{
    unsigned char a[64], b[64];
    for (int off = 0; off < 8; off++) {
        for (int n = 0; n < 40; n++) {
            for (int i = 0; i < 64; i++)
                a[i] = b[i] = (unsigned char)(i * 7 + 1);
            lib_memmove(a + off, a + 8, (size_t)n); /* overlapping, backward */
            memmove(b + off, b + 8, (size_t)n);
            CHECK(memcmp(a, b, 64) == 0);
            lib_memmove(a + 8, a + off, (size_t)n); /* overlapping, forward */
            memmove(b + 8, b + off, (size_t)n);
            CHECK(memcmp(a, b, 64) == 0);
            lib_memset(a + off, 0x80 + n, (size_t)n);
            memset(b + off, 0x80 + n, (size_t)n);
            CHECK(memcmp(a, b, 64) == 0);
            CHECK(lib_memcpy(a + 40, b + off, (size_t)(n % 24)) == a + 40);
            CHECK(memcmp(a + 40, b + off, (size_t)(n % 24)) == 0);
        }
    }
}

/* memcpy's word loop: every alignment of both ends and every length up to
 * 5 words, and not a byte past the end written. */
TEST(memcpy_words_and_tails)
{
    _Alignas(8) unsigned char src[64], dst[64], want[64];
    for (int i = 0; i < 64; i++)
        src[i] = (unsigned char)(i * 13 + 5);
    for (int doff = 0; doff < 8; doff++)
        for (int soff = 0; soff < 8; soff++)
            for (size_t n = 0; n <= 41; n++) {
                memset(dst, 0xee, 64);
                memset(want, 0xee, 64);
                memcpy(want + doff, src + soff, n);
                CHECK(lib_memcpy(dst + doff, src + soff, n) == dst + doff);
                CHECK(memcmp(dst, want, 64) == 0);
            }
}

TEST(compare_and_search)
{
    static const char *s[] = {"", "a", "ab", "abc", "abd", "\xff", "\x01", "abc\xe9"};
    for (unsigned i = 0; i < 8; i++) {
        CHECK_EQ_INT(lib_strlen(s[i]), strlen(s[i]));
        CHECK_EQ_INT(lib_strnlen(s[i], 2), strnlen(s[i], 2));
        for (unsigned j = 0; j < 8; j++) {
            CHECK_EQ_INT(sign(lib_strcmp(s[i], s[j])), sign(strcmp(s[i], s[j])));
            for (size_t n = 0; n < 5; n++)
                CHECK_EQ_INT(sign(lib_strncmp(s[i], s[j], n)), sign(strncmp(s[i], s[j], n)));
            size_t m = strlen(s[i]) < strlen(s[j]) ? strlen(s[i]) : strlen(s[j]);
            CHECK_EQ_INT(sign(lib_memcmp(s[i], s[j], m + 1)), sign(memcmp(s[i], s[j], m + 1)));
        }
        CHECK(lib_strchr(s[i], 'b') == strchr(s[i], 'b'));
        CHECK(lib_strchr(s[i], '\0') == strchr(s[i], '\0'));
        CHECK(lib_memchr(s[i], 'c', strlen(s[i])) == memchr(s[i], 'c', strlen(s[i])));
    }
}

TEST(strlcpy_terminates)
{
    char buf[8];
    memset(buf, 'x', sizeof buf);
    CHECK_EQ_INT(lib_strlcpy(buf, "hello world", 6), 11);
    CHECK_EQ_STR(buf, "hello");
    CHECK(buf[6] == 'x');
    CHECK_EQ_INT(lib_strlcpy(buf, "hi", sizeof buf), 2);
    CHECK_EQ_STR(buf, "hi");
    CHECK_EQ_INT(lib_strlcpy(buf, "abc", 0), 3);
    CHECK_EQ_STR(buf, "hi");
}

TEST(memzero_explicit_clears)
{
    unsigned char secret[32];
    memset(secret, 0xa5, sizeof secret);
    lib_memzero_explicit(secret, sizeof secret);
    for (unsigned i = 0; i < sizeof secret; i++)
        CHECK(secret[i] == 0);
}

RUN_TESTS("string", CASE(copy_move_set), CASE(memcpy_words_and_tails), CASE(compare_and_search),
          CASE(strlcpy_terminates), CASE(memzero_explicit_clears))
