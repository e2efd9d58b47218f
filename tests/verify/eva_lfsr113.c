/* SPDX-License-Identifier: MIT */
/*
 * tests/verify/eva_lfsr113.c - EVA's entry point over lib/lfsr113.c (make
 * verify, docs/verification.md): any seed, a few steps; zero alarms means no
 * undefined behaviour (no shift out of range) for any seed.
 */
#include "lib/lfsr113.c"

static volatile uint32_t any_word; /* a volatile read: any value to EVA */

void Frama_C_show_each_reached_the_end(int yes);

void eva_main(void)
{
    uint32_t seed[4];
    struct lfsr113 s;
    for (int i = 0; i < 4; i++)
        seed[i] = any_word;
    lfsr113_seed(&s, seed);
    for (int i = 0; i < 4; i++)
        (void)lfsr113_next(&s);
    Frama_C_show_each_reached_the_end(1);
}
