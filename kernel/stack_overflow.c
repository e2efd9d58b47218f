/* SPDX-License-Identifier: MIT */
/*
 * kernel/stack_overflow.c - the report of a kernel stack overflow.
 *
 * The arch's trap code calls panic_stack_overflow() once it knows a kernel
 * stack has run into its guard page (kernel/mm/kernel_stack.h): from the per-CPU emergency
 * stack (x86_64 #DF on its IST stack; arm64 and riscv64 switch to it in
 * the kernel-mode trap entry), since the overflowed stack has no room for
 * the handler. The report names the thread and says which stack it is
 * printed from; then it is an ordinary panic: registers and a backtrace of
 * the interrupted code, i.e. down the overflowed stack.
 */
#include "kernel/arch_callbacks.h"
#include "kernel/emergency_stack.h"
#include "kernel/sched/sched.h"
#include "kernel/task.h"

void panic_stack_overflow(const struct trapframe *tf, uintptr_t addr)
{
    arch_irq_save();
    struct cpu *c = arch_this_cpu();
    const struct thread *t = c->sched.current;
    uintptr_t top = t ? t->kstack_top : 0;
    char owner[64] = "kernel thread";
    if (t && t->task)
        snprintf(owner, sizeof(owner), "task %d %s", t->task->pid, t->task->name);
    bool emergency = emergency_stack_contains(c, (uintptr_t)__builtin_frame_address(0));
    panic_trap(tf,
               "kernel stack overflow in thread %s (tid %d, %s) at %#lx: stack [%#lx, %#lx) "
               "with its guard page below; reported from %s",
               t ? t->name : "?", t ? t->tid : -1, owner, (unsigned long)addr,
               (unsigned long)(top ? top - KSTACK_SIZE : 0), (unsigned long)top,
               emergency ? "this CPU's emergency stack" : "the interrupted stack");
}
