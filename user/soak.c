/* SPDX-License-Identifier: MIT */
/*
 * user/soak.c - everything at once, for a while (make soak MINUTES=10; make
 * test runs 20 s).
 *
 *   soak SECONDS REPORT_EVERY_S
 *
 * 4 threads per CPU loop over a random mix of system calls, process spawn
 * and exit (user/child, waited for), thread create and exit, migrations
 * (affinity changes, and SYS_kstack_probe moving the caller mid-call),
 * sleeps, and switches of the kernel stack offset strategy. Each thread
 * counts its operations; the main thread prints every counter each report
 * interval and fails the run if any thread makes no progress for STALL_NS
 * of guest time (generous: under plain TCG on a loaded host the tick can
 * come at a tenth of its rate). At the end every thread must have finished,
 * the free page count must be back at its start, and the strategy in force
 * is put back. A kernel panic stops the machine, which the runner reports.
 */
#include "kernel/uapi/kstack.h"
#include "lib/user/pages.h"
#include "lib/user/ulib.h"

#define MAX_WORKERS 32
#define STACK_SIZE (16 * 1024)
#define HELPER_STACK 4096
#define SEC 1000000000ull

struct worker {
    uint64_t rng;
    volatile unsigned long ops, spawns, threads, migrations, switches;
    volatile int done;
    volatile int helper_done;
    uint64_t last_change_ns;
    unsigned long last_ops;
};

static struct worker workers[MAX_WORKERS];
static char stacks[MAX_WORKERS][STACK_SIZE] __attribute__((aligned(16)));
static char helper_stacks[MAX_WORKERS][HELPER_STACK] __attribute__((aligned(16)));
static volatile int stop;
static unsigned ncpus;
static char parent_pid[16];

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void helper(void *arg)
{
    struct worker *w = arg;
    getpid();
    yield();
    w->helper_done = 1;
}

/* A new thread that makes two calls and ends; wait for it. */
static void thread_op(struct worker *w)
{
    w->helper_done = 0;
    int i = (int)(w - workers);
    if (thread_create(helper, w, helper_stacks[i], HELPER_STACK) < 0) {
        sleep_ns(1000000); /* the thread table is full for a moment */
        return;
    }
    while (!w->helper_done)
        yield();
    w->threads++;
}

/* Start user/child and wait for it: it must exit with the status it was given. */
static void spawn_op(struct worker *w)
{
    int status = -1;
    const char *argv[] = {"child", "5", parent_pid, NULL};
    int pid = spawn("child", argv);
    if (pid == -EAGAIN) {
        sleep_ns(1000000);
        return;
    }
    if (pid > 0 && sys_wait(pid, &status) == pid && status == 5)
        w->spawns++;
    else
        printf("soak: spawn/wait of child: pid %d, status %d\n", pid, status);
}

static void migrate_op(struct worker *w, uint64_t r)
{
    unsigned cpu = (unsigned)(r % ncpus);
    if (r & 1) {
        struct kstack_probe p;
        if (syscall3(SYS_kstack_probe, KSTACK_PROBE_MIGRATE, cpu, &p) == 0 && p.exit_cpu == cpu)
            w->migrations++;
    } else if (sys_sched_setaffinity(0, 1ul << cpu) == 0) {
        yield();
        w->migrations += getcpu() == (int)cpu;
    }
    sys_sched_setaffinity(0, ncpus >= 64 ? ~0ul : (1ul << ncpus) - 1);
}

static void work(void *arg)
{
    struct worker *w = arg;
    struct timespec ts;
    struct debug_stats st;
    while (!stop) {
        uint64_t r = next(&w->rng);
        switch (r % 16) {
        case 0: case 1: getpid(); gettid(); break;
        case 2: sys_clock_gettime(CLOCK_MONOTONIC, &ts); break;
        case 3: syscall1(SYS_debug_stats, &st); break;
        case 4: spawn_op(w); break;
        case 5: thread_op(w); break;
        case 6: case 7: migrate_op(w, r >> 8); break;
        case 8: sleep_ns((r >> 8) % 500000); break;
        case 9: syscall1(SYS_debug_sleep, (r >> 8) % 200000); break;
        case 10: syscall1(SYS_debug_spin, 20000); break;
        case 11:
            if ((r >> 8) % 8 == 0) { /* now and then: a strategy switch under everyone's feet */
                long s = (long)((r >> 12) % KSTACK_NR);
                long got = syscall1(SYS_kstack_set, s);
                w->switches += got == 0;
            }
            break;
        case 12: yield(); break;
        default: getcpu(); syscall0(SYS_kstack_get); break;
        }
        w->ops++;
    }
    w->done = 1;
}

