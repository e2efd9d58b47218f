/* SPDX-License-Identifier: MIT */
/*
 * user/bench/bench/bench_ipc_rows.c - the benchmark's IPC rows (bench.c's
 * header describes them): round trips through an echo server on this CPU
 * and on another, and the one-way legs of call0 and call64, timed in the
 * caller with the kernel's timers off; call0 again with FP/SIMD used on
 * both sides (-fpu); and every row on this CPU again with the IPC fastpath
 * switched off (-slow), when the debug gate lets this program switch it.
 */
#include "kernel/uapi/latency.h"
#include "lib/user/counter.h"
#include "lib/user/ipc.h"
#include "lib/user/ulib.h"
#include "user/bench/bench/bench.h"
#include "user/common/bench_ipc.h"

/* The rows: where the server is (this CPU, another), which path (the
 * fastpath on, or switched off for the -slow rows: same CPU only, as a call
 * across CPUs never takes it), and the kind of call. Round trips: call0,
 * call4, call64 and call0-fpu (both sides use FP between calls: same CPU
 * only); one way, call and reply legs: call0, call64 and call0-fpu. */
#define IPC_WARM   16 /* untimed round trips first: the server wakes, caches warm up */
#define PATHS      2  /* 0: the fastpath on; 1: off (SYS_debug_ipc_fastpath) */
#define ROUND_KIND 4
#define LEG_KIND   3
static const char *const round_base[ROUND_KIND] = {"ipc/call0", "ipc/call4", "ipc/call64",
                                                   "ipc/call0-fpu"};
static const unsigned round_size[ROUND_KIND] = {0, 1, 2, BENCH_IPC_FPU};
static const unsigned round_kinds[2] = {ROUND_KIND, BENCH_IPC_SIZES}; /* per where */
static const char *const leg_base[LEG_KIND][2] = {
    {"ipc/oneway-call0", "ipc/oneway-reply0"},
    {"ipc/oneway-call64", "ipc/oneway-reply64"},
    {"ipc/oneway-call0-fpu", "ipc/oneway-reply0-fpu"}};
static const unsigned leg_round[LEG_KIND] = {0, 2, 3}; /* the round trip of the same calls */
static const unsigned leg_kinds[2] = {LEG_KIND, 2};
static unsigned paths = 1; /* 2 once the switch answers (ipc_start) */
static long fastpath_at_boot = -1;
int ipc_server[2] = {-1, -1};
long ipc_failed;
long one_way_bad; /* blocks that failed the sanity check */

/* Names and sums per strategy among IPC_STRATEGIES (off, prng, pool). */
#define IPC_IDS 3
_Static_assert(__builtin_popcount(IPC_STRATEGIES) == IPC_IDS, "one slot per IPC strategy");
static char round_name[2][PATHS][ROUND_KIND][32], leg_name[2][PATHS][LEG_KIND][2][40];
static struct hist round_sums[IPC_IDS][2][PATHS][ROUND_KIND];
static struct hist leg_sums[IPC_IDS][2][PATHS][LEG_KIND][2];
static uint64_t round_median[2][PATHS][ROUND_KIND]; /* this round's; 0: no row */
static struct hist legs[3];

/* The slot of strategy id among IPC_STRATEGIES. */
static unsigned ipc_slot(unsigned id)
{
    return (unsigned)__builtin_popcount(IPC_STRATEGIES & ((1u << id) - 1));
}

/* "ipc/call0" + "-xcpu" + "-slow", as they apply. */
static void make_name(char *out, size_t n, const char *base, unsigned where, unsigned path)
{
    snprintf(out, n, "%s%s%s", base, where == IPC_XCPU ? "-xcpu" : "", path ? "-slow" : "");
}

static void make_names(void)
{
    for (unsigned where = IPC_SAME; where <= IPC_XCPU; where++) {
        for (unsigned path = 0; path < PATHS; path++) {
            for (unsigned k = 0; k < ROUND_KIND; k++)
                make_name(round_name[where][path][k], sizeof(round_name[0][0][0]), round_base[k],
                          where, path);
            for (unsigned k = 0; k < LEG_KIND; k++)
                for (unsigned leg = 0; leg < 2; leg++)
                    make_name(leg_name[where][path][k][leg], sizeof(leg_name[0][0][0][0]),
                              leg_base[k][leg], where, path);
        }
    }
}

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

