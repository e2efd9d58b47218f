/* SPDX-License-Identifier: MIT */
/*
 * kernel/kstack_offset/draw.h - each strategy's draw at entry and update
 * at exit, as inline code.
 *
 * kernel/syscall/syscall.c builds one copy of the system call path per
 * strategy, with the strategy's id a constant, so kstack_draw() and
 * kstack_exit() below fold to that strategy's few instructions: no pointer
 * to load, no indirect call, nothing at all for `off`. The copy in force is
 * chosen by rewriting the entry code's call (kernel/syscall/path.c). Each
 * strategy's state, set-up and checks stay in its own file, named below.
 */
#ifndef KERNEL_KSTACK_OFFSET_DRAW_H
#define KERNEL_KSTACK_OFFSET_DRAW_H

#include "kernel/kstack_offset/kstack_offset.h"
#include "kernel/random/random.h"
#include "kernel/sched/sched.h"

/* The out-of-line parts (pool.c, hw.c): pool's for a ring at its stop. */
uint32_t kstack_pool_dry(struct cpu *c);
uint32_t kstack_hw_draw(struct cpu *c);

/*
 * Strategy id's raw offset (the mechanism masks it) into *raw, at entry with
 * IRQs off: c is this CPU and t the current thread. False only for pool,
 * whose ring is at its stop (empty, or its reader at the end of the
 * buffer): the caller then calls kstack_pool_dry(), out of line.
 */
static inline __attribute__((always_inline)) bool kstack_draw(unsigned id, struct cpu *c,
                                                              struct thread *t, uint32_t *raw)
{
    switch (id) {
    case KSTACK_COUNTER: /* legacy.c: the stored per-CPU offset */
    case KSTACK_CRNG16:
        KSTACK_COUNT(c, id, KSTACK_CNT_DRAWS);
        *raw = c->kstack.offset;
        return true;
    case KSTACK_TASK: /* legacy.c: the stored per-thread offset */
        KSTACK_COUNT(c, id, KSTACK_CNT_DRAWS);
        *raw = t->kstack.offset;
        return true;
    case KSTACK_SIPHASH: /* siphash.c */
        KSTACK_COUNT(c, id, KSTACK_CNT_DRAWS);
        *raw = kstack_siphash_draw(&c->kstack.sip);
        /* Opaque from here, so that the mechanism's mask stays in the code
         * (scripts/check_dispatch.py looks for it): gcc would otherwise
         * fold it into the draw's shift. */
        __asm__("" : "+r"(*raw));
        return true;
    case KSTACK_PRNG: /* prng.c: this CPU's LFSR113 */
        KSTACK_COUNT(c, id, KSTACK_CNT_DRAWS);
        *raw = lfsr113_next(&c->kstack.prng);
        return true;
    case KSTACK_PRNG_TASK: /* prng.c: this thread's LFSR113 */
        KSTACK_COUNT(c, id, KSTACK_CNT_DRAWS);
        *raw = lfsr113_next(&t->kstack.prng);
        return true;
    case KSTACK_POOL: /* pool.c: the ring's read position counts the draws */
        return kstack_pool_draw_fast(&c->kstack.pool.ring, raw);
    case KSTACK_HW: /* hw.c */ *raw = kstack_hw_draw(c); return true;
    case KSTACK_FIXED: /* select.c: the tests' pinned offset */
        KSTACK_COUNT(c, id, KSTACK_CNT_DRAWS);
        *raw = c->kstack.fixed;
        return true;
    default: /* off */ *raw = 0; return true;
    }
}

/* The legacy designs (legacy.c says what went wrong with them) choose the
 * next offset when the call ends, IRQs and preemption on. */
static inline uint32_t ror32(uint32_t x, unsigned n)
{
    return (x >> n) | (x << (32 - n));
}

/* x86 made this update with IRQs off, on whatever CPU the call ends on. */
static inline void kstack_counter_exit(struct thread *t)
{
    unsigned long flags = arch_irq_save();
    struct cpu *c = arch_this_cpu();
    c->kstack.offset = ror32(c->kstack.offset, 5) ^ (uint32_t)(arch_counter() & 0xFF);
    KSTACK_COUNT(c, KSTACK_COUNTER, KSTACK_CNT_EXIT_UPDATES);
    arch_irq_restore(flags);
}

/*
 * Bug 2, reproduced on purpose. arm64 and riscv ran this update with
 * preemption enabled and reached the per-CPU variable with an accessor that
 * is only correct when the thread cannot move (raw_cpu_read/write in Linux).
 * Here arch_this_cpu() plays that part: it bypasses this_cpu()'s check,
 * which would panic. get_random_u16() masks IRQs only while it takes its
 * bytes (and, every 16th call, refills its batch: the slow tail), so the
 * thread can be preempted and moved between the read and the write: the
 * update then reads one CPU's offset and writes another's. Those cases are
 * counted (KSTACK_CNT_CROSS_CPU); the counters here are updated without
 * protection too, so they can lose counts, exactly like the data.
 */
static inline void kstack_crng16_exit(struct thread *t)
{
    struct cpu *before = arch_this_cpu(); /* WRONG with preemption on: the point */
    uint32_t old = READ_ONCE(before->kstack.offset);
    uint32_t rnd = get_random_u16();
    struct cpu *after = arch_this_cpu();
    WRITE_ONCE(after->kstack.offset, ror32(old, 5) ^ rnd);
    KSTACK_COUNT(after, KSTACK_CRNG16, KSTACK_CNT_EXIT_UPDATES);
    if (before != after)
        KSTACK_COUNT(after, KSTACK_CRNG16, KSTACK_CNT_CROSS_CPU);
}

/* Per thread: no other CPU's state is involved, so no protection is needed
 * for the offset itself; only the statistics counter wants IRQs off. */
static inline void kstack_task_exit(struct thread *t)
{
    t->kstack.offset = ror32(t->kstack.offset, 5) ^ get_random_u16();
    unsigned long flags = arch_irq_save();
    KSTACK_COUNT(arch_this_cpu(), KSTACK_TASK, KSTACK_CNT_EXIT_UPDATES);
    arch_irq_restore(flags);
}

/* At the end of every call: the legacy designs' update; the others do
 * nothing here. */
static inline __attribute__((always_inline)) void kstack_exit(unsigned id, struct thread *t)
{
    if (id == KSTACK_COUNTER)
        kstack_counter_exit(t);
    else if (id == KSTACK_CRNG16)
        kstack_crng16_exit(t);
    else if (id == KSTACK_TASK)
        kstack_task_exit(t);
}

#endif
