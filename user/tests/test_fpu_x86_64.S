/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_fpu_x86_64.S - every x87/SSE register at once (user/tests/test_fpu.c).
 *
 * void fpu_hold(const struct fpu_regs *in, struct fpu_regs *out, long nr,
 *               long arg, unsigned long spin)
 *   %rdi in, %rsi out (FXSAVE images, 16-byte aligned), %rdx nr, %rcx arg,
 *   %r8 spin. FXRSTOR loads x87 ST0-ST7, FCW/FSW/FTW, XMM0-XMM15 and MXCSR
 *   from *in (SDM vol. 2A "FXRSTOR"); then SYSCALL nr(arg) unless nr < 0
 *   (rax, rcx, r11 clobbered, SDM vol. 2B "SYSCALL"), a count-down of spin
 *   in user mode, FXSAVE into *out, and FNINIT plus the default MXCSR so
 *   the C caller gets the ABI's control words back. rbx, r12, r13 saved.
 *
 * void fpu_dump(struct fpu_regs *out): FXSAVE into *out, nothing else.
 */
    .text
    .globl fpu_hold
fpu_hold:
    push    %rbx
    push    %r12
    push    %r13
    mov     %rsi, %rbx
    mov     %rdx, %r12
    mov     %r8, %r13
    fxrstor64 (%rdi)
    test    %r12, %r12
    js      1f
    mov     %r12, %rax
    mov     %rcx, %rdi
    syscall
1:  test    %r13, %r13
    jz      3f
2:  dec     %r13
    jnz     2b
3:  fxsave64 (%rbx)
    fninit
    ldmxcsr mxcsr_default(%rip)
    pop     %r13
    pop     %r12
    pop     %rbx
    ret

    .globl fpu_dump
fpu_dump:
    fxsave64 (%rdi)
    ret

    .section .rodata
    .balign 4
mxcsr_default:
    .long   0x1f80              /* SDM vol. 1 10.2.3: all masked, round to nearest */
    .section .note.GNU-stack, "", @progbits
