/* SPDX-License-Identifier: MIT */
/*
 * lib/lfsr113_solve.c - the GF(2) model of LFSR113 and the solver (see
 * lfsr113_solve.h). The model is derived here from the recurrences; nothing
 * about the generator is tabulated except L'Ecuyer's (k, q, s).
 */
#include "lib/lfsr113_solve.h"

#define NX       LFSR113_SOLVE_SEQ_LEN
#define RHS_WORD 1
#define RHS_BIT  (1ull << 63)

/* L'Ecuyer 1999, LFSR113: (k, q, s) per component, and where its unknowns
 * start among the 113. */
static const struct {
    unsigned k, q, s, base;
} comp[4] = {{31, 6, 18, 0}, {29, 2, 2, 31}, {28, 13, 7, 60}, {25, 3, 13, 88}};

/* x(m) for m < k is unknown m; after that x(m) = x(m-k) XOR x(m-k+q). */
static void derive_sequence(uint32_t *x, unsigned k, unsigned q)
{
    for (unsigned m = 0; m < NX; m++)
        x[m] = m < k ? 1u << m : x[m - k] ^ x[m - k + q];
}

void lfsr113_solver_init(struct lfsr113_solver *s)
{
    for (unsigned j = 0; j < 4; j++)
        derive_sequence(s->x[j], comp[j].k, comp[j].q);
    for (unsigned i = 0; i < LFSR113_STATE_BITS; i++)
        s->pivot[i].w[0] = s->pivot[i].w[1] = 0;
    s->rank = s->draws = s->inconsistent = 0;
}

/* Bit b (0 = least significant) of draw n's word is x(n*s + 31 - b) of each
 * component: the equation of that output bit, without its right-hand side. */
static struct gf2_row output_bit_row(const struct lfsr113_solver *s, unsigned n, unsigned b)
{
    struct gf2_row r = {{0, 0}};
    for (unsigned j = 0; j < 4; j++) {
        uint32_t mask = s->x[j][n * comp[j].s + 31 - b];
        for (unsigned i = 0; i < comp[j].k; i++) {
            unsigned u = comp[j].base + i;
            if (mask >> i & 1)
                r.w[u / 64] |= 1ull << (u % 64);
        }
    }
    return r;
}

static bool row_has(const struct gf2_row *r, unsigned u)
{
    return r->w[u / 64] >> (u % 64) & 1;
}

/* Reduce r by the pivots; keep it as a new pivot if anything is left. */
static void eliminate(struct lfsr113_solver *s, struct gf2_row r)
{
    /* LAB 6 BEGIN: GF(2) elimination: reduce r, keep it as a pivot or count a contradiction */
    for (unsigned u = 0; u < LFSR113_STATE_BITS; u++) {
        if (!row_has(&r, u))
            continue;
        if (!row_has(&s->pivot[u], u)) {
            s->pivot[u] = r;
            s->rank++;
            return;
        }
        r.w[0] ^= s->pivot[u].w[0];
        r.w[1] ^= s->pivot[u].w[1];
    }
    /* 0 = rhs: redundant if rhs is 0, a contradiction if it is 1. */
    if (r.w[RHS_WORD] & RHS_BIT)
        s->inconsistent++;
    /* LAB 6 STUB
    (void)s, (void)r, (void)row_has;
    LAB 6 END */
}

bool lfsr113_solver_add(struct lfsr113_solver *s, uint32_t offset)
{
    if (s->draws >= LFSR113_SOLVE_MAX_DRAWS)
        return false;
    unsigned n = ++s->draws;
    for (unsigned b = LFSR113_SOLVE_LOW_BIT; b <= LFSR113_SOLVE_HIGH_BIT; b++) {
        struct gf2_row r = output_bit_row(s, n, b);
        if (offset >> b & 1)
            r.w[RHS_WORD] |= RHS_BIT;
        eliminate(s, r);
    }
    return true;
}

/* XOR of the 64 bits (no __builtin_popcount: the kernel has no libgcc). */
static unsigned parity64(uint64_t v)
{
    for (unsigned sh = 32; sh; sh >>= 1)
        v ^= v >> sh;
    return (unsigned)(v & 1);
}

/* Back substitution: pivot u's other unknowns are all above u. */
bool lfsr113_solver_state(const struct lfsr113_solver *s, struct lfsr113 *out)
{
    if (s->rank != LFSR113_STATE_BITS)
        return false;
    struct gf2_row v = {{0, 0}}; /* the solution, unknown u in bit u */
    for (unsigned u = LFSR113_STATE_BITS; u-- > 0;) {
        const struct gf2_row *p = &s->pivot[u];
        unsigned bit = (p->w[RHS_WORD] & RHS_BIT) != 0;
        uint64_t w0 = p->w[0] & v.w[0], w1 = p->w[1] & v.w[1] & ~RHS_BIT;
        bit ^= parity64(w0 ^ w1);
        if (bit)
            v.w[u / 64] |= 1ull << (u % 64);
    }
    /* x(i) of component j is bit 31 - i of its word. */
    for (unsigned j = 0; j < 4; j++) {
        out->z[j] = 0;
        for (unsigned i = 0; i < comp[j].k; i++) {
            if (row_has(&v, comp[j].base + i))
                out->z[j] |= 1u << (31 - i);
        }
    }
    return true;
}

unsigned lfsr113_model_bit(const struct lfsr113_solver *s, const struct lfsr113 *state, unsigned n,
                           unsigned bit)
{
    unsigned out = 0;
    if (n > LFSR113_SOLVE_MAX_DRAWS)
        return 0;
    for (unsigned j = 0; j < 4; j++) {
        uint32_t mask = s->x[j][n * comp[j].s + 31 - bit];
        for (unsigned i = 0; i < comp[j].k; i++)
            out ^= (mask >> i & 1) & (state->z[j] >> (31 - i) & 1);
    }
    return out;
}
