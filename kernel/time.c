/* SPDX-License-Identifier: MIT */
/* kernel/time.c - counter ticks to nanoseconds and back (see time.h). */
#include "kernel/time.h"

#include "arch/arch.h"

#define NS_PER_SEC 1000000000ull

static uint64_t hz;
static uint64_t ns_mult; /* ns per tick, as a 32.32 fixed-point number */

void time_init(void)
{
    hz = arch_counter_hz();
    ns_mult = (NS_PER_SEC << 32) / hz;
}

uint64_t ticks_to_ns(uint64_t ticks)
{
    return (uint64_t)(((unsigned __int128)ticks * ns_mult) >> 32);
}

uint64_t time_now_ns(void)
{
    return ticks_to_ns(arch_counter());
}

uint64_t ns_to_ticks(uint64_t ns)
{
    uint64_t secs = ns / NS_PER_SEC, rest = ns % NS_PER_SEC;
    if (secs > UINT64_MAX / hz - 1)
        return UINT64_MAX / 2; /* centuries: as good as forever */
    return secs * hz + (rest * hz + NS_PER_SEC - 1) / NS_PER_SEC;
}
