/* SPDX-License-Identifier: MIT */
/*
 * kernel/this_cpu.c - this_cpu(): the running CPU's struct cpu (kernel/cpu.h),
 * only where the caller cannot move to another CPU. Lab 2's region: a file
 * of its own, so that grading a solution recompiles one file, not every file
 * that includes cpu.h.
 */
#include "kernel/cpu.h"

struct cpu *this_cpu(void)
{
    struct cpu *c = arch_this_cpu();
    /* LAB 2 BEGIN: refuse (this_cpu_misuse) where the thread could move to another CPU */
    if (__builtin_expect(c->preempt_count == 0 && !arch_irqs_disabled(), 0))
        this_cpu_misuse(__builtin_return_address(0));
    /* LAB 2 STUB
    LAB 2 END */
    return c;
}
