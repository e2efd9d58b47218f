/* SPDX-License-Identifier: MIT */
/*
 * Host tests for lib/entropy.c: the fixed-point log2 against the C
 * library's, and each statistic against the same formula in double
 * precision on uniform, skewed, single-value and "carry bug" (65 values,
 * the end ones at half weight) distributions.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "check.h"
#include "lib/entropy.h"

TEST(log2_matches_libm)
{
    double worst = 0;
    uint64_t x = 1;
    for (int i = 0; i < 200000; i++) {
        double want = log2((double)x), got = (double)log2_q16(x) / 65536.0;
        worst = fmax(worst, fabs(got - want));
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        x >>= (unsigned)(i % 63); /* every magnitude */
        if (x == 0)
            x = 1;
    }
    printf("    # largest error %.2e bits\n", worst);
    CHECK(worst < 4.0 / 65536.0);
    CHECK_EQ_INT(log2_q16(1), 0);
    CHECK_EQ_INT(log2_q16(1024), 10 << 16);
    CHECK_EQ_INT(log2_q16(0), 0);
}

static void reference(const uint64_t *c, unsigned n, double *chi2, double *h, double *hmin)
{
    double total = 0, max = 0;
    for (unsigned i = 0; i < n; i++) {
        total += (double)c[i];
        max = fmax(max, (double)c[i]);
    }
    *chi2 = *h = 0;
    for (unsigned i = 0; i < n; i++) {
        double e = total / n, d = (double)c[i] - e, p = (double)c[i] / total;
        *chi2 += d * d / e;
        if (c[i])
            *h -= p * log2(p);
    }
    *hmin = -log2(max / total);
}

static void compare(const uint64_t *c, unsigned n)
{
    struct entropy_report r;
    double chi2, h, hmin;
    entropy_measure(c, n, &r);
    reference(c, n, &chi2, &h, &hmin);
    /* each of the n terms is rounded down to a thousandth */
    CHECK(fabs((double)r.chi2_milli / 1000 - chi2) < 0.001 * n + 1e-9 * chi2);
    CHECK(fabs((double)r.shannon_milli / 1000 - h) < 0.002);
    CHECK(fabs((double)r.min_milli / 1000 - hmin) < 0.002);
}

TEST(uniform_and_random_counts)
{
    uint64_t c[64], s = 88172645463325252ull;
    for (int round = 0; round < 100; round++) {
        for (int i = 0; i < 64; i++) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            c[i] = 1000 + s % (round * 50 + 1);
        }
        compare(c, 64);
    }
    for (int i = 0; i < 64; i++)
        c[i] = 1562;
    struct entropy_report r;
    entropy_measure(c, 64, &r);
    CHECK_EQ_INT(r.chi2_milli, 0);
    CHECK_EQ_INT(r.distinct, 64);
    CHECK(r.min_milli >= 5999 && r.shannon_milli >= 5999);
}

TEST(one_value)
{
    uint64_t c[64] = {0};
    c[7] = 100000;
    struct entropy_report r;
    entropy_measure(c, 64, &r);
    CHECK_EQ_INT(r.distinct, 1);
    CHECK_EQ_INT(r.shannon_milli, 0);
    CHECK_EQ_INT(r.min_milli, 0);
    CHECK_EQ_INT(r.chi2_milli, 6300000000ull); /* (64N - N)^2/(64N) + 63 N/64 = 63 N */
    compare(c, 64);
}

/* The alloca carry bug of the test plan: 65 values, the two ends at half
 * weight. Shannon looks better than uniform; only the value count shows it. */
TEST(carry_bug_distribution)
{
    uint64_t c[65];
    for (int i = 0; i < 65; i++)
        c[i] = (i == 0 || i == 64) ? 781 : 1562;
    struct entropy_report r;
    entropy_measure(c, 65, &r);
    CHECK_EQ_INT(r.distinct, 65);
    CHECK(r.shannon_milli > 6000);
    compare(c, 65);
}

TEST(empty)
{
    uint64_t c[64] = {0};
    struct entropy_report r;
    entropy_measure(c, 64, &r);
    CHECK_EQ_INT(r.samples, 0);
    CHECK_EQ_INT(r.distinct, 0);
}

RUN_TESTS("entropy", CASE(log2_matches_libm), CASE(uniform_and_random_counts), CASE(one_value),
          CASE(carry_bug_distribution), CASE(empty))
