/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_fpu_riscv64.S - every F/D register at once (user/tests/test_fpu.c).
 *
 * void fpu_hold(const struct fpu_regs *in, struct fpu_regs *out, long nr,
 *               long arg, unsigned long spin)
 *   a0 in, a1 out (f0-f31 as 8-byte values in 16-byte slots, then fcsr at
 *   512), a2 nr, a3 arg, a4 spin. Loads every register from *in; then
 *   ECALL nr(arg) unless nr < 0 (a7 = number, a0 = argument and result), a
 *   count-down of spin in user mode, stores every register in *out and
 *   sets fcsr back to 0. s0-s2 and fs0-fs11 (callee-saved, psABI) saved
 *   and restored; t0 clobbered.
 *
 * void fpu_dump(struct fpu_regs *out): store them, nothing else (t0).
 */
    .text
    .globl fpu_hold
fpu_hold:
    addi    sp, sp, -128
    sd      s0, 0(sp)
    sd      s1, 8(sp)
    sd      s2, 16(sp)
    .irp n, 0,1,2,3,4,5,6,7,8,9,10,11
    fsd     fs\n, 24 + 8 * \n(sp)
    .endr
    mv      s0, a1
    mv      s1, a2
    mv      s2, a4
    .irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    fld     f\n, 16 * \n(a0)
    .endr
    ld      t0, 512(a0)
    fscsr   t0
    bltz    s1, 1f
    mv      a7, s1
    mv      a0, a3
    ecall
1:  beqz    s2, 3f
2:  addi    s2, s2, -1
    bnez    s2, 2b
3:
    .irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    fsd     f\n, 16 * \n(s0)
    .endr
    frcsr   t0
    sd      t0, 512(s0)
    fscsr   zero
    .irp n, 0,1,2,3,4,5,6,7,8,9,10,11
    fld     fs\n, 24 + 8 * \n(sp)
    .endr
    ld      s0, 0(sp)
    ld      s1, 8(sp)
    ld      s2, 16(sp)
    addi    sp, sp, 128
    ret

    .globl fpu_dump
fpu_dump:
    .irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    fsd     f\n, 16 * \n(a0)
    .endr
    frcsr   t0
    sd      t0, 512(a0)
    ret
    .section .note.GNU-stack, "", @progbits
