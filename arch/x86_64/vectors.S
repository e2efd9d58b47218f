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
 * IRQs are off (all IDT entries are interrupt gates); AC may be on.
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

/*
 * An interrupt gate clears IF and TF but not RFLAGS.AC (SDM vol. 3A 6.12.1.3),
 * and AC = 1 opens user pages to the kernel while CR4.SMAP is on (4.6.1):
 * a program can set it (popf), and an interrupt taken inside a copy routine
 * has it set. So every entry, from either mode, clears it before any C
 * runs; the iretq gives the interrupted code its own AC back.
 */
trap_common:
    PUSH_GPRS
    cmpb    $0, x86_smap_enabled(%rip)  /* clac is #UD without SMAP */
    je      3f
    clac
3:  testb   $3, TF_CS(%rsp)      /* came from user mode (CPL 3)? */
    jz      1f
    swapgs                      /* then GS base must become this CPU's struct cpu */
1:  mov     %rsp, %rdi
    cld
    call    x86_trap
    testb   $3, TF_CS(%rsp)
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
    mov     %r15, TF_R15(%rdi)
    mov     %r14, TF_R14(%rdi)
    mov     %r13, TF_R13(%rdi)
    mov     %r12, TF_R12(%rdi)
    mov     %rbp, TF_RBP(%rdi)
    mov     %rbx, TF_RBX(%rdi)
    mov     %r11, TF_R11(%rdi)
    mov     %rcx, TF_RCX(%rdi)
    mov     %rdi, TF_RDI(%rdi)
    mov     %rsi, TF_RSI(%rdi)
    mov     %rdx, TF_RDX(%rdi)
    mov     %r10, TF_R10(%rdi)
    mov     %r8, TF_R8(%rdi)
    mov     %r9, TF_R9(%rdi)
    mov     %rax, TF_RAX(%rdi)
    movq    $0, TF_VECTOR(%rdi)
    movq    $0, TF_ERROR(%rdi)
    mov     (%rsp), %rax
    mov     %rax, TF_RIP(%rdi)
    mov     %cs, %eax
    mov     %rax, TF_CS(%rdi)
    pushfq
    popq    TF_RFLAGS(%rdi)
    lea     8(%rsp), %rax
    mov     %rax, TF_RSP(%rdi)
    mov     %ss, %eax
    mov     %rax, TF_SS(%rdi)
    ret
