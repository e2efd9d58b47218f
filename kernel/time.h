/* SPDX-License-Identifier: MIT */
/*
 * kernel/time.h - nanoseconds from the arch counter.
 * Conversions use a multiply and a shift (no 128-bit division, which would
 * need libgcc): ns = ticks * mult >> 32, with mult = 10^9 * 2^32 / hz.
 */
#ifndef KERNEL_TIME_H
#define KERNEL_TIME_H

#include "kernel/types.h"

void time_init(void);
uint64_t time_now_ns(void);
uint64_t ticks_to_ns(uint64_t ticks);
/* Rounded up, saturating. */
uint64_t ns_to_ticks(uint64_t ns);

#endif
