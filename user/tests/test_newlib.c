/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_newlib.c - the C library user programs get (newlib 3.3.0 and
 * its port in lib/user/): printf formatting, floating point included,
 * against the strings the C standard says; strtod; qsort; memcpy and
 * memmove at every small alignment and overlap; errno from the kernel's
 * -errno results; atexit, exit() and abort() as seen by a parent through
 * sys_wait(). The newlib.* subtests of the kernel's newlib.libc test.
 * (The malloc stress is user/tests/test_malloc.c.)
 */
#include <fcntl.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>

#include "lib/user/console_client.h"
#include "lib/user/ipc.h"
#include "lib/user/ulib.h"

/* snprintf one case into buf and compare; *ok goes false on a mismatch. */
#define FMT(ok, want, ...)                                                                         \
    do {                                                                                           \
        char buf_[128];                                                                            \
        int n_ = snprintf(buf_, sizeof(buf_), __VA_ARGS__);                                        \
        if (strcmp(buf_, want) != 0 || n_ != (int)strlen(want)) {                                  \
            ktap_note("snprintf(%s) gave \"%s\" (%d), expected \"%s\"", #__VA_ARGS__, buf_, n_,    \
                      want);                                                                       \
            ok = false;                                                                            \
        }                                                                                          \
    } while (0)

static void test_printf(void)
{
    bool ok = true;
    FMT(ok, "42|   42|42   |00042|+7| 7", "%d|%5d|%-5d|%05d|%+d|% d", 42, 42, 42, 42, 7, 7);
    FMT(ok, "ff FF 0xff 10 010 005 |    42", "%x %X %#x %o %#o %.3d |%*d", 255, 255, 255, 8, 8, 5,
        6, 42);
    FMT(ok, "-9223372036854775808 18446744073709551615", "%lld %llu", LLONG_MIN, ULLONG_MAX);
    FMT(ok, "12345 -3 -1 44 %", "%zu %td %jd %hhd %%", (size_t)12345, (ptrdiff_t)-3, (intmax_t)-1,
        300);
    FMT(ok, "0x1234", "%p", (void *)0x1234);
    ktap_check(ok, "newlib.snprintf_integers");

    ok = true;
    FMT(ok, "abc|       abc|abc       |abc|xyz", "%s|%10s|%-10s|%.3s|%c%c%c", "abc", "abc", "abc",
        "abcdef", 'x', 'y', 'z');
    ktap_check(ok, "newlib.snprintf_strings");

    ok = true;
    FMT(ok, "3.141590 2.67 0 2 2", "%f %.2f %.0f %.0f %.0f", 3.14159, 2.675, 0.5, 1.5, 2.5);
    FMT(ok, "1.234568e+04 1.230000E-04 -0.000e+00", "%e %E %.3e", 12345.678, 0.000123, -0.0);
    FMT(ok, "100000 1e+06 0.0001 1e-05", "%g %g %g %g", 100000.0, 1000000.0, 0.0001, 1e-5);
    FMT(ok, "     3.142|3.142     |+2.0", "%10.3f|%-10.3f|%+.1f", 3.14159, 3.14159, 2.0);
    FMT(ok, "inf -inf nan", "%f %f %f", (double)INFINITY, -(double)INFINITY, (double)NAN);
    FMT(ok, "0.3333333333 0.10000000000000001", "%.10f %.17g", 1.0 / 3, 0.1);
    FMT(ok, "100000000000000000000.000000", "%f", 1e20);
    FMT(ok, "0x1p+0 0x1.8p+1", "%a %a", 1.0, 3.0);
    FMT(ok, "1.500 2.718281828", "%.3Lf %.9Lf", 1.5L, 2.718281828459045L);
    FMT(ok, "1.414214 2.7183 0.5000 1024", "%.6f %.4f %.4f %.0f", sqrt(2.0), exp(1.0),
        sin(M_PI / 6), pow(2.0, 10.0));
    ktap_check(ok, "newlib.snprintf_floating_point");

    static char word[] = "truncated"; /* not const: gcc would flag the truncation */
    char small[8];
    int n = snprintf(small, sizeof(small), "%s-%d", word, 12345);
    ktap_check(n == 15 && strcmp(small, "truncat") == 0, "newlib.snprintf_truncates_and_counts");

    /* stdout and stderr are the console: the counts say every byte went out. */
    const char *line = "    # newlib: printf on stdout\n";
    bool out = printf("%s", line) == (int)strlen(line);
    out &= fprintf(stderr, "    # newlib: fprintf on stderr, %.1f\n", 0.5) ==
           (int)strlen("    # newlib: fprintf on stderr, 0.5\n");
    out &= puts("    # newlib: puts") >= 0 && fflush(stdout) == 0 && !ferror(stdout);
    ktap_check(out, "newlib.printf_stdout_stderr");
}

