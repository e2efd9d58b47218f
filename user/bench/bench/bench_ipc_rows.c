/* SPDX-License-Identifier: MIT */
/*
 * user/bench/bench/bench_ipc_rows.c - the benchmark's IPC rows (bench.c's
 * header describes them): round trips through an echo server on this CPU
 * and on another, and the one-way legs of call0 and call64, timed in the
 * caller with the kernel's timers off.
 */
#include "kernel/uapi/latency.h"
#include "lib/user/counter.h"
#include "lib/user/ulib.h"
#include "user/bench/bench/bench.h"
#include "user/common/bench_ipc.h"

/* IPC round trips: where the server is (this CPU, another) and the strategies. */
#define IPC_WARM 16 /* untimed round trips first: the server wakes, caches warm up */
static const char *const ipc_names[2][BENCH_IPC_SIZES] = {
    {"ipc/call0", "ipc/call4", "ipc/call64"},
    {"ipc/call0-xcpu", "ipc/call4-xcpu", "ipc/call64-xcpu"}};
int ipc_server[2] = {-1, -1};
long ipc_failed;
static struct hist ipc_sums[KSTACK_NR][2][BENCH_IPC_SIZES];
static uint64_t ipc_round_median[2][BENCH_IPC_SIZES]; /* this round's; 0: no row */

/* One-way legs (user/common/bench_ipc.h, bench_ipc_one_way) of call0 and
 * call64: [where][size 0/1][leg 0 call, 1 reply]. */
static const unsigned one_way_size[2] = {0, 2};
static const char *const one_way_names[2][2][2] = {
    {{"ipc/oneway-call0", "ipc/oneway-reply0"}, {"ipc/oneway-call64", "ipc/oneway-reply64"}},
    {{"ipc/oneway-call0-xcpu", "ipc/oneway-reply0-xcpu"},
     {"ipc/oneway-call64-xcpu", "ipc/oneway-reply64-xcpu"}}};
static struct hist legs[3], one_way_sums[KSTACK_NR][2][2][2];
long one_way_bad; /* blocks that failed the sanity check */

/* Whether a leg between two CPUs means anything: arm64's PMCCNTR_EL0 is
 * each CPU's own cycle counter, counting from when that CPU enabled it
 * (arch/arm64/time.c), so two CPUs' readings have no common zero (under
 * QEMU TCG nearly every cross-CPU sample had a negative leg). TSC under
 * QEMU and riscv64's cycle (the host's counter under TCG, instructions
 * under -icount) are one clock for all CPUs; bench_ipc_one_way checks
 * every sample's order anyway. */
static bool one_way_xcpu_ok(void)
{
    return counter_kind != LATENCY_COUNTER_PMCCNTR;
}

static struct hist scratch;

/* One IPC block: `n` timed round trips of one size through one server. */
static void ipc_block(unsigned id, unsigned where, unsigned size, long n, int round)
{
    long err;
    hist_reset(&scratch);
    long failed = bench_ipc_round_trips(ipc_server[where], size, n, IPC_WARM, counter_kind,
                                        empty_cost, &scratch, &err);
    ipc_round_median[where][size] = 0;
    if (failed) {
        printf("bench: %s under %s: %ld of %ld round trips failed (first %ld): row left out\n",
               ipc_names[where][size], names[id], failed, n + IPC_WARM, err);
        ipc_failed += failed;
        return;
    }
    row("user", id, ipc_names[where][size], round, &scratch);
    hist_merge(&ipc_sums[id][where][size], &scratch);
    ipc_round_median[where][size] = hist_percentile(&scratch, MEDIAN);
}

/* A leg's median must be above 0 and below the median round trip of the
 * same calls and, under -icount (exact counts), below this round's round
 * trip row: else a word went astray or the clock lies. Medians, not means:
 * one call that refills the pool (a few hundred thousand instructions) moves
 * a leg's mean past the round trip's. Says why, loudly. */
static bool one_way_sane(const char *name, const char *strategy, uint64_t leg, uint64_t round,
                         uint64_t row)
{
    bool ok = leg > 0 && leg < round && (!icount_run || !row || leg < row);
    if (!ok)
        printf("bench: FAIL: %s under %s: median leg %lu, round trip of the same calls %lu, "
               "this round's row %lu: a leg must be above 0 and below both\n",
               name, strategy, (unsigned long)leg, (unsigned long)round, (unsigned long)row);
    return ok;
}

