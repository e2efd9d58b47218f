/* SPDX-License-Identifier: MIT */
/*
 * kernel/trap.c - what happens on the way back to user space.
 *
 * Every return to user mode (after a system call, an interrupt or a fault
 * taken in user mode) passes through user_return() with IRQs off. It is the
 * place where a thread whose task is exiting leaves, where a pending
 * reschedule happens, and where the kernel checks that nothing is held.
 */
#include "kernel/arch_callbacks.h"
#include "kernel/kstack_offset/kstack_offset.h"
#include "kernel/mm/vm.h"
#include "kernel/panic.h"
#include "kernel/sched/sched.h"
#include "kernel/task.h"
#include "kernel/user_return.h"

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

/*
 * RISC-V lets a hart cache an invalid entry (priv spec 4.2.1: the reason
 * Svvptc exists), and vm_map makes only its own hart forget one. With
 * ASIDs such an entry survives switches, so a program that moved to another
 * hart since may fault on a page that has been mapped for it all along.
 * That fault is answered by a retry instead of a kill. Only addresses below
 * USER_TOP: the walk ignores the bits above, and an address the hardware
 * refuses as non-canonical could otherwise find a mapping.
 */
bool user_fault_was_stale(uintptr_t addr, unsigned prot)
{
    struct task *t = current_task();
    uint64_t pa;
    unsigned have;
    return t && addr < USER_TOP && vm_query(&t->as, addr, &pa, &have) && (have & VM_USER) &&
           (have & prot) == prot;
}

void user_fault(const char *why, uintptr_t addr, uintptr_t pc, int status)
{
    arch_irq_enable();
    task_kill(why, addr, pc, status);
}
