/* SPDX-License-Identifier: MIT */
/*
 * Host tests for lib/lfsr113_solve.c, against a reference LFSR113 written
 * here from L'Ecuyer's paper (his word algorithm and constants, not
 * lib/lfsr113.h): the model's output bits are the reference's; a random
 * state gives its offsets, the solver gives the state back and predicts the
 * next 1,000 offsets; offsets with a draw missing, or not from LFSR113 at
 * all, are caught as contradictions.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "lib/lfsr113_solve.h"

#define OFFSET_MASK 0x3F0u
#define TRIALS      500

/* L'Ecuyer (1999), lfsr113: one step of the four components, their XOR. */
static uint32_t ref_next(uint32_t z[4])
{
    uint32_t b;
    b = ((z[0] << 6) ^ z[0]) >> 13;
    z[0] = ((z[0] & 4294967294u) << 18) ^ b;
    b = ((z[1] << 2) ^ z[1]) >> 27;
    z[1] = ((z[1] & 4294967288u) << 2) ^ b;
    b = ((z[2] << 13) ^ z[2]) >> 21;
    z[2] = ((z[2] & 4294967280u) << 7) ^ b;
    b = ((z[3] << 3) ^ z[3]) >> 12;
    z[3] = ((z[3] & 4294967168u) << 13) ^ b;
    return z[0] ^ z[1] ^ z[2] ^ z[3];
}

static const uint32_t state_mask[4] = {4294967294u, 4294967288u, 4294967280u, 4294967168u};

static uint64_t rng = 0x853c49e6748fea9bull;
static uint32_t rand32(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

/* A valid random state, low (non-state) bits random too: they must not matter. */
static void random_state(uint32_t z[4])
{
    for (int j = 0; j < 4; j++) {
        do
            z[j] = rand32();
        while ((z[j] & state_mask[j]) == 0);
    }
}

static struct lfsr113_solver solver;

/* Feed offsets of z until full rank; the number of draws it took. */
static unsigned feed_until_rank(uint32_t z[4])
{
    while (solver.rank < LFSR113_STATE_BITS &&
           lfsr113_solver_add(&solver, ref_next(z) & OFFSET_MASK))
        ;
    return solver.draws;
}

/* The model's output bits, draw by draw, are the reference generator's. */
TEST(model_matches_reference)
{
    lfsr113_solver_init(&solver);
    for (int t = 0; t < 50; t++) {
        uint32_t z[4];
        random_state(z);
        struct lfsr113 st = {{z[0], z[1], z[2], z[3]}};
        int bad = 0;
        for (unsigned n = 1; n <= LFSR113_SOLVE_MAX_DRAWS; n++) {
            uint32_t w = ref_next(z);
            for (unsigned b = 0; b < 32; b++)
                bad += lfsr113_model_bit(&solver, &st, n, b) != (w >> b & 1);
        }
        CHECK_EQ_INT(bad, 0);
    }
}

/* State in, offsets out, state recovered; then 1,000 offsets predicted. */
TEST(recovers_state_and_predicts)
{
    unsigned most = 0, least = ~0u, total = 0;
    int wrong_state = 0, missed = 0;
    for (int t = 0; t < TRIALS; t++) {
        uint32_t z[4], start[4];
        random_state(z);
        memcpy(start, z, sizeof(start));
        lfsr113_solver_init(&solver);
        unsigned draws = feed_until_rank(z);
        struct lfsr113 got;
        CHECK(lfsr113_solver_state(&solver, &got));
        CHECK_EQ_INT(solver.inconsistent, 0);
        for (int j = 0; j < 4; j++)
            wrong_state += got.z[j] != (start[j] & state_mask[j]);
        for (unsigned n = 0; n < draws; n++)
            lfsr113_next(&got); /* catch up with the observations */
        for (int i = 0; i < 1000; i++)
            missed += (lfsr113_next(&got) & OFFSET_MASK) != (ref_next(z) & OFFSET_MASK);
        most = draws > most ? draws : most;
        least = draws < least ? draws : least;
        total += draws;
    }
    printf("    # full rank after %u to %u offsets (mean %u.%02u) in %d trials\n", least, most,
           total / TRIALS, total * 100 / TRIALS % 100, TRIALS);
    CHECK_EQ_INT(wrong_state, 0);
    CHECK_EQ_INT(missed, 0);
    CHECK(least >= 19); /* 6 bits per offset, 113 unknowns */
    CHECK(most <= 20);  /* the rank depends on the model, not on the data: 19 */
}

/* No full rank, no state. */
TEST(no_state_before_full_rank)
{
    uint32_t z[4];
    random_state(z);
    lfsr113_solver_init(&solver);
    struct lfsr113 got;
    for (int i = 0; i < 18; i++) {
        lfsr113_solver_add(&solver, ref_next(z) & OFFSET_MASK);
        CHECK(!lfsr113_solver_state(&solver, &got));
    }
    CHECK(solver.rank <= 108);
}

/* One draw taken by somebody else in the middle: a contradiction shows up
 * within a few offsets after full rank. */
TEST(missing_draw_is_a_contradiction)
{
    int undetected = 0;
    for (int t = 0; t < 100; t++) {
        uint32_t z[4];
        random_state(z);
        lfsr113_solver_init(&solver);
        for (int i = 0; i < 10; i++)
            lfsr113_solver_add(&solver, ref_next(z) & OFFSET_MASK);
        ref_next(z); /* the foreign draw */
        feed_until_rank(z);
        for (int i = 0; i < 8; i++)
            lfsr113_solver_add(&solver, ref_next(z) & OFFSET_MASK);
        undetected += solver.inconsistent == 0;
    }
    CHECK_EQ_INT(undetected, 0);
}

/* Offsets that are not LFSR113's: contradictions, not a state. */
TEST(random_offsets_are_a_contradiction)
{
    int undetected = 0;
    for (int t = 0; t < 100; t++) {
        lfsr113_solver_init(&solver);
        for (int i = 0; i < 28; i++)
            lfsr113_solver_add(&solver, rand32() & OFFSET_MASK);
        undetected += solver.inconsistent == 0;
    }
    CHECK_EQ_INT(undetected, 0);
}

TEST(stops_at_its_model_length)
{
    lfsr113_solver_init(&solver);
    for (int i = 0; i < LFSR113_SOLVE_MAX_DRAWS; i++)
        CHECK(lfsr113_solver_add(&solver, 0));
    CHECK(!lfsr113_solver_add(&solver, 0));
    CHECK_EQ_INT(solver.draws, LFSR113_SOLVE_MAX_DRAWS);
}

RUN_TESTS("lfsr113_solve", CASE(model_matches_reference), CASE(recovers_state_and_predicts),
          CASE(no_state_before_full_rank), CASE(missing_draw_is_a_contradiction),
          CASE(random_offsets_are_a_contradiction), CASE(stops_at_its_model_length))
