/* SPDX-License-Identifier: MIT */
/*
 * user/longrun/soak/soak.c - everything at once, for a while (make soak MINUTES=10; make
 * test runs 20 s).
 *
 *   soak SECONDS REPORT_EVERY_S
 *
 * 4 threads per CPU loop over a random mix of system calls, process spawn
 * and exit (user/tests/child, waited for), thread create and exit, migrations
 * (affinity changes, and SYS_kstack_probe moving the caller mid-call),
 * sleeps, switches of the kernel stack offset strategy, and IPC: calls to
 * echo servers (SERVERS threads on one endpoint, register and buffer
 * messages, every reply checked word by word) and notification objects
 * made, signalled, polled and closed. Each thread
 * counts its operations; the main thread prints every counter each report
 * interval and fails the run if any thread makes no progress for STALL_NS
 * of guest time (generous: under plain TCG on a loaded host the tick can
 * come at a tenth of its rate). At the end every thread must have finished,
 * the free page count must be back at its start, and the strategy in force
 * is put back. A kernel panic stops the machine, which the runner reports.
 */
#include "user/longrun/soak/soak.h"
#include "kernel/uapi/kstack.h"
#include "user/common/pages.h"

/* A thread is stalled when it made no progress for stall_ns while the
 * others made STALL_OPS operations: a host that stops the whole guest
 * (TCG's clock follows the host's) stops the others too, and does not
 * count; a kernel that starves one thread does. */
#define STALL_OPS 10000ul

struct worker workers[MAX_WORKERS];
unsigned long buffers[MAX_WORKERS + SERVERS][IPC_BUF_WORDS];
volatile int servers_done;
int endpoint;
volatile int stop;
unsigned ncpus;
char parent_pid[16];
static char stacks[MAX_WORKERS][STACK_SIZE] __attribute__((aligned(16)));
static char server_stacks[SERVERS][STACK_SIZE] __attribute__((aligned(16)));

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

/* SERVERS echo server threads on the shared endpoint: how many started. */
static int start_servers(void)
{
    endpoint = endpoint_create();
    int servers = 0;
    for (int i = 0; i < SERVERS; i++)
        servers +=
            thread_create(server, buffers[MAX_WORKERS + i], server_stacks[i], STACK_SIZE) > 0;
    KTAP_EXPECT_EQ(servers, SERVERS, "soak.ipc_servers_started");
    return servers;
}

static void start_workers(int n, uint64_t t0)
{
    int started = 0;
    for (int i = 0; i < n; i++) {
        workers[i].rng = 0x9e3779b97f4a7c15ull * (uint64_t)(i + 1) ^ t0;
        workers[i].last_change_ns = t0;
        started += thread_create(work, &workers[i], stacks[i], STACK_SIZE) > 0;
    }
    KTAP_EXPECT_EQ(started, n, "soak.threads_started");
}

/* One look at every thread's counter at guest time now: the first thread
 * stalled (see STALL_OPS), or -1; *for_ns and *others say how long and
 * how many operations the others made meanwhile. */
static int find_stall(int n, uint64_t now, uint64_t stall_ns, uint64_t *for_ns,
                      unsigned long *others)
{
    unsigned long total = 0;
    int stalled = -1;
    for (int i = 0; i < n; i++)
        total += workers[i].ops;
    for (int i = 0; i < n; i++) {
        if (workers[i].ops != workers[i].last_ops) {
            workers[i].last_ops = workers[i].ops;
            workers[i].last_change_ns = now;
            workers[i].others_at_change = total;
        } else if (now - workers[i].last_change_ns > stall_ns &&
                   total - workers[i].others_at_change >= STALL_OPS && stalled < 0) {
            stalled = i;
            *for_ns = now - workers[i].last_change_ns;
            *others = total - workers[i].others_at_change;
        }
    }
    return stalled;
}

/* The run itself: every half second a look for a stalled thread, every
 * `every` seconds the counters, until secs have passed or one stalled. */
