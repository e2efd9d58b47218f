/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/frame.h - assembler macros that save and restore the general
 * registers in struct trapframe order (arch/x86_64/include/arch/impl.h):
 * rax is pushed first, so r15 ends up at the lowest address. Shared by the
 * interrupt entry (vectors.S), the SYSCALL entry (entry.S) and the return
 * to user mode (switch.S), so the three can never disagree on the layout.
 */
#ifndef ARCH_X86_64_FRAME_H
#define ARCH_X86_64_FRAME_H

.macro PUSH_GPRS
    pushq   %rax
    pushq   %rbx
    pushq   %rcx
    pushq   %rdx
    pushq   %rsi
    pushq   %rdi
    pushq   %rbp
    pushq   %r8
    pushq   %r9
    pushq   %r10
    pushq   %r11
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
    popq    %r11
    popq    %r10
    popq    %r9
    popq    %r8
    popq    %rbp
    popq    %rdi
    popq    %rsi
    popq    %rdx
    popq    %rcx
    popq    %rbx
    popq    %rax
.endm

#endif
