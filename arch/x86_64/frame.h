/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/frame.h - assembler macros that save and restore the general
 * registers in struct trapframe order (arch/x86_64/include/arch/impl.h):
 * rax is pushed first, so r15 ends up at the lowest address. Shared by the
 * interrupt entry (vectors.S) and the return to user mode (switch.S), so the
 * two can never disagree on the layout; the SYSCALL entry (entry.S) saves
 * the first part of the same frame with PUSH_RAX_AND_ARGS.
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

#endif
