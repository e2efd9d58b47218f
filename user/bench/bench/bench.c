/* SPDX-License-Identifier: MIT */
/*
 * user/bench/bench/bench.c - the system call latency benchmark behind `make bench` and
 * `make run`: getpid, getppid and an unknown number, timed per call from
 * user space and, at the same time, by the kernel's own timers
 * (kernel/latency/), for every stack offset strategy.
 *
 *   bench [CALLS [ROUNDS [STRATEGIES [ICOUNT [dist]]]]]
 *     CALLS       calls per system call per strategy per round (20000)
 *     ROUNDS      rounds (5); each round runs every strategy once, starting
 *                 one further along the list each time, so drift over the
 *                 run hits every strategy alike
 *     STRATEGIES  "all" or names joined by '+', e.g. off+prng+pool
 *     ICOUNT      1 if QEMU runs with -icount (ticks are then instructions)
 *     dist        also sample each strategy's offsets (needs kstack.debug)
 *     screen      instead, the one-screen summary of `make run`
 *                 (scripts/run_screen.py): per strategy, ROUNDS blocks of
 *                 each system call in a row, its offsets and both
 *                 attacks (user/common/kstack_attack.h); no IPC or interrupt
 *                 rows, no histograms. Needs kstack.debug and run.control.
 *                 `screen:T` stages T migration trials per strategy (200).
 *
 * Under off, prng and pool (those of them chosen) each round also times IPC
 * round trips (user/common/bench_ipc.h): an ipc_call answered by the
 * ipc_reply_recv of an echo server, another program (this one, spawned
 * again: `bench ipc-echo CPU`), timed in the caller, with the tag alone
 * (ipc/call0), four register words (ipc/call4) and 64 buffer words
 * (ipc/call64), the server on this CPU, and again on another CPU
 * (ipc/call0-xcpu, ...: a tenth of CALLS; skipped, with the reason, on one
 * CPU). Then one way, for call0 and call64: the call leg from just before
 * the client's ipc_call to the server's return from ipc_reply_recv
 * (ipc/oneway-call0, ...) and the reply leg from just before the server's
 * ipc_reply_recv to the client's return (ipc/oneway-reply0, ...), timed in
 * the same calls, and -xcpu as above; a leg's median must lie above 0
 * and below the round trip's, or the run fails. ipc/call0-fpu and
 * ipc/oneway-call0-fpu, -reply0-fpu: the same with both sides using FP/SIMD
 * between calls. Every row on this CPU comes again with the IPC fastpath
 * switched off (SYS_debug_ipc_fastpath, behind the debug gate), its name
 * ending in -slow (ipc/call0-slow, ipc/oneway-call0-fpu-slow, ...); a call
 * across CPUs never takes the fastpath. The kernel's timers are off
 * meanwhile: they do not time IPC, and their cost would be in the round
 * trip. User-side rows only.
 *
 * Interrupt latency, under off, prng and pool each round, idle and under
 * load (a getpid loop on every CPU, then an IPC storm on every CPU):
 * irq/uart, irq/uart-getpid, irq/uart-ipc (the UART's interrupt to the
 * user-space driver's return from notify_wait, user side) and irq/timer,
 * irq/timer-getpid, irq/timer-ipc (the tick handler's entry less the
 * deadline the kernel programmed, side "timer", in the timer counter's
 * ticks: BENCH timer gives its rate).
 *
 * Output: the BENCH lines scripts/bench_report.py reads (its header says
 * the format), one row per side (user, kernel), strategy, call and round,
 * and at the end each histogram's buckets summed over the rounds. The exit
 * status is 1 if an IPC call failed or a one-way leg is not sane.
 */
#include "user/bench/bench/bench.h"
#include "kernel/uapi/kstack.h"
#include "kernel/uapi/latency.h"
#include "lib/entropy.h"
#include "lib/hist.h"
#include "lib/user/counter.h"
#include "lib/user/ulib.h"
#include "user/bench/bench/bench_irq.h"
#include "user/common/bench_ipc.h"
#include "user/common/kstack_attack.h"
#include "user/common/kstack_probe.h"

