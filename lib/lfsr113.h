/* SPDX-License-Identifier: MIT */
/*
 * lib/lfsr113.h - L'Ecuyer's LFSR113 combined Tausworthe generator.
 *
 * Source: P. L'Ecuyer, "Tables of maximally equidistributed combined LFSR
 * generators", Mathematics of Computation 68 (1999): four components with
 * trinomials x^k + x^q + 1 and step s, (k, q, s) = (31, 6, 18), (29, 2, 2),
 * (28, 13, 7), (25, 3, 13); each output is the XOR of the four 32-bit
 * component words; period about 2^113. It is fast (a few shifts and XORs)
 * and statistically sound, but linear over GF(2) and so predictable from
 * 113 output bits: use it only where that is acceptable (the per-syscall
 * stack offset), never for keys. Freestanding; kernel and host tests.
 */
#ifndef LIB_LFSR113_H
#define LIB_LFSR113_H

#include <stdint.h>

struct lfsr113 {
    uint32_t z[4]; /* component words; only the top k bits of each are state */
};

/*
 * Seed from four words. A component's state is the top k bits of its word,
 * so a seed below 2^(32-k) (that is below 2, 8, 16, 128) would leave that
 * component all-zero and stuck there for ever. Such a seed has that minimum
 * added to it (2^(32-k) + seed: the lowest state bit set, the ignored low
 * bits kept); every other seed is used as it is. Consequently distinct
 * small seeds can give the same state; callers seed from a CRNG anyway.
 */
void lfsr113_seed(struct lfsr113 *s, const uint32_t seed[4]);

/* Advance every component by one step and return the XOR of the four. */
uint32_t lfsr113_next(struct lfsr113 *s);

#endif
