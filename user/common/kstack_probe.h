/* SPDX-License-Identifier: MIT */
/*
 * user/common/kstack_probe.h - the kernel stack offset test interface as user
 * programs use it (user/tests/test_kstack/, user/attack_*.c): SYS_kstack_probe,
 * which stands in for a stack-address leak, choosing a strategy, pinning to
 * a CPU, and one staged Bug 1 migration (docs/kstack.md, docs/attacks.md).
 * The probe answers only with kstack.debug on the command line.
 */
#ifndef USER_COMMON_KSTACK_PROBE_H
#define USER_COMMON_KSTACK_PROBE_H

#include <stdbool.h>

#include "kernel/uapi/kstack.h"

extern const char *const kstack_names[KSTACK_NR];

long kstack_probe(unsigned flags, unsigned cpu, struct kstack_probe *r);
/* Choose strategy id (SYS_kstack_set), and the first time, find the probe's
 * depth at offset 0 under it (4096 probes); the kernel's error, or -EPERM
 * if the probe is refused (no kstack.debug). */
long kstack_set(unsigned id);
/* Pin every CPU's offset to `offset` (the `fixed` strategy, a debug call;
 * the first time, its depth at 0 is measured): 0 or the kernel's error. */
long kstack_fix(unsigned offset);

/* Switch to `off` and measure there; false if the probe is refused. */
bool kstack_calibrate(void);
/* One probe call's offset: its depth below the depth at offset 0 under the
 * strategy kstack_set or kstack_fix chose; -1 on error. */
long kstack_offset_now(void);

/* Pin the caller to one CPU (it runs there when this returns), or to all. */
void kstack_pin(unsigned cpu);
void kstack_unpin(unsigned ncpus);

/* Bug 1 staged once: a call that starts on CPU 0 and ends on CPU 1 leaks
 * its offset; the caller gets back to CPU 0 without a call ending there
 * and makes one more. */
struct kstack_trial {
    long leaked; /* the offset of the call moved from CPU 0 to CPU 1 */
    long next;   /* the offset of the next call started on CPU 0 */
    bool clean;  /* the staging worked: left 0 for 1 during the leak, back on
                  * 0 for the next call, and CPU 0 made no exit update between */
};

/* Stage one trial into *t; true if the next call ran at the leaked offset. */
bool kstack_migration_trial(struct kstack_trial *t);

/* The number of correct guesses in n trials at which a prediction test
 * fails: the smallest t with P(Binomial(n, 1/64) >= t) <= 1e-8, so a
 * strategy that leaves the attacker at chance fails with probability at
 * most 1e-8 per test (tools/kstack-conformance's binom_critical at its
 * ALPHA; 133 for 5,000 trials, 43 for 1,000, 232 for 10,000). */
int kstack_chance_fail_at(int n);

#endif