static void report(int n, uint64_t t0)
{
    char line[512];
    int len = snprintf(line, sizeof(line), "soak: t=%llus ops",
                       (unsigned long long)((now_ns() - t0) / SEC));
    for (int i = 0; i < n && len < (int)sizeof(line) - 12; i++)
        len += snprintf(line + len, sizeof(line) - (size_t)len, " %lu", workers[i].ops);
    printf("%s\n", line);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    uint64_t secs = argc > 1 ? strtoull(argv[1], NULL, 0) : 600;
    uint64_t every = argc > 2 ? strtoull(argv[2], NULL, 0) : 60;
    uint64_t stall_ns = (secs / 2 < 10 ? 10 : secs / 2 > 60 ? 60 : secs / 2) * SEC;
    struct debug_stats before, after;
    syscall1(SYS_debug_stats, &before);
    ncpus = (unsigned)before.cpus_online;
    snprintf(parent_pid, sizeof(parent_pid), "%d", getpid());
    int n = (int)(4 * ncpus > MAX_WORKERS ? MAX_WORKERS : 4 * ncpus);
    long strategy = syscall0(SYS_kstack_get);
    /* The first output allocates stdout's buffer: before the baseline. */
    printf("soak: %d threads on %u CPUs for %llu s, counters every %llu s, a thread stalled "
           "for %llu s fails\n", n, ncpus, (unsigned long long)secs, (unsigned long long)every,
           (unsigned long long)(stall_ns / SEC));
    fflush(stdout);
    long pages = pages_baseline();
    uint64_t t0 = now_ns(), next_report = t0 + every * SEC;
    int started = 0;
    for (int i = 0; i < n; i++) {
        workers[i].rng = 0x9e3779b97f4a7c15ull * (uint64_t)(i + 1) ^ t0;
        workers[i].last_change_ns = t0;
        started += thread_create(work, &workers[i], stacks[i], STACK_SIZE) > 0;
    }
    KTAP_EXPECT_EQ(started, n, "soak.threads_started");
    int stalled = -1;
    uint64_t stalled_for = 0;
    while (now_ns() - t0 < secs * SEC && stalled < 0) {
        sleep_ns(SEC / 2);
        uint64_t now = now_ns();
        for (int i = 0; i < n; i++) {
            if (workers[i].ops != workers[i].last_ops) {
                workers[i].last_ops = workers[i].ops;
                workers[i].last_change_ns = now;
            } else if (now - workers[i].last_change_ns > stall_ns && stalled < 0) {
                stalled = i;
                stalled_for = now - workers[i].last_change_ns;
            }
        }
        if (now >= next_report) {
            report(n, t0);
            next_report += every * SEC;
        }
    }
    if (stalled >= 0)
        ktap_note("thread %d made no progress for %llu s (at %lu operations)", stalled,
                  (unsigned long long)(stalled_for / SEC), workers[stalled].ops);
    ktap_check(stalled < 0, "soak.every_thread_progressed");
    stop = 1;
    uint64_t deadline = now_ns() + 60 * SEC;
    bool all_done = false;
    while (!all_done && now_ns() < deadline) {
        all_done = true;
        for (int i = 0; i < n; i++)
            all_done &= workers[i].done != 0;
        sleep_ns(10000000);
    }
    report(n, t0);
    ktap_check(all_done, "soak.every_thread_finished");
    syscall1(SYS_kstack_set, strategy);
    syscall1(SYS_debug_stats, &after);
    unsigned long spawns = 0, threads = 0, migrations = 0, switches = 0, ops = 0;
    for (int i = 0; i < n; i++) {
        ops += workers[i].ops;
        spawns += workers[i].spawns;
        threads += workers[i].threads;
        migrations += workers[i].migrations;
        switches += workers[i].switches;
    }
    printf("soak: %lu operations: %lu processes, %lu threads, %lu migrations asked "
           "(kernel counted %lu), %lu strategy switches, %lu preemptions inside a system call\n",
           ops, spawns, threads, migrations, after.migrations - before.migrations, switches,
           after.preempted_in_syscall - before.preempted_in_syscall);
    ktap_check(spawns > 0 && threads > 0 && switches > 0 && (ncpus < 2 || migrations > 0),
               "soak.did_everything");
    long now;
    bool back = pages_back_to(pages, 30 * SEC, &now);
    if (!back)
        ktap_note("free pages %ld at the start, %ld at the end", pages, now);
    ktap_check(back, "soak.no_pages_lost");
    return ktap_done();
}
