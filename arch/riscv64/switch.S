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

/* This thread's context onto its stack, sp into *a0: a SWITCH_FRAME, the
 * layout arch_context_switch loads. Clobbers nothing else. */
.macro save_context
    addi    sp, sp, -SWITCH_FRAME
    sd      ra, SWITCH_RA(sp)
    sd      gp, SWITCH_GP(sp)
    .irp n, 0,1,2,3,4,5,6,7,8,9,10,11
    sd      s\n, SWITCH_S(\n)(sp)
    .endr
    sd      sp, 0(a0)
.endm

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
    save_context
    mv      sp, a1
    ld      ra, SWITCH_RA(sp)
    ld      gp, SWITCH_GP(sp)
    .irp n, 0,1,2,3,4,5,6,7,8,9,10,11
    ld      s\n, SWITCH_S(\n)(sp)
    .endr
    addi    sp, sp, SWITCH_FRAME
    ret

/*
 * void arch_switch_to_user(uintptr_t *save_sp, struct trapframe *tf,
 *                          uint32_t *lock)
 * The IPC fastpath's direct resume: leave this thread as
 * arch_context_switch would, and run the thread whose user trapframe is tf
 * straight in user mode, without going back through its kernel frames.
 * Entry: a0 = where to save this thread's sp, a1 = the next thread's user
 *   trapframe (every register in it, s0-s11 and gp included: ipc_entry.S),
 *   a2 = the sched_lock word; IRQs off, sched_lock held, the next thread
 *   already this CPU's (kernel stack, address space, FP state).
 * Exit: none here. The lock is released (a RISC-V release store, ISA
 *   appendix A "RVWMO Mappings": FENCE RW,W before the store) once the
 *   frame is saved and sp has left this thread's stack: from then on only
 *   registers and the next thread's stack are touched, so another CPU may
 *   take this thread at once. U mode is entered through the tail of
 *   riscv_return_to_user, a0 (the result) and every other register from
 *   tf. This call returns when a later arch_context_switch loads the frame
 *   saved here.
 */
    .globl arch_switch_to_user
arch_switch_to_user:
    save_context
    mv      sp, a1                  /* off this thread's stack before another CPU may take it */
    fence   rw, w
    sw      zero, 0(a2)
    j       riscv_user_exit         /* riscv_return_to_user, sp already set */

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
