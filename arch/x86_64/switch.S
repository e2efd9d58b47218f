/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/switch.S - switching threads and entering user mode.
 *
 * void arch_context_switch(uintptr_t *save_sp, uintptr_t load_sp)
 *   %rdi: where to save this thread's stack pointer; %rsi: the next
 *   thread's saved stack pointer. Saves the callee-saved registers (SysV
 *   ABI: rbx rbp r12-r15) on this stack, swaps stacks, restores the next
 *   thread's and returns on its stack. IRQs off throughout. The next
 *   thread resumes with RFLAGS.AC clear, whatever the last one had: kernel
 *   code outside the copy routines runs with user pages closed (SMAP),
 *   and no thread switches inside one.
 *
 * void x86_return_to_user(struct trapframe *tf)
 *   %rdi: a complete user trapframe. Loads it and IRETs to user mode.
 *   IRQs off on entry; the IRET restores the user's RFLAGS (IF on).
 */
#include <arch/impl.h>
#include "frame.h"

    .text
    .globl arch_context_switch
arch_context_switch:
    push    %rbp
    push    %rbx
    push    %r12
    push    %r13
    push    %r14
    push    %r15
    mov     %rsp, (%rdi)
    mov     %rsi, %rsp
    cmpb    $0, x86_smap_enabled(%rip)  /* clac is #UD without SMAP */
    je      1f
    clac
1:  pop     %r15
    pop     %r14
    pop     %r13
    pop     %r12
    pop     %rbx
    pop     %rbp
    ret

    .globl x86_return_to_user
x86_return_to_user:
    mov     %rdi, %rsp
    .globl x86_iret_to_user
x86_iret_to_user:               /* %rsp = trapframe */
    POP_GPRS
    add     $16, %rsp           /* vector, error code */
    swapgs                      /* GS base back to the user's */
    iretq
