/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/vectors.S - interrupt and exception entry (no policy here).
 *
 * 256 small stubs, one per IDT vector. Each makes the stack look the same
 * (an error code is pushed by the CPU only for some exceptions, SDM vol. 3A
 * 6.15; the stub pushes 0 for the others), pushes its vector number and
 * jumps to trap_common, which saves the general registers into a struct
 * trapframe (arch/x86_64/include/arch/impl.h) and calls x86_trap(tf).
 *
 * Registers on entry to trap_common: all hold the interrupted values;
 * stack (top first): vector, error, rip, cs, rflags, rsp, ss.
 * IRQs are off (all IDT entries are interrupt gates).
 */
#include <arch/impl.h>
#include "frame.h"


    .text
/* Vectors for which the CPU pushes an error code: #DF #TS #NP #SS #GP #PF #AC #CP #VC #SX */
.macro STUB vec
    .balign 16
vector_stub_\vec:
.if (\vec == 8) || (\vec >= 10 && \vec <= 14) || (\vec == 17) || (\vec == 21) || (\vec == 29) || (\vec == 30)
.else
    pushq   $0
.endif
    pushq   $\vec
    jmp     trap_common
.endm

.altmacro
.macro STUBS from, to
    STUB %from
.if \to-\from
    STUBS %(from+1), \to
.endif
.endm
    STUBS 0, 63
    STUBS 64, 127
    STUBS 128, 191
    STUBS 192, 255

trap_common:
    PUSH_GPRS
    testb   $3, 18*8(%rsp)      /* came from user mode (CPL 3)? */
    jz      1f
    swapgs                      /* then GS base must become this CPU's struct cpu */
1:  mov     %rsp, %rdi
    cld
    call    x86_trap
    testb   $3, 18*8(%rsp)
    jz      2f
    swapgs
2:  POP_GPRS
    add     $16, %rsp           /* vector and error code */
    iretq

/* The stub addresses, for building the IDT (arch/x86_64/cpu.c). */
.macro ADDR vec
    .quad vector_stub_\vec
.endm
.macro ADDRS from, to
    ADDR %from
.if \to-\from
    ADDRS %(from+1), \to
.endif
.endm
    .section .rodata
    .balign 8
    .globl x86_vector_stubs
x86_vector_stubs:
    ADDRS 0, 63
    ADDRS 64, 127
    ADDRS 128, 191
    ADDRS 192, 255

/*
 * void arch_capture_regs(struct trapframe *tf) - snapshot of the caller's
 * registers for a panic report: rip is the return address, rsp the
 * caller's stack pointer after the return.
 */
    .text
    .globl arch_capture_regs
arch_capture_regs:
    mov     %r15, 0*8(%rdi)
    mov     %r14, 1*8(%rdi)
    mov     %r13, 2*8(%rdi)
    mov     %r12, 3*8(%rdi)
    mov     %r11, 4*8(%rdi)
    mov     %r10, 5*8(%rdi)
    mov     %r9, 6*8(%rdi)
    mov     %r8, 7*8(%rdi)
    mov     %rbp, 8*8(%rdi)
    mov     %rdi, 9*8(%rdi)
    mov     %rsi, 10*8(%rdi)
    mov     %rdx, 11*8(%rdi)
    mov     %rcx, 12*8(%rdi)
    mov     %rbx, 13*8(%rdi)
    mov     %rax, 14*8(%rdi)
    movq    $0, 15*8(%rdi)      /* vector */
    movq    $0, 16*8(%rdi)      /* error */
    mov     (%rsp), %rax
    mov     %rax, 17*8(%rdi)    /* rip */
    mov     %cs, %eax
    mov     %rax, 18*8(%rdi)
    pushfq
    popq    19*8(%rdi)
    lea     8(%rsp), %rax
    mov     %rax, 20*8(%rdi)    /* rsp */
    mov     %ss, %eax
    mov     %rax, 21*8(%rdi)
    ret
