/* SPDX-License-Identifier: MIT */
/*
 * kernel/mm/aspace_switch.h - the thread switch's change of user address
 * space, inline for its two common cases:
 *
 *   - the address space already has an ASID of the current generation and
 *     this CPU owes no flush (asid_tag_without_lock): one load of the
 *     translation table base with that tag, no flush;
 *   - the kernel uses no ASIDs at all (a CPU without them, or
 *     mm.asid_limit=1): one load of the base under ASID 0, flushing
 *     (what asid_for_switch would answer: ASID_NEED_FLUSH).
 *
 * Anything else (a first activation, a new generation, no address space
 * while ASIDs are in use) goes the out-of-line way, aspace_activate_irqs_off
 * (vm.c). An arch may give either load an inline of its own in impl.h
 * (ARCH_HAS_ASPACE_ACTIVATE_TAGGED, ARCH_HAS_ASPACE_ACTIVATE_UNTAGGED);
 * tests/host/test_tlb_model.c drives this file against a TLB model.
 */
#ifndef KERNEL_MM_ASPACE_SWITCH_H
#define KERNEL_MM_ASPACE_SWITCH_H

#include "kernel/cpu.h"
#include "kernel/mm/asid.h"
#include "kernel/mm/vm.h"

#ifndef ARCH_HAS_ASPACE_ACTIVATE_TAGGED
/* An arch without an inline of its own: the usual call, without a flush. */
static inline void arch_aspace_activate_tagged(uint64_t user_root, unsigned asid)
{
    arch_aspace_activate(user_root, asid, false);
}
#endif

#ifndef ARCH_HAS_ASPACE_ACTIVATE_UNTAGGED
/* The kernel uses no ASIDs: the usual call, ASID 0 and a flush (user_root
 * 0: no user address space). */
static inline void arch_aspace_activate_untagged(uint64_t user_root)
{
    arch_aspace_activate(user_root, 0, true);
}
#endif

/* IRQs off, on CPU c: load `as` (NULL: none) for the thread about to run.
 * The tagged case is tested first: with ASIDs in use it is the common
 * one, and without them the tag check fails at its generation compare (an
 * address space's word stays 0). */
static inline __attribute__((always_inline)) void aspace_switch_irqs_off(struct cpu *c,
                                                                         struct aspace *as)
{
    uint64_t tag = as ? asid_tag_without_lock(&as->asid, c->id) : 0;
    if (__builtin_expect(tag != 0, 1)) {
        c->sched.user_as = as;
        arch_aspace_activate_tagged(as->root, (unsigned)(tag & ASID_VALUE_MASK));
        return;
    }
    if (!asids_in_use) {
        c->sched.user_as = as;
        arch_aspace_activate_untagged(as ? as->root : 0);
        return;
    }
    aspace_activate_irqs_off(c, as);
}

#endif
