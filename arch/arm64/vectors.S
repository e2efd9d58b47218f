/* SPDX-License-Identifier: MIT */
/*
 * arch/arm64/vectors.S - exception entry (no policy here).
 *
 * VBAR_EL1 points at a table of 16 entries of 128 bytes, 2 KiB aligned
 * (Arm ARM, "Exception vectors"; VBAR_EL1 bits [10:0] are RES0): four groups
 * by where the exception came from (current EL on SP_EL0, current EL on
 * SP_EL1, lower EL in AArch64, lower EL in AArch32), each with four kinds
 * (synchronous, IRQ, FIQ, SError). Every entry makes room for a struct
 * trapframe (arch/arm64/include/arch/impl.h) on SP_EL1, saves x0/x1, puts
 * its entry number in x0 and branches to the common code, which saves the
 * rest and calls arm64_trap(tf). Lower-EL exceptions take the same path for
 * now; syscalls will be told apart in C.
 *
 * On any entry the CPU has set DAIF (all masked), saved the return address
 * in ELR_EL1 and PSTATE in SPSR_EL1, and switched to SP_EL1.
 */
#include <arch/impl.h>

/* Entry `idx`: x0/x1 saved in a new trapframe, x0 = idx, then `save`. */
.macro VENTRY idx, save
    .balign 128
    sub     sp, sp, #TF_SIZE
    stp     x0, x1, [sp, #TF_X(0)]
    mov     x0, #\idx
    b       \save
.endm

    .text
    .balign 2048
    .globl arm64_vectors
arm64_vectors:
    VENTRY  0, save_sp_el0          // current EL, SP_EL0: sync
    VENTRY  1, save_sp_el0          //   IRQ
    VENTRY  2, save_sp_el0          //   FIQ
    VENTRY  3, save_sp_el0          //   SError
    VENTRY  4, save_sp_el1          // current EL, SP_EL1: sync
    VENTRY  5, save_sp_el1          //   IRQ
    VENTRY  6, save_sp_el1          //   FIQ
    VENTRY  7, save_sp_el1          //   SError
    VENTRY  8, save_sp_el0          // lower EL, AArch64: sync
    VENTRY  9, save_sp_el0          //   IRQ
    VENTRY  10, save_sp_el0         //   FIQ
    VENTRY  11, save_sp_el0         //   SError
    VENTRY  12, save_sp_el0         // lower EL, AArch32: sync
    VENTRY  13, save_sp_el0         //   IRQ
    VENTRY  14, save_sp_el0         //   FIQ
    VENTRY  15, save_sp_el0         //   SError

/*
 * save_sp_el0 / save_sp_el1 / trap_common
 *   In:  sp = the trapframe (x0, x1 saved), x0 = entry number,
 *        every other register as the interrupted code left it.
 *   Saves x2-x30, the interrupted SP (SP_EL0, or SP_EL1 above the frame),
 *   ELR/SPSR/ESR/FAR_EL1 and the entry number; calls arm64_trap(tf); then
 *   restores everything from the frame (the handler may change elr, e.g. an
 *   exception-table fix-up, or sp when it came from SP_EL0) and returns
 *   with ERET.
 */
save_sp_el0:
    mrs     x1, sp_el0
    b       trap_common
save_sp_el1:
    add     x1, sp, #TF_SIZE
trap_common:
    stp     x2, x3, [sp, #TF_X(2)]
    stp     x4, x5, [sp, #TF_X(4)]
    stp     x6, x7, [sp, #TF_X(6)]
    stp     x8, x9, [sp, #TF_X(8)]
    stp     x10, x11, [sp, #TF_X(10)]
    stp     x12, x13, [sp, #TF_X(12)]
    stp     x14, x15, [sp, #TF_X(14)]
    stp     x16, x17, [sp, #TF_X(16)]
    stp     x18, x19, [sp, #TF_X(18)]
    stp     x20, x21, [sp, #TF_X(20)]
    stp     x22, x23, [sp, #TF_X(22)]
    stp     x24, x25, [sp, #TF_X(24)]
    stp     x26, x27, [sp, #TF_X(26)]
    stp     x28, x29, [sp, #TF_X(28)]
    stp     x30, x1, [sp, #TF_X(30)]    // x30, then the interrupted sp (TF_SP follows)
    mrs     x2, elr_el1
    mrs     x3, spsr_el1
    stp     x2, x3, [sp, #TF_ELR]
    mrs     x2, esr_el1
    mrs     x3, far_el1
    stp     x2, x3, [sp, #TF_ESR]
    str     x0, [sp, #TF_VECTOR]

    mov     x0, sp
    bl      arm64_trap

    ldp     x2, x3, [sp, #TF_ELR]
    msr     elr_el1, x2
    msr     spsr_el1, x3
    ldr     x0, [sp, #TF_VECTOR]
    and     x0, x0, #0xc            // the source group, times 4
    cmp     x0, #4
    b.eq    1f                      // current EL on SP_EL1: sp is this frame
    ldr     x1, [sp, #TF_SP]
    msr     sp_el0, x1
1:  ldp     x0, x1, [sp, #TF_X(0)]
    ldp     x2, x3, [sp, #TF_X(2)]
    ldp     x4, x5, [sp, #TF_X(4)]
    ldp     x6, x7, [sp, #TF_X(6)]
    ldp     x8, x9, [sp, #TF_X(8)]
    ldp     x10, x11, [sp, #TF_X(10)]
    ldp     x12, x13, [sp, #TF_X(12)]
    ldp     x14, x15, [sp, #TF_X(14)]
    ldp     x16, x17, [sp, #TF_X(16)]
    ldp     x18, x19, [sp, #TF_X(18)]
    ldp     x20, x21, [sp, #TF_X(20)]
    ldp     x22, x23, [sp, #TF_X(22)]
    ldp     x24, x25, [sp, #TF_X(24)]
    ldp     x26, x27, [sp, #TF_X(26)]
    ldp     x28, x29, [sp, #TF_X(28)]
    ldr     x30, [sp, #TF_X(30)]
    add     sp, sp, #TF_SIZE
    eret

/*
 * void arch_capture_regs(struct trapframe *tf)
 *   In: x0 = tf. A snapshot of the caller's registers for a panic report:
 *   x0-x30 as they are now, sp = the caller's sp, elr = x30 (where the
 *   caller resumes), spsr = NZCV | DAIF | CurrentEL | SPSel, which is the
 *   layout SPSR_EL1 would have; esr = far = 0, vector = -1 (not a trap).
 *   Clobbers x1, x2 (after saving them). No stack use.
 */
    .globl arch_capture_regs
arch_capture_regs:
    stp     x0, x1, [x0, #TF_X(0)]
    stp     x2, x3, [x0, #TF_X(2)]
    stp     x4, x5, [x0, #TF_X(4)]
    stp     x6, x7, [x0, #TF_X(6)]
    stp     x8, x9, [x0, #TF_X(8)]
    stp     x10, x11, [x0, #TF_X(10)]
    stp     x12, x13, [x0, #TF_X(12)]
    stp     x14, x15, [x0, #TF_X(14)]
    stp     x16, x17, [x0, #TF_X(16)]
    stp     x18, x19, [x0, #TF_X(18)]
    stp     x20, x21, [x0, #TF_X(20)]
    stp     x22, x23, [x0, #TF_X(22)]
    stp     x24, x25, [x0, #TF_X(24)]
    stp     x26, x27, [x0, #TF_X(26)]
    stp     x28, x29, [x0, #TF_X(28)]
    mov     x1, sp
    stp     x30, x1, [x0, #TF_X(30)]    // x30, sp
    mrs     x1, nzcv
    mrs     x2, daif
    orr     x1, x1, x2
    mrs     x2, CurrentEL
    orr     x1, x1, x2
    mrs     x2, spsel
    orr     x1, x1, x2
    stp     x30, x1, [x0, #TF_ELR]      // elr, spsr
    stp     xzr, xzr, [x0, #TF_ESR]     // esr, far
    mov     x1, #-1
    str     x1, [x0, #TF_VECTOR]
    ret
