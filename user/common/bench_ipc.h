/* SPDX-License-Identifier: MIT */
/*
 * user/common/bench_ipc.h - IPC round trips for the benchmarks (user/bench/bench/bench.c,
 * user/bench/ipc_bench.c).
 *
 * An echo server, pinned to a CPU of its choosing, answers every ipc_call
 * with ipc_reply_recv, sending the message back as it came. It is either a
 * thread of the calling program or another program (the calling program
 * spawned again with BENCH_IPC_CHILD_ARG, holding the only handle that may
 * receive): then every switch between client and server also switches
 * address spaces, as between a real client and server. The client (the
 * thread that calls bench_ipc_round_trips) times each call from just before
 * the ipc_call instruction to just after it returned with the reply: one
 * round trip, call plus reply, with the counter the kernel's latency timers
 * use (lib/user/counter.h).
 *
 * Three message sizes, BENCH_IPC_SIZES:
 *   call0   the tag alone (length 0);
 *   call4   the tag and four words in registers (also length 0: the kernel
 *           carries the four register words on every message, so this
 *           differs from call0 only in what the client puts in them);
 *   call64  the tag, four register words and IPC_BUF_WORDS (64) words
 *           through both threads' buffers, each way.
 *
 * One way (bench_ipc_one_way): the client reads the counter just before
 * ipc_call (t0) and carries the reading in w0; the server reads it as soon
 * as its ipc_reply_recv returns with the call (t1) and again just before
 * the ipc_reply_recv that replies (t2), and carries t1 - t0 and t2 back in
 * the reply's w1 and w0; the client reads it just after ipc_call returns
 * (t3). Call leg t1 - t0 and reply leg t3 - t2, each from user mode to user
 * mode. Only comparable counters on the two CPUs make a cross-CPU leg
 * meaningful; a sample that breaks t0 <= t1 <= t2 <= t3 shows they are not.
 * The words carry timestamps, so a one-way call0 is not tag-only (it costs
 * the same: the kernel carries the four words always) and call4 is not
 * timed one way.
 *
 * BENCH_IPC_FPU ORed into the size: both sides do FP/SIMD work between
 * calls, so the switches carry FP state (saved, and loaded at first use
 * where the kernel does that lazily). The client's FP work comes before t0,
 * and its first FP instruction after the reply before t3; the server's
 * first after the call before t1, and more before t2: each leg includes
 * the receiving side's first FP instruction and what that costs.
 */
#ifndef USER_COMMON_BENCH_IPC_H
#define USER_COMMON_BENCH_IPC_H

#include <stdint.h>

#include "lib/hist.h"

#define BENCH_IPC_SIZES 3
#define BENCH_IPC_SIZE_NAMES                                                                       \
    {                                                                                              \
        "call0", "call4", "call64"                                                                 \
    }
#define BENCH_IPC_FPU        0x100u     /* ORed into a size: both sides use FP (above) */
#define BENCH_IPC_SERVERS    4          /* at most this many servers at once */
#define BENCH_IPC_LABEL_ECHO 1          /* a call the server answers as it came */
#define BENCH_IPC_CHILD_ARG  "ipc-echo" /* argv[1] of a spawned server */

/* Start an echo server on `cpu` (and give the calling thread its IPC
 * buffer): a thread of this program if `program` is NULL, else `program`
 * spawned with BENCH_IPC_CHILD_ARG. The server's number, or -1 (no
 * endpoint, no thread, no child). */
int bench_ipc_start(int cpu, const char *program);

/* A program's first step: if argv says it is a spawned server, serve (the
 * endpoint is its handle 0) and return 0 when stopped; else return -1. */
int bench_ipc_child(int argc, char **argv);

/*
 * n round trips of message size `size` (0..BENCH_IPC_SIZES-1) through
 * server `s`, after `warm` untimed ones; each time, minus `empty` (the cost
 * of the two counter reads alone), goes into `out`, which is not reset
 * first. Counter kind as for counter_begin(). Returns how many calls
 * failed (timed or not); *first_error is the first failure's -errno.
 */
long bench_ipc_round_trips(int s, unsigned size, long n, long warm, unsigned long counter,
                           uint64_t empty, struct hist *out, long *first_error);

/* The legs of one run of one-way calls; the caller points the hists where
 * they go (they are not reset first). */
struct bench_ipc_legs {
    struct hist *call, *reply; /* t1 - t0, t3 - t2, each minus the empty read pair */
    struct hist *round;        /* t3 - t0 of the same calls, minus the empty pair */
    long failed, first_error;  /* as for bench_ipc_round_trips */
    long disagree;             /* timed samples left out: t0 <= t1 <= t2 <= t3 broken */
};

/* n one-way calls of size `size` (call0 or call64 mean something; see
 * above) through server s after `warm` (at least 1) untimed ones, into out;
 * returns out->failed. */
long bench_ipc_one_way(int s, unsigned size, long n, long warm, unsigned long counter,
                       uint64_t empty, struct bench_ipc_legs *out);

/* The handle the client calls server s through (for calls of its own,
 * tagged BENCH_IPC_LABEL_ECHO). */
int bench_ipc_handle(int s);

/* Stop server s and wait until its thread or program has ended. */
void bench_ipc_stop(int s);

#endif
