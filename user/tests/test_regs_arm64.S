/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_regs_arm64.S - unsigned long regs_check(long nr)
 * Fills x1-x30 with patterns (x8 = nr, the syscall number, which must also
 * survive), executes SVC #0, and returns a mask with bit n set if xn
 * changed. x0 carries the result and is not checked. x29/x30 and the
 * callee-saved x19-x28 are saved on the stack first and restored after.
 */
    .text
    .globl regs_check
regs_check:
    stp     x29, x30, [sp, #-96]!
    stp     x19, x20, [sp, #16]
    stp     x21, x22, [sp, #32]
    stp     x23, x24, [sp, #48]
    stp     x25, x26, [sp, #64]
    stp     x27, x28, [sp, #80]
    mov     x8, x0
    str     x8, [sp, #-16]!      /* keep nr to check x8 against */
.irp n, 1,2,3,4,5,6,7,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30
    ldr     x\n, =(0x0101010101010101 * \n)
.endr
    svc     #0
    /* x30 first, using x0 (the result, not needed) as scratch; then x30
     * holds the mask and each checked register becomes scratch itself. */
    ldr     x0, =(0x0101010101010101 * 30)
    cmp     x30, x0
    cset    x30, ne
    lsl     x30, x30, #30
.irp n, 1,2,3,4,5,6,7,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29
    ldr     x0, =(0x0101010101010101 * \n)
    cmp     x\n, x0
    cset    x\n, ne
    orr     x30, x30, x\n, lsl #\n
.endr
    ldr     x0, [sp], #16
    cmp     x8, x0
    cset    x8, ne
    orr     x0, x30, x8, lsl #8
    ldp     x19, x20, [sp, #16]
    ldp     x21, x22, [sp, #32]
    ldp     x23, x24, [sp, #48]
    ldp     x25, x26, [sp, #64]
    ldp     x27, x28, [sp, #80]
    ldp     x29, x30, [sp], #96
    ret
    .ltorg
    .section .note.GNU-stack, "", %progbits
