/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_kstack/integrity.c - the integrity part: Bug 2, every CPU's generators
 * checked after a million calls from threads moved between CPUs and
 * strategies (test_kstack.c's header).
 */
#include "lib/user/ulib.h"
#include "user/common/kstack_probe.h"
#include "user/tests/test_kstack/kstack_test.h"

#define INTEGRITY_CALLS     1000000ul
#define MIN_MIGRATIONS      10000ul
#define INTEGRITY_MAX_CALLS (10 * INTEGRITY_CALLS)
#define SWITCH_EVERY        5000ul /* calls between strategy switches: 200 in 10^6 */

static unsigned long total_calls, forced_moves;

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void churn(void *arg)
{
    struct worker *w = arg;
    struct kstack_probe r;
    while (!stop) {
        uint64_t x = next_random(&w->seed);
        unsigned cpu = (unsigned)(x >> 32) % ncpus;
        switch (x % 16) {
        case 0:
            kstack_probe(KSTACK_PROBE_MIGRATE, cpu, &r);
            __atomic_add_fetch(&forced_moves, 1, __ATOMIC_RELAXED);
            break;
        case 1: sys_sched_setaffinity(0, 1ul << cpu); break;
        case 2: kstack_unpin(ncpus); break;
        case 3: yield(); break;
        case 4: kstack_probe(0, 0, &r); break;
        default: getpid(); break;
        }
        __atomic_add_fetch(&total_calls, 1, __ATOMIC_RELAXED);
    }
    w->done = 1;
}

static unsigned long migrations(void)
{
    struct debug_stats st;
    syscall1(SYS_debug_stats, &st);
    return st.migrations;
}

/* Every CPU checks its own generators, from a thread pinned to it. */
/* The KSTACK_VERIFY_* bits any CPU reports (-1 if a CPU refuses). */
static long verify_every_cpu(void)
{
    long bad = 0;
    for (unsigned cpu = 0; cpu < ncpus; cpu++) {
        kstack_pin(cpu);
        long r = kdebug(KSTACK_DEBUG_VERIFY, 0);
        bad |= r < 0 ? -1 : r;
    }
    kstack_unpin(ncpus);
    return bad;
}

/* The churn threads run until both counts are reached, the strategy
 * switched every SWITCH_EVERY calls: how many switches were made. */
static unsigned long churn_and_switch(unsigned long moved_before)
{
    unsigned long switches = 0;
    uint64_t seed = 0x2545f4914f6cdd1dull;
    for (int i = 0; i < MAX_THREADS; i++) {
        workers[i].seed = 0x9e3779b97f4a7c15ull * (uint64_t)(i + 1);
        thread_create(churn, &workers[i], stacks + i * STACK_SIZE, STACK_SIZE);
    }
    /* Until both counts are reached, however long a loaded host takes (no
     * wall-clock limit: the boot's timeout is the only one). About one call
     * in 8 moves its thread, so 10^6 calls bring some 10^5 migrations; the
     * cap of 10^7 calls is reached only by a kernel that does not migrate,
     * and then the note below says how few moves there were. */
    while (__atomic_load_n(&total_calls, __ATOMIC_RELAXED) < INTEGRITY_MAX_CALLS &&
           (__atomic_load_n(&total_calls, __ATOMIC_RELAXED) < INTEGRITY_CALLS ||
            migrations() - moved_before < MIN_MIGRATIONS)) {
        /* hw may refuse: fine; no kstack_set: nothing is measured here */
        syscall1(SYS_kstack_set, next_random(&seed) % KSTACK_NR);
        switches++;
        /* The next switch after SWITCH_EVERY more calls: each holds every
         * CPU while the entry code is rewritten, and with vCPUs taking
         * turns on one host thread (riscv64's long boots) a spinning vCPU
         * keeps it until QEMU's 100 ms kick, so a switch by the clock
         * could leave the calls no time at all. */
        unsigned long next = __atomic_load_n(&total_calls, __ATOMIC_RELAXED) + SWITCH_EVERY;
        while (__atomic_load_n(&total_calls, __ATOMIC_RELAXED) < next)
            sleep_ns(200000);
    }
    stop = 1;
    for (int i = 0; i < MAX_THREADS; i++) {
        while (!workers[i].done)
            sleep_ns(1000000);
    }
    return switches;
}

void test_integrity(void)
{
    stacks = sys_brk(0);
    if (sys_brk(stacks + MAX_THREADS * STACK_SIZE) != stacks + MAX_THREADS * STACK_SIZE) {
        ktap_check(false, "kstack.integrity (no memory for threads)");
        return;
    }
    unsigned long moved_before = migrations();
    unsigned long switches = churn_and_switch(moved_before);
    syscall1(SYS_kstack_set, KSTACK_OFF); /* nothing draws while the CPUs check themselves */
    unsigned long moved = migrations() - moved_before;
    long bad = verify_every_cpu();
    struct kstack_stats st;
    stats(-1, &st);
    ktap_note("%lu system calls by %d threads on %u CPUs, %lu migrations (%lu forced in a call), "
              "%lu strategy switches; draws: prng %lu, siphash %lu, pool %lu",
              total_calls, MAX_THREADS, ncpus, moved, forced_moves, switches,
              st.count[KSTACK_PRNG][KSTACK_CNT_DRAWS], st.count[KSTACK_SIPHASH][KSTACK_CNT_DRAWS],
              st.count[KSTACK_POOL][KSTACK_CNT_DRAWS]);
    ktap_note("states that are not their seed advanced by their draws (KSTACK_VERIFY_* bits): %ld",
              bad);
    ktap_note("crng16 (Bug 2 made visible): %lu of %lu exit updates read one CPU's offset and "
              "wrote another's",
              st.count[KSTACK_CRNG16][KSTACK_CNT_CROSS_CPU],
              st.count[KSTACK_CRNG16][KSTACK_CNT_EXIT_UPDATES]);
    bool ran = total_calls >= INTEGRITY_CALLS && moved >= MIN_MIGRATIONS;
    ktap_check(bad == 0 && ran, "kstack.integrity.per_cpu_generators");
    /* The same run, by strategy: whose per-CPU state went wrong. */
    static const struct {
        long bit;
        const char *name;
    } parts[] = {{KSTACK_VERIFY_PRNG, "prng"},
                 {KSTACK_VERIFY_SIPHASH, "siphash"},
                 {KSTACK_VERIFY_POOL, "pool"}};
    for (unsigned i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
        ktap_check(ran && bad >= 0 && !(bad & parts[i].bit), "kstack.integrity.%s", parts[i].name);
    kstack_set(KSTACK_DEFAULT);
}
