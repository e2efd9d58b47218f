/* SPDX-License-Identifier: MIT */
/*
 * kernel/spinlock.h - a test-and-set spinlock that also masks IRQs and
 * disables preemption while held (the per-CPU preempt count, which the
 * scheduler checks before switching and before returning to user space).
 * Acquire/release ordering comes from the C11 atomic builtins, which the
 * compiler lowers to the arch's atomic instructions (xchg, ldaxr/stxr or
 * swp, amoswap.aq).
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include "kernel/cpu.h"

struct spinlock {
    uint32_t locked;
};

#define SPINLOCK_INIT {0}

static inline unsigned long spin_lock_irqsave(struct spinlock *l)
{
    unsigned long flags = arch_irq_save();
    this_cpu()->preempt_count++;
    while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE)) {
        while (__atomic_load_n(&l->locked, __ATOMIC_RELAXED))
            arch_cpu_relax();
    }
    return flags;
}

static inline void spin_unlock_irqrestore(struct spinlock *l, unsigned long flags)
{
    __atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
    this_cpu()->preempt_count--;
    arch_irq_restore(flags);
}

#endif
