/* SPDX-License-Identifier: MIT */
/*
 * Host tests for lib/siphash.c: the test vector printed in the SipHash
 * paper (Aumasson and Bernstein, appendix A: key 00 01 .. 0f, message
 * 00 01 .. 0e, output a129ca6149be45e5), the empty message under the same
 * key, the 16-byte fast path against the general function, and the
 * avalanche a PRF must show (one flipped input bit changes about half of
 * the output bits).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "lib/siphash.h"

static const struct siphash_key paper_key = {0x0706050403020100ull, 0x0f0e0d0c0b0a0908ull};

TEST(paper_vector_15_bytes)
{
    uint8_t msg[15];
    for (int i = 0; i < 15; i++)
        msg[i] = (uint8_t)i;
    CHECK_EQ_INT(siphash24(&paper_key, msg, sizeof(msg)), 0xa129ca6149be45e5ull);
}

TEST(empty_message)
{
    CHECK_EQ_INT(siphash24(&paper_key, "", 0), 0x726fdb47dd0e0e31ull);
}

TEST(two_words_match_the_byte_version)
{
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 1000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint64_t a = x, b = x * 0x2545f4914f6cdd1dull;
        uint8_t msg[16];
        for (int j = 0; j < 8; j++) {
            msg[j] = (uint8_t)(a >> (8 * j));
            msg[8 + j] = (uint8_t)(b >> (8 * j));
        }
        CHECK_EQ_INT(siphash24_2u64(&paper_key, a, b), siphash24(&paper_key, msg, 16));
    }
}

TEST(every_length_differs)
{
    uint8_t msg[64];
    uint64_t seen[65];
    for (int i = 0; i < 64; i++)
        msg[i] = (uint8_t)i;
    for (int n = 0; n <= 64; n++) {
        seen[n] = siphash24(&paper_key, msg, (size_t)n);
        for (int m = 0; m < n; m++)
            CHECK(seen[m] != seen[n]);
    }
}

TEST(one_bit_changes_half_the_output)
{
    long flipped = 0, trials = 0;
    for (uint64_t ctr = 0; ctr < 256; ctr++) {
        uint64_t base = siphash24_2u64(&paper_key, ctr, 3);
        for (int bit = 0; bit < 64; bit++, trials++)
            flipped += __builtin_popcountll(base ^ siphash24_2u64(&paper_key, ctr ^ (1ull << bit), 3));
    }
    double mean = (double)flipped / (double)trials; /* 32 expected */
    printf("    # mean output bits flipped per input bit: %.3f of 64\n", mean);
    CHECK(mean > 31.5 && mean < 32.5);
}

RUN_TESTS("siphash", CASE(paper_vector_15_bytes), CASE(empty_message),
          CASE(two_words_match_the_byte_version), CASE(every_length_differs),
          CASE(one_bit_changes_half_the_output))
