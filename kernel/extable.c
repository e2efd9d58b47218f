/* SPDX-License-Identifier: MIT */
/* kernel/extable.c - look faulting PCs up in the exception table (see extable.h). */
#include "kernel/extable.h"

#include "kernel/arch_callbacks.h"

extern const struct extable_entry __ex_table_start[], __ex_table_end[];

uintptr_t extable_search(uintptr_t pc)
{
    /* A linear scan: the table has a handful of entries (probes, user copies). */
    for (const struct extable_entry *e = __ex_table_start; e < __ex_table_end; e++) {
        if (e->insn == pc)
            return e->fixup;
    }
    return 0;
}

bool extable_fixup(struct trapframe *tf)
{
    uintptr_t fixup = extable_search(arch_tf_pc(tf));
    if (!fixup)
        return false;
    arch_tf_set_pc(tf, fixup);
    return true;
}
