/* SPDX-License-Identifier: MIT */
/*
 * user/bench/bench/bench.h - what the benchmark's files share: the counter
 * and its empty read, the run's -icount flag, and the BENCH row and cdf
 * printers (bench.c); the IPC rows (bench_ipc_rows.c) that bench.c's
 * rounds and its interrupt rows under an IPC storm use.
 */
#ifndef USER_BENCH_BENCH_BENCH_H
#define USER_BENCH_BENCH_BENCH_H

#include <stdint.h>

#include "kernel/uapi/kstack.h"
#include "lib/hist.h"

extern unsigned long counter_kind; /* LATENCY_COUNTER_* of the counter read */
extern uint64_t empty_cost;        /* an empty counter read pair, subtracted */
extern long icount_run;            /* ICOUNT: 1 under -icount (exact counts) */
#define MEDIAN 50000               /* hist_percentile's 50% */

extern const char *const names[KSTACK_NR];
/* One BENCH row (count, mean, p50, p99, p99.9, max) and one histogram's
 * buckets as BENCH cdf lines (scripts/bench_report.py reads both). */
void row(const char *side, unsigned id, const char *call, int round, const struct hist *h);
void print_cdf(const char *side, unsigned id, const char *call, const struct hist *h);

/* ---- the IPC rows (bench_ipc_rows.c) ---- */
#define IPC_SAME       0 /* the echo server on this CPU */
#define IPC_XCPU       1 /* on another CPU */
/* A tenth as many round trips across CPUs: under QEMU TCG each one waits
 * for two host threads to wake (one per virtual CPU), and takes several
 * times as long as one on a single CPU in the median, tens of times in the
 * mean (docs/ipc.md). */
#define IPC_XCPU_SHARE 10
#define IPC_STRATEGIES ((1u << KSTACK_OFF) | (1u << KSTACK_PRNG) | (1u << KSTACK_POOL))
extern int ipc_server[2]; /* the echo servers' handles, -1 if none */
extern long ipc_failed;   /* round trips that failed */
extern long one_way_bad;  /* one-way blocks that failed their sanity check */
/* Start the echo servers (caller on `cpu`, of `cpus` online) if `mask`
 * (the chosen strategies) holds one of IPC_STRATEGIES; stop them. */
void ipc_start(unsigned cpu, unsigned long cpus, unsigned mask);
void ipc_stop(void);
/* One round's IPC rows under strategy id: n round trips each (a tenth across CPUs). */
void ipc_blocks(unsigned id, long n, int round);
/* The summed IPC rows' buckets of strategy id. */
void bench_ipc_print_cdfs(unsigned id);

#endif
