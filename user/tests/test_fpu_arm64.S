/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_fpu_arm64.S - every FP/SIMD register at once (user/tests/test_fpu.c).
 *
 * void fpu_hold(const struct fpu_regs *in, struct fpu_regs *out, long nr,
 *               long arg, unsigned long spin)
 *   x0 in, x1 out (V0-V31 as 16-byte Q values, then FPCR at 512 and FPSR
 *   at 520), x2 nr, x3 arg, x4 spin. Loads every register from *in; then
 *   SVC nr(arg) unless nr < 0 (x8 = number, x0 = argument and result), a
 *   count-down of spin in user mode, stores every register in *out and
 *   sets FPCR and FPSR back to 0. x19-x21 and d8-d15 (callee-saved, AAPCS64)
 *   saved and restored; x9 clobbered.
 *
 * void fpu_dump(struct fpu_regs *out): store them, nothing else (x9).
 */
    .text
    .globl fpu_hold
fpu_hold:
    stp     x19, x20, [sp, #-96]!
    str     x21, [sp, #16]
    stp     d8, d9, [sp, #32]
    stp     d10, d11, [sp, #48]
    stp     d12, d13, [sp, #64]
    stp     d14, d15, [sp, #80]
    mov     x19, x1
    mov     x20, x2
    mov     x21, x4
    ldp     q0, q1, [x0, #0]
    ldp     q2, q3, [x0, #32]
    ldp     q4, q5, [x0, #64]
    ldp     q6, q7, [x0, #96]
    ldp     q8, q9, [x0, #128]
    ldp     q10, q11, [x0, #160]
    ldp     q12, q13, [x0, #192]
    ldp     q14, q15, [x0, #224]
    ldp     q16, q17, [x0, #256]
    ldp     q18, q19, [x0, #288]
    ldp     q20, q21, [x0, #320]
    ldp     q22, q23, [x0, #352]
    ldp     q24, q25, [x0, #384]
    ldp     q26, q27, [x0, #416]
    ldp     q28, q29, [x0, #448]
    ldp     q30, q31, [x0, #480]
    ldr     x9, [x0, #512]
    msr     fpcr, x9
    ldr     x9, [x0, #520]
    msr     fpsr, x9
    tbnz    x20, #63, 1f
    mov     x8, x20
    mov     x0, x3
    svc     #0
1:  cbz     x21, 3f
2:  subs    x21, x21, #1
    b.ne    2b
3:
    stp     q0, q1, [x19, #0]
    stp     q2, q3, [x19, #32]
    stp     q4, q5, [x19, #64]
    stp     q6, q7, [x19, #96]
    stp     q8, q9, [x19, #128]
    stp     q10, q11, [x19, #160]
    stp     q12, q13, [x19, #192]
    stp     q14, q15, [x19, #224]
    stp     q16, q17, [x19, #256]
    stp     q18, q19, [x19, #288]
    stp     q20, q21, [x19, #320]
    stp     q22, q23, [x19, #352]
    stp     q24, q25, [x19, #384]
    stp     q26, q27, [x19, #416]
    stp     q28, q29, [x19, #448]
    stp     q30, q31, [x19, #480]
    mrs     x9, fpcr
    str     x9, [x19, #512]
    mrs     x9, fpsr
    str     x9, [x19, #520]
    msr     fpcr, xzr
    msr     fpsr, xzr
    ldp     d8, d9, [sp, #32]
    ldp     d10, d11, [sp, #48]
    ldp     d12, d13, [sp, #64]
    ldp     d14, d15, [sp, #80]
    ldr     x21, [sp, #16]
    ldp     x19, x20, [sp], #96
    ret

    .globl fpu_dump
fpu_dump:
    stp     q0, q1, [x0, #0]
    stp     q2, q3, [x0, #32]
    stp     q4, q5, [x0, #64]
    stp     q6, q7, [x0, #96]
    stp     q8, q9, [x0, #128]
    stp     q10, q11, [x0, #160]
    stp     q12, q13, [x0, #192]
    stp     q14, q15, [x0, #224]
    stp     q16, q17, [x0, #256]
    stp     q18, q19, [x0, #288]
    stp     q20, q21, [x0, #320]
    stp     q22, q23, [x0, #352]
    stp     q24, q25, [x0, #384]
    stp     q26, q27, [x0, #416]
    stp     q28, q29, [x0, #448]
    stp     q30, q31, [x0, #480]
    mrs     x9, fpcr
    str     x9, [x0, #512]
    mrs     x9, fpsr
    str     x9, [x0, #520]
    ret
    .section .note.GNU-stack, "", @progbits