#define INVALID_NR 9999

const char *const names[KSTACK_NR] = KSTACK_NAMES;
static const char *const counters[] = {"tsc", "pmccntr", "cntvct", "cycle", "time"};
static const struct {
    const char *name;
    long nr;
    unsigned slot;
} calls[] = {{"getpid", SYS_getpid, LATENCY_GETPID},
             {"getppid", SYS_getppid, LATENCY_GETPPID},
             {"invalid", INVALID_NR, LATENCY_INVALID}};
#define NCALLS 3

unsigned long counter_kind;
uint64_t empty_cost;
long icount_run;
static struct hist scratch, discard, sums[2][KSTACK_NR][NCALLS];

#if defined(__x86_64__)
#define ARCH_USER_NAME "x86_64"
#elif defined(__aarch64__)
#define ARCH_USER_NAME "arm64"
#else
#define ARCH_USER_NAME "riscv64"
#endif

/* The fastest of 2000 calls of nr, counter reads included (as in the
 * published Linux figures): the bare path length under -icount. */
static uint64_t fastest(long nr)
{
    uint64_t best = ~0ull;
    for (int i = 0; i < 2000; i++) {
        uint64_t t0 = counter_begin(counter_kind);
        raw_syscall0(nr); /* no errno translation inside the timed window */
        uint64_t d = counter_end(counter_kind) - t0;
        best = d < best ? d : best;
    }
    return best;
}

/* BENCH null: the unknown number and getpid with strategy off, timers off
 * and then on (the timers' own cost is the difference); 2: timers off and
 * kstack.erase on (the erase's cost). */
static void null_calls(int timed)
{
    long before = syscall0(SYS_kstack_get);
    syscall1(SYS_kstack_set, KSTACK_OFF);
    fastest(INVALID_NR); /* warm up */
    uint64_t unknown = fastest(INVALID_NR), pid = fastest(SYS_getpid);
    syscall1(SYS_kstack_set, (unsigned long)before);
    printf("BENCH null %d %lu %lu %lu\n", timed, (unsigned long)unknown, (unsigned long)pid,
           (unsigned long)empty_cost);
}

static long number(const char *s, long fallback)
{
    if (!s || *s < '0' || *s > '9')
        return fallback;
    long v = 0;
    while (*s >= '0' && *s <= '9')
        v = v * 10 + (*s++ - '0');
    return v;
}

/* Which strategies: "all", or names joined by '+'. */
static unsigned chosen(const char *list)
{
    if (!list || strcmp(list, "all") == 0)
        return (1u << KSTACK_NR) - 1;
    unsigned mask = 0;
    for (unsigned id = 0; id < KSTACK_NR; id++) {
        size_t n = strlen(names[id]);
        for (const char *p = list; *p;) {
            if (strncmp(p, names[id], n) == 0 && (p[n] == '+' || p[n] == '\0'))
                mask |= 1u << id;
            while (*p && *p != '+')
                p++;
            if (*p == '+')
                p++;
        }
    }
    return mask | 1u; /* `off` always: everything is compared with it */
}

static void read_kernel(unsigned id, unsigned slot, struct hist *out)
{
    syscall6(SYS_latency_read, -1, id, slot, (long)out, 1, 0);
}

/*
 * Under -icount (exact counts): QUIET_CALLS timed getpid calls under off,
 * timers on, with no read between them and fewer than a ring holds. The
 * kernel drains its rings only where no timed call sees it (the idle loop,
 * a read: kernel/latency/latency.h), so the slowest of them is the median
 * plus at most a timer tick's own handling. When the tick left the drain
 * to the next return to user mode, one call in a tick's worth carried every
 * sample since the last one (25,856 instructions at make bench's shift=0,
 * 40 each): the check fails (exit status 1) above QUIET_BOUND medians.
 */
