/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_syscalls.c - every system call, used the right way, with its
 * result checked. Started by the kernel test user.syscalls; prints KTAP
 * subtests and exits with the number of failures.
 */
#include "lib/user/ulib.h"

/* The CPUs online, as a mask: the scheduler accepts an affinity only if it
 * names an online CPU (kernel/sched), which needs no debug call. */
static unsigned long cpus_online_mask(void)
{
    long saved = sys_sched_getaffinity(0);
    unsigned long online = 0;
    for (unsigned i = 0; i < 64; i++)
        if (sys_sched_setaffinity(0, 1ul << i) == 0)
            online |= 1ul << i;
    sys_sched_setaffinity(0, (unsigned long)saved);
    return online;
}

static void test_identity(void)
{
    int pid = getpid();
    ktap_check(pid > 0, "syscalls.getpid_positive");
    KTAP_EXPECT_EQ(getppid(), 0, "syscalls.getppid_of_kernel_started_task");
    ktap_check(gettid() > 0, "syscalls.gettid_positive");
    unsigned long online = cpus_online_mask();
    int cpu = getcpu();
    ktap_check(cpu >= 0 && cpu < 64 && (online >> cpu & 1), "syscalls.getcpu_in_range");
    struct debug_stats st; /* the kernel's count, where the debug calls are open */
    if (syscall1(SYS_debug_stats, (long)&st) == 0)
        KTAP_EXPECT_EQ((unsigned long)__builtin_popcountl(online), st.cpus_online,
                       "syscalls.cpus_online_by_affinity");
}

static void test_spawn_and_wait(void)
{
    char me[16];
    snprintf(me, sizeof(me), "%d", getpid());
    const char *argv[] = {"child", "7", me, NULL};
    int pid = spawn("child", argv);
    ktap_check(pid > 0 && pid != getpid(), "syscalls.spawn_returns_child_pid");
    int status = -1;
    KTAP_EXPECT_EQ(sys_wait(pid, &status), pid, "syscalls.wait_returns_pid");
    KTAP_EXPECT_EQ(status, 7, "syscalls.exit_status_and_ppid_through_wait");
    const char *late[] = {"child", "3", me, "30", NULL}; /* exits after 30 ms */
    pid = spawn("child", late);
    KTAP_EXPECT_EQ(sys_wait(-1, &status), pid, "syscalls.wait_any_blocks_for_child");
    KTAP_EXPECT_EQ(status, 3, "syscalls.wait_any_status");
    KTAP_EXPECT_EQ(sys_wait(-1, &status), -ECHILD, "syscalls.wait_without_children");
    KTAP_EXPECT_EQ(spawn("no-such-program", NULL), -ENOENT, "syscalls.spawn_unknown_program");
}

static void test_console(void)
{
    KTAP_EXPECT_EQ(sys_write(1, "    # stdout works\n", 19), 19, "syscalls.write_stdout");
    KTAP_EXPECT_EQ(sys_write(2, "    # stderr works\n", 19), 19, "syscalls.write_stderr");
    KTAP_EXPECT_EQ(sys_write(7, "x", 1), -EBADF, "syscalls.write_bad_fd");
    char buf[16];
    long n = sys_read(0, buf, sizeof(buf));
    ktap_check(n >= 0 && n <= 16, "syscalls.read_stdin_nonblocking");
    KTAP_EXPECT_EQ(sys_read(1, buf, 1), -EBADF, "syscalls.read_bad_fd");
}

/* The values clock_gettime gives: tv_nsec below a second once the clock is
 * past one (it waits for that), and a 25 ms sleep (timed by the kernel)
 * advancing the clock by 25 ms to 2 s, not by a thousand times that. */
static void test_time_values(void)
{
    struct timespec ts = {-1, -1};
    long err = sys_clock_gettime(CLOCK_MONOTONIC, &ts);
    for (int i = 0; err == 0 && ts.tv_sec == 0 && i < 30; i++) {
        struct timespec nap = {0, 100 * 1000 * 1000};
        sys_nanosleep(&nap, NULL);
        err = sys_clock_gettime(CLOCK_MONOTONIC, &ts);
    }
    bool ok = err == 0 && ts.tv_sec > 0 && ts.tv_nsec >= 0 && ts.tv_nsec < 1000000000;
    if (!ok)
        ktap_note("clock_gettime: %ld, {%ld, %ld}: expected 0 and 0 <= tv_nsec < 10^9 past 1 s",
                  err, (long)ts.tv_sec, (long)ts.tv_nsec);
    uint64_t t0 = now_ns();
    struct timespec req = {0, 25 * 1000 * 1000};
    sys_nanosleep(&req, NULL);
    uint64_t slept = now_ns() - t0;
    if (slept < 25000000 || slept > 2000000000) {
        ktap_note("a 25 ms sleep took %llu ns by clock_gettime", (unsigned long long)slept);
        ok = false;
    }
    ktap_check(ok, "syscalls.clock_gettime_values");
}

