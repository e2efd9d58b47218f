/* SPDX-License-Identifier: MIT */
/*
 * kernel/syscall/user_fault.c - a fault taken in user mode: retried when
 * it came from a stale TLB entry, otherwise the program is killed with a
 * message and the kernel carries on.
 */
#include "kernel/arch_callbacks.h"
#include "kernel/mm/vm.h"
#include "kernel/task.h"

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
