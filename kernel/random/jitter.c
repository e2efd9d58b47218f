/* SPDX-License-Identifier: MIT */
/*
 * kernel/random/jitter.c - timer jitter, the seed source of last resort.
 *
 * JITTER_SAMPLES times: read the counter, touch a few cache lines of a
 * buffer at places that depend on the previous timings, read the counter
 * again. Every full delta goes into the pool; the low 8 bits of each are
 * the samples whose entropy is estimated, twice, keeping the lower figure:
 *   - the most-common-value estimator of NIST SP 800-90B 6.3.1:
 *     p_u = p + 2.576 * sqrt(p(1-p)/(N-1)), H = -log2(p_u);
 *   - a lag predictor in the spirit of 6.3.8: how often is a sample equal to
 *     the one `lag` samples earlier, for the best lag up to MAX_LAG? A clock
 *     that ticks every few instructions gives deltas that alternate in a
 *     fixed pattern: each value looks rare, but every one is predictable.
 * Both in integers (counts instead of probabilities, H rounded down to
 * eighths of a bit, so the estimate only errs low). The credit is a quarter
 * of N * H, and never more than JITTER_MAX_CREDIT: timing jitter is a weak
 * source, and it alone never makes the CRNG ready. Under QEMU -icount the
 * counter counts instructions: the deltas are constant (x86_64, arm64) or a
 * periodic pattern (riscv64's 10 MHz time CSR), H is 0 and so is the credit.
 */
#include "kernel/random/internal.h"

#include "arch/arch.h"

#define JITTER_SAMPLES    4096
#define JITTER_MAX_CREDIT 64
#define MAX_LAG           128

static uint8_t scratch[64 * 1024];

static uint64_t isqrt(uint64_t v)
{
    uint64_t r = 0;
    for (uint64_t bit = 1ull << 62; bit; bit >>= 2) {
        if (v >= r + bit) {
            v -= r + bit;
            r = (r >> 1) + bit;
        } else {
            r >>= 1;
        }
    }
    return r;
}

/* floor(8 * log2(num / den)) for num >= den > 0, num < 2^31: the integer
 * part by halving, three fraction bits by squaring (x in [1, 2) as 2.30
 * fixed point: x^2 >= 2 means the next bit of log2(x) is 1). */
static unsigned log2_x8(uint64_t num, uint64_t den)
{
    unsigned bits = 0;
    while (num >= 2 * den) {
        den *= 2;
        bits++;
    }
    uint64_t x = (num << 30) / den;
    for (int i = 0; i < 3; i++) {
        x = x * x >> 30;
        bits = bits * 2 + (x >= (2ull << 30));
        if (x >= (2ull << 30))
            x >>= 1;
    }
    return bits;
}

/* -log2(p_u) in eighths of a bit per sample, from the most common value's count. */
static unsigned mcv_bits_x8(unsigned most, unsigned n)
{
    /* upper = most + 2.576 * sqrt(most * (n - most) / (n - 1)), 2.576 ~ 2637/1024 */
    uint64_t spread = isqrt((uint64_t)most * (n - most) / (n - 1));
    uint64_t upper = most + (spread * 2637 + 1023) / 1024 + 1;
    return upper >= n ? 0 : log2_x8(n, upper);
}

/* The most times any sample equals the one `lag` before it, over lags 1..MAX_LAG. */
static unsigned best_lag_hits(const uint8_t *x, unsigned n)
{
    unsigned best = 0;
    for (unsigned lag = 1; lag <= MAX_LAG; lag++) {
        unsigned hits = 0;
        for (unsigned i = lag; i < n; i++)
            hits += x[i] == x[i - lag];
        best = hits > best ? hits : best;
    }
    return best;
}

unsigned jitter_collect(unsigned *samples, unsigned *most_common)
{
    static unsigned counts[256];
    static uint8_t low[JITTER_SAMPLES];
    uint64_t deltas[64];
    uint64_t index = 0;
    for (unsigned i = 0; i < 256; i++)
        counts[i] = 0;
    for (unsigned i = 0; i < JITTER_SAMPLES; i++) {
        uint64_t t0 = arch_counter();
        for (int k = 0; k < 4; k++) {
            index = (index * 6364136223846793005ull + t0) % sizeof(scratch);
            scratch[index] += (uint8_t)t0;
        }
        uint64_t d = arch_counter() - t0;
        deltas[i % 64] = d;
        low[i] = (uint8_t)d;
        counts[d & 0xff]++;
        if (i % 64 == 63)
            crng_mix(deltas, sizeof(deltas));
    }
    unsigned most = 0;
    for (unsigned i = 0; i < 256; i++)
        most = counts[i] > most ? counts[i] : most;
    /* Predictions are made for N - MAX_LAG samples: scale the hits to N. */
    unsigned predicted = best_lag_hits(low, JITTER_SAMPLES);
    predicted = (unsigned)((uint64_t)predicted * JITTER_SAMPLES / (JITTER_SAMPLES - MAX_LAG));
    *samples = JITTER_SAMPLES;
    *most_common = MAX(most, MIN(predicted, (unsigned)JITTER_SAMPLES));
    unsigned credit = JITTER_SAMPLES * mcv_bits_x8(*most_common, JITTER_SAMPLES) / 8 / 4;
    return credit > JITTER_MAX_CREDIT ? JITTER_MAX_CREDIT : credit;
}
