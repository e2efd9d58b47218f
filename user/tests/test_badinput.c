/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_badinput.c - every system call given bad input: unknown
 * numbers, and for every pointer argument NULL, kernel text, an unmapped
 * address, a range straddling the end of user space, a wrapping range,
 * and two *writable* kernel addresses (a canary in this thread's own
 * kernel stack and a kernel page through the direct map, both named by
 * SYS_debug_kaddr): kernel text faults even if a range check is missing,
 * writable kernel memory would be read or written silently, so each call
 * must fail with -EFAULT and leave the canary untouched. Then read-only and
 * partly mapped user buffers, huge lengths and bad thread start values.
 * Each must fail with the documented error and the kernel must not leak a
 * page doing so.
 */
#include "kernel/uapi/ipc.h"
#include "kernel/uapi/kstack.h"
#include "lib/user/syscall_list.h"
#include "lib/user/ulib.h"

#define KERNEL_ADDR 0xffffffff80000000ul
#define UNMAPPED    0x10000000ul /* below the program, never mapped */
#define PAGE        4096ul

static const long implemented[] = {SYS_exit, SYS_thread_exit, SYSCALLS_THAT_RETURN};

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
    static const long odd[] = {-1,
                               1l << 32,
                               (1l << 32) + SYS_getpid,
                               (long)(1ul << 63),
                               (long)((1ul << 63) + SYS_getpid),
                               NR_SYSCALLS,
                               -SYS_getpid};
    for (unsigned i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
        char what[64];
        snprintf(what, sizeof(what), "badinput.number_%#lx", (unsigned long)odd[i]);
        KTAP_EXPECT_EQ(syscall6(odd[i], 0, 0, 0, 0, 0, 0), -ENOSYS, what);
    }
}

/* The bad pointers every pointer argument is tried with, and their names.
 * The last two are filled in by arm_kernel_canaries(). */
enum {
    BAD_NULL,
    BAD_KERNEL_TEXT,
    BAD_UNMAPPED,
    BAD_STRADDLING,
    BAD_WRAPPING,
    BAD_KERNEL_STACK,
    BAD_DIRECT_MAP,
    NBAD
};
static uintptr_t bad_ptrs[NBAD] = {0, KERNEL_ADDR, UNMAPPED, USER_TOP - 8, ~0ul - 15};
static const char *const bad_names[NBAD] = {
    "null", "kernel", "unmapped", "straddling_end", "wrapping", "kernel_stack", "direct_map"};

/* The SYS_debug_kaddr kind behind bad pointer i, or -1. */
static int kaddr_kind(unsigned i)
{
    return i == BAD_KERNEL_STACK ? DEBUG_KADDR_STACK
           : i == BAD_DIRECT_MAP ? DEBUG_KADDR_DIRECT_MAP
                                 : -1;
}

static void arm_kernel_canaries(void)
{
    for (unsigned i = 0; i < NBAD; i++) {
        if (kaddr_kind(i) >= 0)
            bad_ptrs[i] = (uintptr_t)syscall2(SYS_debug_kaddr, kaddr_kind(i), DEBUG_KADDR_ARM);
    }
}

/* "badinput.<what>.<pointer class>", for unique subtest names. */
static const char *name(const char *what, unsigned i)
{
    static char buf[96];
    snprintf(buf, sizeof(buf), "badinput.%s.%s", what, bad_names[i]);
    return buf;
}

/* A call given bad pointer i returned got: it must be -EFAULT, and if i is
 * a kernel canary, no byte of it may have changed (it is re-armed after). */
static void expect_efault(long got, const char *what, unsigned i)
{
    const char *n = name(what, i);
    long changed = 0;
    if (kaddr_kind(i) >= 0) {
        changed = syscall2(SYS_debug_kaddr, kaddr_kind(i), DEBUG_KADDR_CHECK);
        syscall2(SYS_debug_kaddr, kaddr_kind(i), DEBUG_KADDR_ARM);
    }
    if (got != -EFAULT)
        ktap_note("%s: returned %ld, expected %d", n, got, -EFAULT);
    if (changed)
        ktap_note("%s: the call changed %ld bytes of kernel memory", n, changed);
    ktap_check(got == -EFAULT && changed == 0, "%s", n);
}