static void test_time(void)
{
    struct timespec ts;
    KTAP_EXPECT_EQ(sys_clock_gettime(CLOCK_MONOTONIC, &ts), 0, "syscalls.clock_gettime");
    KTAP_EXPECT_EQ(sys_clock_gettime(42, &ts), -EINVAL, "syscalls.clock_gettime_bad_clock");
    /* Every bit of the clock id counts: 2^32 + CLOCK_MONOTONIC is no clock. */
    KTAP_EXPECT_EQ(syscall2(SYS_clock_gettime, (1ul << 32) | CLOCK_MONOTONIC, &ts), -EINVAL,
                   "syscalls.clock_gettime_bad_clock_high_bits");
    test_time_values();
    uint64_t prev = now_ns();
    bool monotonic = true;
    for (int i = 0; i < 2000; i++) {
        uint64_t t = now_ns();
        monotonic &= t >= prev;
        prev = t;
    }
    ktap_check(monotonic, "syscalls.clock_monotonic");
    uint64_t t0 = now_ns();
    struct timespec req = {0, 25 * 1000 * 1000}, rem = {9, 9};
    KTAP_EXPECT_EQ(sys_nanosleep(&req, &rem), 0, "syscalls.nanosleep");
    uint64_t slept = now_ns() - t0;
    if (slept < 25000000)
        ktap_note("slept %llu ns", (unsigned long long)slept);
    ktap_check(slept >= 25000000, "syscalls.nanosleep_lasts_at_least_the_request");
    struct timespec bad = {0, 1000000000};
    KTAP_EXPECT_EQ(sys_nanosleep(&bad, NULL), -EINVAL, "syscalls.nanosleep_bad_nsec");
    bad.tv_sec = -1, bad.tv_nsec = 0;
    KTAP_EXPECT_EQ(sys_nanosleep(&bad, NULL), -EINVAL, "syscalls.nanosleep_negative");
    KTAP_EXPECT_EQ(yield(), 0, "syscalls.yield");
}

static char below_base; /* in .bss: the program, below where the break may go */

/* base is the break as malloc (newlib's _sbrk) left it: the tests move it
 * above that and put it back, so the heap below stays mapped. */
static void test_brk(void)
{
    char *base = sys_brk(0);
    ktap_check((uintptr_t)base >= 0x400000, "syscalls.brk_query");
    char *top = sys_brk(base + 100000);
    KTAP_EXPECT_EQ(top, base + 100000, "syscalls.brk_grow");
    bool ok = true;
    for (int i = 0; i < 100000; i++)
        base[i] = (char)i;
    for (int i = 0; i < 100000; i++)
        ok &= base[i] == (char)i;
    ktap_check(ok, "syscalls.brk_memory_usable");
    KTAP_EXPECT_EQ(sys_brk(base + 4096), base + 4096, "syscalls.brk_shrink");
    KTAP_EXPECT_EQ(sys_brk(base + (1l << 40)), base + 4096, "syscalls.brk_too_big_keeps_break");
    KTAP_EXPECT_EQ(sys_brk(&below_base), base + 4096, "syscalls.brk_below_base_keeps_break");
    /* Shrinking gives the pages back: growing by 16 pages and shrinking
     * again leaves the free page count where it was. */
    long before = syscall0(SYS_debug_free_pages);
    char *grown = base + 4096 + 16 * 4096;
    KTAP_EXPECT_EQ(sys_brk(grown), grown, "syscalls.brk_grow_again");
    KTAP_EXPECT_EQ(sys_brk(base + 4096), base + 4096, "syscalls.brk_shrink_again");
    KTAP_EXPECT_EQ(syscall0(SYS_debug_free_pages), before, "syscalls.brk_shrink_frees_pages");
    sys_brk(base);
}

#define TURN_ROUNDS 400
#define TURN_PAGES  8

static char *turn_base;
static volatile int turn_wrong, turn_left;
static char turn_stack[4096] __attribute__((aligned(16)));

