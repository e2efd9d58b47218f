/* SPDX-License-Identifier: MIT */
/*
 * arch/riscv64/switch.S - switching kernel threads.
 *
 * A switched-out thread's stack holds a SWITCH_FRAME (impl.h): ra and
 * s0-s11, the psABI's callee-saved registers besides sp, and gp. The
 * kernel never uses gp (-mno-relax), so during a system call it still
 * holds the user's, which the system call path does not save (vectors.S):
 * it belongs to the thread and must survive a switch. tp is not in it:
 * tp is this CPU, not this thread (vectors.S).
 */
#include <arch/impl.h>

/*
 * void arch_context_switch(uintptr_t *save_sp, uintptr_t load_sp)
 * Entry: a0 = where to save this thread's sp, a1 = the next thread's saved
 *   sp; IRQs off, sched_lock held.
 * Exit: on the next thread's stack with its ra and s0-s11, returning to
 *   where it called arch_context_switch (or, the first time, to
 *   riscv_thread_start). Clobbers the caller-saved registers only.
 */
    .text
    .globl arch_context_switch
arch_context_switch:
    addi    sp, sp, -SWITCH_FRAME
    sd      ra, SWITCH_RA(sp)
    sd      gp, SWITCH_GP(sp)
    .irp n, 0,1,2,3,4,5,6,7,8,9,10,11
    sd      s\n, SWITCH_S(\n)(sp)
    .endr
    sd      sp, 0(a0)
    mv      sp, a1
    ld      ra, SWITCH_RA(sp)
    ld      gp, SWITCH_GP(sp)
    .irp n, 0,1,2,3,4,5,6,7,8,9,10,11
    ld      s\n, SWITCH_S(\n)(sp)
    .endr
    addi    sp, sp, SWITCH_FRAME
    ret

/*
 * riscv_thread_start - where a new thread's first switch returns to
 * (arch_thread_init builds the frame).
 * Entry: s1 = the thread's start function, s0 = 0, sp = the stack top
 *   minus the trapframe space; IRQs off, sched_lock held.
 * Exit: jumps to start() with ra = 0, so backtraces end there.
 */
    .globl riscv_thread_start
riscv_thread_start:
    li      ra, 0
    jr      s1
