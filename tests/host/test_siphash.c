/* SPDX-License-Identifier: MIT */
/*
 * Host tests for lib/kstack/kstack_siphash.c, the kernel's SipHash-2-4:
 * the test vector printed in the SipHash paper (Aumasson and Bernstein,
 * appendix A: key 00 01 .. 0f, message 00 01 .. 0e, output
 * a129ca6149be45e5), the empty message under the same key, the draw's
 * 16-byte shortcut (counter, cpu) against the general function, and the
 * avalanche a PRF must show (one flipped input bit changes about half of
 * the output bits).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "lib/kstack/kstack.h"

static const uint8_t paper_key[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

static uint64_t siphash24(const uint8_t key[16], const void *msg, size_t len)
{
    return kstack_siphash24(key, msg, len);
}

/* The hash of the 16-byte message a || b (each little-endian), the long way. */
static uint64_t hash_2u64(const uint8_t key[16], uint64_t a, uint64_t b)
{
    uint8_t msg[16];
    for (int j = 0; j < 8; j++) {
        msg[j] = (uint8_t)(a >> (8 * j));
        msg[8 + j] = (uint8_t)(b >> (8 * j));
    }
    return siphash24(key, msg, 16);
}

TEST(paper_vector_15_bytes)
{
    uint8_t msg[15];
    for (int i = 0; i < 15; i++)
        msg[i] = (uint8_t)i;
    CHECK_EQ_INT(siphash24(paper_key, msg, sizeof(msg)), 0xa129ca6149be45e5ull);
}

TEST(empty_message)
{
    CHECK_EQ_INT(siphash24(paper_key, "", 0), 0x726fdb47dd0e0e31ull);
}

/* The draw hashes (counter, cpu) without the byte loop; its ten offsets
 * are that hash's 6-bit groups, low bits first. */
TEST(draws_match_the_byte_version)
{
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 1000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint64_t a = x, b = x * 0x2545f4914f6cdd1dull;
        struct kstack_siphash g;
        kstack_siphash_init(&g, paper_key, b);
        g.counter = a;
        uint64_t bits = hash_2u64(paper_key, a, b);
        for (int d = 0; d < KSTACK_SIPHASH_OFFSETS; d++, bits >>= 6)
            CHECK_EQ_INT(kstack_siphash_draw(&g), (bits & 63) * 16);
        CHECK_EQ_INT(g.counter, a + 1);
    }
}

TEST(every_length_differs)
{
    uint8_t msg[64];
    uint64_t seen[65];
    for (int i = 0; i < 64; i++)
        msg[i] = (uint8_t)i;
    for (int n = 0; n <= 64; n++) {
        seen[n] = siphash24(paper_key, msg, (size_t)n);
        for (int m = 0; m < n; m++)
            CHECK(seen[m] != seen[n]);
    }
}

TEST(one_bit_changes_half_the_output)
{
    long flipped = 0, trials = 0;
    for (uint64_t ctr = 0; ctr < 256; ctr++) {
        uint64_t base = hash_2u64(paper_key, ctr, 3);
        for (int bit = 0; bit < 64; bit++, trials++)
            flipped += __builtin_popcountll(base ^ hash_2u64(paper_key, ctr ^ (1ull << bit), 3));
    }
    double mean = (double)flipped / (double)trials; /* 32 expected */
    printf("    # mean output bits flipped per input bit: %.3f of 64\n", mean);
    CHECK(mean > 31.5 && mean < 32.5);
}

RUN_TESTS("siphash", CASE(paper_vector_15_bytes), CASE(empty_message),
          CASE(draws_match_the_byte_version), CASE(every_length_differs),
          CASE(one_bit_changes_half_the_output))
