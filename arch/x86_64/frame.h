/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/frame.h - assembler macros that save and restore the general
 * registers in struct trapframe order (arch/x86_64/include/arch/impl.h):
 * rax is pushed first, so r15 ends up at the lowest address. Shared by the
 * interrupt entry (vectors.S) and the return to user mode (switch.S), so the
 * two can never disagree on the layout; the SYSCALL entry (entry.S) saves a
 * part of the same frame by its TF_ offsets.
 */
#ifndef ARCH_X86_64_FRAME_H
#define ARCH_X86_64_FRAME_H

.macro PUSH_GPRS
    pushq   %rax
    pushq   %r9
    pushq   %r8
    pushq   %r10
    pushq   %rdx
    pushq   %rsi
    pushq   %rdi
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
