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

/*
 * One step of a component with parameters (k, q, s) (derivation in
 * lfsr113.c): the new bits b are x(m+k) = x(m) ^ x(m+q) for the window's
 * bits; the state (the top k bits) shifts up by s and takes them in.
 * Inline, because the stack offset strategies draw on every system call.
 */
static inline uint32_t lfsr113_step(uint32_t z, unsigned k, unsigned q, unsigned s)
{
    /* LAB 4 BEGIN: one step of one component: the new bits, then the shifted state */
    uint32_t b = ((z << q) ^ z) >> (k - s);
    return ((z & (0xFFFFFFFFu << (32 - k))) << s) ^ b;
    /* LAB 4 STUB
    (void)k, (void)q, (void)s;
    return z;
    LAB 4 END */
}

/* Advance every component by one step and return the XOR of the four;
 * (k, q, s) = (31, 6, 18), (29, 2, 2), (28, 13, 7), (25, 3, 13). */
static inline uint32_t lfsr113_next(struct lfsr113 *s)
{
    /* LAB 4 BEGIN: step the four components (k, q, s from L'Ecuyer's table) and combine them */
    s->z[0] = lfsr113_step(s->z[0], 31, 6, 18);
    s->z[1] = lfsr113_step(s->z[1], 29, 2, 2);
    s->z[2] = lfsr113_step(s->z[2], 28, 13, 7);
    s->z[3] = lfsr113_step(s->z[3], 25, 3, 13);
    return s->z[0] ^ s->z[1] ^ s->z[2] ^ s->z[3];
    /* LAB 4 STUB
    (void)s;
    return 0;
    LAB 4 END */
}

#endif
