/* SPDX-License-Identifier: MIT */
/*
 * kernel/kstack_offset/legacy.c - the designs Linux used until 7.0, kept to
 * show what went wrong with them. All three choose the next offset at the
 * END of a system call and store it; the next call's entry uses it as is.
 *
 *   counter  x86, s390, powerpc, loongarch: per CPU,
 *            next = ror32(old, 5) ^ (timestamp counter & 0xFF).
 *   crng16   arm64, riscv: per CPU, next = ror32(old, 5) ^ get_random_u16().
 *   task     the first 2026 fix: the same as crng16, but kept per thread.
 *
 * Bug 1: the stored offset is per CPU, the update runs at exit, and the
 * thread can be moved to another CPU in the middle of the call. The update
 * then lands on the new CPU, and the old CPU's next offset is the one this
 * call used: known to anyone who can observe its own offset (the
 * kstack.migration_attack tests stage it). `task` keeps the offset with
 * the thread, so whichever CPU it runs on, the next call uses a fresh one.
 */
#include "kernel/kstack_offset/kstack_offset.h"

#include "kernel/random/random.h"
#include "kernel/sched/sched.h"

static inline uint32_t ror32(uint32_t x, unsigned n)
{
    return (x >> n) | (x << (32 - n));
}

/* Entry: the stored offset of this CPU (IRQs off: the right CPU). */
static uint32_t per_cpu_stored(struct cpu *c, struct thread *t, unsigned id)
{
    KSTACK_COUNT(c, id, KSTACK_CNT_DRAWS);
    return c->kstack.offset;
}

static uint32_t counter_draw(struct cpu *c, struct thread *t)
{
    return per_cpu_stored(c, t, KSTACK_COUNTER);
}

/* x86 made this update with IRQs off, on whatever CPU the call ends on. */
static void counter_exit(struct thread *t)
{
    unsigned long flags = arch_irq_save();
    struct cpu *c = arch_this_cpu();
    c->kstack.offset = ror32(c->kstack.offset, 5) ^ (uint32_t)(arch_counter() & 0xFF);
    KSTACK_COUNT(c, KSTACK_COUNTER, KSTACK_CNT_EXIT_UPDATES);
    arch_irq_restore(flags);
}

static uint32_t crng16_draw(struct cpu *c, struct thread *t)
{
    return per_cpu_stored(c, t, KSTACK_CRNG16);
}

/*
 * Bug 2, reproduced on purpose. arm64 and riscv ran this update with
 * preemption enabled and reached the per-CPU variable with an accessor that
 * is only correct when the thread cannot move (raw_cpu_read/write in Linux).
 * Here arch_this_cpu() plays that part: it bypasses this_cpu()'s check,
 * which would panic. get_random_u16() masks IRQs only while it takes its
 * bytes (and, every 64th call, refills its batch: the slow tail), so the
 * thread can be preempted and moved between the read and the write: the
 * update then reads one CPU's offset and writes another's. Those cases are
 * counted (KSTACK_CNT_CROSS_CPU); the counters here are updated without
 * protection too, so they can lose counts, exactly like the data.
 */
static void crng16_exit(struct thread *t)
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

static uint32_t task_draw(struct cpu *c, struct thread *t)
{
    KSTACK_COUNT(c, KSTACK_TASK, KSTACK_CNT_DRAWS);
    return t->kstack.offset;
}

/* Per thread: no other CPU's state is involved, so no protection is needed
 * for the offset itself; only the statistics counter wants IRQs off. */
static void task_exit(struct thread *t)
{
    t->kstack.offset = ror32(t->kstack.offset, 5) ^ get_random_u16();
    unsigned long flags = arch_irq_save();
    KSTACK_COUNT(arch_this_cpu(), KSTACK_TASK, KSTACK_CNT_EXIT_UPDATES);
    arch_irq_restore(flags);
}

const struct kstack_strategy kstack_counter = {KSTACK_COUNTER, "counter", counter_draw,
                                               counter_exit, NULL};
const struct kstack_strategy kstack_crng16 = {KSTACK_CRNG16, "crng16", crng16_draw, crng16_exit,
                                              NULL};
const struct kstack_strategy kstack_task = {KSTACK_TASK, "task", task_draw, task_exit, NULL};
