/* SPDX-License-Identifier: MIT */
/*
 * lib/calibrate.h - a counter's frequency measured against a reference
 * clock of known frequency (the x86 TSC against the ACPI PM timer).
 *
 * Each reading of the reference is taken between two reads of the counter.
 * Where the two are far apart something stopped the CPU between them (an
 * interrupt, an SMI, or a host that took the virtual CPU away for a time
 * slice), and the counter's value at the reading is known only to within
 * that gap. A window whose two ends are known too loosely is measured again,
 * so one stall cannot turn a 3 GHz counter into a 15 GHz one.
 */
#ifndef LIB_CALIBRATE_H
#define LIB_CALIBRATE_H

#include <stdint.h>

struct calibrate_clocks {
    uint64_t (*counter)(void *ctx);   /* the clock being measured */
    uint32_t (*reference)(void *ctx); /* the clock of known frequency */
    void *ctx;
    uint32_t reference_mask; /* its width: 0xffffff for a 24-bit timer */
    uint64_t reference_hz;
};

/* A window must know its span to within this many parts per million. */
#define CALIBRATE_MAX_PPM 1000

struct calibrate_result {
    uint64_t hz;        /* the counter's frequency from the best window */
    uint64_t error_ppm; /* that window's bound on its error */
    unsigned windows;   /* how many windows were measured */
};

/*
 * Measures windows of window_ticks of the reference (at most 2^31, and
 * shorter than the reference's wrap) until one's error bound is within
 * CALIBRATE_MAX_PPM or max_windows have been tried, and returns the window
 * with the smallest bound. A result whose error_ppm is above the limit
 * means every window was disturbed.
 */
struct calibrate_result calibrate_counter(const struct calibrate_clocks *c, uint32_t window_ticks,
                                          unsigned max_windows);

#endif
