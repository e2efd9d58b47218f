/* SPDX-License-Identifier: MIT */
/*
 * lib/health.c - NIST SP 800-90B continuous health tests (see health.h).
 *
 * The APT cut-off needs a binomial tail probability: sums of numbers as
 * small as p^W (2^-65536 for H = 64, W = 1024) with p = 2^-H irrational.
 * Without an FPU it is computed with a small unsigned floating point type,
 * struct xf: a 64-bit mantissa and a 32-bit exponent, truncating. The tail
 * sum over at most W terms takes about 4 W operations, each off by at most
 * 2^-63 relatively, so the result is good to about 2^-50. The host tests
 * compare every cut-off for H = 1/8 .. 16, alpha = 2^-10 .. 2^-40 and
 * W = 100, 512, 1024 with a long-double computation by another method, where
 * no tail comes closer than 6e-5 (relative) to alpha except in exact ties,
 * which this code sees exactly (p^W = alpha: both are exact powers of 2).
 */
#include "lib/health.h"

/* ---- struct xf: m * 2^e, with m == 0 (zero) or bit 63 of m set --------- */

struct xf {
    uint64_t m;
    int32_t e;
};

static const struct xf xf_zero = {0, 0};
static const struct xf xf_one = {1ull << 63, -63};

static struct xf xf_norm(uint64_t m, int32_t e)
{
    struct xf r = {m, e};
    if (m == 0)
        return xf_zero;
    while (!(r.m >> 63)) { /* a loop, not __builtin_clzll: no libgcc */
        r.m <<= 1;
        r.e--;
    }
    return r;
}

/* floor(2^63 * 2^(j/8)), j = 0..7: 2^(j/8) as a mantissa. Computed with
 * exact integer 8th roots, r^8 <= 2^(504+j) < (r+1)^8; [4] is sqrt(2). */
static const uint64_t root8[8] = {
    0x8000000000000000ull, 0x8b95c1e3ea8bd6e6ull, 0x9837f0518db8a96full, 0xa5fed6a9b15138eaull,
    0xb504f333f9de6484ull, 0xc5672a115506daddull, 0xd744fccad69d6af4ull, 0xeac0c6e7dd24392eull,
};

/* 2^(v/8) for any integer v. */
static struct xf xf_pow2_x8(int32_t v)
{
    int32_t q = v >= 0 ? v / 8 : -((-v + 7) / 8); /* floor(v / 8) */
    struct xf r = {root8[v - 8 * q], q - 63};
    return r;
}

/* a * b, from four 32 x 32-bit partial products (no 128-bit type needed). */
static struct xf xf_mul(struct xf a, struct xf b)
{
    if (a.m == 0 || b.m == 0)
        return xf_zero;
    uint64_t al = a.m & 0xffffffffu, ah = a.m >> 32, bl = b.m & 0xffffffffu, bh = b.m >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    uint64_t hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    int32_t e = a.e + b.e + 64;
    if (!(hi >> 63)) { /* product in [2^126, 2^127): take one more bit */
        hi = hi << 1 | ((mid >> 31) & 1);
        e--;
    }
    struct xf r = {hi, e};
    return r;
}

/* a / d for 1 <= d < 2^32: 64 quotient bits from two native divisions. */
static struct xf xf_div_u32(struct xf a, uint32_t d)
{
    if (a.m == 0)
        return xf_zero;
    uint64_t q1 = a.m / d, q2 = ((a.m % d) << 32) / d; /* a.m / d = q1 + q2 / 2^32 */
    int s = 0;
    while (!((q1 << s) >> 63)) /* q1 >= 2^31, so s <= 32 */
        s++;
    struct xf r = {(q1 << s) | (q2 >> (32 - s)), a.e - s};
    return r;
}

static struct xf xf_from_u32(uint32_t v)
{
    return xf_norm(v, 0);
}

static struct xf xf_add(struct xf a, struct xf b)
{
    if (a.m == 0)
        return b;
    if (b.m == 0)
        return a;
    if (a.e < b.e) {
        struct xf t = a;
        a = b;
        b = t;
    }
    uint32_t shift = (uint32_t)(a.e - b.e);
    if (shift >= 64)
        return a;
    uint64_t m = a.m + (b.m >> shift);
    if (m < a.m) { /* carried out of bit 63 */
        struct xf r = {(m >> 1) | (1ull << 63), a.e + 1};
        return r;
    }
    struct xf r = {m, a.e};
    return r;
}

/* a - b for a >= b > 0. */
static struct xf xf_sub(struct xf a, struct xf b)
{
    uint32_t shift = (uint32_t)(a.e - b.e);
    if (shift >= 64)
        return a;
    return xf_norm(a.m - (b.m >> shift), a.e);
}

