/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_kstack/migration.c - the migration part: Bug 1's attack, staged on every
 * strategy (test_kstack.c's header).
 */
#include "lib/user/ulib.h"
#include "user/common/kstack_probe.h"
#include "user/tests/test_kstack/kstack_test.h"

/* Attempts allowed for `trials` cleanly staged trials. A busy host delays
 * some moves (about 1% of them were seen under load): such a trial says
 * nothing about the strategy, so it is staged again instead of counted.
 * The verdict is on the clean trials alone, so the host's load only changes
 * how many attempts it takes; the cap is there so that a kernel which never
 * stages a trial cleanly ends, and says so, rather than running until the
 * boot's timeout. A host that spoils 9 moves in 10 still gets there. */
#define MAX_ATTEMPTS(trials) (10 * (trials))

/* The migration attack on one strategy: `trials` clean trials (a sample
 * of them printed for the conformance kit unless a lab's `only` run). */
static void migration_attack(unsigned id, int trials, int fail_at)
{
    int hits = 0, clean = 0, attempts = 0;
    char line[SAMPLE_LINE + 1];
    unsigned chars = 0;
    while (clean < trials && attempts < MAX_ATTEMPTS(trials)) {
        struct kstack_trial t;
        attempts++;
        bool predicted = kstack_migration_trial(&t);
        if (!t.clean)
            continue;
        clean++;
        hits += predicted;
        if (only || clean > SAMPLE_TRIALS)
            continue;
        line[chars++] = sample_char(t.leaked);
        line[chars++] = sample_char(t.next);
        if (chars == SAMPLE_LINE || clean == SAMPLE_TRIALS) {
            line[chars] = '\0';
            ktap_note("kstack-migrate %s %s", kstack_names[id], line);
            chars = 0;
        }
    }
    bool legacy = id == KSTACK_OFF || id == KSTACK_COUNTER || id == KSTACK_CRNG16;
    if (clean < trials)
        ktap_note("%s: only %d of %d attempts were staged cleanly (the moves between CPUs "
                  "did not happen as asked), fewer than the %d trials needed",
                  kstack_names[id], clean, attempts, trials);
    ktap_note("%s: predicted %d of %d clean trials (%d.%02d%%; chance is 1.56%%; %s %d), "
              "%d attempts",
              kstack_names[id], hits, clean, hits * 100 / trials, hits * 10000 / trials % 100,
              legacy ? "must reach" : "fails at", legacy ? trials * 97 / 100 : fail_at, attempts);
    /* legacy: a clean trial of a per-CPU offset chosen at exit is
     * predicted every time (no chance involved; 97% leaves room for a
     * trial judged clean that was not). */
    ktap_check(clean == trials && (legacy ? hits >= clean * 97 / 100 : hits < fail_at),
               "kstack.migration_attack.%s", kstack_names[id]);
}

void test_migration(void)
{
    if (ncpus < 2) {
        ktap_skip("kstack.migration_attack", "needs two CPUs");
        return;
    }
    const int trials = only ? LAB_TRIALS : TRIALS;
    const int fail_at = only ? LAB_MIGRATION_FAIL_AT : MIGRATION_FAIL_AT;
    for (unsigned id = 0; id < KSTACK_NR; id++) {
        if (use(id, "migration_attack"))
            migration_attack(id, trials, fail_at);
    }
    kstack_pin(0);
    kstack_unpin(ncpus);
    kstack_set(KSTACK_DEFAULT);
}
