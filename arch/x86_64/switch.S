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
 * void arch_switch_to_user(uintptr_t *save_sp, struct trapframe *tf, uint32_t *lock)
 *   %rdi, %rsi, %rdx. Saves this thread as arch_context_switch does (the
 *   same six pushes below the return address, so arch_context_switch to
 *   *save_sp returns from this call), lets go of sched_lock (a plain store:
 *   x86 stores are not reordered with earlier loads or stores, SDM vol. 3A
 *   9.2.2), then leaves from tf through the SYSCALL exit (entry.S), with
 *   rax and the callee-saved registers loaded from tf (ipc_entry.S put the
 *   user's there). IRQs off until SYSRET loads the user's RFLAGS.
 *   The exit skips x86_syscall_exit's check of the saved RIP: tf is the
 *   frame of a thread asleep in SYS_ipc_call or SYS_ipc_reply_recv, which
 *   only the SYSCALL entry saves (the fastpath resumes no other,
 *   kernel/syscall/path.h), and its RIP is what SYSCALL put in RCX: the
 *   address after a SYSCALL instruction fetched in user mode, so at most
 *   USER_TOP (nothing user-executable is mapped above it) and canonical,
 *   which is all SYSRET needs not to fault in kernel mode (SDM vol. 2B
 *   "SYSRET": #GP(0) on a non-canonical RCX). Nothing writes that slot
 *   while the thread sleeps.
 *
 * void x86_return_to_user(struct trapframe *tf)
 *   %rdi: a complete user trapframe. Loads it and IRETs to user mode.
 *   IRQs off on entry; the IRET restores the user's RFLAGS (IF on).
 */
#include <arch/impl.h>
#include "frame.h"

/* The frame both leave behind in *save_sp (%rdi): arch_context_switch
 * resumes either one. */
.macro SAVE_SWITCH_FRAME
    push    %rbp
    push    %rbx
    push    %r12
    push    %r13
    push    %r14
    push    %r15
    mov     %rsp, (%rdi)
.endm

    .text
    .globl arch_context_switch
arch_context_switch:
    SAVE_SWITCH_FRAME
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

    .globl arch_switch_to_user
arch_switch_to_user:
    SAVE_SWITCH_FRAME
    mov     %rsi, %rsp          /* off this thread's stack before another CPU may resume it */
    movl    $0, (%rdx)          /* sched_lock.locked: release */
    mov     TF_RBX(%rsp), %rbx
    mov     TF_RBP(%rsp), %rbp
    mov     TF_R12(%rsp), %r12
    mov     TF_R13(%rsp), %r13
    mov     TF_R14(%rsp), %r14
    mov     TF_R15(%rsp), %r15
    mov     TF_RAX(%rsp), %rax
    mov     TF_RIP(%rsp), %rcx
    .globl  x86_syscall_exit_direct
x86_syscall_exit_direct:
    SYSRET_FROM_FRAME

    .globl x86_return_to_user
x86_return_to_user:
    mov     %rdi, %rsp
    .globl x86_iret_to_user
x86_iret_to_user:               /* %rsp = trapframe */
    POP_GPRS
    add     $16, %rsp           /* vector, error code */
    swapgs                      /* GS base back to the user's */
    iretq
