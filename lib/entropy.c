/* SPDX-License-Identifier: MIT */
/* lib/entropy.c - distribution statistics in integer arithmetic (see entropy.h). */
#include "lib/entropy.h"

/* Index of the highest set bit of x > 0 (a loop: riscv64 without Zbb would
 * turn __builtin_clzll into a libgcc call, and the kernel links no libgcc). */
static unsigned top_bit(uint64_t x)
{
    unsigned n = 0;
    for (unsigned step = 32; step; step >>= 1) {
        if (x >> step) {
            x >>= step;
            n += step;
        }
    }
    return n;
}

/*
 * log2 by repeated squaring: x = 2^e * y with y in [1, 2); then each
 * squaring of y doubles its logarithm, so whether y^2 reaches 2 gives the
 * next fractional bit. y is held with 31 fractional bits, so y * y fits in
 * 64 bits.
 */
uint64_t log2_q16(uint64_t x)
{
    if (x == 0)
        return 0;
    unsigned e = top_bit(x);
    uint64_t y = e >= 31 ? x >> (e - 31) : x << (31 - e); /* y in [2^31, 2^32) */
    uint64_t frac = 0;
    for (int bit = 15; bit >= 0; bit--) {
        y = (y * y) >> 31;
        if (y >= (2ull << 31)) {
            y >>= 1;
            frac |= 1ull << bit;
        }
    }
    return ((uint64_t)e << 16) | frac;
}

/* a * 1000 / b, rounded down, without overflowing for a < 2^53. */
static uint64_t milli_div(uint64_t a, uint64_t b)
{
    return a / b * 1000 + a % b * 1000 / b;
}

void entropy_measure(const uint64_t *counts, unsigned n, struct entropy_report *r)
{
    uint64_t total = 0, max = 0, sum_clogc = 0;
    r->distinct = 0;
    for (unsigned i = 0; i < n; i++) {
        total += counts[i];
        max = counts[i] > max ? counts[i] : max;
        r->distinct += counts[i] != 0;
        sum_clogc += counts[i] * log2_q16(counts[i]);
    }
    r->samples = total;
    r->chi2_milli = r->shannon_milli = r->min_milli = 0;
    if (total == 0)
        return;
    /* (observed - N/n)^2 / (N/n) = (n * observed - N)^2 / (n * N) */
    for (unsigned i = 0; i < n; i++) {
        int64_t d = (int64_t)(n * counts[i]) - (int64_t)total;
        r->chi2_milli += milli_div((uint64_t)(d * d), (uint64_t)n * total);
    }
    /* H = log2 N - (1/N) sum c log2 c;  H_min = log2 N - log2 max */
    uint64_t log_total = log2_q16(total);
    uint64_t shannon_q16 = log_total - sum_clogc / total;
    r->shannon_milli = (shannon_q16 * 1000) >> 16;
    r->min_milli = ((log_total - log2_q16(max)) * 1000) >> 16;
}
