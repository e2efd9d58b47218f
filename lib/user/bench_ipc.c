/* SPDX-License-Identifier: MIT */
/*
 * lib/user/bench_ipc.c - IPC round trips for the benchmarks (bench_ipc.h).
 */
#include "lib/user/bench_ipc.h"

#include "lib/user/counter.h"
#include "lib/user/ipc.h"
#include "lib/user/ulib.h"

#define STACK_SIZE (16 * 1024)
#define LABEL_ECHO 1
#define LABEL_STOP 0xdead

struct server {
    int h, cpu;
    volatile int running; /* set by bench_ipc_start, cleared by the thread as it leaves */
    unsigned long buf[IPC_BUF_WORDS];
    char stack[STACK_SIZE] __attribute__((aligned(16)));
};

static struct server servers[BENCH_IPC_SERVERS];
static unsigned long client_buf[IPC_BUF_WORDS];

/* Echo every message back as it came, the buffer words too (they are in
 * buf, where the kernel put them), until the stop label. */
static void serve(void *arg)
{
    struct server *s = arg;
    sys_sched_setaffinity(0, 1ul << s->cpu);
    ipc_set_buffer(s->buf);
    struct ipc_msg m;
    long r = ipc_recv(s->h, &m);
    while (r >= 0 && IPC_TAG_LABEL(m.tag) != LABEL_STOP)
        r = raw_ipc_syscall(SYS_ipc_reply_recv, s->h, &m);
    s->running = 0; /* the stop call fails with -EPIPE as the thread ends */
}

int bench_ipc_start(int cpu)
{
    int i = 0;
    while (i < BENCH_IPC_SERVERS && servers[i].running)
        i++;
    if (i == BENCH_IPC_SERVERS)
        return -1;
    struct server *s = &servers[i];
    s->h = endpoint_create();
    if (s->h < 0)
        return -1;
    s->cpu = cpu;
    s->running = 1;
    ipc_set_buffer(client_buf);
    if (thread_create(serve, s, s->stack, sizeof(s->stack)) < 0) {
        s->running = 0;
        handle_close(s->h);
        return -1;
    }
    return i;
}

long bench_ipc_round_trips(int s, unsigned size, long n, long warm, unsigned long counter,
                           uint64_t empty, struct hist *out, long *first_error)
{
    static const unsigned long lens[BENCH_IPC_SIZES] = {0, 0, IPC_BUF_WORDS};
    unsigned long w = size == 0 ? 0 : 1; /* call0: nothing in the register words */
    long failed = 0;
    *first_error = 0;
    for (long i = 0; i < warm + n; i++) {
        struct ipc_msg m = {.tag = IPC_TAG(LABEL_ECHO, lens[size % BENCH_IPC_SIZES]),
                            .w = {w, 2 * w, 3 * w, 4 * w}};
        uint64_t t0 = counter_begin(counter);
        long r = raw_ipc_syscall(SYS_ipc_call, servers[s].h, &m); /* no errno translation */
        uint64_t d = counter_end(counter) - t0;
        if (r != 0) {
            failed++;
            *first_error = *first_error ? *first_error : r;
            continue;
        }
        if (i >= warm)
            hist_add(out, d > empty ? d - empty : 0);
    }
    return failed;
}

void bench_ipc_stop(int s)
{
    struct ipc_msg stop = {.tag = IPC_TAG(LABEL_STOP, 0)};
    ipc_call(servers[s].h, &stop); /* -EPIPE: the server thread ends without replying */
    while (servers[s].running)
        sleep_ns(1000000);
    sleep_ns(5000000); /* running is cleared just before the thread leaves its stack */
    handle_close(servers[s].h);
}
