/* SPDX-License-Identifier: MIT */
/*
 * Host tests for lib/hist.c: bucket edges and widths, hist_bucket_of()
 * against a reference written from the definition (every value up to past
 * 2^20), nearest-rank percentiles against a sorted array on random and
 * adversarial data, overflow, the exact fields, merging per-CPU histograms
 * and reset.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/hist.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void) /* xorshift64*: good enough for test data */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dull;
}

/* The bucket of v straight from the definition in hist.h, with loops. */
static unsigned ref_bucket(uint64_t v)
{
    if (v < 64)
        return (unsigned)v;
    if (v > HIST_MAX)
        return HIST_OVERFLOW;
    unsigned e = 0;
    while ((v >> (e + 1)) != 0)
        e++;
    uint64_t width = 1ull << (e - 6);
    return 64 + (e - 6) * 64 + (unsigned)((v - (1ull << e)) / width);
}

TEST(layout)
{
    CHECK_EQ_INT(HIST_OVERFLOW, 960);
    CHECK_EQ_INT(HIST_NBUCKETS, 961);
    CHECK_EQ_INT(HIST_MAX, 1048575);
    CHECK(sizeof(struct hist) <= 4096);
    printf("    # sizeof(struct hist) = %zu bytes\n", sizeof(struct hist));
}

TEST(log2_soft_matches_clz)
{
    for (unsigned b = 0; b < 32; b++) {
        uint32_t p = 1u << b;
        uint32_t xs[3] = {p, p + (p > 1 ? 1 : 0), p | (p - 1)};
        for (int k = 0; k < 3; k++)
            CHECK_EQ_INT(hist_log2_soft(xs[k]), 31 - __builtin_clz(xs[k]));
    }
    for (int n = 0; n < 100000; n++) {
        uint32_t x = (uint32_t)rnd() >> (rnd() % 32);
        if (x == 0)
            continue;
        if (hist_log2_soft(x) != (unsigned)(31 - __builtin_clz(x))) {
            printf("    # hist_log2_soft(%u) = %u\n", x, hist_log2_soft(x));
            check_failures++;
            break;
        }
    }
}

TEST(bucket_edges)
{
    CHECK_EQ_INT(hist_bucket_lower(0), 0);
    for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
        uint64_t lo = hist_bucket_lower(i), hi = hist_bucket_upper(i);
        CHECK(lo <= hi);
        if (i < 128)
            CHECK(lo == i && hi == i);
        if (i + 1 < HIST_NBUCKETS && hist_bucket_lower(i + 1) != hi + 1) {
            printf("    # bucket %u ends at %llu, bucket %u starts at %llu\n", i,
                   (unsigned long long)hi, i + 1, (unsigned long long)hist_bucket_lower(i + 1));
            check_failures++;
        }
        if (i >= 64 && i < HIST_OVERFLOW) {
            uint64_t width = hi - lo + 1;
            CHECK((width & (width - 1)) == 0);
            CHECK(width * 1000 < 16 * lo); /* under 1.6% of the value */
            CHECK(width * 64 <= lo);       /* at most 1/64 */
        }
        CHECK_EQ_INT(hist_bucket_of(lo), i);
        if (i < HIST_OVERFLOW)
            CHECK_EQ_INT(hist_bucket_of(hi), i);
    }
    CHECK_EQ_INT(hist_bucket_upper(HIST_OVERFLOW - 1), HIST_MAX);
    CHECK_EQ_INT(hist_bucket_lower(HIST_OVERFLOW), (uint64_t)HIST_MAX + 1);
    CHECK(hist_bucket_upper(HIST_OVERFLOW) == UINT64_MAX);
}

/* Every value from 0 to past 2^20, then large ones, against ref_bucket();
 * and each bucket's lower edge is the first value that lands in it. */