#define QUIET_CALLS 2000
#define QUIET_BOUND 60
static bool quiet_check(void)
{
    static struct hist h;
    long before = syscall0(SYS_kstack_get);
    syscall1(SYS_kstack_set, KSTACK_OFF);
    read_kernel(KSTACK_OFF, LATENCY_GETPID, &discard); /* the rings empty */
    sleep_ns(5000000);                                 /* the pool topped up meanwhile */
    hist_reset(&h);
    for (long i = 0; i < QUIET_CALLS; i++) {
        uint64_t t0 = counter_begin(counter_kind);
        raw_syscall0(SYS_getpid); /* as above */
        uint64_t d = counter_end(counter_kind) - t0;
        hist_add(&h, d > empty_cost ? d - empty_cost : 0);
    }
    read_kernel(KSTACK_OFF, LATENCY_GETPID, &discard);
    syscall1(SYS_kstack_set, (unsigned long)before);
    uint64_t median = hist_percentile(&h, MEDIAN);
    bool ok = h.max <= QUIET_BOUND * median;
    printf("bench: %sno drain in a timed call: %d getpid calls under off, timers on, no read "
           "between: median %lu, slowest %lu (at most %d medians)\n",
           ok ? "" : "FAIL: ", QUIET_CALLS, (unsigned long)median, (unsigned long)h.max,
           QUIET_BOUND);
    return ok;
}

void row(const char *side, unsigned id, const char *call, int round, const struct hist *h)
{
    printf("BENCH row %s %s %s %d %lu %lu %lu %lu %lu %lu\n", side, names[id], call, round,
           (unsigned long)h->count, (unsigned long)hist_mean_x1000(h),
           (unsigned long)hist_percentile(h, 50000), (unsigned long)hist_percentile(h, 99000),
           (unsigned long)hist_percentile(h, 99900), (unsigned long)h->max);
}

/* Timed calls between two reads of the kernel's histogram inside a block:
 * fewer than a ring of samples holds (2048, kernel/latency/latency.h), so
 * the ring never fills and no timed call carries its drain; each read, in
 * the untimed part, drains this CPU's rings. */
#define READ_EVERY 1024

/* One block: `n` timed calls of one kind under one strategy. */
static void block(unsigned id, unsigned k, long n, int round)
{
    static struct hist kernel_part;
    hist_reset(&scratch);
    hist_reset(&kernel_part);
    read_kernel(id, calls[k].slot, &discard); /* empty the kernel's: this block only */
    for (long i = 0; i < n; i++) {
        if (i % READ_EVERY == READ_EVERY - 1) {
            read_kernel(id, calls[k].slot, &discard);
            hist_merge(&kernel_part, &discard);
        }
        uint64_t t0 = counter_begin(counter_kind);
        raw_syscall0(calls[k].nr); /* as above */
        uint64_t d = counter_end(counter_kind) - t0;
        hist_add(&scratch, d > empty_cost ? d - empty_cost : 0);
    }
    row("user", id, calls[k].name, round, &scratch);
    hist_merge(&sums[0][id][k], &scratch);
    read_kernel(id, calls[k].slot, &discard);
    hist_merge(&kernel_part, &discard);
    row("kernel", id, calls[k].name, round, &kernel_part);
    hist_merge(&sums[1][id][k], &kernel_part);
}

void print_cdf(const char *side, unsigned id, const char *call, const struct hist *h)
{
    int on_line = 0;
    for (unsigned b = 0; b < HIST_NBUCKETS; b++) {
        if (!h->bucket[b])
            continue;
        if (on_line == 0)
            printf("BENCH cdf %s %s %s", side, names[id], call);
        printf(" %lu:%lu", (unsigned long)hist_bucket_lower(b), (unsigned long)h->bucket[b]);
        if (++on_line == 24) {
            printf("\n");
            on_line = 0;
        }
    }
    if (on_line)
        printf("\n");
}

