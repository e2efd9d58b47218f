/* SPDX-License-Identifier: MIT */
/*
 * arch/arm64/thread.c - new threads, entering user mode, idling.
 *
 * A thread's kernel stack, from the top: a struct trapframe (the user's
 * registers while the thread is in the kernel; unused by kernel threads),
 * then the C frames. An exception from EL0 is taken on SP_EL1, which the
 * return path (vectors.S, arm64_return_to_user) leaves at the top of the
 * stack, so the user trapframe always sits in the same place.
 */
#include "arm64.h"
#include "kernel/arch_callbacks.h"
#include "lib/string.h"

/* SPSR_EL1 for the first ERET to user mode: M[3:0] = 0b0000 (EL0t), M[4] = 0
 * (AArch64), D, A, I and F (bits [9:6]) clear: nothing masked at EL0. */
#define SPSR_EL0T 0

/* SAVE_SWITCH_FRAME (switch_frame.h) pushes x19-x28, x29, x30, SP_EL0, TPIDR_EL0 */
enum { SW_X30 = 11, SW_WORDS = 14 };

/* The first arch_context_switch to the thread pops zeroed callee-saved
 * registers (x29 = 0 ends backtraces) and user registers, and "returns"
 * to start (x30). */
uintptr_t arch_thread_init(uintptr_t kstack_top, void (*start)(void))
{
    uint64_t *sp = (uint64_t *)(kstack_top - sizeof(struct trapframe)) - SW_WORDS;
    memset(sp, 0, SW_WORDS * sizeof(*sp));
    sp[SW_X30] = (uintptr_t)start;
    return (uintptr_t)sp;
}

_Static_assert(KSTACK_GUARD_BELOW_TOP == KSTACK_SIZE + PAGE_SIZE, "arch_set_kernel_stack (impl.h)");

void arch_set_emergency_stack(struct cpu *c, unsigned i, uintptr_t top)
{
    (void)i; /* only one */
    c->arch.overflow_stack = top;
}

void arch_enter_user(uintptr_t pc, uintptr_t sp, uintptr_t arg0, uintptr_t arg1)
{
    arch_irq_disable();
    struct trapframe *tf = (struct trapframe *)(this_cpu()->arch.kstack_top - sizeof(*tf));
    memset(tf, 0, sizeof(*tf)); /* no kernel values leak into user registers */
    tf->elr = pc;
    tf->spsr = SPSR_EL0T;
    tf->sp = sp;
    tf->x[0] = arg0;
    tf->x[1] = arg1;
    user_return();
    arm64_return_to_user(tf);
}

/*
 * WFI with IRQs masked still wakes on a pending interrupt (Arm ARM, "Wait
 * for Interrupt": masking by PSTATE.I does not stop an IRQ being a WFI
 * wake-up event), so nothing can arrive between the caller's check and the
 * sleep. Unmasking then takes the interrupt; the ISB makes sure it has
 * been taken before returning.
 */
void arch_idle(void)
{
    __asm__ volatile("dsb sy\n\twfi\n\tmsr daifclr, #3\n\tisb" : : : "memory");
}
