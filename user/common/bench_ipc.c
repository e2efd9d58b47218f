/* SPDX-License-Identifier: MIT */
/*
 * user/common/bench_ipc.c - IPC round trips and one-way legs for the benchmarks
 * (bench_ipc.h).
 */
#include "user/common/bench_ipc.h"

#include "lib/user/counter.h"
#include "lib/user/ipc.h"
#include "lib/user/ulib.h"

#define STACK_SIZE        (16 * 1024)
#define LABEL_ECHO        1
#define LABEL_ONE_WAY     2 /* echo, and time the legs (bench_ipc_one_way) */
#define LABEL_ECHO_FPU    3 /* LABEL_ECHO, the server using FP/SIMD between calls */
#define LABEL_ONE_WAY_FPU 4 /* LABEL_ONE_WAY, the same */
#define LABEL_STOP        0xdead

static const unsigned long lens[BENCH_IPC_SIZES] = {0, 0, IPC_BUF_WORDS};

struct server {
    int h, cpu;
    unsigned long counter; /* counter kind, as for counter_begin() */
    int pid;               /* a spawned server's pid; 0 for a thread */
    int tid;               /* a server thread's tid */
    volatile int running;  /* set by bench_ipc_start, cleared as the server leaves */
    unsigned long buf[IPC_BUF_WORDS];
    char stack[STACK_SIZE] __attribute__((aligned(16)));
};

static struct server servers[BENCH_IPC_SERVERS];
static unsigned long client_buf[IPC_BUF_WORDS];

/* FP/SIMD work of the thread's own (BENCH_IPC_FPU): it leaves the FP
 * registers dirty, so the next switch saves them and, where the kernel
 * loads FP state at first use (docs/ipc.md), the other side's next FP
 * instruction traps to have its own loaded. */
static volatile double fp_acc = 1.0;

static inline __attribute__((always_inline)) void fpu_touch(void)
{
    fp_acc = fp_acc * 1.0000001 + 0.5;
}

/* Echo messages back as they came, the buffer words too (they are in buf,
 * where the kernel put them), while they ask for that; the next other
 * message is left in m. */
static long echo(struct server *s, struct ipc_msg *m)
{
    long r;
    do
        r = raw_ipc_syscall(SYS_ipc_reply_recv, s->h, m);
    while (r >= 0 && IPC_TAG_LABEL(m->tag) == LABEL_ECHO);
    return r;
}

/* echo() with some FP work before each reply (LABEL_ECHO_FPU). */
static long echo_fpu(struct server *s, struct ipc_msg *m)
{
    long r;
    do {
        fpu_touch();
        r = raw_ipc_syscall(SYS_ipc_reply_recv, s->h, m);
    } while (r >= 0 && IPC_TAG_LABEL(m->tag) == LABEL_ECHO_FPU);
    return r;
}

/* Echo too, timing each leg (bench_ipc.h, bench_ipc_one_way): the counter
 * is read as soon as ipc_reply_recv returns with a call (t1; the call
 * carries the client's t0 in w0) and just before the next ipc_reply_recv
 * (t2). The reply carries t1 - t0 in w1 and t2 in w0. The first call of a
 * run came in untimed (maybe through echo()): its call leg reads 0. With
 * fpu (a constant, LABEL_ONE_WAY_FPU), FP work before t2 and first thing
 * after the call arrives, before t1: the call leg includes what the first
 * FP instruction costs (a first-use trap and load where FP state is
 * switched lazily). */
static inline __attribute__((always_inline)) long
one_way_server(struct server *s, struct ipc_msg *m, unsigned long label, const bool fpu)
{
    uint64_t t1 = m->w[0];
    long r;
    do {
        m->w[1] = t1 - m->w[0];
        if (fpu)
            fpu_touch();
        uint64_t t2 = counter_begin(s->counter);
        m->w[0] = t2;
        r = raw_ipc_syscall(SYS_ipc_reply_recv, s->h, m);
        if (fpu)
            fpu_touch();
        t1 = counter_end(s->counter);
    } while (r >= 0 && IPC_TAG_LABEL(m->tag) == label);
    return r;
}

static long serve_one_way(struct server *s, struct ipc_msg *m)
{
    return one_way_server(s, m, LABEL_ONE_WAY, false);
}

static long serve_one_way_fpu(struct server *s, struct ipc_msg *m)
{
    return one_way_server(s, m, LABEL_ONE_WAY_FPU, true);
}

/* One run of calls of the label m carries; the next other message is left in m. */
static long serve_label(struct server *s, struct ipc_msg *m)
{
    switch (IPC_TAG_LABEL(m->tag)) {
    case LABEL_ONE_WAY: return serve_one_way(s, m);
    case LABEL_ONE_WAY_FPU: return serve_one_way_fpu(s, m);
    case LABEL_ECHO_FPU: return echo_fpu(s, m);
    default: return echo(s, m);
    }
}

/* Serve until the stop label. */
static void serve(void *arg)
{
    struct server *s = arg;
    struct latency_status st;
    sys_sched_setaffinity(0, 1ul << s->cpu);
    ipc_set_buffer(s->buf);
    s->counter = syscall2(SYS_latency_ctl, LATENCY_STATUS, &st) == 0 ? st.counter : 0;
    struct ipc_msg m;
    long r = ipc_recv(s->h, &m);
    while (r >= 0 && IPC_TAG_LABEL(m.tag) != LABEL_STOP)
        r = serve_label(s, &m);
    s->running = 0; /* the stop call fails with -EPIPE as the server ends */
}