/* Grow the break by TURN_PAGES and put it back, TURN_ROUNDS times; count
 * the answers that were not the break asked for. */
static void brk_rounds(void)
{
    char *grown = turn_base + TURN_PAGES * 4096;
    for (int i = 0; i < TURN_ROUNDS; i++) {
        if (sys_brk(grown) != grown)
            __atomic_fetch_add(&turn_wrong, 1, __ATOMIC_RELAXED);
        if (sys_brk(turn_base) != turn_base)
            __atomic_fetch_add(&turn_wrong, 1, __ATOMIC_RELAXED);
    }
}

static void brk_thread(void *arg)
{
    (void)arg;
    sys_sched_setaffinity(0, 1ul << 1);
    brk_rounds();
    __atomic_fetch_sub(&turn_left, 1, __ATOMIC_RELEASE);
}

/* Two threads of one program move its break at once, on two CPUs: each
 * brk happens whole, before or after the other's (the kernel's brk_busy
 * turn). Interleaved, a grow maps a page the other grow mapped (-EEXIST:
 * the break stays) or a shrink unmaps pages the other just mapped. At the
 * end no page is left mapped above the break: it grows again. */
static void test_brk_threads(void)
{
    turn_base = sys_brk(0);
    turn_wrong = 0;
    turn_left = 1;
    unsigned long mask = (unsigned long)sys_sched_getaffinity(0);
    sys_sched_setaffinity(0, 1ul << 0);
    int tid = thread_create(brk_thread, NULL, turn_stack, sizeof(turn_stack));
    if (tid > 0)
        brk_rounds();
    while (tid > 0 && __atomic_load_n(&turn_left, __ATOMIC_ACQUIRE))
        sleep_ns(1000000);
    sys_sched_setaffinity(0, mask);
    char *grown = turn_base + TURN_PAGES * 4096;
    bool usable = sys_brk(grown) == grown;
    for (int i = 0; usable && i < TURN_PAGES * 4096; i += 512)
        turn_base[i] = 1; /* a page the break covers but nobody mapped kills this program */
    sys_brk(turn_base);
    if (tid <= 0 || turn_wrong || !usable)
        ktap_note("thread %d; %d wrong answers of %d; the break grows again: %d", tid, turn_wrong,
                  4 * TURN_ROUNDS, usable);
    ktap_check(tid > 0 && turn_wrong == 0 && usable, "syscalls.brk_two_threads_take_turns");
}

static volatile int join_flag_set, join_fn_finished;
static char join_stack[8192] __attribute__((aligned(16)));

#define JOIN_LATE_YIELDS 1000

/* On CPU 0, beside the test: sets its flag, then yields the CPU a thousand
 * times more before it returns. (No clock: lab 1's handout has none.) */
static void late_finisher(void *arg)
{
    (void)arg;
    sys_sched_setaffinity(0, 1);
    join_flag_set = 1;
    for (int i = 0; i < JOIN_LATE_YIELDS; i++)
        yield();
    join_fn_finished = 1;
}

/* thread_join returns once the thread has ended, not when it has set a
 * flag: only then may its stack be reused (user/longrun/soak/ does). Both
 * threads on CPU 0: a join that returned early would find the other still
 * yielding. */
static void test_thread_join(void)
{
    long mask = sys_sched_getaffinity(0);
    sys_sched_setaffinity(0, 1);
    join_flag_set = join_fn_finished = 0;
    int tid = thread_create(late_finisher, NULL, join_stack, sizeof(join_stack));
    while (tid > 0 && !join_flag_set)
        yield();
    bool joined = tid > 0 && thread_join(tid) == 0;
    bool gone = sys_sched_getaffinity(tid) == -ESRCH;
    sys_sched_setaffinity(0, (unsigned long)mask);
    if (!joined || !join_fn_finished || !gone)
        ktap_note("thread %d: joined %d, its function finished %d, its tid gone %d", tid, joined,
                  join_fn_finished, gone);
    ktap_check(joined && join_fn_finished && gone, "syscalls.thread_join_waits_for_the_end");
    KTAP_EXPECT_EQ(thread_join(0), -EINVAL, "syscalls.thread_join_no_thread_0");
}

int main(void)
{
    test_identity();
    test_spawn_and_wait();
    test_console();
    test_time();
    test_brk();
    test_brk_threads();
    test_thread_join();
    return ktap_done();
}
