/* SPDX-License-Identifier: MIT */
/*
 * arch/arm64/fpu_regs.S - moving a user thread's FP/SIMD registers to and
 * from its struct arch_fpu (layout in impl.h: V0-V31 as 128-bit Q
 * registers, then FPCR, FPSR). The only FP/SIMD instructions in the kernel.
 *
 * void arm64_fpu_save(struct arch_fpu *f)
 * void arm64_fpu_load(const struct arch_fpu *f)
 *   x0: the area, 16-byte aligned. Clobbers x1. CPACR_EL1.FPEN
 *   must allow EL1 access (cpu.c). IRQs off. Leaf: no stack used.
 */
#include <arch/impl.h>

    .arch   armv8-a+fp+simd
    .text
    .globl arm64_fpu_save
arm64_fpu_save:
    mrs     x1, fpcr
    str     x1, [x0, #FPU_FPCR]
    mrs     x1, fpsr
    str     x1, [x0, #FPU_FPSR]
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
    ret

    .globl arm64_fpu_load
arm64_fpu_load:
    ldr     x1, [x0, #FPU_FPCR]
    msr     fpcr, x1
    ldr     x1, [x0, #FPU_FPSR]
    msr     fpsr, x1
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
    ret
    .section .note.GNU-stack, "", @progbits