static void watch(int n, uint64_t t0, uint64_t secs, uint64_t every, uint64_t stall_ns)
{
    uint64_t next_report = t0 + every * SEC, stalled_for = 0;
    unsigned long stalled_others = 0;
    int stalled = -1;
    while (now_ns() - t0 < secs * SEC && stalled < 0) {
        sleep_ns(SEC / 2);
        uint64_t now = now_ns();
        stalled = find_stall(n, now, stall_ns, &stalled_for, &stalled_others);
        if (now >= next_report) {
            report(n, t0);
            next_report += every * SEC;
        }
    }
    if (stalled >= 0)
        ktap_note("thread %d made no progress for %llu s (at %lu operations) while the others "
                  "made %lu",
                  stalled, (unsigned long long)(stalled_for / SEC), workers[stalled].ops,
                  stalled_others);
    ktap_check(stalled < 0, "soak.every_thread_progressed");
}

/* Stop the workers, then the servers; each given until deadline (and the
 * servers 10 s more). */
static void stop_all(int n, int servers, uint64_t t0, uint64_t deadline)
{
    stop = 1;
    bool all_done = false;
    while (!all_done && now_ns() < deadline) {
        all_done = true;
        for (int i = 0; i < n; i++)
            all_done &= workers[i].done != 0;
        sleep_ns(10000000);
    }
    report(n, t0);
    ktap_check(all_done, "soak.every_thread_finished");
    for (int i = 0; i < servers; i++) {
        struct ipc_msg m = {.tag = IPC_TAG(L_STOP, 0)};
        ipc_call(endpoint, &m); /* -EPIPE: the server ends without replying */
    }
    while (servers_done < servers && now_ns() < deadline + 10 * SEC)
        sleep_ns(10000000);
    ktap_check(servers_done == servers, "soak.ipc_servers_finished");
    sleep_ns(10000000); /* their stacks are free once the threads have left */
    handle_close(endpoint);
}

/* Every thread's counters summed, printed with the kernel's, and checked. */
static void summarize(int n, const struct debug_stats *before, const struct debug_stats *after)
{
    unsigned long spawns = 0, threads = 0, migrations = 0, switches = 0, ops = 0, ipcs = 0, bad = 0;
    for (int i = 0; i < n; i++) {
        ops += workers[i].ops;
        spawns += workers[i].spawns;
        threads += workers[i].threads;
        migrations += workers[i].migrations;
        switches += workers[i].switches;
        ipcs += workers[i].ipcs;
        bad += workers[i].ipc_bad;
    }
    printf("soak: %lu operations: %lu processes, %lu threads, %lu migrations asked "
           "(kernel counted %lu), %lu strategy switches, %lu IPC operations, %lu preemptions "
           "inside a system call\n",
           ops, spawns, threads, migrations, after->migrations - before->migrations, switches, ipcs,
           after->preempted_in_syscall - before->preempted_in_syscall);
    ktap_check(spawns > 0 && threads > 0 && switches > 0 && ipcs > 0 &&
                   (ncpus < 2 || migrations > 0),
               "soak.did_everything");
    if (bad)
        ktap_note("%lu IPC operations came back wrong", bad);
    ktap_check(bad == 0, "soak.ipc_messages_intact");
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
           "for %llu s fails\n",
           n, ncpus, (unsigned long long)secs, (unsigned long long)every,
           (unsigned long long)(stall_ns / SEC));
    fflush(stdout);
    long pages = pages_baseline();
    int servers = start_servers();
    uint64_t t0 = now_ns();
    start_workers(n, t0);
    watch(n, t0, secs, every, stall_ns);
    stop_all(n, servers, t0, now_ns() + 60 * SEC);
    syscall1(SYS_kstack_set, strategy);
    syscall1(SYS_debug_stats, &after);
    summarize(n, &before, &after);
    long now;
    bool back = pages_back_to(pages, 30 * SEC, &now);
    if (!back)
        ktap_note("free pages %ld at the start, %ld at the end", pages, now);
    ktap_check(back, "soak.no_pages_lost");
    return ktap_done();
}
