/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_kstack/test_kstack.c - the stack offset strategies, told
 * apart by what they do (docs/kstack.md). One part per run, chosen by
 * argv[1], each in a file of its own (distribution.c, migration.c,
 * integrity.c, pool.c); this file holds main() and what the parts share
 * (kstack_test.h):
 *
 *   distribution  120,000 SYS_kstack_probe calls per strategy (`off`: 10,000
 *                 in a lab's grade, which prints no samples), half pinned
 *                 to CPU 0 and half to CPU 1: the offsets seen (the
 *                 handler's depth minus its depth at offset 0 under the
 *                 same strategy: user/common/kstack_probe.c) must cover
 *                 all 64 values uniformly (chi-squared, 63 degrees of
 *                 freedom, below 147.46, the conformance kit's bound; min-
 *                 entropy >= 5.8 bits); `off` gives one value. The offsets
 *                 are printed as "kstack-sample" lines, which tests/run.py
 *                 hands to tools/kstack-conformance. Also kstack.bounds: every offset a
 *                 multiple of 16 and at most 1008, and the deepest system
 *                 calls, run at the largest offset, leave a quarter of the
 *                 kernel stack unused.
 *   migration     Bug 1, 10,000 trials per strategy (1,000 in a lab's
 *                 grade): a call during which the caller is moved from
 *                 CPU 0 to CPU 1 tells it its offset; back on CPU 0 (moved
 *                 there by the scheduler on the way out of a call made on
 *                 CPU 1, so no system call ends on CPU 0 in between) it
 *                 predicts the next one. A trial the host's delays spoil is
 *                 staged again (at most 10 times the trials).
 *   integrity     Bug 2: 10^6 system calls from 8 threads on every CPU,
 *                 moved around and with the strategy switched under them;
 *                 then every CPU's generators must be their seeds advanced
 *                 by exactly the draws they made, and no pool byte used twice.
 *   pool          a system call storm on every CPU takes every offset from
 *                 the pool (no LFSR113 fallback); a pool emptied on purpose
 *                 is refilled by the next draw; with the tick's and idle
 *                 loop's refills off (kstack.pool_hostile), 120,000 calls
 *                 in a row still get keystream offsets, uniformly spread.
 */
#include "lib/user/ulib.h"
#include "user/common/kstack_probe.h"
#include "user/tests/test_kstack/kstack_test.h"

unsigned ncpus;
const char *only;
struct worker workers[MAX_THREADS];
volatile int stop;
char *stacks;

long kdebug(unsigned op, unsigned long arg)
{
    return syscall2(SYS_kstack_debug, op, arg);
}

void stats(long cpu, struct kstack_stats *st)
{
    syscall2(SYS_kstack_stats, cpu, st);
}

bool listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0)
            return true;
        if (!comma)
            return false;
        p = comma + 1;
    }
}

bool use(unsigned id, const char *what)
{
    if (only && !listed(only, kstack_names[id]))
        return false;
    long err = kstack_set(id);
    if (err == 0)
        return true;
    char name[64];
    snprintf(name, sizeof(name), "kstack.%s.%s", what, kstack_names[id]);
    ktap_skip(name, err == -ENODEV ? "not available on this CPU/firmware" : "cannot select");
    return false;
}

/* ---- samples for the conformance kit ------------------------------------ */

/* One offset as one printable character: '0' + offset / 16, so '0'..'o' for
 * 0..1008, 'p' for 1024 (a 65th value), '~' for anything else. tests/run.py
 * decodes them into the kit's sample format, one "cpu offset" record each. */
char sample_char(long off)
{
    return off >= 0 && off <= 1024 && off % 16 == 0 ? (char)('0' + off / 16) : '~';
}

unsigned sample_cpus(void)
{
    return ncpus > 1 ? 2 : 1;
}

/* n offsets, the i-th share made pinned to CPU i, each CPU's in the
 * order its calls happened (no other system call in between, so the kit can
 * look for a generator's state in a run of successive offsets). */
void record_offsets(long *offs, unsigned n)
{
    unsigned cpus = sample_cpus();
    for (unsigned c = 0; c < cpus; c++) {
        kstack_pin(c);
        for (unsigned i = c * n / cpus; i < (c + 1) * n / cpus; i++)
            offs[i] = kstack_offset_now();
    }
    kstack_unpin(ncpus);
}

int main(int argc, char **argv)
{
    struct debug_stats st;
    syscall1(SYS_debug_stats, &st);
    ncpus = (unsigned)st.cpus_online;
    if (!kstack_calibrate()) {
        ktap_check(false, "kstack.probe_available (kstack.debug on the command line)");
        return ktap_done();
    }
    const char *part = argc > 1 ? argv[1] : "";
    only = argc > 2 ? argv[2] : NULL;
    if (strcmp(part, "distribution") == 0)
        test_distribution();
    else if (strcmp(part, "migration") == 0)
        test_migration();
    else if (strcmp(part, "integrity") == 0)
        test_integrity();
    else if (strcmp(part, "pool") == 0)
        test_pool();
    else
        ktap_check(false, "kstack.part (distribution, migration, integrity or pool)");
    return ktap_done();
}