/* Interrupt latency (user/bench/bench/bench_irq.h), under the IPC
 * strategies, idle and under each load (LOADS: none, a getpid loop on every
 * CPU, an IPC storm on every CPU): irq/uart*, from making the UART raise
 * its interrupt to the user-space handler thread's return from notify_wait
 * (a tenth of the calls idle, a hundredth under load; each sample sends a
 * byte on a PL011), if this
 * program was given the console device; irq/timer*, how late the tick's
 * handler ran after its programmed deadline, in the timer counter's ticks
 * (a hundredth of the calls in ticks, every CPU's), rows of side "timer". */
#define LOADS        3
/* Under load a hundredth of the calls: on one CPU each sample waits for the
 * load thread's time slice to end (SCHED_SLICE_TICKS, 4 ms). */
#define LOADED_SHARE 100
static const char *const uart_rows[LOADS] = {"irq/uart", "irq/uart-getpid", "irq/uart-ipc"};
static const char *const timer_rows[LOADS] = {"irq/timer", "irq/timer-getpid", "irq/timer-ipc"};
static bool irq_on;
static long irq_missed, load_failed;
static unsigned irq_cpus; /* CPUs online: one load thread each */
static struct hist irq_sums[KSTACK_NR][LOADS], timer_sums[KSTACK_NR][LOADS];

static void irq_start(void)
{
    long err = bench_irq_start();
    irq_on = err == 0;
    if (!irq_on)
        printf("bench: irq/uart skipped: no console device to drive (error %ld; boot with "
               "run.driver, as make bench does)\n",
               err);
    else
        printf("bench: irq/uart: from making the UART raise its interrupt to the handler "
               "thread's return from notify_wait, on CPU 0 (1/%d of the calls; under load "
               "1/%d)\n",
               IPC_XCPU_SHARE, LOADED_SHARE);
    printf("bench: irq/timer: the tick handler's entry less the deadline the kernel "
           "programmed, in ticks of the timer's counter (side timer), every CPU's, over "
           "1/100 of the calls in ticks; -getpid: with a getpid loop on every CPU, -ipc: with "
           "an IPC storm (call0 round trips to the echo server) on every CPU\n");
}

/* One irq/uart row under load `load` (0: none). */
static void uart_row(unsigned id, long n, int round, unsigned load)
{
    hist_reset(&scratch);
    long share = load ? LOADED_SHARE : IPC_XCPU_SHARE;
    long missed = bench_irq_samples((n + share - 1) / share, 2, counter_kind, empty_cost, &scratch);
    if (missed) {
        printf("bench: %s under %s: %ld interrupts never reached the handler: row left out\n",
               uart_rows[load], names[id], missed);
        irq_missed += missed;
        return;
    }
    row("user", id, uart_rows[load], round, &scratch);
    hist_merge(&irq_sums[id][load], &scratch);
}

/* One irq/timer row under load `load`. */
static void timer_row(unsigned id, long n, int round, unsigned load)
{
    hist_reset(&scratch);
    long err = bench_timer_samples((n + 99) / 100, &scratch);
    if (err || scratch.count == 0) {
        printf("bench: %s under %s: no samples (error %ld): row left out\n", timer_rows[load],
               names[id], err);
        return;
    }
    row("timer", id, timer_rows[load], round, &scratch);
    hist_merge(&timer_sums[id][load], &scratch);
}

static void irq_block(unsigned id, long n, int round)
{
    if (!(IPC_STRATEGIES & (1u << id)))
        return;
    syscall1(SYS_latency_ctl, LATENCY_OFF); /* as for the IPC rows: user side only */
    for (unsigned load = 0; load < LOADS; load++) {
        if (load == BENCH_LOAD_IPC && ipc_server[IPC_SAME] < 0)
            continue; /* ipc_start said why */
        if (load)
            bench_irq_load(irq_cpus, (int)load, ipc_server[IPC_SAME]);
        if (irq_on)
            uart_row(id, n, round, load);
        timer_row(id, n, round, load);
        if (load)
            load_failed += bench_irq_unload();
    }
    syscall1(SYS_latency_ctl, LATENCY_ON);
}

