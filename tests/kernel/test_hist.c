/* SPDX-License-Identifier: MIT */
/*
 * tests/kernel/test_hist.c - the latency histogram's percentiles and mean
 * against the exact ones of known samples (lib/hist.c, which the kernel's
 * timers and user/bench/bench use alike). The histogram cannot give a sample
 * exactly above 127 (its buckets are 1/64 of a power of two wide), so the
 * percentile it gives must be the lower edge of the bucket that holds the
 * exact one, kept within [min, max].
 */
#include "kernel/ktest.h"
#include "lib/hist.h"

#define N 1999 /* odd: most ranks p * N / 100000 are not whole numbers */

static struct hist h;

/* The exact p-quantile (p in 1/100000) of the sorted samples: the sample at
 * rank ceil(p * n / 100000), as the benchmark's tables define it. */
static uint64_t exact(const uint64_t *sorted, uint64_t n, uint32_t p)
{
    uint64_t rank = (p * n + 99999) / 100000;
    return sorted[rank ? rank - 1 : 0];
}

static uint64_t expected(const uint64_t *sorted, uint64_t n, uint32_t p)
{
    uint64_t v = hist_bucket_lower(hist_bucket_of(exact(sorted, n, p)));
    return v < sorted[0] ? sorted[0] : v > sorted[n - 1] ? sorted[n - 1] : v;
}

KTEST(latency, percentiles_of_known_samples)
{
    static uint64_t samples[N];
    static const uint32_t ps[] = {1, 33333, 50000, 90000, 99000, 99900, 100000};
    /* Two shapes: 1..N (a flat spread) and a long tail (most fast, a few slow). */
    for (int shape = 0; shape < 2; shape++) {
        hist_reset(&h);
        uint64_t sum = 0;
        for (uint64_t i = 0; i < N; i++) {
            samples[i] = shape == 0 ? i + 1 : i < N - 10 ? 100 + i % 7 : 50000 + i * 100;
            sum += samples[i];
        }
        for (uint64_t i = 0; i < N; i++)
            hist_add(&h, samples[i]);
        /* sort (insertion: shape 0 is sorted, shape 1 nearly) */
        for (int i = 1; i < N; i++)
            for (int j = i; j > 0 && samples[j - 1] > samples[j]; j--) {
                uint64_t t = samples[j];
                samples[j] = samples[j - 1];
                samples[j - 1] = t;
            }
        for (unsigned k = 0; k < sizeof(ps) / sizeof(ps[0]); k++) {
            uint64_t want = expected(samples, N, ps[k]), got = hist_percentile(&h, ps[k]);
            if (got != want)
                ktest_fail(__FILE__, __LINE__, "shape %d: p%u/1000 is %llu, expected %llu", shape,
                           ps[k] / 100, (unsigned long long)got, (unsigned long long)want);
        }
        KEXPECT_EQ(hist_mean_x1000(&h), sum * 1000 / N);
    }
    hist_reset(&h);
    KEXPECT_EQ(hist_percentile(&h, 50000), 0); /* empty: 0, not a stale value */
}
