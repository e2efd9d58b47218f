/* SPDX-License-Identifier: MIT */
/* lib/calibrate.c - see calibrate.h. */
#include "lib/calibrate.h"

/* One reading of the reference and the counter's values either side of it. */
struct bracket {
    uint64_t before, after;
    uint32_t reference;
};

static struct bracket read_bracket(const struct calibrate_clocks *c)
{
    struct bracket b;
    b.before = c->counter(c->ctx);
    b.reference = c->reference(c->ctx) & c->reference_mask;
    b.after = c->counter(c->ctx);
    return b;
}

/* The counter at the reading is somewhere in [before, after]: twice its midpoint. */
static uint64_t twice_mid(struct bracket b)
{
    return b.before + b.after;
}

/* a * b / d without a 128-bit product, for d and b below 2^32. */
static uint64_t scale(uint64_t a, uint64_t b, uint64_t d)
{
    return a / d * b + a % d * b / d;
}

static struct calibrate_result measure_window(const struct calibrate_clocks *c,
                                              uint32_t window_ticks)
{
    struct bracket start = read_bracket(c), end;
    uint32_t elapsed;
    do {
        end = read_bracket(c);
        elapsed = (end.reference - start.reference) & c->reference_mask;
    } while (elapsed < window_ticks);
    uint64_t span2 = twice_mid(end) - twice_mid(start); /* twice the counter's span */
    uint64_t uncertainty = (start.after - start.before) + (end.after - end.before);
    struct calibrate_result r = {0, UINT64_MAX, 1};
    if (span2 == 0)
        return r;
    /* Each midpoint is off by at most half its bracket: |error| <= uncertainty / 2. */
    if (uncertainty < span2 && uncertainty < UINT64_MAX / 1000000)
        r.error_ppm = uncertainty * 1000000 / span2;
    r.hz = scale(span2, c->reference_hz, 2ull * elapsed);
    return r;
}

struct calibrate_result calibrate_counter(const struct calibrate_clocks *c, uint32_t window_ticks,
                                          unsigned max_windows)
{
    struct calibrate_result best = {0, UINT64_MAX, 0};
    for (unsigned i = 0; i < max_windows && best.error_ppm > CALIBRATE_MAX_PPM; i++) {
        struct calibrate_result r = measure_window(c, window_ticks);
        if (r.error_ppm < best.error_ppm || !best.hz)
            best = r;
        best.windows = i + 1;
    }
    return best;
}
