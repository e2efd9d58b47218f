/* SPDX-License-Identifier: MIT */
/*
 * user/longrun/soak/work.c - what the soak's threads do: each worker draws
 * operations at random (system calls, spawns, threads, migrations, sleeps,
 * strategy switches, IPC calls, notifications) until the supervisor
 * (soak.c) says stop; the echo servers answer its IPC calls.
 */
#include "kernel/uapi/kstack.h"
#include "user/longrun/soak/soak.h"

static char helper_stacks[MAX_WORKERS][HELPER_STACK] __attribute__((aligned(16)));

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
void server(void *arg)
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

void work(void *arg)
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
