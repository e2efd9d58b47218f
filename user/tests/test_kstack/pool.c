/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_kstack/pool.c - the pool part: no fallback under a storm on every CPU,
 * a ring emptied on purpose refilled by the next draw, and 120,000 calls with
 * the background refills off (test_kstack.c's header).
 */
#include "kernel/uapi/latency.h"
#include "lib/entropy.h"
#include "lib/user/counter.h"
#include "lib/user/ulib.h"
#include "user/common/kstack_probe.h"
#include "user/tests/test_kstack/kstack_test.h"

static volatile unsigned long storm_calls;
/* Half a second: each CPU still draws about three pools' worth (under
 * -icount about 200 KB against 64 KiB), and the riscv64 boot, four CPUs
 * in one QEMU thread, stays inside its timeout on a loaded host. */
#define STORM_NS 500000000ull

static void storm(void *arg)
{
    struct worker *w = arg;
    kstack_pin((unsigned)(w - workers) % ncpus);
    uint64_t end = now_ns() + STORM_NS;
    unsigned long n = 0;
    while (!stop) {
        for (int i = 0; i < 1000; i++)
            getpid();
        n += 1000;
        if (now_ns() > end)
            break;
    }
    __atomic_add_fetch(&storm_calls, n, __ATOMIC_RELAXED);
    w->done = 1;
}

/* With the background refills off and CPU 0's ring empty: the slowest and
 * the quickest of 1,024 timed probe calls, 4 of which refill the ring on
 * the path (a report, not a test: under -icount the counter counts
 * instructions, and the slowest is then what a refill costs, at most). */
static void time_path_refills(void)
{
    struct latency_status st;
    if (syscall2(SYS_latency_ctl, LATENCY_STATUS, &st) != 0)
        return;
    static uint64_t took[1024];
    kstack_pin(0);
    kdebug(KSTACK_DEBUG_DRAIN, 0);
    uint64_t least = ~0ull;
    for (int i = 0; i < 1024; i++) {
        uint64_t t0 = counter_begin(st.counter);
        kstack_probe(KSTACK_PROBE_DEPTH, 0, NULL);
        took[i] = counter_end(st.counter) - t0;
        least = took[i] < least ? took[i] : least;
    }
    /* Which calls were slow (more than four times the quickest), and how slow. */
    char slow[160];
    int len = 0, n = 0;
    for (int i = 0; i < 1024 && len < (int)sizeof(slow) - 24; i++) {
        if (took[i] > 4 * least) {
            len += snprintf(slow + len, sizeof(slow) - (size_t)len, " #%d %llu", i,
                            (unsigned long long)took[i]);
            n++;
        }
    }
    slow[len] = '\0';
    ktap_note("hostile: 1024 timed probe calls from an empty ring, 4 of them refilling it on "
              "the path: the quickest took %llu counter ticks (%lu Hz); %d slow ones:%s",
              (unsigned long long)least, st.hz, n, slow);
}

/* The tick and the idle loop refill nothing, and each CPU starts empty:
 * every offset of SAMPLES calls comes from refills on the path. None may be
 * a fallback, and they must pass the distribution test. */
static void test_pool_hostile(void)
{
    struct kstack_stats before, after;
    static long offs[SAMPLES];
    static uint64_t counts[64];
    kdebug(KSTACK_DEBUG_POOL_TICK, 0);
    stats(-1, &before);
    for (unsigned c = 0; c < sample_cpus(); c++) {
        kstack_pin(c);
        kdebug(KSTACK_DEBUG_DRAIN, 0);
    }
    record_offsets(offs, SAMPLES);
    stats(-1, &after);
    time_path_refills();
    kdebug(KSTACK_DEBUG_POOL_TICK, 1);
    memset(counts, 0, sizeof(counts));
    long bad = 0;
    for (unsigned i = 0; i < SAMPLES; i++) {
        if (offs[i] < 0 || offs[i] > (long)KSTACK_OFFSET_MAX || offs[i] % 16)
            bad++;
        else
            counts[offs[i] / 16]++;
    }
    unsigned long dry = after.count[KSTACK_POOL][KSTACK_CNT_DRY] -
                        before.count[KSTACK_POOL][KSTACK_CNT_DRY],
                  fallback = after.count[KSTACK_POOL][KSTACK_CNT_FALLBACK] -
                             before.count[KSTACK_POOL][KSTACK_CNT_FALLBACK];
    struct entropy_report e;
    entropy_measure(counts, 64, &e);
    /* At least one refill on the path per KSTACK_POOL_PATH_BYTES (256) draws. */
    unsigned long needed = SAMPLES / 256;
    ktap_note("hostile: %u calls with the background refills off: %lu refills on the path "
              "(at least %lu needed), %lu fallback offsets; %u distinct offsets, min-entropy "
              "%lu.%03lu bits, chi2(63) %lu.%03lu",
              SAMPLES, dry, needed, fallback, e.distinct, (unsigned long)e.min_milli / 1000,
              (unsigned long)e.min_milli % 1000, (unsigned long)e.chi2_milli / 1000,
              (unsigned long)e.chi2_milli % 1000);
    ktap_check(fallback == 0 && dry >= needed && bad == 0 && e.distinct == 64 &&
                   e.chi2_milli < CHI2_63_MILLI && e.min_milli >= MIN_ENTROPY_MILLI,
               "kstack.pool_hostile");
}

/* A storm of getpid calls on every CPU for STORM_NS: how many offsets
 * fell back to LFSR113 (the pool never ran dry for good: none). */
static unsigned long pool_storm(void)
{
    struct kstack_stats before, after;
    struct debug_stats ticks0, ticks1;
    syscall1(SYS_debug_stats, &ticks0);
    stats(-1, &before);
    stacks = sys_brk(0);
    sys_brk(stacks + MAX_THREADS * STACK_SIZE);
    stop = 0;
    for (unsigned i = 0; i < ncpus && i < MAX_THREADS; i++) {
        workers[i].done = 0;
        thread_create(storm, &workers[i], stacks + i * STACK_SIZE, STACK_SIZE);
    }
    for (unsigned i = 0; i < ncpus && i < MAX_THREADS; i++) {
        while (!workers[i].done)
            sleep_ns(10000000);
    }
    stats(-1, &after);
    syscall1(SYS_debug_stats, &ticks1);
    ktap_note("timer ticks during the storm: cpu0 %lu, cpu1 %lu, cpu2 %lu, cpu3 %lu",
              ticks1.ticks[0] - ticks0.ticks[0], ticks1.ticks[1] - ticks0.ticks[1],
              ticks1.ticks[2] - ticks0.ticks[2], ticks1.ticks[3] - ticks0.ticks[3]);
    unsigned long dry =
        after.count[KSTACK_POOL][KSTACK_CNT_DRY] - before.count[KSTACK_POOL][KSTACK_CNT_DRY];
    unsigned long fallback = after.count[KSTACK_POOL][KSTACK_CNT_FALLBACK] -
                             before.count[KSTACK_POOL][KSTACK_CNT_FALLBACK];
    ktap_note("storm: %lu getpid calls on %u CPUs in %llu ms; %lu pool refills, %lu of them "
              "on the path (the ring found empty), %lu fallback offsets, %lu bytes left",
              storm_calls, ncpus, STORM_NS / 1000000,
              after.count[KSTACK_POOL][KSTACK_CNT_REFILLS] -
                  before.count[KSTACK_POOL][KSTACK_CNT_REFILLS],
              dry, fallback, after.pool_level);
    return fallback;
}

void test_pool(void)
{
    struct kstack_stats before, after;
    kstack_set(KSTACK_POOL);
    unsigned long fallback = pool_storm();
    /* Forced dry: the next draw must refill on the path and count it, with
     * no fallback (a tick may refill the pool between the two calls: try a
     * few times). */
    kstack_pin(0);
    long forced = 0, forced_fallback = 0, off = -1;
    for (int i = 0; i < 10 && forced == 0; i++) {
        stats(0, &before);
        kdebug(KSTACK_DEBUG_DRAIN, 0);
        off = kstack_offset_now();
        stats(0, &after);
        forced = (long)(after.count[KSTACK_POOL][KSTACK_CNT_DRY] -
                        before.count[KSTACK_POOL][KSTACK_CNT_DRY]);
        forced_fallback += (long)(after.count[KSTACK_POOL][KSTACK_CNT_FALLBACK] -
                                  before.count[KSTACK_POOL][KSTACK_CNT_FALLBACK]);
    }
    /* One byte per call, exactly: 1000 probes plus the second stats call. */
    unsigned cpu = ncpus - 1;
    kstack_pin(cpu);
    stats(cpu, &before);
    for (int i = 0; i < 1000; i++)
        kstack_offset_now();
    stats(cpu, &after);
    long used = (long)(after.count[KSTACK_POOL][KSTACK_CNT_DRAWS] -
                       before.count[KSTACK_POOL][KSTACK_CNT_DRAWS]);
    kstack_unpin(ncpus);
    ktap_note("forced dry: %ld dry events counted, %ld fallback offsets, offset %ld; 1001 calls "
              "on cpu%u took %ld pool bytes",
              forced, forced_fallback, off, cpu, used);
    ktap_check(fallback == 0 && forced >= 1 && forced_fallback == 0 && off >= 0 &&
                   off <= (long)KSTACK_OFFSET_MAX && off % 16 == 0 && used == 1001,
               "kstack.pool_never_falls_back");
    test_pool_hostile();
    kstack_set(KSTACK_DEFAULT);
}
