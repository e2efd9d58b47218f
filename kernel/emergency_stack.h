/* SPDX-License-Identifier: MIT */
/*
 * kernel/emergency_stack.h - per-CPU stacks for traps that cannot trust the
 * stack they interrupted (a kernel stack overflow, x86's #DF, NMI and #MC).
 */
#ifndef KERNEL_EMERGENCY_STACK_H
#define KERNEL_EMERGENCY_STACK_H

#include "kernel/cpu.h"

/* Boot CPU, after smp_find_cpus and before smp_boot: ARCH_EMERGENCY_STACKS
 * stacks for every CPU found, handed to the arch (arch_set_emergency_stack). */
void emergency_stacks_init(void);

/* True if addr lies in one of CPU c's emergency stacks. */
bool emergency_stack_contains(const struct cpu *c, uintptr_t addr);

#endif
