/* SPDX-License-Identifier: MIT */
/*
 * tests/host/test_sys_clock.c - lab 1's handler, sys_clock_gettime
 * (kernel/syscall/sys_time.c), compiled on the host against stand-ins
 * (tests/host/fake_syscall/): a clock the test sets, a small user memory
 * and a record of every copy to it.
 *
 * The boot tests of user/tests/test_badinput.c give it bad pointers, but
 * every one of those lands in unmapped memory, where even an unchecked
 * copy fails safely: they cannot tell a checked copy from a hand-made
 * range check that lets a kernel address through. Here the handler is
 * watched doing it: the raw arch copy must never be handed a range that
 * the checked copy (copy_to_user, kernel/uaccess.h) would refuse, and a
 * correct handler never calls it at all. The clock is set past 2^32 ns,
 * the boots' few seconds are not, and every clock id but CLOCK_MONOTONIC
 * is tried, with the caller's buffer watched.
 */
#include "check.h"
#include "kernel/errno.h"
#include "kernel/syscall/syscall.h"
#include "kernel/uaccess.h"

uint64_t fake_now_ns;

/* The user memory: one writable page at USER_RW, a read-only one after it. */
#define PAGE     4096ul
#define USER_RW  0x10000ul
#define USER_RO  (USER_RW + PAGE)
#define USER_END (USER_RO + PAGE)
static unsigned char user_mem[2 * PAGE];

struct copy {
    uintptr_t dst;
    size_t n;
};
static struct copy checked[8], raw[8];
static int n_checked, n_raw;

static void reset(void)
{
    memset(user_mem, 0xa5, sizeof(user_mem));
    n_checked = n_raw = 0;
}

static bool mapped(uintptr_t p, size_t n, bool write)
{
    return p >= USER_RW && n <= USER_END - p && (!write || p + n <= USER_RO);
}

/* What the CPU would do: write the bytes, or fault on a page that is not
 * mapped writable (the exception table turns that into -EFAULT). Outside
 * user space it would write the kernel's memory: recorded, not done. */
static int store(uintptr_t dst, const void *src, size_t n)
{
    if (!user_range_ok(dst, n))
        return 0;
    if (!mapped(dst, n, true))
        return -EFAULT;
    memcpy(&user_mem[dst - USER_RW], src, n);
    return 0;
}

int arch_copy_to_user(uintptr_t dst, const void *src, size_t n)
{
    if (n_raw < 8)
        raw[n_raw++] = (struct copy){dst, n};
    return store(dst, src, n);
}

int arch_copy_from_user(void *dst, uintptr_t src, size_t n)
{
    (void)dst, (void)src, (void)n;
    __builtin_trap(); /* sys_clock_gettime reads nothing */
}

int copy_to_user(uintptr_t dst, const void *src, size_t n)
{
    if (n_checked < 8)
        checked[n_checked++] = (struct copy){dst, n};
    if (n == 0)
        return 0;
    return user_range_ok(dst, n) ? store(dst, src, n) : -EFAULT;
}

int copy_from_user(void *dst, uintptr_t src, size_t n)
{
    return arch_copy_from_user(dst, src, n);
}

bool user_access_ok(uintptr_t p, size_t n, bool write)
{
    return user_range_ok(p, n) && mapped(p, n, write);
}

static long call(uintptr_t clock, uintptr_t buf)
{
    struct sysargs a = {{clock, buf}};
    return sys_clock_gettime(&a);
}

static struct timespec *user_ts(void)
{
    return (struct timespec *)user_mem;
}

static bool buffer_untouched(void)
{
    for (size_t i = 0; i < sizeof(user_mem); i++)
        if (user_mem[i] != 0xa5)
            return false;
    return true;
}

/* The time comes out as seconds and nanoseconds, past 2^32 ns too. */
static void expect_time(uint64_t ns)
{
    reset();
    fake_now_ns = ns;
    long r = call(CLOCK_MONOTONIC, USER_RW);
    long sec = (long)(ns / 1000000000u), nsec = (long)(ns % 1000000000u);
    if (r != 0 || user_ts()->tv_sec != sec || user_ts()->tv_nsec != nsec) {
        printf("    # at %llu ns: returned %ld, {%ld s, %ld ns}, expected 0, {%ld s, %ld ns}\n",
               (unsigned long long)ns, r, r ? 0 : user_ts()->tv_sec, r ? 0 : user_ts()->tv_nsec,
               sec, nsec);
        check_failures++;
    }
}

TEST(reads_the_clock)
{
    expect_time(5000000123ull);
    expect_time(999999999ull);
    expect_time(1000000000ull);
}

