/* SPDX-License-Identifier: MIT */
/*
 * user/test_badinput.c - every system call given bad input: unknown
 * numbers, and for every pointer argument NULL, a kernel address, an
 * unmapped address, a range straddling the end of user space, and huge
 * lengths. Each must fail with the documented error and the kernel must
 * not leak a page doing so.
 */
#include "lib/user/ulib.h"

#define KERNEL_ADDR 0xffffffff80000000ul
#define UNMAPPED 0x10000000ul /* below the program, never mapped */

static const long implemented[] = {
    SYS_exit, SYS_write, SYS_read, SYS_getpid, SYS_getppid, SYS_yield, SYS_nanosleep,
    SYS_clock_gettime, SYS_brk, SYS_spawn, SYS_wait, SYS_getcpu, SYS_thread_create,
    SYS_thread_exit, SYS_gettid, SYS_sched_setaffinity, SYS_sched_getaffinity,
    SYS_debug_sleep, SYS_debug_free_pages, SYS_debug_spin, SYS_debug_stats,
    SYS_debug_leak_lock, SYS_kstack_set, SYS_kstack_get, SYS_kstack_probe, SYS_kstack_stats,
    SYS_kstack_debug, SYS_latency_ctl, SYS_latency_read,
};

static bool is_implemented(long nr)
{
    for (unsigned i = 0; i < sizeof(implemented) / sizeof(implemented[0]); i++) {
        if (implemented[i] == nr)
            return true;
    }
    return false;
}

static void test_numbers(void)
{
    int wrong = 0;
    for (long nr = 0; nr < 4096; nr++) {
        if (!is_implemented(nr) && syscall6(nr, 1, 2, 3, 4, 5, 6) != -ENOSYS)
            wrong++;
    }
    KTAP_EXPECT_EQ(wrong, 0, "badinput.unknown_numbers_0_to_4095");
    static const long odd[] = {-1, 1l << 32, (1l << 32) + SYS_getpid, (long)(1ul << 63),
                               (long)((1ul << 63) + SYS_getpid), NR_SYSCALLS, -SYS_getpid};
    for (unsigned i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
        char what[64];
        snprintf(what, sizeof(what), "badinput.number_%#lx", (unsigned long)odd[i]);
        KTAP_EXPECT_EQ(syscall6(odd[i], 0, 0, 0, 0, 0, 0), -ENOSYS, what);
    }
}

/* The bad pointers every pointer argument is tried with, and their names. */
static const uintptr_t bad_ptrs[] = {0, KERNEL_ADDR, UNMAPPED, USER_TOP - 8, ~0ul - 15};
static const char *const bad_names[] = {"null", "kernel", "unmapped", "straddling_end",
                                        "wrapping"};

/* "badinput.<what>.<pointer class>", for unique subtest names. */
static const char *name(const char *what, unsigned i)
{
    static char buf[96];
    snprintf(buf, sizeof(buf), "badinput.%s.%s", what, bad_names[i]);
    return buf;
}

static void test_write_read(void)
{
    for (unsigned i = 0; i < 5; i++) {
        KTAP_EXPECT_EQ(write(1, (void *)bad_ptrs[i], 16), -EFAULT, name("write_bad_buffer", i));
        KTAP_EXPECT_EQ(read(0, (void *)bad_ptrs[i], 16), -EFAULT, name("read_bad_buffer", i));
    }
    char buf[8];
    KTAP_EXPECT_EQ(write(1, buf, 1ul << 40), -EINVAL, "badinput.write_huge_length");
    KTAP_EXPECT_EQ(write(1, buf, ~0ul), -EINVAL, "badinput.write_wrapping_length");
    KTAP_EXPECT_EQ(read(0, buf, 1ul << 40), -EINVAL, "badinput.read_huge_length");
    KTAP_EXPECT_EQ(write(1, NULL, 0), 0, "badinput.write_zero_bytes_from_null");
}

static void test_time_args(void)
{
    struct timespec ok = {0, 1000};
    for (unsigned i = 0; i < 5; i++) {
        const void *p = (const void *)bad_ptrs[i];
        KTAP_EXPECT_EQ(clock_gettime(CLOCK_MONOTONIC, (void *)p), -EFAULT,
                       name("clock_gettime_bad_pointer", i));
        KTAP_EXPECT_EQ(nanosleep(p, NULL), -EFAULT, name("nanosleep_bad_request", i));
        if (bad_ptrs[i])
            KTAP_EXPECT_EQ(nanosleep(&ok, (void *)p), -EFAULT, name("nanosleep_bad_remainder", i));
    }
}

