/* SPDX-License-Identifier: MIT */
/*
 * kernel/random/prng.c - a per-CPU LFSR113 generator (lib/lfsr113.c),
 * seeded from the CRNG, for the per-syscall stack offset: 6 bits per system
 * call need a fast generator whose state never leaves the kernel, not a
 * cryptographic one (background: Linux 7.1 made the same choice).
 */
#include "kernel/random/random.h"

#include "kernel/cpu.h"
#include "lib/string.h"

void random_cpu_init(void)
{
    uint32_t seed[4];
    get_random_bytes(seed, sizeof(seed));
    unsigned long flags = arch_irq_save();
    lfsr113_seed(&this_cpu()->prng, seed);
    arch_irq_restore(flags);
    memzero_explicit(seed, sizeof(seed));
}

uint32_t prng_u32(void)
{
    unsigned long flags = arch_irq_save();
    uint32_t v = lfsr113_next(&this_cpu()->prng);
    arch_irq_restore(flags);
    return v;
}
