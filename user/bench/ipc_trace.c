/* SPDX-License-Identifier: MIT */
/*
 * user/bench/ipc_trace.c - one IPC round trip, over and over, for
 * scripts/ipc_stage_trace.py to trace instruction by instruction (make bench
 * ICOUNT=1: the stage table of docs/ipc.md).
 *
 *   ipc_trace    booted with kstack.debug and run.control, on one CPU
 *
 * An echo server, this program spawned again (user/common/bench_ipc.h), on
 * this CPU; strategy off, the latency timers off. For each path, the IPC
 * fastpath on ("fast") and switched off ("slow", SYS_debug_ipc_fastpath):
 * WARM untimed calls, then the line "ipc-trace: PATH ADDRESS" (the address
 * of the function that makes one call, a different one per path), then
 * CALLS round trips of ipc/oneway-call0's kind (the tag and four register
 * words). The script turns QEMU's instruction log on when it reads the line
 * and off a moment later: every complete call in between starts at
 * ADDRESS. "ipc-trace: end" last.
 */
#include "kernel/uapi/kstack.h"
#include "kernel/uapi/latency.h"
#include "lib/user/ipc.h"
#include "lib/user/ulib.h"
#include "user/common/bench_ipc.h"

#define WARM  64
#define CALLS 50000 /* about a second of QEMU: longer than the script takes to start its window */

static struct ipc_msg m;

/* One round trip per call; two copies, so that each path's calls start at
 * an address of their own in the trace. */
static __attribute__((noinline)) long call_fast(int h)
{
    m.tag = IPC_TAG(BENCH_IPC_LABEL_ECHO, 0);
    return raw_ipc_syscall(SYS_ipc_call, h, &m);
}

static __attribute__((noinline)) long call_slow(int h)
{
    m.tag = IPC_TAG(BENCH_IPC_LABEL_ECHO, 0);
    return raw_ipc_syscall(SYS_ipc_call, h, &m);
}

/* WARM calls, the line, CALLS calls: the number that failed. */
static long run_path(const char *path, long (*call)(int), int h)
{
    long failed = 0;
    for (int i = 0; i < WARM; i++)
        failed += call(h) != 0;
    printf("ipc-trace: %s %p\n", path, (void *)call);
    for (long i = 0; i < CALLS; i++)
        failed += call(h) != 0;
    return failed;
}

int main(int argc, char **argv)
{
    if (bench_ipc_child(argc, argv) == 0)
        return 0;
    long was = syscall1(SYS_debug_ipc_fastpath, IPC_FASTPATH_QUERY);
    if (was < 0 || syscall1(SYS_kstack_set, KSTACK_OFF) != 0 ||
        syscall1(SYS_latency_ctl, LATENCY_OFF) != 0) {
        printf("ipc-trace: FAIL: needs kstack.debug and run.control (switch: %ld)\n", was);
        return 1;
    }
    int s = bench_ipc_start(0, "ipc_trace");
    if (s < 0) {
        printf("ipc-trace: FAIL: cannot start the echo server\n");
        return 1;
    }
    sys_sched_setaffinity(0, 1);
    int h = bench_ipc_handle(s);
    syscall1(SYS_debug_ipc_fastpath, IPC_FASTPATH_ON);
    long failed = run_path("fast", call_fast, h);
    syscall1(SYS_debug_ipc_fastpath, IPC_FASTPATH_OFF);
    failed += run_path("slow", call_slow, h);
    syscall1(SYS_debug_ipc_fastpath, was);
    bench_ipc_stop(s);
    printf("ipc-trace: end, %ld calls failed\n", failed);
    return failed ? 1 : 0;
}
