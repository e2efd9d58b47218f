/* SPDX-License-Identifier: MIT */
/*
 * kernel/syscall/user_return.h - the last check before any return to user mode.
 *
 * Four things stop a thread on its way out (kernel/syscall/user_return.c does them): its
 * task is being killed, this CPU wants to reschedule, its stack offset pool
 * asked for a refill (kernel/kstack_offset/select.c), left by the timer
 * tick so that it does not land inside a system call, or a lock or
 * preempt_disable() is still held, which is a kernel bug and panics. (The
 * latency timers' rings are drained by the idle loop and by reads, never on
 * the way out: kernel/latency/latency.h.) All four are rare, so
 * the way out tests them together and calls out of line only when one is
 * set. The system call path inlines this test; traps call user_return(),
 * which is the same.
 */
#ifndef KERNEL_SYSCALL_USER_RETURN_H
#define KERNEL_SYSCALL_USER_RETURN_H

#include "kernel/cpu.h"
#include "kernel/latency/irqsoff.h"
#include "kernel/sched/sched.h"

/* The rare work: exit, reschedule (then look again), or panic. IRQs off. */
void user_return_work(void);

/* IRQs off (from the caller), so this CPU and its current thread are fixed. */
static inline __attribute__((always_inline)) void user_return_fast(void)
{
    struct cpu *c = arch_this_cpu();
    struct thread *self = c->sched.current;
    if (__builtin_expect((c->return_checks | self->killed) != 0, 0))
        user_return_work();
    irqsoff_exit(); /* nothing unless make IRQSOFF=1 */
}

#endif
