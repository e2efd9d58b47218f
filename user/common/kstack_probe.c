/* SPDX-License-Identifier: MIT */
/*
 * user/common/kstack_probe.c - the stack offset test interface for user
 * programs (see kstack_probe.h).
 */
#include "user/common/kstack_probe.h"

#include "lib/user/ulib.h"

const char *const kstack_names[KSTACK_NR] = KSTACK_NAMES;

/*
 * The probe's depth at offset 0, per strategy. Each strategy runs its own
 * copy of the kernel's system call path, whose frame is its own size, so
 * each has its own base: the shallowest of BASE_PROBES probes. That is the
 * depth at offset 0 unless so many draws never gave 0: (63/64)^4096, under
 * 1e-27, for a uniform one. (The mask keeps every offset in 0..1008, so
 * relative to offset 0 is the offset itself; `fixed` is measured at 0.)
 */
#define BASE_PROBES 4096
static long base_depth[KSTACK_NR + 1];
static bool based[KSTACK_NR + 1];
static unsigned current = KSTACK_NR + 1; /* what kstack_set chose; none yet */

static long shallowest(unsigned probes)
{
    long least = -1;
    for (unsigned i = 0; i < probes; i++) {
        long depth = kstack_probe(KSTACK_PROBE_DEPTH, 0, NULL);
        if (depth < 0)
            return -1;
        if (least < 0 || depth < least)
            least = depth;
    }
    return least;
}

/* The strategy in force is id: measure its base the first time. */
static bool based_on(unsigned id)
{
    current = id;
    if (!based[id]) {
        base_depth[id] = shallowest(id == KSTACK_OFF || id == KSTACK_FIXED ? 1 : BASE_PROBES);
        based[id] = base_depth[id] >= 0;
    }
    return based[id];
}

long kstack_probe(unsigned flags, unsigned cpu, struct kstack_probe *r)
{
    return syscall3(SYS_kstack_probe, flags, cpu, r);
}

long kstack_set(unsigned id)
{
    long err = syscall1(SYS_kstack_set, id);
    if (err == 0 && !based_on(id))
        return -EPERM; /* the probe is refused */
    return err;
}

long kstack_fix(unsigned offset)
{
    long err = syscall2(SYS_kstack_debug, KSTACK_DEBUG_FIXED, 0);
    if (err != 0 || !based_on(KSTACK_FIXED))
        return err ? err : -EPERM;
    return syscall2(SYS_kstack_debug, KSTACK_DEBUG_FIXED, offset);
}

bool kstack_calibrate(void)
{
    return kstack_set(KSTACK_OFF) == 0;
}

/* A depth under the strategy kstack_set chose, as an offset. */
static long offset_of(long depth)
{
    return current <= KSTACK_NR && based[current] ? depth - base_depth[current] : -1;
}

long kstack_offset_now(void)
{
    long depth = kstack_probe(KSTACK_PROBE_DEPTH, 0, NULL);
    return depth < 0 ? -1 : offset_of(depth);
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
    t->leaked = offset_of((long)leak.depth);
    t->next = offset_of((long)victim.depth);
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
