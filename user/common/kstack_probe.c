/* SPDX-License-Identifier: MIT */
/*
 * user/common/kstack_probe.c - the stack offset test interface for user
 * programs (see kstack_probe.h).
 */
#include "user/common/kstack_probe.h"

#include "lib/user/ulib.h"

const char *const kstack_names[KSTACK_NR] = KSTACK_NAMES;
static unsigned long base_depth; /* the probe's depth under `off` */

long kstack_probe(unsigned flags, unsigned cpu, struct kstack_probe *r)
{
    return syscall3(SYS_kstack_probe, flags, cpu, r);
}

long kstack_set(unsigned id)
{
    return syscall1(SYS_kstack_set, id);
}

bool kstack_calibrate(void)
{
    struct kstack_probe r;
    if (kstack_set(KSTACK_OFF) != 0 || kstack_probe(0, 0, &r) != 0)
        return false;
    base_depth = r.depth;
    return true;
}

long kstack_offset_now(void)
{
    long depth = kstack_probe(KSTACK_PROBE_DEPTH, 0, NULL);
    if (depth < 0)
        return -1;
    return depth - (long)base_depth;
}

void kstack_pin(unsigned cpu)
{
    sys_sched_setaffinity(0, 1ul << cpu);
}

void kstack_unpin(unsigned ncpus)
{
    sys_sched_setaffinity(0, ncpus >= 64 ? ~0ul : (1ul << ncpus) - 1);
}

bool kstack_migration_trial(struct kstack_trial *t)
{
    struct kstack_probe leak, victim;
    t->leaked = t->next = -1;
    t->clean = false;
    kstack_pin(0); /* runs wherever we are; we are on CPU 0 when it returns */
    if (kstack_probe(KSTACK_PROBE_MIGRATE, 1, &leak) != 0)
        return false;
    kstack_pin(0); /* made on CPU 1: any exit update lands there; then moved to 0 */
    if (kstack_probe(0, 0, &victim) != 0)
        return false;
    t->leaked = (long)leak.depth - (long)base_depth;
    t->next = (long)victim.depth - (long)base_depth;
    t->clean = leak.entry_cpu == 0 && leak.exit_cpu == 1 && victim.entry_cpu == 0 &&
               victim.entry_updates == leak.entry_updates;
    return victim.depth == leak.depth;
}

/* The exact binomial tail, in doubles: the terms relative to the one at
 * n/64 (each from its neighbour, so no factorials), summed both ways until
 * they vanish; then the upper tail is walked up until it is at most 1e-8
 * of the whole. */
int kstack_chance_fail_at(int n)
{
    const double odds = 1.0 / 63; /* p / (1 - p) for p = 1/64 */
    int mode = n / 64;
    double r = 1, total = 1, upper = 0;
    for (int k = mode; k > 0 && r > 1e-300; k--) {
        r *= (double)k / (double)(n - k + 1) / odds; /* r(k - 1) */
        total += r;
    }
    r = 1;
    for (int k = mode; k < n && r > 1e-300; k++) {
        r *= (double)(n - k) / (double)(k + 1) * odds; /* r(k + 1) */
        upper += r;
    }
    total += upper;
    double tail = upper; /* the mass at mode + 1 and above */
    int t = mode + 1;
    r = 1;
    while (tail > 1e-8 * total && t < n) {
        r *= (double)(n - t + 1) / (double)t * odds; /* r(t) */
        tail -= r;
        t++;
    }
    return t;
}
