/* SPDX-License-Identifier: MIT */
/*
 * arch/riscv64/thread.c - new threads, the per-CPU kernel stack for traps
 * from user mode, entering user mode, and idling.
 */
#include "kernel/arch_callbacks.h"
#include "lib/string.h"
#include "riscv.h"

/* vectors.S reaches these through tp = struct cpu. */
_Static_assert(offsetof(struct cpu, arch.kstack_top) == CPU_KSTACK_TOP, "vectors.S offset");
_Static_assert(offsetof(struct cpu, arch) == CPU_ARCH, "impl.h offset");
_Static_assert(offsetof(struct cpu, arch.user_sp) == CPU_USER_SP, "vectors.S offset");
_Static_assert(offsetof(struct cpu, arch.overflow_stack) == CPU_OVERFLOW_STACK, "vectors.S offset");
_Static_assert(offsetof(struct cpu, arch.scratch) == CPU_SCRATCH, "vectors.S offset");
_Static_assert(PAGE_SIZE == 4096, "STACK_OVERFLOW_WINDOW: one guard page of 4 KiB");
_Static_assert(RISCV_KSTACK_GUARD_BELOW_TOP == KSTACK_SIZE + PAGE_SIZE,
               "impl.h: the guard page's base");
/* A user trap's frame is exactly the space arch_thread_init leaves free. */
_Static_assert(sizeof(struct trapframe) == TF_SIZE, "vectors.S frame size");

extern char riscv_thread_start[]; /* switch.S */

/* The first switch to the thread loads this frame (switch.S) and "returns"
 * into riscv_thread_start, which calls start (in s1) with ra = 0. */
uintptr_t arch_thread_init(uintptr_t kstack_top, void (*start)(void))
{
    uint8_t *frame = (uint8_t *)(kstack_top - TF_SIZE - SWITCH_FRAME);
    memset(frame, 0, SWITCH_FRAME); /* s0 = 0 ends backtraces */
    *(uint64_t *)(frame + SWITCH_RA) = (uintptr_t)riscv_thread_start;
    *(uint64_t *)(frame + SWITCH_S(1)) = (uintptr_t)start;
    return (uintptr_t)frame;
}

void arch_set_emergency_stack(struct cpu *c, unsigned i, uintptr_t top)
{
    (void)i; /* only one */
    c->arch.overflow_stack = top;
}

/*
 * A fresh user frame at the top of this thread's kernel stack: every
 * register 0 (tp and gp too) except sp, a0 and a1; sstatus with SPP = 0
 * (sret goes to U mode), SPIE = 1 (interrupts on after it), SIE = 0 until
 * then, SUM = 0, FS = Off (the first FP instruction loads the thread's
 * struct arch_fpu, the defined starting state: fpu.c). FENCE.I makes this hart's instruction
 * fetches see the program exec_load wrote with ordinary stores (ISA,
 * "Zifencei"); the scheduler's lock made those stores visible here.
 */
void arch_enter_user(uintptr_t pc, uintptr_t sp, uintptr_t arg0, uintptr_t arg1)
{
    arch_irq_disable();
    struct trapframe *tf = (struct trapframe *)(this_cpu()->arch.kstack_top - TF_SIZE);
    memset(tf, 0, sizeof(*tf));
    tf->sepc = pc;
    tf->sp = sp;
    tf->a0 = arg0;
    tf->a1 = arg1;
    tf->sstatus = (csr_read(sstatus) &
                   ~(SSTATUS_SPP | SSTATUS_SIE | SSTATUS_SUM | SSTATUS_MXR | SSTATUS_FS)) |
                  SSTATUS_SPIE;
    user_return();
    __asm__ volatile("fence.i" : : : "memory");
    riscv_return_to_user(tf);
}

/* WFI waits for any interrupt enabled in sie, whatever sstatus.SIE says
 * (priv spec 3.3.3), so with SIE off nothing is taken between the check the
 * caller made and the wait; setting SIE afterwards takes the interrupt. */
void arch_idle(void)
{
    __asm__ volatile("wfi" : : : "memory");
    arch_irq_enable();
}
