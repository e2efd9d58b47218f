/* SPDX-License-Identifier: MIT */
/*
 * lib/lfsr113.c - LFSR113 (see lfsr113.h). Each component is a Tausworthe
 * generator with characteristic trinomial x^k + x^q + 1 and step s: its bit
 * sequence obeys x(n) = x(n-k) XOR x(n-k+q), and its 32-bit word holds the
 * bits x(n*s) ... x(n*s+31), most significant first. One step advances the
 * window by s bits with L'Ecuyer's word algorithm (conditions 0 < 2q < k,
 * 0 < s <= k - q, which all four parameter sets meet):
 *
 *     b = ((z << q) ^ z) >> (k - s)      x(m+k) = x(m) ^ x(m+q) for the window's
 *                                        bits, lined up below the surviving ones
 *     z = ((z & mask_k) << s) ^ b        the state shifted up by s, new bits in
 *
 * where mask_k = 0xFFFFFFFF << (32 - k) keeps the top k bits, the state proper
 * (the paper's constants 4294967294, 4294967288, 4294967280, 4294967168).
 * The step itself is inline in lfsr113.h (lfsr113_step); this file seeds.
 */
#include "lib/lfsr113.h"

/* k per component (L'Ecuyer 1999, the LFSR113 parameter set; q and s are in lfsr113.h). */
#define K1 31
#define K2 29
#define K3 28
#define K4 25

/* The top k bits of a 32-bit word; the state of a degree-k component. */
#define TOP_BITS(k) (0xFFFFFFFFu << (32 - (k)))
/* The smallest word whose top k bits are not all zero: 2, 8, 16, 128. */
#define MIN_SEED(k) (1u << (32 - (k)))

_Static_assert(TOP_BITS(K1) == 4294967294u && TOP_BITS(K4) == 4294967168u, "LFSR113 masks");
_Static_assert(MIN_SEED(K1) == 2 && MIN_SEED(K2) == 8 && MIN_SEED(K3) == 16 && MIN_SEED(K4) == 128,
               "LFSR113 seed minimums (above 1, 7, 15, 127)");

static uint32_t seed_component(uint32_t seed, unsigned k)
{
    return seed < MIN_SEED(k) ? seed + MIN_SEED(k) : seed;
}

void lfsr113_seed(struct lfsr113 *s, const uint32_t seed[4])
{
    s->z[0] = seed_component(seed[0], K1);
    s->z[1] = seed_component(seed[1], K2);
    s->z[2] = seed_component(seed[2], K3);
    s->z[3] = seed_component(seed[3], K4);
}
