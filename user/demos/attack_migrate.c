/* SPDX-License-Identifier: MIT */
/*
 * user/demos/attack_migrate.c - the Bug 1 attack as a demonstration
 * (docs/attacks.md): `make run CMDLINE=run=attack_migrate`.
 *
 * For every strategy the program stages the migration many times: a call
 * that starts on CPU 0 leaks its offset (the probe stands in for a stack
 * address leak) and moves to CPU 1 before it ends; the thread gets back to
 * CPU 0 without a call ending there, and predicts that the next call on
 * CPU 0 runs at the leaked offset. Designs that choose the next offset at
 * exit and keep it per CPU (counter, crng16) lose nearly every time; the
 * others leave the attacker at chance, 1 in 64.
 *
 * KTAP: attack.migrate.<strategy>. run.args=<trials> (default 5000).
 */
#include "lib/user/ulib.h"
#include "user/common/kstack_attack.h"
#include "user/common/kstack_probe.h"

#define DEFAULT_TRIALS 5000

/* The designs Bug 1 breaks: one offset per CPU, chosen at exit (and `off`,
 * which has nothing to break). */
static bool predictable(unsigned id)
{
    return id == KSTACK_OFF || id == KSTACK_COUNTER || id == KSTACK_CRNG16;
}

static void attack(unsigned id, int trials)
{
    long err = kstack_set(id);
    char name[48];
    snprintf(name, sizeof(name), "attack.migrate.%s", kstack_names[id]);
    if (err != 0) {
        ktap_skip(name, err == -ENODEV ? "not available on this CPU/firmware" : "cannot select");
        return;
    }
    /* Only cleanly staged trials count: one that a busy host spoils (a move
     * delayed) says nothing about the strategy and is staged again, up to
     * ten times as many attempts as trials (user/common/kstack_attack.c; the
     * host's load changes only how many attempts it takes, the cap ends a
     * kernel that never stages one cleanly, and the note says so). */
    struct kstack_migration_result m;
    kstack_migration_attack(trials, &m);
    int hits = m.hits, clean = m.clean, attempts = m.attempts;
    if (clean < trials)
        ktap_note("%s: only %d of %d attempts staged cleanly, fewer than the %d trials asked",
                  kstack_names[id], clean, attempts, trials);
    ktap_note("%-9s predicted %5d of %d (%3d.%02d%%; chance 1.56%%), %d attempts", kstack_names[id],
              hits, clean, hits * 100 / trials, hits * 10000 / trials % 100, attempts);
    /* At chance (1/64) a strategy fails with probability at most 1e-8:
     * 133 or more of the default 5,000 (the exact binomial tail; 1.8e-7 per
     * make test run, 6 strategies x 3 attack boots). counter and crng16 are
     * predicted in every clean trial; a design that gave one trial in 20
     * away would score about 320. */
    bool ok = clean == trials &&
              (predictable(id) ? hits >= clean * 97 / 100 : hits < kstack_chance_fail_at(trials));
    ktap_check(ok, "%s", name);
}

int main(int argc, char **argv)
{
    struct debug_stats st;
    syscall1(SYS_debug_stats, &st);
    unsigned ncpus = (unsigned)st.cpus_online;
    int trials = argc > 1 ? atoi(argv[1]) : DEFAULT_TRIALS;
    if (!kstack_calibrate()) {
        ktap_check(false,
                   "attack.migrate.probe_available (needs kstack.debug on the command line)");
        return ktap_done();
    }
    if (ncpus < 2 || trials < 100) {
        ktap_skip("attack.migrate", ncpus < 2 ? "needs two CPUs" : "run.args: at least 100 trials");
        return ktap_done();
    }
    ktap_note("Bug 1: leak an offset on CPU 0, leave for CPU 1 mid-call, come back, predict the "
              "next offset on CPU 0; %d trials per strategy",
              trials);
    for (unsigned id = 0; id < KSTACK_NR; id++)
        attack(id, trials);
    kstack_unpin(ncpus);
    kstack_set(KSTACK_DEFAULT);
    return ktap_done();
}
