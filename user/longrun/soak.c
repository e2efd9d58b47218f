/* SPDX-License-Identifier: MIT */
/*
 * user/longrun/soak.c - everything at once, for a while (make soak MINUTES=10; make
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
#include "kernel/uapi/kstack.h"
#include "lib/user/ipc.h"
#include "lib/user/ulib.h"
#include "user/common/pages.h"

#define MAX_WORKERS  32
#define STACK_SIZE   (16 * 1024)
#define HELPER_STACK 4096
#define SEC          1000000000ull
#define SERVERS      2
#define L_ECHO       1
#define L_STOP       2

struct worker {
    uint64_t rng;
    volatile unsigned long ops, spawns, threads, migrations, switches, ipcs, ipc_bad;
    volatile int done;
    volatile int helper_done;
    uint64_t last_change_ns;
    unsigned long last_ops;
    unsigned long others_at_change; /* every thread's operations, summed, then */
};

/* A thread is stalled when it made no progress for stall_ns while the
 * others made STALL_OPS operations: a host that stops the whole guest
 * (TCG's clock follows the host's) stops the others too, and does not
 * count; a kernel that starves one thread does. */
#define STALL_OPS 10000ul

static struct worker workers[MAX_WORKERS];
static char stacks[MAX_WORKERS][STACK_SIZE] __attribute__((aligned(16)));
static char helper_stacks[MAX_WORKERS][HELPER_STACK] __attribute__((aligned(16)));
static char server_stacks[SERVERS][STACK_SIZE] __attribute__((aligned(16)));
static unsigned long buffers[MAX_WORKERS + SERVERS][IPC_BUF_WORDS];
static volatile int servers_done;
static int endpoint;
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

/* A new thread that makes two calls and ends; wait until it has ended,
 * not only until it set its flag: the next one reuses its stack. */
static void thread_op(struct worker *w)
{
    w->helper_done = 0;
    int i = (int)(w - workers);
    int tid = thread_create(helper, w, helper_stacks[i], HELPER_STACK);
    if (tid < 0) {
        sleep_ns(1000000); /* the thread table is full for a moment */
        return;
    }
    thread_join(tid);
    w->threads += w->helper_done;
}

/* Start user/tests/child and wait for it: it must exit with the status it was given. */
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

/* An echo server: every word of a message comes back plus one. */
static void server(void *arg)
{
    unsigned long *buf = arg;
    ipc_set_buffer(buf);
    struct ipc_msg m;
    long r = ipc_recv(endpoint, &m);
    while (r >= 0 && IPC_TAG_LABEL(m.tag) == L_ECHO) {
        for (int i = 0; i < IPC_REG_WORDS; i++)
            m.w[i]++;
        for (unsigned long i = 0; i < IPC_TAG_LEN(m.tag); i++)
            buf[i]++;
        r = ipc_reply_recv(endpoint, &m);
    }
    if (r < 0)
        printf("soak: echo server: ipc_recv %ld\n", r);
    __atomic_fetch_add(&servers_done, 1, __ATOMIC_SEQ_CST);
}

/* A call to an echo server; a quarter of them carry 0..64 buffer words. */
static void ipc_call_op(struct worker *w, uint64_t r)
{
    unsigned long *buf = buffers[w - workers];
    unsigned long len = r % 4 == 0 ? (r >> 2) % (IPC_BUF_WORDS + 1) : 0;
    for (unsigned long i = 0; i < len; i++)
        buf[i] = r + i;
    struct ipc_msg m = {.tag = IPC_TAG(L_ECHO, len), .w = {r, r + 1, r + 2, r + 3}};
    long got = ipc_call(endpoint, &m);
    bool ok = got == 0 && m.tag == IPC_TAG(L_ECHO, len);
    for (int i = 0; i < IPC_REG_WORDS; i++)
        ok &= m.w[i] == r + (unsigned long)i + 1;
    for (unsigned long i = 0; i < len; i++)
        ok &= buf[i] == r + i + 1;
    if (!ok && w->ipc_bad++ < 3)
        printf("soak: ipc_call of %lu buffer words: result %ld, tag %#lx, w0 %#lx (sent %#lx)\n",
               len, got, m.tag, m.w[0], (unsigned long)r);
    w->ipcs++;
}

