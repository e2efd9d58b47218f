/* SPDX-License-Identifier: MIT */
/*
 * arch/arm64/switch_frame.h - a thread's switch frame, for the two ways a
 * thread leaves its CPU: arch_context_switch (switch.S) and
 * arch_switch_to_user (vectors.S). One macro, so that either may resume
 * what the other saved. Assembler only (so clang-format stays out).
 */
/* clang-format off */
#ifndef ARCH_ARM64_SWITCH_FRAME_H
#define ARCH_ARM64_SWITCH_FRAME_H

#define SWITCH_FRAME 112 /* x19-x28, x29, x30, SP_EL0, TPIDR_EL0: 14 registers */

/*
 * This thread's switch frame: x19-x30 and the user's SP_EL0 and TPIDR_EL0
 * pushed on its stack, the new sp stored at [x0]. \a and \b: two scratch
 * registers. The frame's layout is also arch_thread_init's (thread.c).
 */
.macro SAVE_SWITCH_FRAME a, b
    stp     x19, x20, [sp, #-SWITCH_FRAME]!
    stp     x21, x22, [sp, #16]
    stp     x23, x24, [sp, #32]
    stp     x25, x26, [sp, #48]
    stp     x27, x28, [sp, #64]
    stp     x29, x30, [sp, #80]
    mrs     \a, sp_el0
    mrs     \b, tpidr_el0
    stp     \a, \b, [sp, #96]
    mov     \a, sp
    str     \a, [x0]
.endm

/* clang-format on */
#endif
