/* SPDX-License-Identifier: MIT */
/*
 * lib/hist.c - the log-linear latency histogram's slow parts (see hist.h):
 * reset, merge, bucket edges, percentiles and the mean. hist_add() and
 * hist_bucket_of(), in the latency drain's loop, are inline in the header.
 */
#include "lib/hist.h"

void hist_reset(struct hist *h)
{
    h->count = 0;
    h->sum = 0;
    h->min = UINT64_MAX;
    h->max = 0;
    h->interrupted = 0;
    h->reserved = 0;
    for (unsigned i = 0; i < HIST_NBUCKETS; i++)
        h->bucket[i] = 0;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
    dst->count += src->count;
    dst->sum += src->sum;
    dst->min = src->min < dst->min ? src->min : dst->min;
    dst->max = src->max > dst->max ? src->max : dst->max;
    dst->interrupted += src->interrupted;
    for (unsigned i = 0; i < HIST_NBUCKETS; i++)
        dst->bucket[i] += src->bucket[i];
}

/*
 * The inverse of hist_bucket_of(): below 128 the index is the value; above,
 * index i = shift * 64 + m with m = v >> shift in [64, 128), so
 * shift = i / 64 - 1 and the edge is m << shift. The overflow bucket
 * (i = 960) comes out as 64 << 14 = 2^20, as it should.
 */
uint64_t hist_bucket_lower(unsigned i)
{
    if (i < 2 * HIST_SUB)
        return i;
    unsigned shift = i / HIST_SUB - 1;
    return (uint64_t)(HIST_SUB + i % HIST_SUB) << shift;
}

uint64_t hist_bucket_upper(unsigned i)
{
    if (i >= HIST_OVERFLOW)
        return UINT64_MAX;
    return hist_bucket_lower(i + 1) - 1;
}

uint64_t hist_percentile(const struct hist *h, uint32_t per_100000)
{
    if (h->count == 0)
        return 0;
    /* LAB 5 BEGIN: the percentile's rank, the bucket that holds it, its lower edge in [min, max] */
    uint64_t p = per_100000 > 100000 ? 100000 : per_100000;
    /* rank = ceil(p * count / 100000), split so p * count cannot overflow. */
    uint64_t q = h->count / 100000, r = h->count % 100000;
    uint64_t rank = q * p + (r * p + 99999) / 100000;
    if (rank == 0)
        rank = 1;
    uint64_t seen = 0, v = h->max; /* max if the buckets fall short (wrapped) */
    for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
        seen += h->bucket[i];
        if (seen >= rank) {
            v = hist_bucket_lower(i);
            break;
        }
    }
    if (v < h->min)
        v = h->min;
    if (v > h->max)
        v = h->max;
    return v;
    /* LAB 5 STUB
    (void)per_100000;
    return h->max;
    LAB 5 END */
}

uint64_t hist_mean_x1000(const struct hist *h)
{
    if (h->count == 0)
        return 0;
    /* Split so that sum * 1000 cannot overflow. */
    return h->sum / h->count * 1000 + h->sum % h->count * 1000 / h->count;
}