/* A notification of its own: made, signalled twice, polled, closed. */
static void notify_op(struct worker *w, uint64_t r)
{
    int h = notify_create();
    if (h == -EMFILE || h == -ENOSPC) /* the handle table or the objects are full for a moment */
        return;
    unsigned long a = 1ul << (r % 63), b = 1ul << ((r >> 6) % 63);
    long got = -1;
    if (h >= 0 && notify_signal(h, a) == 0 && notify_signal(h, b) == 0)
        got = notify_poll(h);
    bool ok = got == (long)(a | b) && notify_poll(h) == 0 && handle_close(h) == 0;
    if (!ok && w->ipc_bad++ < 3)
        printf("soak: notification %d: poll %ld, expected %#lx\n", h, got, a | b);
    w->ipcs++;
}

static void work(void *arg)
{
    struct worker *w = arg;
    struct timespec ts;
    struct debug_stats st;
    ipc_set_buffer(buffers[w - workers]);
    while (!stop) {
        uint64_t r = next(&w->rng);
        switch (r % 18) {
        case 0:
        case 1:
            getpid();
            gettid();
            break;
        case 2: sys_clock_gettime(CLOCK_MONOTONIC, &ts); break;
        case 3: syscall1(SYS_debug_stats, &st); break;
        case 4: spawn_op(w); break;
        case 5: thread_op(w); break;
        case 6:
        case 7: migrate_op(w, r >> 8); break;
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
        case 13:
        case 14: ipc_call_op(w, r >> 8); break;
        case 15: notify_op(w, r >> 8); break;
        default:
            getcpu();
            syscall0(SYS_kstack_get);
            break;
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
           "for %llu s fails\n",
           n, ncpus, (unsigned long long)secs, (unsigned long long)every,
           (unsigned long long)(stall_ns / SEC));
    fflush(stdout);
    long pages = pages_baseline();
    endpoint = endpoint_create();
    int servers = 0;
    for (int i = 0; i < SERVERS; i++)
        servers +=
            thread_create(server, buffers[MAX_WORKERS + i], server_stacks[i], STACK_SIZE) > 0;
    KTAP_EXPECT_EQ(servers, SERVERS, "soak.ipc_servers_started");
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
    unsigned long stalled_others = 0;
    while (now_ns() - t0 < secs * SEC && stalled < 0) {
        sleep_ns(SEC / 2);
        uint64_t now = now_ns();
        unsigned long total = 0;
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
                stalled_for = now - workers[i].last_change_ns;
                stalled_others = total - workers[i].others_at_change;
            }
        }
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
    for (int i = 0; i < servers; i++) {
        struct ipc_msg m = {.tag = IPC_TAG(L_STOP, 0)};
        ipc_call(endpoint, &m); /* -EPIPE: the server ends without replying */
    }
    while (servers_done < servers && now_ns() < deadline + 10 * SEC)
        sleep_ns(10000000);
    ktap_check(servers_done == servers, "soak.ipc_servers_finished");
    sleep_ns(10000000); /* their stacks are free once the threads have left */
    handle_close(endpoint);
    syscall1(SYS_kstack_set, strategy);
    syscall1(SYS_debug_stats, &after);
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
           ops, spawns, threads, migrations, after.migrations - before.migrations, switches, ipcs,
           after.preempted_in_syscall - before.preempted_in_syscall);
    ktap_check(spawns > 0 && threads > 0 && switches > 0 && ipcs > 0 &&
                   (ncpus < 2 || migrations > 0),
               "soak.did_everything");
    if (bad)
        ktap_note("%lu IPC operations came back wrong", bad);
    ktap_check(bad == 0, "soak.ipc_messages_intact");
    long now;
    bool back = pages_back_to(pages, 30 * SEC, &now);
    if (!back)
        ktap_note("free pages %ld at the start, %ld at the end", pages, now);
    ktap_check(back, "soak.no_pages_lost");
    return ktap_done();
}
