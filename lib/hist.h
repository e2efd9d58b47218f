/* SPDX-License-Identifier: MIT */
/*
 * lib/hist.h - a log-linear latency histogram, freestanding (kernel and user).
 *
 * Values are unsigned counter ticks. Buckets:
 *
 *   0 .. 63           one bucket per value (indices 0..63)
 *   2^e .. 2^(e+1)-1  for e = 6 .. 19: 64 buckets of width 2^(e-6) each
 *   2^20 and above    one overflow bucket (index HIST_OVERFLOW)
 *
 * The first power of two's sub-buckets (e = 6) are 1 wide, so every value
 * below 128 has its own bucket, whose index is the value. Every bucket from
 * 64 up is at most 1/64 of its lower edge wide: under 1.6%. The top value
 * with a bucket of its own is HIST_MAX = 2^20 - 1 (a million ticks: 1/3 ms
 * at 3 GHz, far beyond any system call here); larger values are counted
 * in the overflow bucket, and count, sum, min and max stay exact for them.
 *
 * sizeof(struct hist) is 3888 bytes (5 uint64 fields, 961 uint32 buckets
 * and one reserved uint32), checked below: it fits in one page, which is how
 * the kernel allocates them. A bucket is a uint32 and wraps
 * after 2^32 samples in one bucket; the exact count is a uint64.
 *
 * No locking and no atomics: the kernel keeps one per CPU and updates it with
 * interrupts masked, off the system call path (kernel/latency/latency.h:
 * the path queues raw samples, the drains add them here). hist_add() is short and branch-free where
 * the CPU has a count-leading-zeros instruction and conditional selects (x86_64 BSR/CMOV, arm64
 * CLZ/CSEL: 26 instructions with gcc 12 -O2); riscv64 without Zbb uses the shift-and-compare bit
 * scan below. Read a CPU's histogram only when it cannot change, or copy it first.
 */
#ifndef LIB_HIST_H
#define LIB_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS 6 /* 64 sub-buckets per power of two */
#define HIST_SUB      (1u << HIST_SUB_BITS)
#define HIST_TOP_BITS 20                          /* values below 2^20 have a bucket */
#define HIST_MAX      ((1u << HIST_TOP_BITS) - 1) /* 1048575 */
#define HIST_OVERFLOW ((HIST_TOP_BITS - HIST_SUB_BITS + 1) * HIST_SUB) /* 960 */
#define HIST_NBUCKETS (HIST_OVERFLOW + 1) /* 961, the overflow bucket last */

struct hist {
    uint64_t count;                 /* samples added, including overflows */
    uint64_t sum;                   /* sum of all samples (exact, wraps only past 2^64) */
    uint64_t min;                   /* smallest sample; UINT64_MAX while empty */
    uint64_t max;                   /* largest sample; 0 while empty */
    uint64_t interrupted;           /* samples during which an interrupt was taken */
    uint32_t bucket[HIST_NBUCKETS]; /* bucket[HIST_OVERFLOW]: samples > HIST_MAX */
    uint32_t reserved; /* 0: no hidden padding, so a copy to user space leaks nothing */
};

_Static_assert(sizeof(struct hist) == 3888, "struct hist size stated in lib/hist.h");

/*
 * floor(log2(x)) for 0 < x < 2^32, with shifts and compares only: no table,
 * no branch (the compares become slt/setcc), no libgcc call. Used where the
 * CPU has no count-leading-zeros instruction the compiler will inline
 * (riscv64 without Zbb, where __builtin_clzll calls __clzdi2); the host tests
 * check it against __builtin_clzll everywhere.
 */
static inline unsigned hist_log2_soft(uint32_t x)
{
    unsigned r, s;
    r = (unsigned)(x > 0xffffu) << 4;
    x >>= r;
    s = (unsigned)(x > 0xffu) << 3;
    x >>= s;
    r |= s;
    s = (unsigned)(x > 0xfu) << 2;
    x >>= s;
    r |= s;
    s = (unsigned)(x > 0x3u) << 1;
    x >>= s;
    r |= s;
    return r | (x >> 1);
}

/* floor(log2(x)) for 0 < x <= 2^HIST_TOP_BITS (all hist_bucket_of() needs). */
static inline unsigned hist_log2(uint64_t x)
{
#if defined(__riscv) && !defined(__riscv_zbb)
    return hist_log2_soft((uint32_t)x);
#else
    return 63u - (unsigned)__builtin_clzll(x);
#endif
}

/*
 * The bucket index of v, for any v (HIST_OVERFLOW above HIST_MAX). With
 * shift = max(0, floor(log2 v) - 6), the index is shift * 64 + (v >> shift):
 * below 128 that is v itself; above, v >> shift is in [64, 128), so each
 * power of two gets the next 64 indices. OR-ing in 127 makes the bit scan
 * give shift 0 for small v (and keeps its argument non-zero) without a
 * branch; clamping to 2^20 first lands everything bigger on 960, the
 * overflow bucket.
 */
static inline unsigned hist_bucket_of(uint64_t v)
{
    uint64_t c = v > HIST_MAX ? (uint64_t)HIST_MAX + 1 : v;
    unsigned shift = hist_log2(c | (2 * HIST_SUB - 1)) - HIST_SUB_BITS;
    return shift * HIST_SUB + (unsigned)(c >> shift);
}

/* Add one sample; irq is 1 when an interrupt was taken during it, else 0. */
static inline void hist_add_irq(struct hist *h, uint64_t v, unsigned irq)
{
    h->bucket[hist_bucket_of(v)]++;
    h->count++;
    h->sum += v;
    h->min = v < h->min ? v : h->min;
    h->max = v > h->max ? v : h->max;
    h->interrupted += irq;
}

static inline void hist_add(struct hist *h, uint64_t v)
{
    hist_add_irq(h, v, 0);
}

static inline uint32_t hist_overflow(const struct hist *h)
{
    return h->bucket[HIST_OVERFLOW];
}

/* Empty the histogram (count 0, min UINT64_MAX, max 0). */
void hist_reset(struct hist *h);

/* dst += src, as if every sample of src had been added to dst. */
void hist_merge(struct hist *dst, const struct hist *src);

/* The smallest and largest value bucket i holds (i < HIST_NBUCKETS);
 * the overflow bucket is [2^20, UINT64_MAX]. */
uint64_t hist_bucket_lower(unsigned i);
uint64_t hist_bucket_upper(unsigned i);

/*
 * Nearest-rank percentile, p in 1/100000 (99.9% is 99900, the median 50000;
 * values above 100000 count as 100000). The sample of rank
 * ceil(p * count / 100000) (at least 1) in sorted order lies in some bucket;
 * the result is that bucket's lower edge, clamped into [min, max]. So it is
 * never above the true percentile and lies in the same bucket (within 1.6%
 * below it, exact under 128); p = 0 gives min, p = 100000 gives the lower
 * edge of max's bucket (or max itself when it is below 128). 0 when empty.
 */
uint64_t hist_percentile(const struct hist *h, uint32_t per_100000);

/* floor(1000 * sum / count): the mean times 1000, integer only; 0 when empty. */
uint64_t hist_mean_x1000(const struct hist *h);

#endif
