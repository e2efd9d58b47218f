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

#define SPINLOCK_INIT                                                                              \
    {                                                                                              \
        0                                                                                          \
    }

#define SPIN_STR2(x)         #x
#define SPIN_STR(x)          SPIN_STR2(x)
/* Take the lock; remembers where (file:line) for the return-to-user check. */
#define spin_lock_irqsave(l) spin_lock_irqsave_at((l), __FILE__ ":" SPIN_STR(__LINE__))

/* The lock itself, IRQs masked by the caller: the preempt count, the site, the exchange. */
static inline __attribute__((always_inline)) void spin_acquire_masked(struct spinlock *l,
                                                                      const char *site)
{
    struct cpu *c = arch_this_cpu(); /* IRQs are off now: this_cpu()'s check cannot fire */
    c->preempt_count++;
    c->lock_site = site;
    while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE)) {
        while (__atomic_load_n(&l->locked, __ATOMIC_RELAXED))
            arch_cpu_relax();
    }
}

/* Let go, IRQs still masked (the caller unmasks them after). */
static inline __attribute__((always_inline)) void spin_release_masked(struct spinlock *l)
{
    __atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
    arch_this_cpu()->preempt_count--; /* IRQs still off: no migration yet */
}

static inline unsigned long spin_lock_irqsave_at(struct spinlock *l, const char *site)
{
    unsigned long flags = arch_irq_save();
    spin_acquire_masked(l, site);
    return flags;
}

static inline __attribute__((always_inline)) void spin_unlock_irqrestore(struct spinlock *l,
                                                                         unsigned long flags)
{
    spin_release_masked(l);
    arch_irq_restore(flags);
}

/* The same where IRQs are known to be on (a system call's handler: the
 * dispatcher unmasked them): they are masked without saving the flags,
 * and spin_unlock_irq unmasks them. */
#define spin_lock_irq(l) spin_lock_irq_at((l), __FILE__ ":" SPIN_STR(__LINE__))

static inline __attribute__((always_inline)) void spin_lock_irq_at(struct spinlock *l,
                                                                   const char *site)
{
    arch_irq_disable();
    spin_acquire_masked(l, site);
}

static inline __attribute__((always_inline)) void spin_unlock_irq(struct spinlock *l)
{
    spin_release_masked(l);
    arch_irq_enable();
}

/* With IRQs masked by the caller, who may hold another lock: take l only
 * if it is free, never wait; true if taken (let go with
 * spin_release_masked). Whoever takes a lock so cannot deadlock on it,
 * whatever order others take their locks in. */
static inline __attribute__((always_inline)) bool spin_trylock_masked(struct spinlock *l)
{
    if (__atomic_load_n(&l->locked, __ATOMIC_RELAXED) != 0 ||
        __atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE) != 0)
        return false;
    arch_this_cpu()->preempt_count++;
    return true;
}

#endif