/* One one-way block: the call and reply legs of `n` calls of one size. */
static void one_way_block(unsigned id, unsigned where, unsigned k, long n, int round)
{
    const char *const *name = one_way_names[where][k];
    if (where == IPC_XCPU && !one_way_xcpu_ok())
        return;
    struct bench_ipc_legs out = {.call = &legs[0], .reply = &legs[1], .round = &legs[2]};
    for (unsigned i = 0; i < 3; i++)
        hist_reset(&legs[i]);
    long failed = bench_ipc_one_way(ipc_server[where], one_way_size[k], n, IPC_WARM, counter_kind,
                                    empty_cost, &out);
    if (failed) {
        printf("bench: %s under %s: %ld of %ld calls failed (first %ld): rows left out\n", name[0],
               names[id], failed, n + IPC_WARM, out.first_error);
        ipc_failed += failed;
        return;
    }
    if (out.disagree) {
        /* On one CPU one counter: disagreement is a broken measurement. */
        printf("bench: %s%s and %s under %s: %ld of %ld samples break t0 <= t1 <= t2 <= t3: "
               "%s\n",
               where == IPC_SAME ? "FAIL: " : "", name[0], name[1], names[id], out.disagree, n,
               where == IPC_SAME ? "one CPU, one counter"
                                 : "the two CPUs' counters do not agree: rows left out");
        one_way_bad += where == IPC_SAME;
        return;
    }
    uint64_t round_median = hist_percentile(&legs[2], MEDIAN);
    for (unsigned leg = 0; leg < 2; leg++) {
        if (!one_way_sane(name[leg], names[id], hist_percentile(&legs[leg], MEDIAN), round_median,
                          ipc_round_median[where][one_way_size[k]]))
            one_way_bad++;
        row("user", id, name[leg], round, &legs[leg]);
        hist_merge(&one_way_sums[id][where][k][leg], &legs[leg]);
    }
}

/* Every IPC block of one strategy in one round, with the kernel's timers off. */
void ipc_blocks(unsigned id, long n, int round)
{
    if (!(IPC_STRATEGIES & (1u << id)))
        return;
    syscall1(SYS_latency_ctl, LATENCY_OFF);
    for (unsigned where = IPC_SAME; where <= IPC_XCPU; where++) {
        long trips = where == IPC_XCPU ? (n + IPC_XCPU_SHARE - 1) / IPC_XCPU_SHARE : n;
        for (unsigned size = 0; ipc_server[where] >= 0 && size < BENCH_IPC_SIZES; size++)
            ipc_block(id, where, size, trips, round);
        for (unsigned k = 0; ipc_server[where] >= 0 && k < 2; k++)
            one_way_block(id, where, k, trips, round);
    }
    syscall1(SYS_latency_ctl, LATENCY_ON);
}

/* The echo servers, other programs: one on this CPU, one on the next one
 * down (if any). */
void ipc_start(unsigned cpu, unsigned long cpus)
{
    ipc_server[IPC_SAME] = bench_ipc_start((int)cpu, "bench");
    if (cpus > 1)
        ipc_server[IPC_XCPU] = bench_ipc_start((int)cpu - 1, "bench");
    else
        printf("bench: ipc/*-xcpu skipped: only one CPU online (make bench ICOUNT=1 boots one: "
               "two CPUs' instructions would interleave in the counts)\n");
    if (ipc_server[IPC_SAME] < 0 || (cpus > 1 && ipc_server[IPC_XCPU] < 0)) {
        printf("bench: cannot start the IPC echo servers\n");
        ipc_failed++;
    }
    printf("bench: ipc round trips (ipc_call answered by ipc_reply_recv in another program) "
           "under off, prng and pool, caller on CPU %u: ipc/callN server on CPU %u",
           cpu, cpu);
    if (cpus > 1)
        printf(", ipc/callN-xcpu server on CPU %u (1/%d of the calls)", cpu - 1, IPC_XCPU_SHARE);
    printf("; one way (ipc/oneway-call0, -reply0, -call64, -reply64): the call leg to the "
           "server's user mode, the reply leg back, in the same calls\n");
    if (cpus > 1 && !one_way_xcpu_ok())
        printf("bench: ipc/oneway-*-xcpu skipped: the counter (PMCCNTR_EL0) is per CPU, "
               "started when each CPU enabled it: no common zero across CPUs\n");
}

void ipc_stop(void)
{
    for (unsigned where = IPC_SAME; where <= IPC_XCPU; where++) {
        if (ipc_server[where] >= 0)
            bench_ipc_stop(ipc_server[where]);
        ipc_server[where] = -1;
    }
}

/* The summed IPC rows' buckets of strategy id, as BENCH cdf lines. */
void bench_ipc_print_cdfs(unsigned id)
{
    for (unsigned where = IPC_SAME; where <= IPC_XCPU; where++) {
        for (unsigned size = 0; size < BENCH_IPC_SIZES; size++) {
            if (ipc_sums[id][where][size].count)
                print_cdf("user", id, ipc_names[where][size], &ipc_sums[id][where][size]);
        }
        for (unsigned k = 0; k < 2; k++) {
            for (unsigned leg = 0; leg < 2; leg++) {
                const struct hist *h = &one_way_sums[id][where][k][leg];
                if (h->count)
                    print_cdf("user", id, one_way_names[where][k][leg], h);
            }
        }
    }
}
