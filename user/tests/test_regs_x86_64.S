/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_regs_x86_64.S - unsigned long regs_check(long nr)
 * Fills rbx rbp rdi rsi rdx r8-r15 with patterns, executes SYSCALL with rax
 * = nr, and returns a mask with bit i set if register i (in the order
 * below) changed. rax (result), rcx and r11 (overwritten by SYSCALL itself,
 * Intel SDM vol. 2B "SYSCALL") are not checked.
 */
    .text
    .globl regs_check
regs_check:
    push    %rbx
    push    %rbp
    push    %r12
    push    %r13
    push    %r14
    push    %r15
    mov     %rdi, %rax
    movabs  $0x1111111111111101, %rbx
    movabs  $0x2222222222222202, %rbp
    movabs  $0x3333333333333303, %rdi
    movabs  $0x4444444444444404, %rsi
    movabs  $0x5555555555555505, %rdx
    movabs  $0x6666666666666606, %r8
    movabs  $0x7777777777777707, %r9
    movabs  $0x8888888888888808, %r10
    movabs  $0x9999999999999909, %r12
    movabs  $0xaaaaaaaaaaaaaa0a, %r13
    movabs  $0xbbbbbbbbbbbbbb0b, %r14
    movabs  $0xcccccccccccccc0c, %r15
    syscall
    xor     %eax, %eax          /* the mask of changed registers */
.macro CHECK reg, pattern, bit
    movabs  $\pattern, %rcx
    cmp     %rcx, \reg
    je      1f
    or      $(1 << \bit), %rax
1:
.endm
    CHECK   %rbx, 0x1111111111111101, 0
    CHECK   %rbp, 0x2222222222222202, 1
    CHECK   %rdi, 0x3333333333333303, 2
    CHECK   %rsi, 0x4444444444444404, 3
    CHECK   %rdx, 0x5555555555555505, 4
    CHECK   %r8, 0x6666666666666606, 5
    CHECK   %r9, 0x7777777777777707, 6
    CHECK   %r10, 0x8888888888888808, 7
    CHECK   %r12, 0x9999999999999909, 8
    CHECK   %r13, 0xaaaaaaaaaaaaaa0a, 9
    CHECK   %r14, 0xbbbbbbbbbbbbbb0b, 10
    CHECK   %r15, 0xcccccccccccccc0c, 11
    pop     %r15
    pop     %r14
    pop     %r13
    pop     %r12
    pop     %rbp
    pop     %rbx
    ret
    .section .note.GNU-stack, "", @progbits