static void print_ipc_cdfs(void)
{
    for (unsigned id = 0; id < KSTACK_NR; id++) {
        bench_ipc_print_cdfs(id);
        for (unsigned load = 0; load < LOADS; load++) {
            if (irq_sums[id][load].count)
                print_cdf("user", id, uart_rows[load], &irq_sums[id][load]);
            if (timer_sums[id][load].count)
                print_cdf("timer", id, timer_rows[load], &timer_sums[id][load]);
        }
    }
}

/* The offsets strategy id gives in `probes` probe calls, as the tests
 * measure them (kstack_calibrate() first); false if it cannot be chosen. */
static bool offsets(unsigned id, int probes, struct entropy_report *e)
{
    static uint64_t counts[64];
    if (kstack_set(id) != 0)
        return false;
    memset(counts, 0, sizeof(counts));
    for (int i = 0; i < probes; i++)
        counts[((unsigned long)kstack_offset_now() / 16) & 63]++;
    entropy_measure(counts, 64, e);
    return true;
}

static void distributions(unsigned mask)
{
    if (!kstack_calibrate()) {
        printf("bench: offset distributions need kstack.debug on the command line\n");
        return;
    }
    for (unsigned id = 0; id < KSTACK_NR; id++) {
        struct entropy_report e;
        if (!(mask & (1u << id)) || !offsets(id, 20000, &e))
            continue;
        printf("bench: offsets under %-9s %2u distinct of 64, min-entropy %lu.%02lu bits, "
               "chi2(63) %lu (20000 calls)\n",
               names[id], e.distinct, (unsigned long)e.min_milli / 1000,
               (unsigned long)e.min_milli % 1000 / 10, (unsigned long)e.chi2_milli / 1000);
    }
}

/* The one-screen summary (`make run`): per strategy a "BENCH step" marker
 * (scripts/run_screen.py shows progress from it), `rounds` blocks of each
 * system call, SCREEN_OFFSETS offsets, `trials` Bug 1 migration trials (two CPUs
 * needed) and the LFSR113 recovery, then one "BENCH kstack" record. The
 * timed blocks run on `cpu`, away from CPU 0's console interrupts; the
 * attacks pin to CPU 0 themselves. */
#define SCREEN_OFFSETS     20000
#define SCREEN_PREDICTIONS 500
static int screen(unsigned mask, long n, long rounds, int trials, unsigned cpu, unsigned ncpus)
{
    unsigned steps = 0, step = 0;
    for (unsigned id = 0; id < KSTACK_NR; id++)
        steps += (mask >> id) & 1;
    if (!kstack_calibrate()) {
        printf("bench: the summary needs kstack.debug on the command line\n");
        return 1;
    }
    if (ncpus < 2)
        printf("bench: the migration attack needs two CPUs: skipped\n");
    for (unsigned id = 0; id < KSTACK_NR; id++) {
        if (!(mask & (1u << id)))
            continue;
        printf("BENCH step %u %u %s\n", ++step, steps, names[id]);
        kstack_pin(cpu);
        if (kstack_set(id) != 0) {
            printf("BENCH kstack %s unavailable\n", names[id]);
            continue;
        }
        for (int round = 0; round < rounds; round++) {
            for (unsigned k = 0; k < NCALLS; k++)
                block(id, k, n, round);
        }
        struct entropy_report e;
        offsets(id, SCREEN_OFFSETS, &e);
        struct kstack_migration_result m = {0, 0, 0};
        if (ncpus >= 2)
            kstack_migration_attack(trials, &m);
        kstack_pin(0);
        struct kstack_lfsr_result l;
        kstack_lfsr_attack(SCREEN_PREDICTIONS, &l);
        printf("BENCH kstack %s %u %lu %d %d %d %d %d %d\n", names[id], e.distinct,
               (unsigned long)e.min_milli, m.hits, m.clean, l.fits && !l.probe_failed, l.hits,
               l.predictions, SCREEN_OFFSETS);
    }
    kstack_unpin(ncpus);
    kstack_set(KSTACK_DEFAULT);
    return 0;
}

