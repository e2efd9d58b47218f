/* SPDX-License-Identifier: MIT */
/*
 * kernel/kstack_offset/prng.c - LFSR113 drawn at entry: the design Linux 7.1
 * merged (`prng`, the default) and its per-thread variant from the RFC
 * (`prng-task`).
 *
 * The draw happens in syscall_dispatch_<s>() before IRQs are enabled, on the CPU
 * and thread that will use the offset, so there is no exit step for a
 * migration to misdirect (Bug 1) and no per-CPU access with preemption on
 * (Bug 2). Linux disables and re-enables preemption around the draw; here
 * the entry path already has IRQs masked, so the draw is a few shifts and
 * XORs with no preempt-count round trip and no call (draw.h; lfsr113_next is
 * inline).
 *
 * LFSR113 is linear over GF(2): 19 observed offsets give away the state
 * (docs/attacks.md). It is "strong enough" only while no offset leaks.
 */
#include "kernel/kstack_offset/kstack_offset.h"

#include "kernel/sched/sched.h"

/* The draws themselves are inline, in draw.h. */

/* This CPU's generator must be its seed advanced by exactly the draws
 * counted: a draw made on the wrong CPU, or lost to a race, shows here. */
unsigned kstack_prng_verify(struct cpu *c)
{
    struct lfsr113 replay = c->kstack.prng_seed;
    for (unsigned long n = c->kstack.count[KSTACK_PRNG][KSTACK_CNT_DRAWS]; n; n--)
        lfsr113_next(&replay);
    for (int i = 0; i < 4; i++) {
        if (replay.z[i] != c->kstack.prng.z[i])
            return 1;
    }
    return 0;
}

const struct kstack_strategy kstack_prng = {KSTACK_PRNG, "prng", NULL};
const struct kstack_strategy kstack_prng_task = {KSTACK_PRNG_TASK, "prng-task", NULL};
