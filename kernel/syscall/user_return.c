/* SPDX-License-Identifier: MIT */
/*
 * kernel/syscall/user_return.c - what happens on the way back to user space.
 *
 * Every return to user mode (after a system call, an interrupt or a fault
 * taken in user mode) passes through user_return() with IRQs off. It is the
 * place where a thread whose task is exiting leaves, where a pending
 * reschedule happens, where the stack offset pool is topped up when the
 * tick asked for it, and where the kernel checks that nothing is held.
 */
#include "kernel/syscall/user_return.h"

#include "kernel/arch_callbacks.h"
#include "kernel/kstack_offset/kstack_offset.h"
#include "kernel/panic.h"
#include "kernel/sched/sched.h"
#include "kernel/task.h"

void user_return_work(void)
{
    struct cpu *c = this_cpu();
    if (c->preempt_count != 0)
        panic("returning to user space with preempt count %u: a lock or preempt_disable() "
              "is still held (last lock taken at %s)",
              c->preempt_count, c->lock_site ? c->lock_site : "?");
    if (c->pool_low)
        kstack_offset_user_return(c);
    for (;;) {
        c = this_cpu();
        if (c->sched.current->killed) {
            arch_irq_enable();
            task_exit(0, false); /* the task's status was set by whoever ended it */
        }
        if (!c->need_resched)
            break;
        sched_preempt_user_return();
    }
}

void user_return(void)
{
    user_return_fast(); /* IRQs are off */
}