static void test_debug_kaddr(void)
{
    ktap_check((long)bad_ptrs[BAD_KERNEL_STACK] < -4095 && (long)bad_ptrs[BAD_DIRECT_MAP] < -4095,
               "badinput.debug_kaddr_gives_kernel_addresses");
    KTAP_EXPECT_EQ(syscall2(SYS_debug_kaddr, DEBUG_KADDR_STACK, DEBUG_KADDR_CHECK), 0,
                   "badinput.debug_kaddr_stack_canary_intact");
    KTAP_EXPECT_EQ(syscall2(SYS_debug_kaddr, 7, DEBUG_KADDR_ARM), -EINVAL,
                   "badinput.debug_kaddr_bad_kind");
    KTAP_EXPECT_EQ(syscall2(SYS_debug_kaddr, DEBUG_KADDR_STACK, 7), -EINVAL,
                   "badinput.debug_kaddr_bad_op");
}

static void test_write_read(void)
{
    for (unsigned i = 0; i < NBAD; i++) {
        expect_efault(sys_write(1, (void *)bad_ptrs[i], 16), "write_bad_buffer", i);
        expect_efault(sys_read(0, (void *)bad_ptrs[i], 16), "read_bad_buffer", i);
    }
    char buf[8];
    KTAP_EXPECT_EQ(sys_write(1, buf, 1ul << 40), -EINVAL, "badinput.write_huge_length");
    KTAP_EXPECT_EQ(sys_write(1, buf, ~0ul), -EINVAL, "badinput.write_wrapping_length");
    KTAP_EXPECT_EQ(sys_read(0, buf, 1ul << 40), -EINVAL, "badinput.read_huge_length");
    KTAP_EXPECT_EQ(sys_write(1, NULL, 0), 0, "badinput.write_zero_bytes_from_null");
    /* Its first 256 bytes are the top of the (mapped) user stack, the rest
     * is past USER_TOP: the whole range is checked before a byte is copied,
     * so nothing is written, not the first chunk. */
    KTAP_EXPECT_EQ(sys_write(1, (void *)(USER_TOP - PAGE - 256), PAGE + 512), -EFAULT,
                   "badinput.write_past_user_top");
}

static void test_time_args(void)
{
    struct timespec ok = {0, 1000};
    for (unsigned i = 0; i < NBAD; i++) {
        const void *p = (const void *)bad_ptrs[i];
        expect_efault(sys_clock_gettime(CLOCK_MONOTONIC, (void *)p), "clock_gettime_bad_pointer",
                      i);
        expect_efault(sys_nanosleep(p, NULL), "nanosleep_bad_request", i);
        if (bad_ptrs[i]) /* NULL: no remainder wanted */
            expect_efault(sys_nanosleep(&ok, (void *)p), "nanosleep_bad_remainder", i);
    }
}