TEST(bucket_of_reference)
{
    int bad = 0;
    unsigned prev = 0;
    for (uint64_t v = 0; v <= (1ull << HIST_TOP_BITS) + 4096 && bad < 5; v++) {
        unsigned got = hist_bucket_of(v), want = ref_bucket(v);
        if (got != want) {
            printf("    # hist_bucket_of(%llu) = %u, expected %u\n", (unsigned long long)v, got,
                   want);
            bad++;
        }
        if (v > 0 && got != prev && hist_bucket_lower(got) != v) {
            printf("    # %llu starts bucket %u, whose lower edge is %llu\n", (unsigned long long)v,
                   got, (unsigned long long)hist_bucket_lower(got));
            bad++;
        }
        prev = got;
    }
    static const uint64_t big[] = {1ull << 25, 1ull << 32, (1ull << 32) - 1, 1ull << 63,
                                   UINT64_MAX};
    for (unsigned k = 0; k < ARRAY_SIZE(big); k++)
        CHECK_EQ_INT(hist_bucket_of(big[k]), HIST_OVERFLOW);
    for (int n = 0; n < 100000 && bad < 5; n++) {
        uint64_t v = rnd() >> (rnd() % 64);
        if (hist_bucket_of(v) != ref_bucket(v)) {
            printf("    # hist_bucket_of(%llu) wrong\n", (unsigned long long)v);
            bad++;
        }
    }
    check_failures += bad;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Check hist_percentile() on samples v[0..n) against a sorted copy. */
static void check_percentiles(const char *what, uint64_t *v, size_t n)
{
    static const uint32_t ps[] = {0,     1,     1000,  10000, 25000,  50000,  75000,      90000,
                                  99000, 99900, 99990, 99999, 100000, 100001, 4294967295u};
    struct hist h;
    hist_reset(&h);
    for (size_t i = 0; i < n; i++)
        hist_add(&h, v[i]);
    qsort(v, n, sizeof(v[0]), cmp_u64);
    for (unsigned k = 0; k < ARRAY_SIZE(ps) + 20; k++) {
        uint64_t p = k < ARRAY_SIZE(ps) ? ps[k] : rnd() % 100001;
        uint64_t pc = p > 100000 ? 100000 : p;
        uint64_t rank = (pc * n + 99999) / 100000; /* ceil, n is small here */
        uint64_t want = v[(rank ? rank : 1) - 1];
        uint64_t got = hist_percentile(&h, (uint32_t)p);
        int ok = hist_bucket_of(got) == hist_bucket_of(want) && got <= want && got >= v[0] &&
                 got <= v[n - 1] && (want >= 128 || got == want);
        if (!ok) {
            printf("    # %s: n %zu p %llu: got %llu (bucket %u), sorted array says %llu (bucket "
                   "%u)\n",
                   what, n, (unsigned long long)p, (unsigned long long)got, hist_bucket_of(got),
                   (unsigned long long)want, hist_bucket_of(want));
            check_failures++;
        }
    }
}

#define MAXN 20000
static uint64_t samples[MAXN];

TEST(percentiles_random)
{
    for (int round = 0; round < 40; round++) {
        size_t n = 1 + rnd() % MAXN;
        for (size_t i = 0; i < n; i++) {
            switch (round % 4) {
            case 0: /* small uniform: exact buckets */ samples[i] = rnd() % 200; break;
            case 1: /* log-uniform up to 2^26: every power of two, some overflow */
                samples[i] = rnd() >> (38 + rnd() % 26);
                break;
            case 2: /* bimodal, like a batch refill every 48th call */
                samples[i] = rnd() % 48 ? 360 + rnd() % 16 : 3000 + rnd() % 200;
                break;
            default: /* a narrow peak around a bucket edge */
                samples[i] = 4096 - 70 + rnd() % 140;
                break;
            }
        }
        check_percentiles("random", samples, n);
    }
}

TEST(percentiles_adversarial)
{
    struct hist h;
    hist_reset(&h);
    CHECK_EQ_INT(hist_percentile(&h, 50000), 0); /* empty */

    samples[0] = 123456;
    check_percentiles("one sample", samples, 1);
    samples[0] = 0;
    check_percentiles("one zero", samples, 1);

    for (int i = 0; i < 1000; i++)
        samples[i] = 777777; /* all equal: min == max, exact answer */
    check_percentiles("all equal", samples, 1000);
    hist_reset(&h);
    for (int i = 0; i < 1000; i++)
        hist_add(&h, 777777);
    CHECK_EQ_INT(hist_percentile(&h, 99900), 777777);

    /* Rank rounding: 999.999 rounds up to 1000, 999 stays 999. */
    for (size_t n = 999; n <= 1001; n++) {
        for (size_t i = 0; i < n; i++)
            samples[i] = i + 1 == n ? 100 : 50;
        check_percentiles("rank rounding", samples, n);
    }
    hist_reset(&h);
    for (int i = 0; i < 1000; i++)
        hist_add(&h, i < 999 ? 50 : 100);
    CHECK_EQ_INT(hist_percentile(&h, 99900), 50);  /* rank 999 */
    CHECK_EQ_INT(hist_percentile(&h, 99901), 100); /* rank 1000 */
    CHECK_EQ_INT(hist_percentile(&h, 0), 50);

    /* Values on both sides of every bucket edge. */
    size_t n = 0;
    for (unsigned i = 64; i < HIST_NBUCKETS && n + 2 <= MAXN; i += 7) {
        samples[n++] = hist_bucket_lower(i);
        samples[n++] = hist_bucket_lower(i) - 1;
    }
    check_percentiles("edges", samples, n);

    /* Only overflows, and extremes. */
    for (int i = 0; i < 100; i++)
        samples[i] = (1ull << 30) + (uint64_t)i * 1000;
    check_percentiles("only overflow", samples, 100);
    samples[0] = UINT64_MAX;
    samples[1] = 0;
    samples[2] = HIST_MAX;
    check_percentiles("extremes", samples, 3);
}

TEST(overflow)
{
    struct hist h;
    hist_reset(&h);
    hist_add(&h, HIST_MAX);
    hist_add(&h, (uint64_t)HIST_MAX + 1);
    hist_add(&h, 1ull << 40);
    CHECK_EQ_INT(hist_overflow(&h), 2);
    CHECK_EQ_INT(h.bucket[HIST_OVERFLOW - 1], 1);
    CHECK_EQ_INT(h.count, 3);
    CHECK(h.max == 1ull << 40);
    CHECK_EQ_INT(h.min, HIST_MAX);
    CHECK(h.sum == (uint64_t)HIST_MAX * 2 + 1 + (1ull << 40));
    CHECK(hist_percentile(&h, 100000) == (uint64_t)HIST_MAX + 1); /* the overflow edge */
    CHECK_EQ_INT(hist_percentile(&h, 1), HIST_MAX);
}

TEST(exact_fields)
{
    struct hist h;
    hist_reset(&h);
    CHECK(h.min == UINT64_MAX);
    CHECK_EQ_INT(h.max, 0);
    CHECK_EQ_INT(hist_mean_x1000(&h), 0);
    hist_add(&h, 1);
    hist_add(&h, 2);
    CHECK_EQ_INT(hist_mean_x1000(&h), 1500);
    hist_add(&h, 1);
    CHECK_EQ_INT(hist_mean_x1000(&h), 1333); /* floor(4000 / 3) */
    CHECK_EQ_INT(h.count, 3);
    CHECK_EQ_INT(h.sum, 4);
    CHECK_EQ_INT(h.min, 1);
    CHECK_EQ_INT(h.max, 2);
    CHECK_EQ_INT(h.interrupted, 0);
    hist_add_irq(&h, 10, 1);
    hist_add_irq(&h, 20, 0);
    hist_add_irq(&h, 5000, 1);
    CHECK_EQ_INT(h.interrupted, 2);
    CHECK_EQ_INT(h.count, 6);
    CHECK_EQ_INT(h.max, 5000);

    /* A sum near 2^63: the mean must not overflow in the * 1000. */
    hist_reset(&h);
    hist_add(&h, 1ull << 62);
    hist_add(&h, 1ull << 62);
    hist_add(&h, 2);
    unsigned __int128 want = ((unsigned __int128)((1ull << 63) + 2) * 1000) / 3;
    CHECK(hist_mean_x1000(&h) == (uint64_t)want);
}

/* Known answers, worked out by hand from the bucket layout: 131 lies in
 * [130, 132) (width 2 above 128), 5000 in [4992, 5056) (width 64 above
 * 4096). Then the same buckets under counts they no longer hold (a bucket
 * wrapped): any rank past the buckets answers max; and counts near 2^64,
 * where p * count overflows 64 bits (50000 * 2^60 wraps to 0). */
static const struct percentile_kat {
    uint64_t count;
    uint32_t p;
    uint64_t want;
} kat[] = {
    {2, 0, 131},       /* rank 1: bucket [130, 132), raised to min */
    {2, 1, 131},       /* rank ceil(0.00002) = 1 */
    {2, 50000, 131},   /* rank 1 exactly */
    {2, 50001, 4992},  /* rank ceil(1.00002) = 2, not 1 */
    {2, 100000, 4992}, /* rank 2: the lower edge, not max */
    {2, 100001, 4992}, /* p above 100000 is p100 */
    {2, 4294967295u, 4992},
    {5, 20000, 131},            /* wrapped: rank 1 */
    {5, 40000, 4992},           /* rank 2 */
    {5, 40001, 5000},           /* rank 3: past the buckets, max */
    {5, 100000, 5000},          /* rank 5: max, not 0 or the last edge */
    {1ull << 60, 50000, 5000},  /* rank 2^59; p * count wraps to 0 */
    {1ull << 60, 1, 5000},      /* rank 2^60 / 100000, rounded up */
    {3ull << 62, 100000, 5000}, /* p * count wraps */
    {UINT64_MAX, 100000, 5000}, /* rank 2^64 - 1: no overflow adding 99999 */
    {UINT64_MAX, 1, 5000},
    {(1ull << 47) + 1, 33333, 5000},
};

TEST(percentiles_known_answers)
{
    for (unsigned i = 0; i < ARRAY_SIZE(kat); i++) {
        struct hist h;
        hist_reset(&h);
        hist_add(&h, 131);
        hist_add(&h, 5000);
        h.count = kat[i].count;
        uint64_t got = hist_percentile(&h, kat[i].p);
        if (got != kat[i].want) {
            printf("    # count %llu, p %u/100000: got %llu, expected %llu\n",
                   (unsigned long long)kat[i].count, kat[i].p, (unsigned long long)got,
                   (unsigned long long)kat[i].want);
            check_failures++;
        }
    }
    /* Both buckets wrapped back to 0 (2^32 more samples in each): no bucket
     * holds rank 1, so even p = 0 answers max. A rank left at 0 stops in
     * the first bucket and answers its edge, raised to min. */
    struct hist h;
    hist_reset(&h);
    hist_add(&h, 131);
    hist_add(&h, 5000);
    h.count = 2 + (2ull << 32);
    memset(h.bucket, 0, sizeof(h.bucket));
    uint64_t got = hist_percentile(&h, 0);
    if (got != 5000)
        printf("    # p 0 with every bucket wrapped to 0: got %llu, expected 5000 (max): rank "
               "0 must be raised to 1, the first sample, which no bucket holds\n",
               (unsigned long long)got);
    CHECK_EQ_INT(got, 5000);
}

/* Samples spread over four CPUs, merged, equal one histogram of them all. */
TEST(merge_cpus)
{
    static struct hist all, cpu[4], merged;
    hist_reset(&all);
    hist_reset(&merged);
    for (int c = 0; c < 4; c++)
        hist_reset(&cpu[c]);
    hist_merge(&merged, &cpu[0]); /* empty into empty stays empty */
    CHECK(memcmp(&merged, &all, sizeof(all)) == 0);
    for (int i = 0; i < 100000; i++) {
        uint64_t v = rnd() >> (36 + rnd() % 28);
        unsigned irq = rnd() % 10 == 0;
        hist_add_irq(&all, v, irq);
        hist_add_irq(&cpu[rnd() % 3], v, irq); /* cpu[3] stays empty */
    }
    for (int c = 0; c < 4; c++)
        hist_merge(&merged, &cpu[c]);
    CHECK(memcmp(&merged, &all, sizeof(all)) == 0);
    CHECK_EQ_INT(merged.count, 100000);
    CHECK_EQ_INT(hist_percentile(&merged, 99000), hist_percentile(&all, 99000));
}

TEST(reset)
{
    static struct hist h, fresh;
    memset(&fresh, 0, sizeof(fresh));
    fresh.min = UINT64_MAX;
    memset(&h, 0x5a, sizeof(h)); /* garbage, as in uninitialised memory */
    hist_reset(&h);
    CHECK(memcmp(&h, &fresh, sizeof(h)) == 0);
    for (int i = 0; i < 1000; i++)
        hist_add_irq(&h, rnd(), 1);
    hist_reset(&h);
    CHECK(memcmp(&h, &fresh, sizeof(h)) == 0);
    CHECK_EQ_INT(hist_percentile(&h, 50000), 0);
}

RUN_TESTS("hist", CASE(layout), CASE(log2_soft_matches_clz), CASE(bucket_edges),
          CASE(bucket_of_reference), CASE(percentiles_random), CASE(percentiles_adversarial),
          CASE(percentiles_known_answers), CASE(overflow), CASE(exact_fields), CASE(merge_cpus),
          CASE(reset))
