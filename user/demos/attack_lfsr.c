/* SPDX-License-Identifier: MIT */
/*
 * user/demos/attack_lfsr.c - LFSR113 state recovery from leaked offsets
 * (docs/attacks.md): `make run CMDLINE=run=attack_lfsr`.
 *
 * For every strategy the program, pinned to CPU 0, observes the offsets of
 * consecutive system calls through the probe (standing in for an info
 * leak), feeds them to the GF(2) solver (lib/lfsr113_solve.c) until the
 * 113 state bits are determined, checks the solution against
 * KSTACK_LFSR_CHECK_DRAWS more offsets, and then predicts the next PREDICTIONS offsets one by one,
 * each before the call is made. `prng` and `prng-task` are LFSR113 and fall;
 * `pool`, `siphash` and `hw` leave it at chance, 1 in 64.
 *
 * Other draws in between. The solver needs consecutive draws of one
 * generator. `prng-task`'s generator is the thread's own, so only this
 * thread's calls draw from it, and the program makes nothing but probe calls
 * while it observes and predicts (no printing until a strategy is done).
 * `prng`'s is CPU 0's: a call by any other thread on CPU 0 takes a draw the
 * attacker does not see. The program pins itself there and expects a quiet
 * CPU, and it detects the gap: a foreign draw in the observation window
 * makes the equations contradict each other (the check offsets catch it),
 * and the program starts again, at most KSTACK_LFSR_MAX_SOLVES times; a
 * foreign draw during the predictions shows as two misses in a row, and it
 * observes and solves again, at most KSTACK_LFSR_MAX_RESYNCS times. Misses
 * are counted as misses.
 *
 * The attack itself is kstack_lfsr_attack() (user/common/kstack_attack.c),
 * which `make run` runs too; this program judges it.
 *
 * KTAP: attack.lfsr.<strategy>.
 */
#include "lib/user/ulib.h"
#include "user/common/kstack_attack.h"
#include "user/common/kstack_probe.h"

#define PREDICTIONS 1000

/* What each strategy must show; `off` and `counter` are reported only. */
static void judge(unsigned id, const struct kstack_lfsr_result *r)
{
    const char *name = kstack_names[id];
    if (id == KSTACK_PRNG || id == KSTACK_PRNG_TASK)
        ktap_check(r->fits && r->needed <= 20 && r->hits >= PREDICTIONS * 99 / 100,
                   "attack.lfsr.%s", name);
    else if (id == KSTACK_OFF || id == KSTACK_COUNTER)
        ktap_note("attack.lfsr.%s: not judged (%s)", name,
                  id == KSTACK_OFF ? "no randomisation" : "not LFSR113; its own weakness is Bug 1");
    else /* at chance (1/64) 43 or more of 1,000 has probability below 1e-8
          * (the exact binomial tail; 1.5e-7 per make test run, 5 strategies
          * x 3 attack boots); a recovered LFSR113 scores 990 or more */
        ktap_check(!r->fits && r->hits < kstack_chance_fail_at(PREDICTIONS), "attack.lfsr.%s",
                   name);
}

static void report(unsigned id, const struct kstack_lfsr_result *r)
{
    ktap_note("%-9s full rank after %u offsets; %s (%u contradictions, %u windows); "
              "predicted %4d of %d (%3d.%d%%)",
              kstack_names[id], r->needed,
              r->fits ? "an LFSR113 state fits" : "no LFSR113 state fits", r->contradictions,
              r->solves, r->hits, PREDICTIONS, r->hits * 100 / PREDICTIONS,
              r->hits * 1000 / PREDICTIONS % 10);
}

int main(void)
{
    if (!kstack_calibrate()) {
        ktap_check(false, "attack.lfsr.probe_available (needs kstack.debug on the command line)");
        return ktap_done();
    }
    kstack_pin(0);
    ktap_note("LFSR113 recovery: observe offsets on CPU 0 until the 113 state bits are "
              "determined (+%d checking), then predict the next %d",
              KSTACK_LFSR_CHECK_DRAWS, PREDICTIONS);
    for (unsigned id = 0; id < KSTACK_NR; id++) {
        long err = kstack_set(id);
        if (err != 0) {
            char name[48];
            snprintf(name, sizeof(name), "attack.lfsr.%s", kstack_names[id]);
            ktap_skip(name,
                      err == -ENODEV ? "not available on this CPU/firmware" : "cannot select");
            continue;
        }
        struct kstack_lfsr_result r;
        kstack_lfsr_attack(PREDICTIONS, &r);
        if (r.probe_failed) {
            ktap_check(false, "attack.lfsr.%s (probe failed)", kstack_names[id]);
            continue;
        }
        report(id, &r);
        judge(id, &r);
    }
    struct debug_stats st;
    syscall1(SYS_debug_stats, &st);
    kstack_unpin((unsigned)st.cpus_online);
    kstack_set(KSTACK_DEFAULT);
    return ktap_done();
}