static void test_spawn_wait_args(void)
{
    for (unsigned i = 0; i < NBAD; i++) {
        const void *p = (const void *)bad_ptrs[i];
        expect_efault(spawn(p, NULL), "spawn_bad_name", i);
        if (bad_ptrs[i]) /* NULL argv means {name} */
            expect_efault(spawn("child", p), "spawn_bad_argv", i);
        const char *argv[] = {"child", p, NULL};
        if (bad_ptrs[i]) /* a NULL would just end the list */
            expect_efault(spawn("child", argv), "spawn_bad_argument_string", i);
        if (bad_ptrs[i]) /* NULL: no status wanted */
            expect_efault(sys_wait(-1, (int *)p), "wait_bad_status", i);
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
    KTAP_EXPECT_EQ(sys_wait(0, NULL), -EINVAL, "badinput.wait_pid_zero");
    KTAP_EXPECT_EQ(sys_wait(-5, NULL), -EINVAL, "badinput.wait_negative_pid");
}

static void test_debug_stats_args(void)
{
    for (unsigned i = 0; i < NBAD; i++)
        expect_efault(syscall1(SYS_debug_stats, bad_ptrs[i]), "debug_stats_bad_pointer", i);
}

/* Never runs: thread_create must refuse to start it. */
static void never_started(void *arg)
{
    exit(77);
}

static void test_thread_args(void)
{
    KTAP_EXPECT_EQ(syscall3(SYS_thread_create, KERNEL_ADDR, 0, 0x1000), -EINVAL,
                   "badinput.thread_create_kernel_pc");
    KTAP_EXPECT_EQ(syscall3(SYS_thread_create, never_started, 0, KERNEL_ADDR), -EINVAL,
                   "badinput.thread_create_kernel_stack");
    KTAP_EXPECT_EQ(syscall2(SYS_sched_setaffinity, 0, 0), -EINVAL, "badinput.affinity_empty_mask");
    KTAP_EXPECT_EQ(syscall2(SYS_sched_setaffinity, 99999, 1), -ESRCH,
                   "badinput.affinity_no_thread");
    KTAP_EXPECT_EQ(syscall1(SYS_sched_getaffinity, 99999), -ESRCH,
                   "badinput.get_affinity_no_thread");
}

/* User memory the call may not write (the program's own code), and buffers
 * that begin in mapped memory and run into an unmapped page. */
static void test_user_buffers(void)
{
    void *text = (void *)(uintptr_t)never_started;
    struct timespec ok = {0, 1000};
    KTAP_EXPECT_EQ(sys_read(0, text, 16), -EFAULT, "badinput.read_into_read_only_memory");
    KTAP_EXPECT_EQ(sys_wait(-1, text), -EFAULT, "badinput.wait_status_in_read_only_memory");
    KTAP_EXPECT_EQ(sys_clock_gettime(CLOCK_MONOTONIC, text), -EFAULT,
                   "badinput.clock_gettime_into_read_only_memory");
    KTAP_EXPECT_EQ(sys_nanosleep(&ok, text), -EFAULT,
                   "badinput.nanosleep_remainder_in_read_only_memory");
    KTAP_EXPECT_EQ(syscall1(SYS_debug_stats, text), -EFAULT,
                   "badinput.debug_stats_into_read_only_memory");
    char *base = sys_brk(0);
    char *end = (char *)(((uintptr_t)base + PAGE) & ~(PAGE - 1)); /* a page boundary */
    if (sys_brk(end) != end) {
        ktap_check(false, "badinput.heap_for_partly_mapped_buffers");
        return;
    }
    char *edge = end - 8; /* 8 mapped bytes, then nothing */
    KTAP_EXPECT_EQ(sys_read(0, edge, 16), -EFAULT, "badinput.read_buffer_runs_off_the_heap");
    KTAP_EXPECT_EQ(sys_write(1, edge, 16), -EFAULT, "badinput.write_buffer_runs_off_the_heap");
    KTAP_EXPECT_EQ(sys_clock_gettime(CLOCK_MONOTONIC, (void *)(end - 8)), -EFAULT,
                   "badinput.clock_gettime_runs_off_the_heap");
    sys_brk(base);
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
    KTAP_EXPECT_EQ(syscall3(SYS_kstack_probe, 1, 4096, 0), -EINVAL,
                   "badinput.kstack_probe_bad_cpu");
    KTAP_EXPECT_EQ(syscall2(SYS_kstack_stats, 4096, 0), -EINVAL, "badinput.kstack_stats_bad_cpu");
    KTAP_EXPECT_EQ(syscall2(SYS_kstack_debug, 999, 0), -EINVAL, "badinput.kstack_debug_bad_op");
}

/* Arguments that name small integers (fds, clocks, pids, tids, flags,
 * handles) are judged at full width: 2^32 plus a good value is no value. */
static void test_wide_args(void)
{
    const long high = 1l << 32;
    struct timespec ts;
    struct kstack_probe probe;
    char c;
    long tid = gettid(), mask = sys_sched_getaffinity(0);
    char me[16];
    snprintf(me, sizeof(me), "%d", getpid());
    const char *argv[] = {"child", "0", me, "50", NULL};
    long pid = spawn("child", argv);
    struct {
        const char *what;
        long got, want;
    } c_[10];
    int n = 0;
#define WIDE(call, expected) c_[n++] = (typeof(c_[0])){#call, (call), (expected)}
    WIDE(syscall3(SYS_write, high + 1, (long)"x", 1), -EBADF);
    WIDE(syscall3(SYS_read, high, (long)&c, 1), -EBADF);
    WIDE(syscall2(SYS_clock_gettime, high + CLOCK_MONOTONIC, (long)&ts), -EINVAL);
    WIDE(syscall1(SYS_sched_getaffinity, high + tid), -ESRCH);
    WIDE(syscall2(SYS_sched_setaffinity, high + tid, 1), -ESRCH);
    WIDE(syscall2(SYS_wait, high + pid, 0), -ECHILD);
    WIDE(syscall3(SYS_kstack_probe, high, 0, (long)&probe), -EINVAL);
    WIDE(syscall1(SYS_handle_close, high + IPC_CONSOLE_HANDLE), -EBADF);
#undef WIDE
    int status = -1, bad = 0;
    sys_sched_setaffinity(0, (unsigned long)mask); /* in case the call above took effect */
    bool reaped = pid > 0 && sys_wait((int)pid, &status) == pid && status == 0;
    for (int i = 0; i < n; i++) {
        if (c_[i].got != c_[i].want) {
            ktap_note("%s answered %ld, expected %ld", c_[i].what, c_[i].got, c_[i].want);
            bad++;
        }
    }
    if (!reaped)
        ktap_note("the child (pid %ld) was not there to collect afterwards", pid);
    ktap_check(bad == 0 && reaped, "badinput.wide_args");
}

/* The IPC calls' pointers: the long-message buffer (NULL is allowed: no
 * buffer) and spawn_with's list of handles. */
static void test_ipc_args(void)
{
    for (unsigned i = 1; i < NBAD; i++)
        expect_efault(syscall1(SYS_ipc_set_buffer, bad_ptrs[i]), "ipc_set_buffer", i);
    for (unsigned i = 0; i < NBAD; i++)
        expect_efault(syscall6(SYS_spawn_with, (long)"hello", 0, (long)bad_ptrs[i], 1, 0, 0),
                      "spawn_with_handles", i);
    KTAP_EXPECT_EQ(syscall6(SYS_spawn_with, (long)"hello", 0, 0, 33, 0, 0), -EINVAL,
                   "badinput.spawn_with_too_many_handles");
    int none = 5;
    KTAP_EXPECT_EQ(syscall6(SYS_spawn_with, (long)"hello", 0, (long)&none, 1, 0, 0), -EBADF,
                   "badinput.spawn_with_unopened_handle");
}

int main(void)
{
    arm_kernel_canaries();
    /* stdout's buffer comes from the heap at the first output: print
     * before counting, so only pages the kernel keeps are counted. */
    /* It starts a child: a first thread slot in use keeps its kernel stack
     * for the next thread (kernel/mm/kernel_stack.c), which is no leak. */
    test_wide_args();
    ktap_note("badinput: free pages counted from here");
    long before = syscall0(SYS_debug_free_pages);
    test_debug_kaddr();
    test_numbers();
    test_write_read();
    test_time_args();
    test_spawn_wait_args();
    test_kstack_args();
    test_debug_stats_args();
    test_thread_args();
    test_user_buffers();
    test_ipc_args();
    long after = syscall0(SYS_debug_free_pages);
    if (before != after)
        ktap_note("free pages before %ld, after %ld", before, after);
    ktap_check(before == after, "badinput.no_pages_leaked");
    return ktap_done();
}