int bench_ipc_child(int argc, char **argv)
{
    if (argc < 3 || strcmp(argv[1], BENCH_IPC_CHILD_ARG) != 0)
        return -1;
    servers[0].h = 0; /* spawn_with's handle */
    servers[0].cpu = atoi(argv[2]);
    serve(&servers[0]);
    return 0;
}

/* The server as another program: it gets the endpoint, the client keeps a
 * handle that may only send, so a server that dies fails the calls at once. */
static int spawn_server(struct server *s, const char *program)
{
    char cpu[12];
    snprintf(cpu, sizeof(cpu), "%d", s->cpu);
    const char *argv[] = {program, BENCH_IPC_CHILD_ARG, cpu, NULL};
    int e = s->h;
    s->h = handle_mint(e, IPC_RIGHT_SEND, 0);
    s->pid = s->h >= 0 ? spawn_with(program, argv, &e, 1) : -1;
    handle_close(e);
    return s->pid > 0 ? 0 : -1;
}

int bench_ipc_start(int cpu, const char *program)
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
    s->pid = 0;
    s->running = 1;
    ipc_set_buffer(client_buf);
    int ok;
    if (program)
        ok = spawn_server(s, program);
    else {
        s->tid = thread_create(serve, s, s->stack, sizeof(s->stack));
        ok = s->tid < 0 ? -1 : 0;
    }
    if (ok < 0) {
        s->running = 0;
        if (s->h >= 0)
            handle_close(s->h);
        return -1;
    }
    return i;
}

/* bench_ipc_round_trips, with FP work before each call and first thing
 * after it (fpu, a constant: each caller gets its own copy of the loop). */
static inline __attribute__((always_inline)) long round_trips(int s, unsigned size, long n,
                                                              long warm, unsigned long counter,
                                                              uint64_t empty, struct hist *out,
                                                              long *first_error, const bool fpu)
{
    unsigned long w = size == 0 ? 0 : 1; /* call0: nothing in the register words */
    unsigned long label = fpu ? LABEL_ECHO_FPU : LABEL_ECHO;
    long failed = 0;
    *first_error = 0;
    for (long i = 0; i < warm + n; i++) {
        struct ipc_msg m = {.tag = IPC_TAG(label, lens[size % BENCH_IPC_SIZES]),
                            .w = {w, 2 * w, 3 * w, 4 * w}};
        if (fpu)
            fpu_touch();
        uint64_t t0 = counter_begin(counter);
        long r = raw_ipc_syscall(SYS_ipc_call, servers[s].h, &m); /* no errno translation */
        if (fpu)
            fpu_touch();
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

long bench_ipc_round_trips(int s, unsigned size, long n, long warm, unsigned long counter,
                           uint64_t empty, struct hist *out, long *first_error)
{
    if (size & BENCH_IPC_FPU)
        return round_trips(s, size & ~BENCH_IPC_FPU, n, warm, counter, empty, out, first_error,
                           true);
    return round_trips(s, size, n, warm, counter, empty, out, first_error, false);
}

static uint64_t minus(uint64_t d, uint64_t empty)
{
    return d > empty ? d - empty : 0;
}

/* bench_ipc_one_way, with FP work before each call and first thing after
 * it (fpu, a constant, as for round_trips). */
static inline __attribute__((always_inline)) long one_way(int s, unsigned size, long n, long warm,
                                                          unsigned long counter, uint64_t empty,
                                                          struct bench_ipc_legs *out,
                                                          const bool fpu)
{
    out->failed = out->first_error = out->disagree = 0;
    unsigned long label = fpu ? LABEL_ONE_WAY_FPU : LABEL_ONE_WAY;
    for (long i = 0; i < warm + n; i++) {
        struct ipc_msg m = {.tag = IPC_TAG(label, lens[size % BENCH_IPC_SIZES])};
        if (fpu)
            fpu_touch();
        uint64_t t0 = counter_begin(counter);
        m.w[0] = t0;
        long r = raw_ipc_syscall(SYS_ipc_call, servers[s].h, &m); /* no errno translation */
        if (fpu)
            fpu_touch();
        uint64_t t3 = counter_end(counter);
        if (r != 0) {
            out->failed++;
            out->first_error = out->first_error ? out->first_error : r;
            continue;
        }
        if (i < warm)
            continue;
        uint64_t call = m.w[1], reply = t3 - m.w[0], round = t3 - t0;
        /* t0 <= t1 <= t2 <= t3 on one clock: otherwise the CPUs' counters disagree */
        if ((int64_t)call < 0 || (int64_t)reply < 0 || call > round || reply > round - call) {
            out->disagree++;
            continue;
        }
        hist_add(out->call, minus(call, empty));
        hist_add(out->reply, minus(reply, empty));
        hist_add(out->round, minus(round, empty));
    }
    return out->failed;
}

long bench_ipc_one_way(int s, unsigned size, long n, long warm, unsigned long counter,
                       uint64_t empty, struct bench_ipc_legs *out)
{
    if (size & BENCH_IPC_FPU)
        return one_way(s, size & ~BENCH_IPC_FPU, n, warm, counter, empty, out, true);
    return one_way(s, size, n, warm, counter, empty, out, false);
}

int bench_ipc_handle(int s)
{
    return servers[s].h;
}

void bench_ipc_stop(int s)
{
    struct server *sv = &servers[s];
    struct ipc_msg stop = {.tag = IPC_TAG(LABEL_STOP, 0)};
    ipc_call(sv->h, &stop); /* -EPIPE: the server ends without replying */
    if (sv->pid > 0) {
        int status;
        sys_wait(sv->pid, &status);
        sv->running = 0;
    } else {
        thread_join(sv->tid); /* then its stack may serve the next server */
        sv->running = 0;
    }
    handle_close(sv->h);
}
