/* SPDX-License-Identifier: MIT */
/*
 * lib/lfsr113_solve.h - recover an LFSR113 state from leaked stack offsets.
 *
 * LFSR113 (lib/lfsr113.h) is linear over GF(2): every output bit is a fixed
 * XOR of the 113 state bits. The model below is written from L'Ecuyer's
 * definition, not from the word algorithm: component j is the bit sequence
 * x(n) = x(n-k) XOR x(n-k+q) (trinomial x^k + x^q + 1), its n-th output word
 * holds the bits x(n*s) ... x(n*s+31), most significant first, and the
 * generator's output is the XOR of the four words. The unknowns are
 * x(0) ... x(k-1) of each component (31 + 29 + 28 + 25 = 113 bits), which
 * are the top k bits of the component's word before the first draw.
 *
 * Each offset (output & KSTACK_OFFSET_MASK, bits 4 to 9) gives six linear
 * equations. The solver eliminates them as they come (Gaussian elimination
 * over GF(2), one pivot per unknown) and says when the system has full rank,
 * and when an equation contradicts the earlier ones: then the offsets did not
 * come from consecutive draws of one LFSR113 (another thread drew in between,
 * or the generator is not LFSR113). Freestanding: user programs and host tests.
 */
#ifndef LIB_LFSR113_SOLVE_H
#define LIB_LFSR113_SOLVE_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/lfsr113.h"

#define LFSR113_STATE_BITS      113
/* Most draws the model covers (the symbolic sequences are this long). */
#define LFSR113_SOLVE_MAX_DRAWS 96
/* Sequence bits that covers: draw n's word ends at x(n*s + 31), s <= 18. */
#define LFSR113_SOLVE_SEQ_LEN   (LFSR113_SOLVE_MAX_DRAWS * 18 + 32)
/* The offset bits: the stack offset keeps output bits 4..9. */
#define LFSR113_SOLVE_LOW_BIT   4
#define LFSR113_SOLVE_HIGH_BIT  9

/* One equation: unknown bits 0..112 in w[0..1], the right-hand side in bit 127. */
struct gf2_row {
    uint64_t w[2];
};

struct lfsr113_solver {
    /* x(m) of component j as a mask of its k unknowns (bit i: x(i)), m up to
     * LFSR113_SOLVE_MAX_DRAWS * 18 + 31; derived from the recurrence at init. */
    uint32_t x[4][LFSR113_SOLVE_SEQ_LEN];
    struct gf2_row pivot[LFSR113_STATE_BITS]; /* pivot[i]: lowest unknown i, or empty */
    unsigned rank;                            /* independent equations so far (113: solved) */
    unsigned draws;                           /* offsets added */
    unsigned inconsistent;                    /* equations that contradicted the earlier ones */
};

/* Build the model (from the recurrences) and start with no equations. */
void lfsr113_solver_init(struct lfsr113_solver *s);

/* Add the offset of the next draw (the first call: draw 1 after the unknown
 * state). False once LFSR113_SOLVE_MAX_DRAWS offsets have been added. */
bool lfsr113_solver_add(struct lfsr113_solver *s, uint32_t offset);

/* With full rank: the state before draw 1 (the top k bits of each word; the
 * low bits, which never reach an output, are zero). False without full rank. */
bool lfsr113_solver_state(const struct lfsr113_solver *s, struct lfsr113 *out);

/* The model's prediction of output bit `bit` of draw n (1 to
 * LFSR113_SOLVE_MAX_DRAWS; 0 beyond) for a known state: what the host tests
 * compare with a reference generator. */
unsigned lfsr113_model_bit(const struct lfsr113_solver *s, const struct lfsr113 *state, unsigned n,
                           unsigned bit);

#endif
