/* SPDX-License-Identifier: MIT */
/*
 * user/common/kstack_attack.h - the two attacks on the stack offset strategies
 * as user programs run them (docs/attacks.md): Bug 1, the cross-CPU
 * migration prediction (user/demos/attack_migrate.c), and LFSR113 state recovery
 * from leaked offsets (user/demos/attack_lfsr.c). user/bench/bench/bench.c runs both for the
 * one-screen summary of `make run`. Both read offsets through the probe
 * (user/common/kstack_probe.h): kstack_calibrate() first, kstack.debug on the
 * command line.
 */
#ifndef USER_COMMON_KSTACK_ATTACK_H
#define USER_COMMON_KSTACK_ATTACK_H

#include <stdbool.h>

/* Bug 1 under the current strategy: stage kstack_migration_trial() until
 * `trials` trials were staged cleanly (a trial a busy host spoils says
 * nothing and is staged again), at most 2 * trials attempts. Needs two CPUs;
 * leaves the caller pinned to CPU 0. */
struct kstack_migration_result {
    int hits;     /* clean trials whose next call ran at the leaked offset */
    int clean;    /* cleanly staged trials */
    int attempts; /* trials staged in all */
};
void kstack_migration_attack(int trials, struct kstack_migration_result *r);

/* LFSR113 recovery under the current strategy, pinned to CPU 0: observe
 * offsets until the solver (lib/lfsr113_solve.h) has the 113 state bits
 * plus KSTACK_LFSR_CHECK_DRAWS more that must agree, then predict the next
 * `predictions` offsets one by one, each before its call is made. A foreign
 * draw from the CPU's generator (another thread's call on CPU 0) shows as a
 * contradiction (observed again, at most KSTACK_LFSR_MAX_SOLVES windows) or
 * as two misses in a row (observed and solved again, at most
 * KSTACK_LFSR_MAX_RESYNCS times). Makes nothing but probe calls meanwhile:
 * no printing. The caller pins itself to CPU 0 first. */
#define KSTACK_LFSR_CHECK_DRAWS 8 /* offsets after full rank that must agree: 48 equations */
#define KSTACK_LFSR_MAX_SOLVES  4
#define KSTACK_LFSR_MAX_RESYNCS 3
struct kstack_lfsr_result {
    bool fits;       /* an LFSR113 state explained every observed offset */
    unsigned needed; /* offsets it took to reach full rank */
    unsigned solves; /* observation windows used */
    unsigned contradictions;
    int hits;        /* predictions that came true */
    int predictions; /* predictions made */
    bool probe_failed;
};
void kstack_lfsr_attack(int predictions, struct kstack_lfsr_result *r);

#endif