static bool xf_greater(struct xf a, struct xf b)
{
    if (a.m == 0 || b.m == 0)
        return a.m != 0;
    return a.e != b.e ? a.e > b.e : a.m > b.m;
}

/* ---- cut-offs ----------------------------------------------------------- */

unsigned health_rct_cutoff(unsigned h_x8, unsigned alpha_log2)
{
    /* 4.4.1: C = 1 + ceil(-log2(alpha) / H), H = h_x8 / 8, all in integers. */
    return 1 + (8 * alpha_log2 + h_x8 - 1) / h_x8;
}

unsigned health_apt_window(unsigned sample_bits)
{
    return sample_bits == 1 ? HEALTH_WINDOW_BINARY : HEALTH_WINDOW;
}

/*
 * 4.4.2: C = 1 + CRITBINOM(W, p, 1 - alpha), p = 2^-H: the smallest c with
 * P[X >= c] <= alpha, X ~ Binomial(W, p). The tail is summed from k = W
 * down, the point masses from P[X = W] = p^W and the ratio
 * P[X = k-1] / P[X = k] = k / (W - k + 1) * (1 - p) / p, (1 - p) / p = 2^H - 1.
 */
unsigned health_apt_cutoff(unsigned h_x8, unsigned alpha_log2, unsigned window)
{
    struct xf alpha = xf_pow2_x8(-8 * (int32_t)alpha_log2);
    struct xf odds = xf_sub(xf_pow2_x8((int32_t)h_x8), xf_one);
    struct xf mass = xf_pow2_x8(-(int32_t)(h_x8 * window)); /* P[X = W] */
    struct xf tail = xf_zero;
    for (unsigned k = window; k > 0; k--) {
        tail = xf_add(tail, mass); /* P[X >= k] */
        if (xf_greater(tail, alpha))
            return k + 1 > 2 ? k + 1 : 2;
        mass = xf_mul(xf_mul(mass, xf_from_u32(k)), odds);
        mass = xf_div_u32(mass, window - k + 1); /* P[X = k - 1] */
    }
    return 2; /* P[X >= 1] <= alpha: see health.h for why not 1 */
}

/* ---- the tests ---------------------------------------------------------- */

int health_init(struct health *h, unsigned h_x8, unsigned alpha_log2, unsigned sample_bits)
{
    if (sample_bits < 1 || sample_bits > 64 || h_x8 < 1 || h_x8 > 8 * sample_bits ||
        alpha_log2 < 1 || alpha_log2 > 64)
        return -1;
    *h = (struct health){0};
    h->mask = sample_bits == 64 ? ~0ull : (1ull << sample_bits) - 1;
    h->rct_cutoff = health_rct_cutoff(h_x8, alpha_log2);
    h->apt_window = health_apt_window(sample_bits);
    h->apt_cutoff = health_apt_cutoff(h_x8, alpha_log2, h->apt_window);
    return 0;
}

/* 4.4.1: B counts the run of samples equal to A; B >= C is an alarm. */
static bool rct_feed(struct health *h, uint64_t x)
{
    if (h->rct_b == 0 || x != h->rct_a) {
        h->rct_a = x; /* a new run starts with this sample */
        h->rct_b = 1;
        return true;
    }
    if (++h->rct_b < h->rct_cutoff)
        return true;
    h->rct_b = 0; /* alarm: the next sample starts a new run */
    return false;
}

/* 4.4.2: A is the first sample of a window of W; B counts A in the window,
 * A itself included; B >= C is an alarm. */
static bool apt_feed(struct health *h, uint64_t x)
{
    if (h->apt_i == 0) { /* this sample opens a window */
        h->apt_a = x;
        h->apt_b = 1;
        h->apt_i = 1;
        return true;
    }
    bool alarm = x == h->apt_a && ++h->apt_b >= h->apt_cutoff;
    if (++h->apt_i == h->apt_window || alarm)
        h->apt_i = 0; /* window done (or failed): the next sample opens one */
    return !alarm;
}

bool health_feed(struct health *h, uint64_t sample)
{
    uint64_t x = sample & h->mask;
    unsigned alarm = 0;
    if (!rct_feed(h, x))
        alarm |= HEALTH_ALARM_RCT;
    if (!apt_feed(h, x))
        alarm |= HEALTH_ALARM_APT;
    h->samples++;
    if (alarm) {
        h->alarms++;
        h->last_alarm = alarm;
    }
    return alarm == 0;
}

bool health_startup_done(const struct health *h)
{
    return h->samples >= HEALTH_STARTUP_SAMPLES;
}

bool health_ok(const struct health *h)
{
    return health_startup_done(h) && h->alarms == 0;
}