static void test_spawn_wait_args(void)
{
    for (unsigned i = 0; i < 5; i++) {
        const void *p = (const void *)bad_ptrs[i];
        KTAP_EXPECT_EQ(spawn(p, NULL), -EFAULT, name("spawn_bad_name", i));
        if (bad_ptrs[i])
            KTAP_EXPECT_EQ(spawn("child", p), -EFAULT, name("spawn_bad_argv", i));
        const char *argv[] = {"child", p, NULL};
        if (bad_ptrs[i]) /* a NULL would just end the list */
            KTAP_EXPECT_EQ(spawn("child", argv), -EFAULT, name("spawn_bad_argument_string", i));
        if (bad_ptrs[i])
            KTAP_EXPECT_EQ(wait(-1, (int *)p), -EFAULT, name("wait_bad_status", i));
    }
    char longname[64];
    memset(longname, 'a', sizeof(longname));
    longname[63] = '\0';
    KTAP_EXPECT_EQ(spawn(longname, NULL), -ENOENT, "badinput.spawn_overlong_name");
    const char *many[20];
    for (int i = 0; i < 19; i++)
        many[i] = "x";
    many[19] = NULL;
    KTAP_EXPECT_EQ(spawn("child", many), -E2BIG, "badinput.spawn_too_many_arguments");
    KTAP_EXPECT_EQ(wait(0, NULL), -EINVAL, "badinput.wait_pid_zero");
    KTAP_EXPECT_EQ(wait(-5, NULL), -EINVAL, "badinput.wait_negative_pid");
    KTAP_EXPECT_EQ(syscall3(SYS_thread_create, KERNEL_ADDR, 0, 0x1000), -EINVAL,
                   "badinput.thread_create_kernel_pc");
    KTAP_EXPECT_EQ(syscall2(SYS_sched_setaffinity, 0, 0), -EINVAL, "badinput.affinity_empty_mask");
    KTAP_EXPECT_EQ(syscall2(SYS_sched_setaffinity, 99999, 1), -ESRCH, "badinput.affinity_no_thread");
}

static void test_kstack_args(void)
{
    for (unsigned i = 0; i < 5; i++) {
        KTAP_EXPECT_EQ(syscall3(SYS_kstack_probe, 0, 0, bad_ptrs[i]), -EFAULT,
                       name("kstack_probe_bad_result", i));
        KTAP_EXPECT_EQ(syscall2(SYS_kstack_stats, -1, bad_ptrs[i]), -EFAULT,
                       name("kstack_stats_bad_result", i));
    }
    long now = syscall0(SYS_kstack_get);
    KTAP_EXPECT_EQ(syscall1(SYS_kstack_set, 9), -EINVAL, "badinput.kstack_set_unknown");
    KTAP_EXPECT_EQ(syscall1(SYS_kstack_set, -1), -EINVAL, "badinput.kstack_set_negative");
    KTAP_EXPECT_EQ(syscall0(SYS_kstack_get), now, "badinput.kstack_set_refused_changes_nothing");
    KTAP_EXPECT_EQ(syscall3(SYS_kstack_probe, 2, 0, 0), -EINVAL, "badinput.kstack_probe_bad_flags");
    KTAP_EXPECT_EQ(syscall3(SYS_kstack_probe, 1, 4096, 0), -EINVAL, "badinput.kstack_probe_bad_cpu");
    KTAP_EXPECT_EQ(syscall2(SYS_kstack_stats, 4096, 0), -EINVAL, "badinput.kstack_stats_bad_cpu");
    KTAP_EXPECT_EQ(syscall2(SYS_kstack_debug, 999, 0), -EINVAL, "badinput.kstack_debug_bad_op");
}

int main(void)
{
    long before = syscall0(SYS_debug_free_pages);
    test_numbers();
    test_write_read();
    test_time_args();
    test_spawn_wait_args();
    test_kstack_args();
    long after = syscall0(SYS_debug_free_pages);
    if (before != after)
        ktap_note("free pages before %ld, after %ld", before, after);
    ktap_check(before == after, "badinput.no_pages_leaked");
    return ktap_done();
}
