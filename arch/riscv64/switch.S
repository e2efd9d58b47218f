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
 *   frame is saved: from then on only registers and the next thread's
 *   frame are touched (sp still points into this thread's stack, but
 *   nothing uses it: IRQs are off and no load from the frame can fault),
 *   so another CPU may take this thread at once. Then what
 *   riscv_return_to_user does, with a1 instead of sp as the frame's base
 *   (no move to sp, no jump): sscratch = tp for the next trap from U,
 *   sepc and sstatus, every register but x0 from tf, a1 last; sret. This
 *   call returns when a later arch_context_switch loads the frame saved
 *   here.
 */
    .globl arch_switch_to_user
arch_switch_to_user:
    save_context
    fence   rw, w
    sw      zero, 0(a2)
    .globl riscv_user_exit          /* (a name of its own for the traces: the exit stub) */
riscv_user_exit:
    csrw    sscratch, tp
    ld      t0, TF_SEPC(a1)
    csrw    sepc, t0
    ld      t0, TF_SSTATUS(a1)
    csrw    sstatus, t0
    .irp n, 1,2,3,4,5,6,7,8,9,10,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    ld      x\n, TF_X(\n)(a1)         /* all but x0 and a1 (x11), sp and tp included */
    .endr
    ld      a1, TF_X(11)(a1)        /* last: it is the base of the loads */
    sret

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
