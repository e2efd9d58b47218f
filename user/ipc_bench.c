/* SPDX-License-Identifier: MIT */
/*
 * user/ipc_bench.c - the IPC round trip: ipc_call from a client thread, and
 * the server thread's ipc_reply_recv answering it, timed in the client
 * around the call with the counter user/bench.c and bench_null use
 * (lib/user/counter.h). Tag only (call0), four register words (call4) and
 * 64 buffer words each way (call64); client and server on one CPU (the
 * direct hand-off both ways) and on two; stack offset strategies off, prng
 * and pool. Prints the fastest and the mean of CALLS round trips in counter
 * ticks, the reads included; under
 *   make -s run ARCH=<a> SMP=2 "QEMU_EXTRA=-icount shift=0,align=off,sleep=off" CMDLINE="run=ipc_bench"
 * those are guest instructions (on arm64 CNTVCT_EL0 needs cntfrq=1000000000
 * for that, as for bench_null).
 */
#include "kernel/uapi/kstack.h"
#include "lib/user/counter.h"
#include "lib/user/ipc.h"
#include "lib/user/ulib.h"

#define CALLS 2000
#define WARM 200
#define STACK_SIZE (16 * 1024)
#define L_STOP 0xdead

static unsigned long kind;
static char server_stack[STACK_SIZE] __attribute__((aligned(16)));
static volatile int server_done;

struct server_args {
    int h, cpu;
};

/* Echo every message back as it came (the buffer words too). */
static void server(void *arg)
{
    struct server_args *a = arg;
    static unsigned long buf[IPC_BUF_WORDS];
    sys_sched_setaffinity(0, 1ul << a->cpu);
    ipc_set_buffer(buf);
    struct ipc_msg m;
    long r = ipc_recv(a->h, &m);
    while (r >= 0 && IPC_TAG_LABEL(m.tag) != L_STOP)
        r = raw_ipc_syscall(SYS_ipc_reply_recv, a->h, &m);
    server_done = 1;
}

struct cost {
    uint64_t min, sum;
    long errors;
};

static struct cost measure(int h, unsigned long len)
{
    struct cost c = {~0ull, 0, 0};
    for (int i = 0; i < WARM + CALLS; i++) {
        struct ipc_msg m = {.tag = IPC_TAG(1, len), .w = {1, 2, 3, 4}};
        uint64_t t0 = counter_begin(kind);
        long r = raw_ipc_syscall(SYS_ipc_call, h, &m);
        uint64_t d = counter_end(kind) - t0;
        c.errors += r != 0;
        if (i < WARM)
            continue;
        c.min = d < c.min ? d : c.min;
        c.sum += d;
    }
    return c;
}

static void run_pair(const char *strategy, int client_cpu, int server_cpu)
{
    int h = endpoint_create();
    struct server_args a = {h, server_cpu};
    server_done = 0;
    sys_sched_setaffinity(0, 1ul << client_cpu);
    thread_create(server, &a, server_stack, sizeof(server_stack));
    static unsigned long buf[IPC_BUF_WORDS];
    ipc_set_buffer(buf);
    static const unsigned long lens[] = {0, 0, IPC_BUF_WORDS};
    static const char *const names[] = {"call0", "call4", "call64"};
    printf("ipc_bench: %-5s %-5s", strategy, client_cpu == server_cpu ? "same" : "cross");
    for (int i = 0; i < 3; i++) {
        struct cost c = measure(h, lens[i]);
        printf("  %s %6lu %8lu.%02lu%s", names[i], (unsigned long)c.min,
               (unsigned long)(c.sum / CALLS), (unsigned long)(c.sum % CALLS * 100 / CALLS),
               c.errors ? " ERR" : "");
    }
    printf("\n");
    struct ipc_msg stop = {.tag = IPC_TAG(L_STOP, 0)};
    ipc_call(h, &stop); /* -EPIPE: the server thread ends without replying */
    while (!server_done)
        sleep_ns(1000000);
    sleep_ns(5000000); /* its stack is free once the thread has left */
    handle_close(h);
}

int main(void)
{
    static const char *const names[KSTACK_NR] = KSTACK_NAMES;
    static const unsigned strategies[] = {KSTACK_OFF, KSTACK_PRNG, KSTACK_POOL};
    struct latency_status st;
    syscall2(SYS_latency_ctl, LATENCY_STATUS, &st);
    kind = st.counter;
    struct debug_stats ds;
    syscall1(SYS_debug_stats, &ds);
    long before = syscall0(SYS_kstack_get);
    uint64_t t0 = counter_begin(kind), empty = counter_end(kind) - t0;
    printf("ipc_bench: %d round trips each (call + reply_recv), counter ticks, min and mean; "
           "call0 tag only, call4 4 register words, call64 64 buffer words; empty measurement %lu\n",
           CALLS, (unsigned long)empty);
    for (unsigned i = 0; i < sizeof(strategies) / sizeof(strategies[0]); i++) {
        if (syscall1(SYS_kstack_set, strategies[i]) != 0) {
            printf("ipc_bench: %-5s unavailable\n", names[strategies[i]]);
            continue;
        }
        run_pair(names[strategies[i]], 0, 0);
        if (ds.cpus_online > 1)
            run_pair(names[strategies[i]], 0, 1);
    }
    syscall1(SYS_kstack_set, before);
    return 0;
}