/* What switching cost: the system call path pays nothing for the choice of
 * strategy (a direct call to the strategy's own copy), but each switch holds
 * every other CPU while the entry code's call is rewritten. */
static void print_switch_stats(void)
{
    struct kstack_stats ks;
    if (syscall2(SYS_kstack_stats, -1, &ks) != 0 || ks.switches == 0)
        return;
    printf("bench: %lu strategy and timer switches held the other CPUs %lu ns on average, %lu ns "
           "at most (%s); a system call pays nothing for the choice\n",
           ks.switches, ks.switch_ns_total / ks.switches, ks.switch_ns_max,
           icount_run ? "virtual time under -icount"
                      : "wall-clock time under TCG: a ratio at best");
}

/* Per CPU: the pool's refills, those a draw made because it found the ring
 * empty, and the offsets that came from the LFSR113 fallback instead. */
static void print_pool_stats(unsigned ncpus)
{
    for (unsigned c = 0; c < ncpus; c++) {
        struct kstack_stats ks;
        if (syscall2(SYS_kstack_stats, c, &ks) != 0)
            return;
        printf("bench: pool on cpu%u: %lu refills, %lu on the path (ring found empty), %lu "
               "fallback offsets\n",
               c, ks.count[KSTACK_POOL][KSTACK_CNT_REFILLS], ks.count[KSTACK_POOL][KSTACK_CNT_DRY],
               ks.count[KSTACK_POOL][KSTACK_CNT_FALLBACK]);
    }
}

/* The calibration and the header lines every run prints: the counter, its
 * empty read pair, and the null rows. 0, or 1 if the timers cannot be read
 * or switched on. */
static int bench_header(struct latency_status *st, long icount)
{
    if (syscall2(SYS_latency_ctl, LATENCY_STATUS, st) != 0) {
        printf("bench: cannot read the latency timers' status\n");
        return 1;
    }
    counter_kind = st->counter;
    uint64_t best = ~0ull;
    for (int i = 0; i < 1000; i++) {
        uint64_t t0 = counter_begin(counter_kind), d = counter_end(counter_kind) - t0;
        best = d < best ? d : best;
    }
    empty_cost = best;
    printf("BENCH arch %s\n", ARCH_USER_NAME);
    printf("BENCH counter %s %lu\n", counters[counter_kind % 5], st->hz);
    printf("BENCH icount %ld\n", icount);
    printf("BENCH timer %lu\n", st->timer_hz);
    null_calls(0);
    /* BENCH null 2: the same with kstack.erase on (kernel/syscall/erase.c) */
    if (syscall2(SYS_kstack_debug, KSTACK_DEBUG_ERASE, 1) == 0) {
        null_calls(2);
        syscall2(SYS_kstack_debug, KSTACK_DEBUG_ERASE, 0);
    }
    if (syscall1(SYS_latency_ctl, LATENCY_ON) != 0 ||
        syscall2(SYS_latency_ctl, LATENCY_STATUS, st) != 0) {
        printf("bench: cannot switch the latency timers on\n");
        return 1;
    }
    null_calls(1);
    return 0;
}

/* Every round: each chosen strategy in turn (a different one first each
 * round), its system call blocks, then (unless `scale`) its IPC and
 * interrupt rows. */
static void run_rounds(unsigned mask, long n, long rounds, bool scale)
{
    for (int round = 0; round < rounds; round++) {
        for (unsigned j = 0; j < KSTACK_NR; j++) {
            unsigned id = (j + (unsigned)round) % KSTACK_NR;
            if (!(mask & (1u << id)) || syscall1(SYS_kstack_set, id) != 0)
                continue;
            printf("bench: round %d of %ld, strategy %s\n", round + 1, rounds, names[id]);
            for (unsigned k = 0; k < NCALLS; k++)
                block(id, k, n, round);
            if (!scale) {
                ipc_blocks(id, n, round);
                irq_block(id, n, round);
            }
        }
    }
}

