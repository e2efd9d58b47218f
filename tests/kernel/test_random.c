/* SPDX-License-Identifier: MIT */
/*
 * tests/kernel/test_random.c - the CRNG and the per-CPU PRNG, on every arch:
 * the RFC 8439 self-test, fast key erasure, output that varies, seeds that
 * are wiped after use, and LFSR113 states that differ between CPUs.
 */
#include "kernel/bootinfo.h"
#include "kernel/cpu.h"
#include "kernel/kstack_offset/kstack_offset.h"
#include "kernel/ktest.h"
#include "kernel/random/random.h"
#include "kernel/sched/sched.h"
#include "kernel/time.h"
#include "lib/chacha20_kat.h"
#include "lib/string.h"

KTEST(random, chacha20_rfc8439_vectors)
{
    const char *failed = NULL;
    KEXPECT_EQ(chacha20_selftest(&failed), 0);
    if (failed)
        ktest_note("first failure: %s", failed);
}

static unsigned popcount64(uint64_t v)
{
    unsigned n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

KTEST(random, outputs_vary)
{
    uint64_t seen[256];
    unsigned dup = 0, ones = 0;
    for (unsigned i = 0; i < ARRAY_SIZE(seen); i++) {
        seen[i] = get_random_u64();
        ones += popcount64(seen[i]);
        for (unsigned j = 0; j < i; j++)
            dup += seen[i] == seen[j];
    }
    /* Two equal of 256 uniform 64-bit values: 1.8e-15 per boot. A
     * generator that repeats itself (a stuck or unseeded state) fails. */
    KEXPECT_EQ(dup, 0);
    /* 16384 bits: the count of ones is 8192 +- 64 (1 sigma); allow 8 sigma.
     * False-fail rate: 1.3e-15 per boot, 1.3e-13 per make test run (the
     * exact two-sided Binomial(16384, 1/2) tail, tests/false_fail.py; at
     * most 100 boots). Output with one byte in eight forced to zero scores
     * about 7168, all-ones or all-zeros 16384 or 0. */
    KEXPECT(ones > 8192 - 512 && ones < 8192 + 512);
}

KTEST(random, fast_key_erasure_and_wiped_batches)
{
    uint8_t before[32], after[32], sink[CRNG_BATCH + 8];
    unsigned long flags = arch_irq_save();
    struct crng_cpu *c = &this_cpu()->crng;
    memcpy(before, c->key, sizeof(before));
    get_random_bytes(sink, sizeof(sink)); /* forces at least one refill */
    memcpy(after, c->key, sizeof(after));
    unsigned leftover = 0;
    for (unsigned i = 0; i < c->used; i++)
        leftover += c->batch[i] != 0; /* handed-out bytes are wiped */
    arch_irq_restore(flags);
    KEXPECT(memcmp(before, after, sizeof(before)) != 0);
    KEXPECT_EQ(leftover, 0);
}

KTEST(random, firmware_seeds_wiped)
{
    unsigned nonzero = 0;
    for (unsigned i = 0; i < BOOT_SEED_MAX; i++)
        nonzero += boot_info.seed[i] != 0;
    KEXPECT_EQ(nonzero, 0);
    const struct fdt *f = boot_fdt();
    uint32_t len = 0;
    const uint8_t *seed = f ? fdt_prop(f, fdt_path(f, "/chosen"), "rng-seed", &len) : NULL;
    for (uint32_t i = 0; seed && i < len; i++)
        nonzero += seed[i] != 0;
    KEXPECT_EQ(nonzero, 0);
    ktest_note("rng-seed %s", seed ? "present and zeroed" : "absent");
}

KTEST(random, per_cpu_prng_seeded_and_distinct)
{
    static const uint32_t minimum[4] = {2, 8, 16, 128};
    unsigned online = 0, same = 0, low = 0;
    for (unsigned i = 0; i < MAX_CPUS; i++) {
        if (!cpus[i].online)
            continue;
        online++;
        for (int k = 0; k < 4; k++)
            low += cpus[i].fallback_prng.z[k] < minimum[k];
        for (unsigned j = 0; j < i; j++)
            same +=
                cpus[j].online && memcmp(&cpus[i].fallback_prng, &cpus[j].fallback_prng, 16) == 0;
    }
    KEXPECT(online >= 1);
    KEXPECT_EQ(low, 0);
    KEXPECT_EQ(same, 0);
    uint32_t a = fallback_prng_u32(), b = fallback_prng_u32();
    KEXPECT(a != b);
}

KTEST(random, periodic_reseed_changes_the_key)
{
    uint64_t before;
    if (!crng_reseed_soon(&before)) {
        ktest_note("no hardware source to reseed from on this machine");
        return;
    }
    uint8_t sink[CRNG_BATCH];
    get_random_bytes(sink, sizeof(sink)); /* the refill reseeds first */
    get_random_bytes(sink, sizeof(sink));
    KEXPECT(crng_generation() > before);
}

/* MUST 6 (docs/porting.md): offset generators seeded before the CRNG was
 * are reseeded on every CPU once it is. A boot with rng.credit_late starts
 * unseeded and is seeded by the first reseed from the hardware source,
 * which this test forces; elsewhere it has nothing to check. */
KTEST(random, late_seed_reseeds_offset_generators)
{
    if (!kstack_seeded_before_crng) {
        ktest_note("the CRNG was seeded before the offset generators: nothing to redo");
        return;
    }
    uint64_t before;
    if (!crng_ready() && !crng_reseed_soon(&before)) {
        ktest_note("no hardware source: this CRNG cannot become seeded");
        return;
    }
    uint8_t sink[CRNG_BATCH];
    get_random_bytes(sink, sizeof(sink)); /* the refill reseeds first */
    get_random_bytes(sink, sizeof(sink));
    KEXPECT(crng_ready());
    /* Each CPU reseeds from its own tick; the limit only ends a kernel
     * that never does (ticks come every millisecond or so). */
    uint64_t give_up = time_now_ns() + 20000000000ull;
    for (unsigned i = 0; i < MAX_CPUS; i++) {
        while (cpus[i].online && READ_ONCE(cpus[i].kstack.reseeds) == 0 && time_now_ns() < give_up)
            sched_yield();
    }
    unsigned online = 0;
    for (unsigned i = 0; i < MAX_CPUS; i++) {
        const struct kstack_offset_cpu *k = &cpus[i].kstack;
        if (!cpus[i].online)
            continue;
        online++;
        KEXPECT_EQ(READ_ONCE(k->reseeds), 1);
        KEXPECT(memcmp(&k->prng_seed, &k->prng_boot_seed, sizeof(k->prng_seed)) != 0);
        KEXPECT(!kstack_siphash_cpu_has_boot_key(&cpus[i]));
    }
    ktest_note("%u CPUs reseeded their prng and siphash", online);
}
