/* SPDX-License-Identifier: MIT */
/*
 * Host tests for lib/calibrate.c: a 2.5 GHz counter measured against a
 * 3.579545 MHz 24-bit reference on a simulated clock, with the CPU taken
 * away for 80 ms at chosen moments (what a busy host does to a virtual CPU).
 */
#include <stdio.h>

#include "check.h"
#include "lib/calibrate.h"

#define COUNTER_HZ   2500000000ull
#define REFERENCE_HZ 3579545ull
#define WINDOW       (REFERENCE_HZ / 50) /* 20 ms */
#define STALL_NS     80000000ull

/* The fake follows the windows as calibrate_counter defines them (a
 * reading starts one; the first reading WINDOW ticks later ends it, and the
 * next reading starts the next), so a test can stall at either end. */
struct machine {
    uint64_t now_ns;
    uint32_t reference_offset;   /* the reference's value at time 0 */
    unsigned stall_before_start; /* bit k: stall before sampling window k's start */
    unsigned stall_after_end;    /* bit k: stall after sampling window k's end */
    uint64_t stall_at_ns;        /* once, mid-window, at the first reading from then */
    unsigned window;             /* the window being measured */
    int in_window;
    uint32_t window_start;
    int stalls;
};

static uint64_t counter(void *ctx)
{
    struct machine *m = ctx;
    m->now_ns += 10;
    return m->now_ns * 5 / 2; /* 2.5 GHz */
}

static void stall(struct machine *m)
{
    m->now_ns += STALL_NS;
    m->stalls++;
}

static uint32_t reference(void *ctx)
{
    struct machine *m = ctx;
    m->now_ns += 1000; /* a port read is slow */
    if (!m->in_window && (m->stall_before_start >> m->window & 1))
        stall(m);
    uint32_t value = (uint32_t)(m->reference_offset + m->now_ns * REFERENCE_HZ / 1000000000ull);
    value &= 0xffffff;
    if (!m->in_window) {
        m->in_window = 1;
        m->window_start = value;
    } else if (((value - m->window_start) & 0xffffff) >= WINDOW) {
        m->in_window = 0;
        if (m->stall_after_end >> m->window++ & 1)
            stall(m);
    } else if (m->stall_at_ns && m->now_ns >= m->stall_at_ns) {
        m->stall_at_ns = 0;
        stall(m);
    }
    return value;
}

static struct calibrate_result measure(struct machine *m)
{
    struct calibrate_clocks c = {counter, reference, m, 0xffffff, REFERENCE_HZ};
    return calibrate_counter(&c, WINDOW, 5);
}

static int close_to_truth(uint64_t hz)
{
    uint64_t diff = hz > COUNTER_HZ ? hz - COUNTER_HZ : COUNTER_HZ - hz;
    return diff * 1000 <= COUNTER_HZ; /* within 0.1% */
}

/* What a run of calibrate_counter must see: the stalls the machine made,
 * the windows measured, and in the end a frequency within 0.1%. */
struct scenario {
    const char *what;
    struct machine m;
    int stalls;
    unsigned windows;
};

static const struct scenario scenarios[] = {
    {"undisturbed", {0}, 0, 1},
    /* between the reading that ends the first window and the counter read after it */
    {"a stall at a window's end: measured again", {.stall_after_end = 1}, 1, 2},
    /* between the counter read and the reading that starts the first window */
    {"a stall at a window's start: measured again", {.stall_before_start = 1}, 1, 2},
    /* both clocks run on through it */
    {"a stall inside a window: harmless", {.stall_at_ns = 5000000}, 1, 1},
    {"four windows stalled: the fifth is clean",
     {.stall_after_end = 0xf, .stall_before_start = 0x3},
     6,
     5},
    {"a 24-bit reference that wraps", {.reference_offset = 0xffffff - 1000}, 0, 1},
};

TEST(scenarios_give_the_frequency)
{
    for (unsigned i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
        struct machine m = scenarios[i].m;
        struct calibrate_result r = measure(&m);
        if (!close_to_truth(r.hz) || r.error_ppm > CALIBRATE_MAX_PPM ||
            m.stalls != scenarios[i].stalls || r.windows != scenarios[i].windows) {
            printf("    # %s: %llu Hz within %llu ppm, %d stalls, %u windows; expected %d and %u\n",
                   scenarios[i].what, (unsigned long long)r.hz, (unsigned long long)r.error_ppm,
                   m.stalls, r.windows, scenarios[i].stalls, scenarios[i].windows);
            check_failures++;
        }
    }
}

/* Stalls at the end of every window: the result says it is not to be trusted. */
TEST(every_window_stalled_is_reported)
{
    struct machine m = {.stall_after_end = 0xf};
    struct calibrate_clocks c = {counter, reference, &m, 0xffffff, REFERENCE_HZ};
    struct calibrate_result r = calibrate_counter(&c, WINDOW, 4);
    CHECK_EQ_INT(m.stalls, 4);
    CHECK(r.error_ppm > CALIBRATE_MAX_PPM);
    CHECK_EQ_INT(r.windows, 4);
}

RUN_TESTS("calibrate", CASE(scenarios_give_the_frequency), CASE(every_window_stalled_is_reported))