TEST(time_past_2_to_the_32_ns)
{
    uint64_t times[] = {(1ull << 32) + 5, 9000000017ull, 3600ull * 1000000000 * 24 * 365 + 1};
    for (unsigned i = 0; i < sizeof(times) / sizeof(times[0]); i++)
        expect_time(times[i]);
    if (check_failures)
        printf("    # the time wrapped at 2^32 ns (4.29 s)? keep all 64 bits of it\n");
}

/* Every id but CLOCK_MONOTONIC's, low, high and negative ones included. */
static const uintptr_t bad_clocks[] = {
    0, 2, 3, 42, (uintptr_t)-1, (uintptr_t)-2, (1ul << 32) | CLOCK_MONOTONIC, 1ul << 63};

TEST(refuses_every_other_clock)
{
    fake_now_ns = 7000000000ull;
    for (unsigned i = 0; i < sizeof(bad_clocks) / sizeof(bad_clocks[0]); i++) {
        reset();
        long r = call(bad_clocks[i], USER_RW);
        if (r != -EINVAL) {
            printf("    # clock id %ld (0x%lx) was %s: returned %ld, expected -EINVAL\n",
                   (long)bad_clocks[i], (unsigned long)bad_clocks[i],
                   r == 0 ? "accepted" : "not refused with -EINVAL", r);
            check_failures++;
        }
    }
    reset();
    CHECK_EQ_INT(call(CLOCK_MONOTONIC, USER_RW), 0);
}

TEST(refuses_before_writing)
{
    fake_now_ns = 7000000000ull;
    for (unsigned i = 0; i < sizeof(bad_clocks) / sizeof(bad_clocks[0]); i++) {
        reset();
        long r = call(bad_clocks[i], USER_RW);
        if (r != 0 && !buffer_untouched()) {
            printf("    # clock id 0x%lx: the buffer was written although the call failed (%ld)\n",
                   (unsigned long)bad_clocks[i], r);
            check_failures++;
        }
    }
    reset();
    CHECK_EQ_INT(call(CLOCK_MONOTONIC, USER_RW), 0);
    CHECK_EQ_INT(user_ts()->tv_sec, 7);
}

TEST(copies_through_the_checked_copy)
{
    reset();
    fake_now_ns = 7000000000ull;
    CHECK_EQ_INT(call(CLOCK_MONOTONIC, USER_RW), 0);
    CHECK_EQ_INT(n_checked, 1);
    CHECK(n_checked >= 1 && checked[0].dst == USER_RW && checked[0].n == sizeof(struct timespec));
    for (int i = 0; i < n_raw; i++)
        printf("    # arch_copy_to_user(0x%lx, .., %zu) called by the handler itself: "
               "use copy_to_user, which checks the whole range first\n",
               (unsigned long)raw[i].dst, raw[i].n);
    CHECK_EQ_INT(n_raw, 0);
}

/* Pointers a checked copy refuses: the raw copy must never see them. */
static const struct {
    uintptr_t p;
    const char *what;
} bad_buffers[] = {
    {USER_TOP - 8, "USER_TOP - 8 (the end runs past USER_TOP)"},
    {USER_TOP - sizeof(struct timespec) + 1, "USER_TOP - 15 (one byte past USER_TOP)"},
    {USER_TOP, "USER_TOP"},
    {0xfffffffffffffff8ul, "2^64 - 8 (the end wraps around to 8)"},
    {0xfffffffffffffff0ul, "2^64 - 16 (the end wraps around to 0)"},
    {0xffffffff80000000ul, "the kernel's image"},
    {USER_RO, "a read-only page"},
    {USER_RO - 8, "a buffer that runs onto a read-only page"},
};

TEST(refuses_what_a_checked_copy_refuses)
{
    fake_now_ns = 7000000000ull;
    for (unsigned i = 0; i < sizeof(bad_buffers) / sizeof(bad_buffers[0]); i++) {
        reset();
        long r = call(CLOCK_MONOTONIC, bad_buffers[i].p);
        for (int k = 0; k < n_raw; k++)
            if (!user_range_ok(raw[k].dst, raw[k].n)) {
                printf("    # a buffer at %s: the raw copy was handed [0x%lx, +%zu), outside "
                       "user space: a kernel write\n",
                       bad_buffers[i].what, (unsigned long)raw[k].dst, raw[k].n);
                check_failures++;
            }
        if (r != -EFAULT) {
            printf("    # a buffer at %s: returned %ld, expected -EFAULT\n", bad_buffers[i].what,
                   r);
            check_failures++;
        }
    }
}

RUN_TESTS("sys_clock", CASE(reads_the_clock), CASE(time_past_2_to_the_32_ns),
          CASE(refuses_every_other_clock), CASE(refuses_before_writing),
          CASE(copies_through_the_checked_copy), CASE(refuses_what_a_checked_copy_refuses))