/* One IPC block: `n` timed round trips of one kind through one server. */
static void ipc_block(unsigned id, unsigned where, unsigned path, unsigned k, long n, int round)
{
    long err;
    const char *name = round_name[where][path][k];
    hist_reset(&scratch);
    long failed = bench_ipc_round_trips(ipc_server[where], round_size[k], n, IPC_WARM, counter_kind,
                                        empty_cost, &scratch, &err);
    round_median[where][path][k] = 0;
    if (failed) {
        printf("bench: %s under %s: %ld of %ld round trips failed (first %ld): row left out\n",
               name, names[id], failed, n + IPC_WARM, err);
        ipc_failed += failed;
        return;
    }
    row("user", id, name, round, &scratch);
    hist_merge(&round_sums[ipc_slot(id)][where][path][k], &scratch);
    round_median[where][path][k] = hist_percentile(&scratch, MEDIAN);
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

/* One one-way block: the call and reply legs of `n` calls of one kind. */
static void one_way_block(unsigned id, unsigned where, unsigned path, unsigned k, long n, int round)
{
    char(*name)[40] = leg_name[where][path][k];
    if (where == IPC_XCPU && !one_way_xcpu_ok())
        return;
    struct bench_ipc_legs out = {.call = &legs[0], .reply = &legs[1], .round = &legs[2]};
    for (unsigned i = 0; i < 3; i++)
        hist_reset(&legs[i]);
    long failed = bench_ipc_one_way(ipc_server[where], round_size[leg_round[k]], n, IPC_WARM,
                                    counter_kind, empty_cost, &out);
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
    uint64_t round_median_ = hist_percentile(&legs[2], MEDIAN);
    for (unsigned leg = 0; leg < 2; leg++) {
        if (!one_way_sane(name[leg], names[id], hist_percentile(&legs[leg], MEDIAN), round_median_,
                          round_median[where][path][leg_round[k]]))
            one_way_bad++;
        row("user", id, name[leg], round, &legs[leg]);
        hist_merge(&leg_sums[ipc_slot(id)][where][path][k][leg], &legs[leg]);
    }
}

/* The fastpath on (path 0) or off (1) for the blocks that follow; whether
 * it is as asked (without the switch, only path 0 runs, as booted). */
static bool set_path(unsigned path)
{
    if (fastpath_at_boot < 0)
        return path == 0;
    return syscall1(SYS_debug_ipc_fastpath, path ? IPC_FASTPATH_OFF : IPC_FASTPATH_ON) >= 0;
}

/* Every IPC block of one strategy in one round, with the kernel's timers off. */
void ipc_blocks(unsigned id, long n, int round)
{
    if (!(IPC_STRATEGIES & (1u << id)))
        return;
    syscall1(SYS_latency_ctl, LATENCY_OFF);
    for (unsigned where = IPC_SAME; where <= IPC_XCPU; where++) {
        long trips = where == IPC_XCPU ? (n + IPC_XCPU_SHARE - 1) / IPC_XCPU_SHARE : n;
        for (unsigned path = 0; ipc_server[where] >= 0 && path < (where ? 1 : paths); path++) {
            if (!set_path(path))
                continue;
            for (unsigned k = 0; k < round_kinds[where]; k++)
                ipc_block(id, where, path, k, trips, round);
            for (unsigned k = 0; k < leg_kinds[where]; k++)
                one_way_block(id, where, path, k, trips, round);
        }
    }
    if (fastpath_at_boot >= 0) /* as booted, for the interrupt rows' IPC storm */
        syscall1(SYS_debug_ipc_fastpath, fastpath_at_boot);
    syscall1(SYS_latency_ctl, LATENCY_ON);
}

/* The fastpath's switch (behind the debug gate): with it, every same-CPU
 * row is timed twice, the fastpath on and off (-slow). */
static void find_switch(void)
{
    fastpath_at_boot = syscall1(SYS_debug_ipc_fastpath, IPC_FASTPATH_QUERY);
    paths = fastpath_at_boot >= 0 ? 2 : 1;
    if (fastpath_at_boot < 0)
        printf("bench: ipc/*-slow skipped: the fastpath's switch answered %ld (it needs "
               "kstack.debug and run.control)\n",
               fastpath_at_boot);
    else
        printf("bench: ipc rows with the fastpath on, and again switched off (ipc/*-slow); "
               "it was %s at boot\n",
               fastpath_at_boot ? "on" : "off");
}

/* "off, prng and pool", or as many of them as `mask` chose, into out. */
static void timed_strategies(char *out, size_t n, unsigned mask)
{
    unsigned left = (unsigned)__builtin_popcount(mask & IPC_STRATEGIES);
    size_t used = 0;
    out[0] = '\0';
    for (unsigned id = 0; id < KSTACK_NR && used < n; id++) {
        if (!(mask & IPC_STRATEGIES & (1u << id)))
            continue;
        left--;
        used += (size_t)snprintf(out + used, n - used, "%s%s", names[id],
                                 left > 1    ? ", "
                                 : left == 1 ? " and "
                                             : "");
    }
}

void ipc_start(unsigned cpu, unsigned long cpus, unsigned mask)
{
    char timed[48];
    make_names();
    timed_strategies(timed, sizeof(timed), mask);
    if (!timed[0]) {
        printf("bench: ipc rows skipped: STRATEGIES picks none of off, prng and pool\n");
        return;
    }
    find_switch();
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
           "under %s, caller on CPU %u: ipc/callN server on CPU %u",
           timed, cpu, cpu);
    if (cpus > 1)
        printf(", ipc/callN-xcpu server on CPU %u (1/%d of the calls)", cpu - 1, IPC_XCPU_SHARE);
    printf("; one way (ipc/oneway-call0, -reply0, -call64, -reply64): the call leg to the "
           "server's user mode, the reply leg back, in the same calls; -fpu: both sides use "
           "FP/SIMD between calls\n");
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
    if (!(IPC_STRATEGIES & (1u << id)))
        return;
    unsigned slot = ipc_slot(id);
    for (unsigned where = IPC_SAME; where <= IPC_XCPU; where++) {
        for (unsigned path = 0; path < PATHS; path++) {
            for (unsigned k = 0; k < ROUND_KIND; k++) {
                if (round_sums[slot][where][path][k].count)
                    print_cdf("user", id, round_name[where][path][k],
                              &round_sums[slot][where][path][k]);
            }
            for (unsigned k = 0; k < LEG_KIND; k++) {
                for (unsigned leg = 0; leg < 2; leg++) {
                    const struct hist *h = &leg_sums[slot][where][path][k][leg];
                    if (h->count)
                        print_cdf("user", id, leg_name[where][path][k][leg], h);
                }
            }
        }
    }
}
