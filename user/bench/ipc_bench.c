/* SPDX-License-Identifier: MIT */
/*
 * user/bench/ipc_bench.c - the IPC round trip: ipc_call from a client thread, and
 * the server's ipc_reply_recv answering it (user/common/bench_ipc.c), timed in
 * the client around the call with the counter user/bench/bench/bench.c and bench_null
 * use (lib/user/counter.h). Tag only (call0), four register words (call4)
 * and 64 buffer words each way (call64); client and server on one CPU (the
 * direct hand-off both ways) and on two; the server a thread of this
 * program ("thread": no address space switch) and another program ("task":
 * this one spawned again); stack offset strategies off, prng and pool.
 * Prints the fastest and the mean of CALLS round trips in counter ticks,
 * the reads included; under
 *   make -s run ARCH=<a> SMP=2 "QEMU_EXTRA=-icount shift=0,align=off,sleep=off"
 * CMDLINE="run=ipc_bench run.control kstack.debug" those are guest instructions
 * (on arm64 CNTVCT_EL0 needs cntfrq=1000000000 for that, as for bench_null).
 * Choosing a strategy needs the control capability (run.control) and the
 * counter the debug gate (kstack.debug): without them every strategy is
 * "unavailable", and the line says which call refused. `make bench` times the same round trips as
 * BENCH rows (the ipc/ rows, user/bench/bench/bench.c).
 */
#include "kernel/uapi/kstack.h"
#include "lib/user/counter.h"
#include "lib/user/ulib.h"
#include "user/common/bench_ipc.h"

#define CALLS 2000
#define WARM  200

static unsigned long kind;
static struct hist h;

static void run_pair(const char *strategy, int client_cpu, int server_cpu, const char *program)
{
    static const char *const names[BENCH_IPC_SIZES] = BENCH_IPC_SIZE_NAMES;
    sys_sched_setaffinity(0, 1ul << client_cpu);
    int s = bench_ipc_start(server_cpu, program);
    if (s < 0) {
        printf("ipc_bench: cannot start the server\n");
        return;
    }
    printf("ipc_bench: %-5s %-5s %-6s", strategy, client_cpu == server_cpu ? "same" : "cross",
           program ? "task" : "thread");
    for (unsigned i = 0; i < BENCH_IPC_SIZES; i++) {
        long err;
        hist_reset(&h);
        long failed = bench_ipc_round_trips(s, i, CALLS, WARM, kind, 0, &h, &err);
        uint64_t mean = hist_mean_x1000(&h);
        printf("  %s %6lu %8lu.%02lu%s", names[i], (unsigned long)h.min,
               (unsigned long)(mean / 1000), (unsigned long)(mean % 1000 / 10),
               failed ? " ERR" : "");
    }
    printf("\n");
    bench_ipc_stop(s);
}

int main(int argc, char **argv)
{
    if (bench_ipc_child(argc, argv) == 0)
        return 0; /* this was an echo server */
    static const char *const names[KSTACK_NR] = KSTACK_NAMES;
    static const unsigned strategies[] = {KSTACK_OFF, KSTACK_PRNG, KSTACK_POOL};
    struct latency_status st;
    syscall2(SYS_latency_ctl, LATENCY_STATUS, &st);
    kind = st.counter;
    struct debug_stats ds;
    syscall1(SYS_debug_stats, &ds);
    long before = syscall0(SYS_kstack_get);
    uint64_t t0 = counter_begin(kind), empty = counter_end(kind) - t0;
    printf(
        "ipc_bench: %d round trips each (call + reply_recv), counter ticks, min and mean; "
        "call0 tag only, call4 4 register words, call64 64 buffer words; empty measurement %lu\n",
        CALLS, (unsigned long)empty);
    for (unsigned i = 0; i < sizeof(strategies) / sizeof(strategies[0]); i++) {
        long err = syscall1(SYS_kstack_set, strategies[i]);
        if (err != 0) {
            printf("ipc_bench: %-5s unavailable (kstack_set: error %ld; boot with "
                   "run.control kstack.debug)\n",
                   names[strategies[i]], err);
            continue;
        }
        for (int task = 0; task < 2; task++) {
            run_pair(names[strategies[i]], 0, 0, task ? "ipc_bench" : NULL);
            if (ds.cpus_online > 1)
                run_pair(names[strategies[i]], 0, 1, task ? "ipc_bench" : NULL);
        }
    }
    syscall1(SYS_kstack_set, before);
    return 0;
}
