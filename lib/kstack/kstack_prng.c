/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The stackshift authors */
/*
 * lib/kstack/kstack_prng.c - seeding LFSR113 (the step is inline in
 * kstack.h). Component j's state is the top k bits of its word; a word whose
 * top k bits are all zero would stay zero for ever, so a seed below 2^(32-k)
 * (2, 8, 16, 128) gets 2^(32-k) added. Other seeds are used as they are.
 */
#include "kstack.h"

/*@ requires k == 31 || k == 29 || k == 28 || k == 25;
    assigns \nothing;
    behavior k31: assumes k == 31; ensures alive: \result >= 2;
    behavior k29: assumes k == 29; ensures alive: \result >= 8;
    behavior k28: assumes k == 28; ensures alive: \result >= 16;
    behavior k25: assumes k == 25; ensures alive: \result >= 128;
    complete behaviors;
    disjoint behaviors;
*/
static uint32_t seed_component(uint32_t seed, unsigned k)
{
    uint32_t smallest_valid = 1u << (32 - k);
    return seed < smallest_valid ? seed + smallest_valid : seed;
}

void kstack_prng_seed(struct kstack_prng *g, const uint32_t seed[4])
{
    static const unsigned k[4] = {31, 29, 28, 25};
    /*@ loop invariant 0 <= i <= 4;
        loop invariant \forall integer j; 0 <= j < i ==> g->z[j] >= kstack_prng_minimum(k[j]);
        loop assigns i, g->z[0 .. 3];
        loop variant 4 - i;
    */
    for (int i = 0; i < 4; i++)
        g->z[i] = seed_component(seed[i], k[i]);
}
