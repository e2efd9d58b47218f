/* SPDX-License-Identifier: MIT */
/*
 * lib/entropy.h - how random a set of observed values looks, in integer
 * arithmetic (user programs and the kernel have no floating point).
 *
 * Given counts[i] of how often value i was seen (n bins, N samples):
 *   Pearson chi-squared against the uniform distribution, sum over bins of
 *     (observed - N/n)^2 / (N/n), with n - 1 degrees of freedom;
 *   Shannon entropy, -sum p log2 p, in bits (at most log2 n);
 *   min-entropy, -log2(max p), in bits: the attacker's best single guess.
 * Results are in thousandths (chi2 131400 means 131.4). log2 comes from
 * log2_q16(), a fixed-point logarithm with 16 fractional bits. Freestanding;
 * kernel, user programs and host tests.
 */
#ifndef LIB_ENTROPY_H
#define LIB_ENTROPY_H

#include <stdint.h>

/* log2(x) * 65536 for x >= 1 (0 for x = 0), exact to within 2^-16. */
uint64_t log2_q16(uint64_t x);

struct entropy_report {
    uint64_t samples;
    unsigned distinct;      /* bins with a count above 0 */
    uint64_t chi2_milli;    /* Pearson chi-squared x 1000 */
    uint64_t shannon_milli; /* Shannon entropy in millibits */
    uint64_t min_milli;     /* min-entropy in millibits */
};

void entropy_measure(const uint64_t *counts, unsigned n, struct entropy_report *r);

#endif
