/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The stackshift authors */
/*
 * lib/kstack/verify/lfsr_rank.c - proof by computation that an LFSR113 step
 * never makes a live component dead (make verify runs it). A component's
 * state is the top k bits of its word; kstack_lfsr_step() maps states by
 * shifts, XORs and a constant mask, so it is linear over GF(2) on them (the
 * low 32 - k bits of a word never reach the new state: checked below too).
 * A linear map sends no non-zero state to zero exactly when it is
 * one-to-one, when the images of the k single-bit states are linearly
 * independent: Gaussian elimination finds rank k. Prints KTAP.
 */
#include <stdio.h>

#include "../kstack.h"

static const unsigned params[4][3] = {{31, 6, 18}, {29, 2, 2}, {28, 13, 7}, {25, 3, 13}};

/* The new state (top k bits) of one step from a word. */
static uint32_t next_state(uint32_t z, const unsigned *kqs)
{
    return kstack_lfsr_step(z, kqs[0], kqs[1], kqs[2]) & (0xFFFFFFFFu << (32 - kqs[0]));
}

/* The rank over GF(2) of n words. */
static unsigned rank(uint32_t *v, unsigned n)
{
    unsigned r = 0;
    for (int bit = 31; bit >= 0 && r < n; bit--) {
        unsigned pivot = r;
        while (pivot < n && !(v[pivot] >> bit & 1))
            pivot++;
        if (pivot == n)
            continue;
        uint32_t t = v[pivot];
        v[pivot] = v[r];
        v[r] = t;
        for (unsigned i = 0; i < n; i++)
            if (i != r && (v[i] >> bit & 1))
                v[i] ^= v[r];
        r++;
    }
    return r;
}

/* 1 if the step on component c is one-to-one on states and ignores the
 * low bits; else 0, with a diagnostic. */
static int component_ok(unsigned c)
{
    const unsigned *kqs = params[c];
    unsigned k = kqs[0];
    uint32_t images[32];
    for (unsigned i = 0; i < k; i++)
        images[i] = next_state(1u << (31 - i), kqs);
    for (uint32_t low = 1; low < (1u << (32 - k)); low++)
        if (next_state(low, kqs) != 0) {
            printf("# component %u: low bits %#x reach the state\n", c + 1, low);
            return 0;
        }
    unsigned r = rank(images, k);
    if (r != k)
        printf("# component %u (k=%u): the step has rank %u, not %u\n", c + 1, k, r, k);
    return r == k;
}

int main(void)
{
    int ok = 1;
    for (unsigned c = 0; c < 4; c++)
        ok &= component_ok(c);
    printf("KTAP version 1\n1..1\n%s 1 - verify.kstack_lfsr_step_keeps_state_alive\n",
           ok ? "ok" : "not ok");
    return !ok;
}