/* The distributions gathered over the rounds, then what went wrong; the
 * exit status: 1 if anything failed or the -icount run was not quiet. */
static int bench_results(unsigned mask, bool dist, bool quiet, unsigned cpus)
{
    struct latency_status st;
    for (unsigned side = 0; side < 2; side++) {
        for (unsigned id = 0; id < KSTACK_NR; id++) {
            for (unsigned k = 0; k < NCALLS; k++) {
                if (sums[side][id][k].count)
                    print_cdf(side ? "kernel" : "user", id, calls[k].name, &sums[side][id][k]);
            }
        }
    }
    print_ipc_cdfs();
    if (dist)
        distributions(mask);
    syscall2(SYS_latency_ctl, LATENCY_STATUS, &st);
    printf("bench: %lu kernel samples dropped (the call ended on another CPU)\n", st.migrated);
    print_pool_stats(cpus);
    print_switch_stats();
    if (ipc_failed)
        printf("bench: %ld IPC round trips failed\n", ipc_failed);
    if (irq_missed)
        printf("bench: %ld interrupts never reached the handler\n", irq_missed);
    if (load_failed)
        printf("bench: %ld IPC storm calls failed\n", load_failed);
    if (one_way_bad)
        printf("bench: FAIL: %ld one-way blocks failed their sanity check\n", one_way_bad);
    printf("BENCH end\n");
    return ipc_failed || irq_missed || one_way_bad || load_failed || !quiet ? 1 : 0;
}

/* The arguments: CALLS ROUNDS STRATEGIES ICOUNT [screen[:T]|scale|dist]. */
int main(int argc, char **argv)
{
    if (bench_ipc_child(argc, argv) == 0)
        return 0; /* this was an echo server */
    long n = number(argc > 1 ? argv[1] : NULL, 20000);
    long rounds = number(argc > 2 ? argv[2] : NULL, 5);
    unsigned mask = chosen(argc > 3 ? argv[3] : NULL);
    icount_run = number(argc > 4 ? argv[4] : NULL, 0);
    const char *mode = argc > 5 ? argv[5] : "";
    struct latency_status st;
    struct debug_stats ds;
    syscall1(SYS_debug_stats, &ds);
    unsigned cpu = (unsigned)ds.cpus_online - 1; /* away from CPU 0's console IRQs */
    sys_sched_setaffinity(0, 1ul << cpu);
    long before = syscall0(SYS_kstack_get);
    if (bench_header(&st, icount_run) != 0)
        return 1;
    bool quiet = !icount_run || quiet_check();
    printf("bench: %ld calls x %d system calls x %ld rounds per strategy; counter %s; empty "
           "read pair %lu ticks (user), %lu (kernel), both subtracted\n",
           n, NCALLS, rounds, counters[counter_kind % 5], (unsigned long)empty_cost, st.read_cost);
    if (strncmp(mode, "screen", 6) == 0) {
        long trials = number(mode[6] == ':' ? mode + 7 : NULL, 200);
        int status = screen(mask, n, rounds, (int)trials, cpu, (unsigned)ds.cpus_online);
        syscall1(SYS_latency_ctl, LATENCY_OFF);
        printf("BENCH end\n");
        return status;
    }
    /* "scale": the system call blocks alone, for make bench's table of
     * one strategy's cost against the number of CPUs (scripts/bench.py). */
    bool scale = strcmp(mode, "scale") == 0;
    if (!scale) {
        ipc_start(cpu, ds.cpus_online, mask);
        irq_cpus = (unsigned)ds.cpus_online;
        irq_start();
    }
    run_rounds(mask, n, rounds, scale);
    if (!scale)
        ipc_stop();
    if (irq_on)
        bench_irq_stop();
    syscall1(SYS_kstack_set, (unsigned long)before);
    syscall1(SYS_latency_ctl, LATENCY_OFF);
    return bench_results(mask, strcmp(mode, "dist") == 0, quiet, (unsigned)ds.cpus_online);
}
