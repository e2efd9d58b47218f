/* SPDX-License-Identifier: MIT */
/*
 * kernel/cpu.h - per-CPU data.
 *
 * One struct cpu per CPU, reached with this_cpu() in one instruction (the
 * arch keeps a pointer to it in GS base, TPIDR_EL1 or tp). The rule: only
 * use this_cpu() while the thread cannot move to another CPU, i.e. with IRQs
 * or preemption disabled, and never keep the pointer across a schedule point.
 */
#ifndef KERNEL_CPU_H
#define KERNEL_CPU_H

#include "arch/arch.h"

#define MAX_CPUS 8

struct thread;

/* The scheduler's per-CPU state (kernel/sched/sched.c). */
struct sched_cpu {
    struct thread *current;
    struct thread *idle;
    struct thread *queue_head, *queue_tail; /* runnable threads waiting for this CPU */
    unsigned queued;
    struct thread *dead; /* switched away from while dead: free its stack next */
    bool need_resched;
    uint64_t ticks;
};

struct cpu {
    struct cpu *self;       /* must stay first: x86 reads it as %gs:0 */
    struct arch_cpu arch;   /* second: entry code finds it at a fixed offset */
    unsigned id;            /* logical index, 0 = boot CPU */
    uint64_t hwid;          /* APIC id, MPIDR affinity or hart id */
    bool online;
    unsigned preempt_count; /* > 0: no preemption (spinlocks held, preempt_disable) */
    struct sched_cpu sched;
};

_Static_assert(offsetof(struct cpu, self) == 0, "arch_this_cpu() relies on self at offset 0");

extern struct cpu cpus[MAX_CPUS];

static inline struct cpu *this_cpu(void)
{
    return arch_this_cpu();
}

#endif
