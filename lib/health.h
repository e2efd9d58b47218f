/* SPDX-License-Identifier: MIT */
/*
 * lib/health.h - continuous health tests for a noise source (entropy source),
 * from NIST SP 800-90B: the Repetition Count Test (section 4.4.1), the
 * Adaptive Proportion Test (4.4.2) and the start-up rule of 4.3 (both tests
 * run over at least 1024 consecutive samples before any output is used).
 * The cut-offs follow from the claimed min-entropy per sample H and the
 * false-positive probability alpha; they are computed in integer arithmetic
 * (the kernel has no FPU), exactly enough to agree with a long-double
 * computation of the binomial tail over the whole range the host tests try.
 * An alarm is reported and remembered, never fatal: the caller stops
 * crediting the source. Freestanding; used by the kernel and host tests.
 *
 * A sample is one raw value from the source, masked to sample_bits bits.
 * Recommended per source class (sample, sample_bits, claimed H):
 *
 *   RDSEED, RNDRRS   one 64-bit word      64  H = 32   conditioned seeds; vendors claim 64
 *   RDRAND, RNDR     one 64-bit word      64  H = 32   DRBG output: the tests can only
 *                                                      catch a stuck or failed unit
 *   Zkr seed, ES16   the 16 entropy bits  16  H = 8    conservative, as in the test plan; the
 *                                                      Zkr spec's own figure is unchecked
 *   timer jitter     one 8-bit delta       8  H = 0.5  as Go's SP 800-90B jitter source
 *
 * With H = 32 a 64-bit source gets RCT C = 2 (any back-to-back repeat of a
 * whole word alarms) and APT C = 2 (a repeat of the window's first word).
 *
 * Cut-offs (H in bits per sample; APT W = 512 unless marked 1024, which is
 * for binary samples; computed by health_*_cutoff() and checked by
 * tests/host/test_health.c and tests/host/health_ref.py):
 *
 *   H        RCT C           APT C, W = 512     APT C, W = 1024
 *            2^-20  2^-30    2^-20  2^-30       2^-20  2^-30
 *   0.5       41     61       410    422          793    810
 *   1         21     31       311    325          589    609
 *   2         11     16       177    190           -      -
 *   4          6      9        62     71           -      -
 *   8          4      5        13     16           -      -
 *
 * A source whose most likely value has twice the claimed probability 2^-H
 * trips the APT in a window that starts with that value with probability
 * P[Binomial(W-1, 2^(1-H)) >= C-1]: at alpha = 2^-20 this is >= 99% for
 * H <= 3 (99.7% at H = 3), 92% at H = 3.5, 67% at H = 4, 0.08% at H = 8;
 * at alpha = 2^-30 it is >= 99% for H <= 2.5. For large H only a near-stuck
 * source is caught; the RCT catches a stuck one within C samples.
 */
#ifndef LIB_HEALTH_H
#define LIB_HEALTH_H

#include <stdbool.h>
#include <stdint.h>

#define HEALTH_STARTUP_SAMPLES 1024 /* 4.3: start-up tests cover >= 1024 samples */
#define HEALTH_WINDOW_BINARY   1024 /* 4.4.2: W for binary samples */
#define HEALTH_WINDOW          512  /* 4.4.2: W for all other samples */

enum health_alarm {
    HEALTH_ALARM_RCT = 1, /* 4.4.1: C identical samples in a row */
    HEALTH_ALARM_APT = 2  /* 4.4.2: the window's first value C times in W */
};

struct health {
    uint64_t mask;       /* sample_bits low bits: the part of a sample tested */
    uint32_t rct_cutoff; /* 4.4.1 C */
    uint32_t apt_cutoff; /* 4.4.2 C */
    uint32_t apt_window; /* 4.4.2 W */
    uint32_t rct_b;      /* 4.4.1 B: length of the current run, 0 = none yet */
    uint64_t rct_a;      /* 4.4.1 A: the value repeating */
    uint64_t apt_a;      /* 4.4.2 A: the current window's first sample */
    uint32_t apt_b;      /* 4.4.2 B: how often A occurred in the window so far */
    uint32_t apt_i;      /* samples of the current window seen, 0 = none */
    uint64_t samples;    /* samples fed since health_init */
    uint32_t alarms;     /* alarms since health_init */
    unsigned last_alarm; /* enum health_alarm bits of the latest alarm */
};

/*
 * Set up both tests for samples of sample_bits bits (1..64) with a claimed
 * min-entropy of h_x8 / 8 bits per sample (1 <= h_x8 <= 8 * sample_bits)
 * and a false-positive probability of 2^-alpha_log2 (1..64; SP 800-90B
 * recommends 2^-20 and allows down to 2^-40). Returns 0, or -1 if a
 * parameter is out of range (and *h is then unusable).
 */
int health_init(struct health *h, unsigned h_x8, unsigned alpha_log2, unsigned sample_bits);

/* 4.4.1: C = 1 + ceil(alpha_log2 / H). */
unsigned health_rct_cutoff(unsigned h_x8, unsigned alpha_log2);

/*
 * 4.4.2: C = 1 + CRITBINOM(W, 2^-H, 1 - alpha), i.e. the smallest c with
 * P[X >= c] <= alpha for X ~ Binomial(W, 2^-H), but at least 2. (The formula
 * gives 1 when W * 2^-H is below about alpha, e.g. for 64-bit samples; that
 * would alarm on every window, while 2 alarms if the window's first value
 * recurs within it.) Arguments as for health_init; any window 1..65535.
 */
unsigned health_apt_cutoff(unsigned h_x8, unsigned alpha_log2, unsigned window);

/* 4.4.2: W = 1024 for binary samples (sample_bits == 1), 512 otherwise. */
unsigned health_apt_window(unsigned sample_bits);

/*
 * Run one sample through both tests. Returns false if it raised an alarm
 * (h->last_alarm says which); the test that fired starts afresh with the
 * next sample, and h->alarms stays non-zero, so health_ok() is false until
 * health_init() again.
 */
bool health_feed(struct health *h, uint64_t sample);

/* 4.3: at least HEALTH_STARTUP_SAMPLES samples have been through the tests. */
bool health_startup_done(const struct health *h);

/* The source may be credited: start-up done and no alarm ever. */
bool health_ok(const struct health *h);

#endif
