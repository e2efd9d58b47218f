/* SPDX-License-Identifier: MIT */
/*
 * kernel/random/fallback.c - each CPU's fallback generator: an LFSR113
 * (lib/lfsr113.c) seeded from the CRNG when the CPU starts, which the stack
 * offset strategies `pool` and `hw` draw from when their own source is dry
 * (counted as a fallback), and the self-tests through fallback_prng_u32().
 * Not the `prng` strategy's generator, which is its own
 * (kernel/kstack_offset/prng.c).
 */
#include "kernel/random/random.h"

#include "kernel/cpu.h"
#include "lib/string.h"

void random_cpu_init(void)
{
    uint32_t seed[4];
    get_random_bytes(seed, sizeof(seed));
    unsigned long flags = arch_irq_save();
    lfsr113_seed(&this_cpu()->fallback_prng, seed);
    arch_irq_restore(flags);
    memzero_explicit(seed, sizeof(seed));
}

uint32_t fallback_prng_u32(void)
{
    unsigned long flags = arch_irq_save();
    uint32_t v = lfsr113_next(&this_cpu()->fallback_prng);
    arch_irq_restore(flags);
    return v;
}
