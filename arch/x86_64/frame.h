/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/frame.h - assembler macros that save and restore the general
 * registers in struct trapframe order (arch/x86_64/include/arch/impl.h):
 * rax is pushed first, so r15 ends up at the lowest address. Shared by the
 * interrupt entry (vectors.S) and the return to user mode (switch.S), so the
 * two can never disagree on the layout; the SYSCALL entry (entry.S) saves
 * the first part of the same frame with PUSH_RAX_AND_ARGS, and its exit
 * and switch.S's direct one leave with SYSRET_FROM_FRAME.
 */
/* clang-format off */
#ifndef ARCH_X86_64_FRAME_H
#define ARCH_X86_64_FRAME_H

/* rax and the six system call arguments: the first seven slots pushed, the
 * whole of what the SYSCALL entry saves of the general registers. */
.macro PUSH_RAX_AND_ARGS
    pushq   %rax
    pushq   %r9
    pushq   %r8
    pushq   %r10
    pushq   %rdx
    pushq   %rsi
    pushq   %rdi
.endm

.macro PUSH_GPRS
    PUSH_RAX_AND_ARGS
    pushq   %rcx
    pushq   %r11
    pushq   %rbx
    pushq   %rbp
    pushq   %r12
    pushq   %r13
    pushq   %r14
    pushq   %r15
.endm

.macro POP_GPRS
    popq    %r15
    popq    %r14
    popq    %r13
    popq    %r12
    popq    %rbp
    popq    %rbx
    popq    %r11
    popq    %rcx
    popq    %rdi
    popq    %rsi
    popq    %rdx
    popq    %r10
    popq    %r8
    popq    %r9
    popq    %rax
.endm

.macro SYSRET_FROM_FRAME
    /* %rsp = a SYSCALL frame whose saved RIP is a user address, already in
     * %rcx; %rax and the callee-saved registers loaded. SYSRET takes RIP
     * from %rcx and RFLAGS from %r11 (SDM vol. 2B "SYSRET"). */
    mov     TF_RFLAGS(%rsp), %r11
    mov     TF_RDI(%rsp), %rdi
    mov     TF_RSI(%rsp), %rsi
    mov     TF_RDX(%rsp), %rdx
    mov     TF_R10(%rsp), %r10
    mov     TF_R8(%rsp), %r8
    mov     TF_R9(%rsp), %r9
    mov     TF_RSP(%rsp), %rsp          /* the user's stack */
    swapgs
    sysretq
.endm

#endif
