/* SPDX-License-Identifier: MIT */
/*
 * kernel/sched/switch_core.h - what every switch of a CPU from one thread
 * to another does before the registers change hands, as one inline
 * function (switch_core_locked) used by both kinds of switch: the
 * scheduler's (sched.c, through arch_context_switch) and the IPC
 * fastpath's hand-off straight to user mode (sched_hand_off_to_user_locked
 * below, inlined into kernel/ipc/fastpath.c, through arch_switch_to_user).
 * So the two cannot drift apart, and the fastpath makes no C call of its
 * own between its guards and arch_switch_to_user (docs/ipc.md, "Straight
 * back to user mode"). Everything here needs sched_lock, IRQs off.
 */
#ifndef KERNEL_SCHED_SWITCH_CORE_H
#define KERNEL_SCHED_SWITCH_CORE_H

#include "kernel/mm/aspace_switch.h"
#include "kernel/sched/sched.h"
#include "kernel/task.h"

/* A user thread's FP/SIMD save area; NULL for kernel threads, which never
 * use those registers, and for a dead thread, whose registers nobody reads.
 * partners (a constant): t is one of two IPC partners, each a user thread
 * inside its own system call and alive, so the area is its own. */
static inline __attribute__((always_inline)) struct arch_fpu *user_fpu(struct thread *t,
                                                                       bool partners)
{
    return partners || (t->task && t->state != THREAD_DEAD) ? &t->fpu : NULL;
}

/* The core of a switch from prev to next (not on any run queue): next runs
 * on c now, with `slice` ticks before others get a turn, in its address
 * space, on its kernel stack, with its FP/SIMD registers. partners, a
 * constant: the IPC fastpath's hand-off between two user threads (above). */
static inline __attribute__((always_inline)) void switch_core_locked(struct cpu *c,
                                                                     struct thread *prev,
                                                                     struct thread *next,
                                                                     unsigned slice, bool partners)
{
    next->state = THREAD_RUNNING;
    next->slice = slice;
    c->sched.current = next;
    struct aspace *next_as = partners || next->task ? &next->task->as : NULL;
    if (next_as != c->sched.user_as) /* compare what is loaded: an exiting thread unloads it */
        aspace_switch_irqs_off(c, next_as); /* IRQs are off: sched_lock */
    arch_set_kernel_stack(next->kstack_top);
    arch_fpu_switch(user_fpu(prev, partners), user_fpu(next, partners));
}

#if ARCH_HAS_SWITCH_TO_USER
/*
 * The IPC fastpath's hand-off of this CPU from t, which goes to sleep, to
 * `to`, which leaves straight to user mode from its trapframe
 * (arch_switch_to_user) instead of returning through its kernel frames:
 * the caller has checked that they owe nothing and written what they
 * would have (kernel/ipc/fastpath.c). `to` gets what is left of t's slice,
 * as in every hand-off (sched.c). Returns when t is switched to again, the
 * ordinary way. What the scheduler's hand-off does besides, and why this
 * one need not:
 *  - the preempt count: the caller checked the CPU's return checks are
 *    exactly sched_lock's count of 1 (cpu_return_checks_but_sched_lock):
 *    so the count is 1, no reschedule is asked (need_resched is clear),
 *    and the count drops to 0 here, the lock word in arch_switch_to_user
 *    once t's registers are saved;
 *  - `to`'s CPU: the guards found it asleep on this one
 *    (sched_can_hand_off_locked);
 *  - wait_chan and wake_at: a running thread has neither (every sleep
 *    clears them on waking), and the fastpath's threads sleep on no
 *    channel: nothing wakes an IPC wait by its channel (endpoint.c names
 *    the thread it wakes; a kill wakes the thread, whatever it waits for);
 *  - the statistics: no migration and no preemption, t is alive, and the
 *    hand-off itself is the fastpath's hit (SYS_debug_stats counts it).
 */
static inline __attribute__((always_inline)) void
sched_hand_off_to_user_locked(struct cpu *c, struct thread *t, struct thread *to)
{
    t->state = THREAD_SLEEPING;
    switch_core_locked(c, t, to, t->slice ? t->slice : 1, true);
    c->preempt_count = 0;
    arch_switch_to_user(&t->saved_sp, arch_user_frame(to->kstack_top), &sched_lock.locked);
    sched_finish_switch(arch_this_cpu()); /* t again, switched to the usual way; IRQs off */
}
#endif

#endif
