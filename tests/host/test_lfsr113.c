/* SPDX-License-Identifier: MIT */
/*
 * Host tests for lib/lfsr113.c. The known answers come from
 * tests/host/lfsr113_ref.py, an independent bit-level model of L'Ecuyer's
 * definition (the build runs it into build/host/lfsr113_kat.h), plus the
 * test plan's hand-computed first outputs for seed 12345. Then the seeding
 * rule, state invariants and a loose statistical sanity check.
 */
#include <stdint.h>
#include <stdio.h>

#include "build/host/lfsr113_kat.h"
#include "check.h"
#include "lib/lfsr113.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Seed minimums of L'Ecuyer's paper: z1 > 1, z2 > 7, z3 > 15, z4 > 127. */
static const uint32_t min_seed[4] = {2, 8, 16, 128};
/* Masks keeping the top k = 31, 29, 28, 25 bits (the component states). */
static const uint32_t state_mask[4] = {0xfffffffe, 0xfffffff8, 0xfffffff0, 0xffffff80};

TEST(known_answers_short)
{
    for (unsigned i = 0; i < ARRAY_SIZE(lfsr113_kat_short); i++) {
        struct lfsr113 s;
        lfsr113_seed(&s, lfsr113_kat_short[i].seed);
        for (int n = 0; n < LFSR113_KAT_SHORT_N; n++) {
            uint32_t got = lfsr113_next(&s), want = lfsr113_kat_short[i].out[n];
            if (got != want) {
                printf("    # seed #%u output %d: %08x, expected %08x\n", i, n + 1, got, want);
                check_failures++;
                break;
            }
        }
    }
}

/* Test plan section 1.6: s1 = s2 = s3 = s4 = 12345, first five outputs. */
TEST(test_plan_seed_12345)
{
    static const uint32_t seed[4] = {12345, 12345, 12345, 12345};
    static const uint32_t want[5] = {0xc6f8d8aa, 0x0d8bbc98, 0x7603004e, 0x08c62223, 0x83a312ab};
    static const unsigned offsets[5] = {160, 144, 64, 544, 672}; /* x & 0x3F0 */
    struct lfsr113 s;
    lfsr113_seed(&s, seed);
    for (int n = 0; n < 5; n++) {
        uint32_t x = lfsr113_next(&s);
        CHECK_EQ_INT(x, want[n]);
        CHECK_EQ_INT(x & 0x3f0, offsets[n]);
    }
}

TEST(known_answers_long)
{
    struct lfsr113 s;
    lfsr113_seed(&s, lfsr113_kat_long_seed);
    int bad = 0;
    for (int n = 0; n < LFSR113_KAT_LONG_N; n++) {
        uint32_t got = lfsr113_next(&s);
        if (got != lfsr113_kat_long[n] && bad++ < 3) {
            printf("    # output %d: %08x, expected %08x\n", n + 1, got, lfsr113_kat_long[n]);
            check_failures++;
        }
    }
    uint32_t x = 0;
    for (int n = LFSR113_KAT_LONG_N; n < LFSR113_KAT_FAR_N; n++)
        x = lfsr113_next(&s);
    CHECK_EQ_INT(x, lfsr113_kat_far);
}

/* A component whose state bits are all zero stays zero: seeding must
 * never produce one, and stepping must never reach one. */
static void check_state(const struct lfsr113 *s)
{
    for (int i = 0; i < 4; i++) {
        CHECK(s->z[i] >= min_seed[i]);
        CHECK((s->z[i] & state_mask[i]) != 0);
    }
}

TEST(seeding_enforces_minimums)
{
    static const uint32_t edge[] = {0, 1, 2, 7, 8, 15, 16, 127, 128, 129, 0x80000000, 0xffffffff};
    for (unsigned a = 0; a < ARRAY_SIZE(edge); a++) {
        for (unsigned b = 0; b < ARRAY_SIZE(edge); b++) {
            uint32_t seed[4] = {edge[a], edge[b], edge[(a + b) % ARRAY_SIZE(edge)], edge[b]};
            struct lfsr113 s;
            lfsr113_seed(&s, seed);
            check_state(&s);
            for (int i = 0; i < 4; i++) /* valid seeds are used unchanged */
                if (seed[i] >= min_seed[i])
                    CHECK_EQ_INT(s.z[i], seed[i]);
            for (int n = 0; n < 1000; n++)
                lfsr113_next(&s);
            check_state(&s);
        }
    }
    for (uint32_t v = 0; v < 256; v++) { /* every small seed, every component */
        uint32_t seed[4] = {v, v, v, v};
        struct lfsr113 s;
        lfsr113_seed(&s, seed);
        check_state(&s);
    }
}

/* Each output bit is 1 about half the time, and the 6-bit stack offset
 * (x & 0x3F0) >> 4 is about uniform, over 10^6 outputs. Loose bounds: a
 * bit count within 6 standard deviations (500 each), chi-square with 63
 * degrees of freedom below 150 (p < 1e-8 for a good generator). */
TEST(statistical_sanity)
{
    enum { N = 1000000 };
    static const uint32_t seed[4] = {0x9e3779b9, 0x7f4a7c15, 0xf39cc060, 0x5ced8a6b};
    unsigned ones[32] = {0}, bucket[64] = {0};
    struct lfsr113 s;
    lfsr113_seed(&s, seed);
    for (int n = 0; n < N; n++) {
        uint32_t x = lfsr113_next(&s);
        for (int b = 0; b < 32; b++)
            ones[b] += (x >> b) & 1;
        bucket[(x & 0x3f0) >> 4]++;
    }
    for (int b = 0; b < 32; b++) {
        long dev = (long)ones[b] - N / 2;
        if (dev > 3000 || dev < -3000) {
            printf("    # bit %d set %u times in %d\n", b, ones[b], N);
            check_failures++;
        }
    }
    double chi2 = 0, expect = N / 64.0;
    for (int i = 0; i < 64; i++)
        chi2 += (bucket[i] - expect) * (bucket[i] - expect) / expect;
    printf("    # offset chi-square %.1f (63 degrees of freedom)\n", chi2);
    CHECK(chi2 < 150);
}

/* Neighbouring seeds give unrelated streams from the first output on. */
TEST(seeds_differ)
{
    uint32_t seed[4] = {1000, 1000, 1000, 1000};
    struct lfsr113 a, b;
    for (int i = 0; i < 4; i++) {
        lfsr113_seed(&a, seed);
        seed[i] ^= 0x80000000u;
        lfsr113_seed(&b, seed);
        seed[i] ^= 0x80000000u;
        int same = 0;
        for (int n = 0; n < 100; n++)
            same += lfsr113_next(&a) == lfsr113_next(&b);
        CHECK(same < 5);
    }
}

RUN_TESTS("lfsr113", CASE(known_answers_short), CASE(test_plan_seed_12345),
          CASE(known_answers_long), CASE(seeding_enforces_minimums), CASE(statistical_sanity),
          CASE(seeds_differ))