static void test_strtod(void)
{
    char *end;
    bool ok = strtod("3.14159", &end) == 3.14159 && *end == '\0';
    ok &= strtod("  -1.5e3xyz", &end) == -1500.0 && strcmp(end, "xyz") == 0;
    ok &= strtod("0x1.8p1", NULL) == 3.0;
    ok &= strtod("0.1", NULL) == 0.1 && strtod("2.2250738585072014e-308", NULL) == DBL_MIN;
    ok &= isinf(strtod("inf", NULL)) && strtod("-INFINITY", NULL) < 0 && isnan(strtod("nan", NULL));
    const char *junk = "abc";
    ok &= strtod(junk, &end) == 0.0 && end == junk;
    errno = 0;
    ok &= strtod("1e400", NULL) == HUGE_VAL && errno == ERANGE;
    errno = 0;
    ok &= strtod("1e-400", NULL) == 0.0 && errno == ERANGE;
    ok &= strtol("-0x7f", NULL, 16) == -127 && atoi("  123abc") == 123;
    ktap_check(ok, "newlib.strtod");
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void test_qsort(void)
{
    static int v[3000];
    unsigned n = sizeof(v) / sizeof(v[0]), seed = 12345;
    for (unsigned i = 0; i < n; i++)
        v[i] = (int)i;
    for (unsigned i = n - 1; i > 0; i--) { /* Fisher-Yates with an LCG */
        seed = seed * 1103515245u + 12345u;
        unsigned j = (seed >> 8) % (i + 1);
        int t = v[i];
        v[i] = v[j], v[j] = t;
    }
    qsort(v, n, sizeof(v[0]), cmp_int);
    bool ok = true;
    for (unsigned i = 0; i < n; i++)
        ok &= v[i] == (int)i;
    const char *words[] = {"pear", "apple", "fig", "banana", "cherry", "apple", "date"};
    qsort(words, 7, sizeof(words[0]), cmp_str);
    const char *sorted[] = {"apple", "apple", "banana", "cherry", "date", "fig", "pear"};
    for (int i = 0; i < 7; i++)
        ok &= strcmp(words[i], sorted[i]) == 0;
    qsort(v, 0, sizeof(v[0]), cmp_int); /* nothing to do, must not touch v */
    ktap_check(ok && v[0] == 0, "newlib.qsort");
}

/* memcpy between buffers and memmove inside one, at every small source and
 * destination offset and length, against a byte-by-byte reference. */
static void test_memcpy_memmove(void)
{
    static unsigned char a[160], b[160], want[160];
    unsigned bad_copy = 0, bad_move = 0;
    for (unsigned s = 0; s < 16; s++)
        for (unsigned d = 0; d < 16; d++)
            for (unsigned len = 0; len <= 80; len++) {
                for (unsigned i = 0; i < sizeof(a); i++)
                    a[i] = (unsigned char)(i * 7 + 1), b[i] = want[i] = 0xee;
                for (unsigned i = 0; i < len; i++)
                    want[d + i] = a[s + i];
                memcpy(b + d, a + s, len);
                bad_copy += memcmp(b, want, sizeof(b)) != 0;
                /* memmove: source and destination overlap whenever they are
                 * closer than len (both directions, s < d and s > d). */
                for (unsigned i = 0; i < sizeof(a); i++)
                    want[i] = a[i];
                for (unsigned i = 0; i < len; i++)
                    want[d + 8 + i] = a[s + 8 + i];
                memmove(a + d + 8, a + s + 8, len);
                bad_move += memcmp(a, want, sizeof(a)) != 0;
            }
    if (bad_copy || bad_move)
        ktap_note("%u memcpy and %u memmove cases wrong", bad_copy, bad_move);
    ktap_check(bad_copy == 0, "newlib.memcpy_alignments");
    ktap_check(bad_move == 0, "newlib.memmove_overlaps");
    char s[] = "hello, world";
    ktap_check(strlen(s) == 12 && strchr(s, 'w') == s + 7 && memchr(s, 'z', 12) == NULL &&
                   strncmp(s, "help", 3) == 0 && strcmp(s, "hello") > 0,
               "newlib.string_functions");
}

static void test_errno(void)
{
    errno = 0;
    bool ok = write(99, "x", 1) == -1 && errno == EBADF;
    KTAP_EXPECT_EQ(ok, 1, "newlib.errno_bad_fd");
    /* The kernel's -EFAULT, from the debug console's SYS_write (through the
     * console server the bytes are copied in this program, like memcpy). */
    fflush(stdout);
    console_client_use(CONSOLE_DEBUG);
    errno = 0;
    ok = write(1, (const void *)16, 4) == -1 && errno == EFAULT;
    console_client_use(IPC_CONSOLE_HANDLE);
    KTAP_EXPECT_EQ(ok, 1, "newlib.errno_from_kernel_efault");
    errno = 0;
    ok = sbrk(1l << 40) == (void *)-1 && errno == ENOMEM;
    ok &= malloc(SIZE_MAX / 2) == NULL && errno == ENOMEM;
    KTAP_EXPECT_EQ(ok, 1, "newlib.errno_enomem");
    errno = 0;
    ok = open("/etc/passwd", O_RDONLY) == -1 && errno == ENOSYS;
    KTAP_EXPECT_EQ(ok, 1, "newlib.errno_no_file_system");
    /* An unknown call: the kernel's ENOSYS (38) comes out as newlib's (88). */
    KTAP_EXPECT_EQ(syscall0(999), -ENOSYS, "newlib.errno_numbers_translated");
    KTAP_EXPECT_EQ(strcmp(strerror(EBADF), "Bad file number"), 0, "newlib.strerror");
}

/* The children: what a parent sees of exit(), return from main, atexit
 * handlers (last registered runs first; 32 of them, crt0's included, the
 * number POSIX guarantees) and abort(). */
static int order, counted;
static void handler_first(void)
{
    order = 1;
}
static void handler_count(void)
{
    counted += order == 1;
}
static void handler_second(void)
{
    order = order * 10 + 2;
}
static void handler_final(void)
{
    _exit(order == 12 && counted == 28 ? 33 : 34);
}

static __attribute__((noinline)) void leave(int status)
{
    exit(status);
}

static int child(const char *what)
{
    if (strcmp(what, "return") == 0)
        return 7;
    if (strcmp(what, "exit") == 0)
        leave(200);
    if (strcmp(what, "abort") == 0)
        abort();
    if (strcmp(what, "atexit") == 0) {
        atexit(handler_final);
        atexit(handler_second);
        for (int i = 0; i < 28; i++)
            atexit(handler_count);
        atexit(handler_first);
        return 5;
    }
    return 99;
}

static int run_child(const char *what)
{
    const char *argv[] = {"test_newlib", what, NULL};
    int status = -1, pid = spawn("test_newlib", argv);
    return pid > 0 && sys_wait(pid, &status) == pid ? status : -1;
}

static void test_exit(void)
{
    KTAP_EXPECT_EQ(run_child("return"), 7, "newlib.exit_status_from_main");
    KTAP_EXPECT_EQ(run_child("exit"), 200, "newlib.exit_status_from_exit");
    KTAP_EXPECT_EQ(run_child("atexit"), 33, "newlib.atexit_handlers_in_reverse_order");
    KTAP_EXPECT_EQ(run_child("abort"), 128 + 6, "newlib.abort_is_sigabrt");
}

int main(int argc, char **argv)
{
    if (argc > 1)
        return child(argv[1]);
    test_printf();
    test_strtod();
    test_qsort();
    test_memcpy_memmove();
    test_errno();
    test_exit();
    return ktap_done();
}
