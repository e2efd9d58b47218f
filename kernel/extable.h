/* SPDX-License-Identifier: MIT */
/*
 * kernel/extable.h - the exception table.
 *
 * An instruction that may fault on purpose (a probe of an address, a copy
 * from user memory, a CPU feature that may not be enabled) is listed in the
 * __ex_table section with the address to continue at. The trap handler
 * looks the faulting PC up here instead of panicking. Entries are written
 * by the arch's inline assembly (EXTABLE_ENTRY in arch/<arch>/include/arch/impl.h).
 */
#ifndef KERNEL_EXTABLE_H
#define KERNEL_EXTABLE_H

#include "kernel/types.h"

struct extable_entry {
    uintptr_t insn;  /* address of the instruction that may fault */
    uintptr_t fixup; /* where to resume if it does */
};

/* The fix-up address for a faulting pc, or 0. */
uintptr_t extable_search(uintptr_t pc);

#endif
