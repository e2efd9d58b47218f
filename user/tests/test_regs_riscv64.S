/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_regs_riscv64.S - unsigned long regs_check(long nr)
 * Fills every register except sp (x2) with a pattern (a7 = nr, which must
 * also survive; gp and tp included: the kernel must give the user's back),
 * executes ECALL, and returns a mask with bit n set if xn changed. a0 (x10)
 * carries the result and is not checked. ra, gp, tp and s0-s11 are saved
 * on the stack and restored after.
 */
    .text
    .globl regs_check
regs_check:
    addi    sp, sp, -128
    sd      ra, 0(sp)
    sd      gp, 8(sp)
    sd      tp, 16(sp)
    sd      s0, 24(sp)
    sd      s1, 32(sp)
    sd      s2, 40(sp)
    sd      s3, 48(sp)
    sd      s4, 56(sp)
    sd      s5, 64(sp)
    sd      s6, 72(sp)
    sd      s7, 80(sp)
    sd      s8, 88(sp)
    sd      s9, 96(sp)
    sd      s10, 104(sp)
    sd      s11, 112(sp)
    sd      a0, 120(sp)          /* nr, to check a7 against */
    mv      a7, a0
.irp n, 1,3,4,5,6,7,8,9,11,12,13,14,15,16,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    li      x\n, (0x0101010101010101 * \n)
.endr
    ecall
    /* ra (x1) first with a0 as scratch; then ra holds the mask. */
    li      a0, 0x0101010101010101
    xor     ra, ra, a0
    snez    ra, ra
    slli    ra, ra, 1
.irp n, 3,4,5,6,7,8,9,11,12,13,14,15,16,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    li      a0, (0x0101010101010101 * \n)
    xor     x\n, x\n, a0
    snez    x\n, x\n
    slli    x\n, x\n, \n
    or      ra, ra, x\n
.endr
    ld      a0, 120(sp)
    xor     a7, a7, a0
    snez    a7, a7
    slli    a7, a7, 17
    or      a0, ra, a7
    ld      ra, 0(sp)
    ld      gp, 8(sp)
    ld      tp, 16(sp)
    ld      s0, 24(sp)
    ld      s1, 32(sp)
    ld      s2, 40(sp)
    ld      s3, 48(sp)
    ld      s4, 56(sp)
    ld      s5, 64(sp)
    ld      s6, 72(sp)
    ld      s7, 80(sp)
    ld      s8, 88(sp)
    ld      s9, 96(sp)
    ld      s10, 104(sp)
    ld      s11, 112(sp)
    addi    sp, sp, 128
    ret
    .section .note.GNU-stack, "", %progbits
