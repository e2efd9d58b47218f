/* SPDX-License-Identifier: MIT */
/*
 * kernel/emergency_stack.c - per-CPU emergency stacks (see emergency_stack.h).
 * Each is its own kvmap area, so it has a guard page of its own and memory
 * grows with the CPUs present, not with MAX_CPUS.
 */
#include "kernel/emergency_stack.h"

#include "kernel/mm/kvmap.h"
#include "kernel/panic.h"

void emergency_stacks_init(void)
{
    for (unsigned id = 0; id < cpus_present; id++) { /* CPU 0 first, as the arch expects */
        struct cpu *c = &cpus[id];
        for (unsigned i = 0; i < ARCH_EMERGENCY_STACKS; i++) {
            uint8_t *bottom = kvmap_alloc(ARCH_EMERGENCY_STACK_SIZE);
            if (!bottom)
                panic("no memory for cpu%u's emergency stacks", id);
            c->emergency_stack[i] = (uintptr_t)bottom + ARCH_EMERGENCY_STACK_SIZE;
            arch_set_emergency_stack(c, i, c->emergency_stack[i]);
        }
    }
}

bool emergency_stack_contains(const struct cpu *c, uintptr_t addr)
{
    for (unsigned i = 0; i < ARCH_EMERGENCY_STACKS; i++) {
        uintptr_t top = c->emergency_stack[i];
        if (top && addr < top && addr >= top - ARCH_EMERGENCY_STACK_SIZE)
            return true;
    }
    return false;
}
