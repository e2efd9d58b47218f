/* SPDX-License-Identifier: MIT */
/*
 * kernel/mm/aspace_switch.h - the thread switch's change of user address
 * space, inline for its common case: the address space already has an
 * ASID of the current generation and this CPU owes no flush
 * (asid_tag_without_lock), so the switch is one load of the translation
 * table base with that tag. Anything else (no ASIDs, a first activation,
 * a new generation, no address space) goes the out-of-line way,
 * aspace_activate_irqs_off (vm.c).
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

/* IRQs off, on CPU c: load `as` (NULL: none) for the thread about to run. */
static inline __attribute__((always_inline)) void aspace_switch_irqs_off(struct cpu *c,
                                                                         struct aspace *as)
{
    uint64_t tag = as ? asid_tag_without_lock(&as->asid, c->id) : 0;
    if (__builtin_expect(tag != 0, 1)) {
        c->sched.user_as = as;
        arch_aspace_activate_tagged(as->root, (unsigned)(tag & ASID_VALUE_MASK));
        return;
    }
    aspace_activate_irqs_off(c, as);
}

#endif
