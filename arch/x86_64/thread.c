/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/thread.c - new threads, entering user mode, idling.
 *
 * A thread's kernel stack, from the top: a struct trapframe (the user's
 * registers while the thread is in the kernel; unused by kernel threads),
 * then the C frames. An interrupt or exception from ring 3 switches to the
 * TSS's RSP0 and SYSCALL to the CPU's kstack_top, both the top of the
 * stack (arch_set_kernel_stack, impl.h), so the user trapframe always sits in the
 * same place.
 */
#include "kernel/arch_callbacks.h"
#include "lib/string.h"
#include "x86.h"

/* The first switch to a new thread "returns" into `start` with the stack
 * looking as if start had been called; a trapframe's worth of space stays
 * free at the top for when the thread enters user mode. */
uintptr_t arch_thread_init(uintptr_t kstack_top, void (*start)(void))
{
    uint64_t *sp = (uint64_t *)(kstack_top - sizeof(struct trapframe));
    *--sp = 0;                  /* start's return address: ends backtraces */
    *--sp = (uint64_t)start;    /* arch_context_switch's `ret` goes here */
    for (int i = 0; i < 6; i++) /* rbp rbx r12-r15 */
        *--sp = 0;
    return (uintptr_t)sp;
}

void arch_enter_user(uintptr_t pc, uintptr_t sp, uintptr_t arg0, uintptr_t arg1)
{
    arch_irq_disable();
    struct trapframe *tf = (struct trapframe *)(this_cpu()->arch.kstack_top - sizeof(*tf));
    memset(tf, 0, sizeof(*tf));
    tf->rip = pc;
    tf->cs = GDT_USER_CS;
    tf->rflags = 1u << 9; /* IF: interrupts on in user mode */
    tf->rsp = sp;
    tf->ss = GDT_USER_DS;
    tf->rdi = arg0;
    tf->rsi = arg1;
    user_return();
    x86_return_to_user(tf);
}

void arch_idle(void)
{
    /* sti takes effect after the next instruction, so no interrupt can slip
     * in between it and hlt (SDM vol. 2B "STI"). */
    __asm__ volatile("sti; hlt" : : : "memory");
}
