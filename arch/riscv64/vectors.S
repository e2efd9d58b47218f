/* SPDX-License-Identifier: MIT */
/*
 * arch/riscv64/vectors.S - trap entry and exit (no policy here).
 *
 * stvec points at riscv_trap_entry in direct mode (priv spec 4.1.2): every
 * exception and interrupt arrives here; riscv_trap() in trap.c decides.
 *
 * The sscratch convention: while the kernel runs, tp = this CPU's struct
 * cpu and sscratch = 0; while user code runs (a later issue), sscratch =
 * the struct cpu and tp belongs to the user. Swapping tp with sscratch on
 * entry therefore tells the two apart in one instruction, without touching
 * any other register: tp != 0 afterwards means "came from user mode".
 */
#include <arch/impl.h>

/*
 * riscv_trap_entry - the trap vector.
 * Entry (set by the hart, priv spec 4.1.1, 4.1.7-4.1.9): sepc = PC of the
 *   trapping instruction (or where to resume after an interrupt), scause,
 *   stval; sstatus.SPP = previous mode, SPIE = previous SIE, SIE = 0. Every
 *   general register still holds the interrupted value.
 * Calls riscv_trap(tf) with a0 = struct trapframe on the interrupted
 *   (kernel) stack, interrupts off.
 * Exit: every register restored from the frame, including sepc and
 *   sstatus (the handler may move sepc, e.g. to an exception-table fix-up);
 *   sret returns to sepc in mode SPP with SIE = SPIE.
 */
    .text
    .balign 4                       /* stvec BASE: 4-byte aligned, MODE 0 */
    .globl riscv_trap_entry
riscv_trap_entry:
    /* Step 1: tp <-> sscratch. From the kernel tp is now 0: swap back. */
    csrrw   tp, sscratch, tp
    bnez    tp, .Lfrom_user
    csrrw   tp, sscratch, zero      /* tp = kernel tp again, sscratch = 0 */

    /* Step 2: a trapframe below the interrupted sp; save x1, x3-x31. */
    addi    sp, sp, -TF_SIZE
    sd      x1, TF_X(1)(sp)
    .irp n, 3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    sd      x\n, TF_X(\n)(sp)
    .endr
    sd      zero, TF_X(0)(sp)
    addi    t0, sp, TF_SIZE
    sd      t0, TF_X(2)(sp)         /* the sp the trapped code had */

    /* Step 3: the trap CSRs. */
    csrr    t0, sepc
    sd      t0, TF_SEPC(sp)
    csrr    t0, sstatus
    sd      t0, TF_SSTATUS(sp)
    csrr    t0, scause
    sd      t0, TF_SCAUSE(sp)
    csrr    t0, stval
    sd      t0, TF_STVAL(sp)

    /* Step 4: C decides. */
    mv      a0, sp
    call    riscv_trap

    /* Step 5: restore and return. */
    ld      t0, TF_SEPC(sp)
    csrw    sepc, t0
    ld      t0, TF_SSTATUS(sp)
    csrw    sstatus, t0
    ld      x1, TF_X(1)(sp)
    .irp n, 3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    ld      x\n, TF_X(\n)(sp)
    .endr
    ld      sp, TF_X(2)(sp)         /* last: it is the base of the loads */
    sret

.Lfrom_user:
    /* There is no user mode yet, so sscratch != 0 is a kernel bug (nothing
     * sets it). The later issue that adds user mode loads this CPU's kernel
     * stack from struct cpu (now in tp) here. Until then: stop. */
1:  wfi
    j       1b

/*
 * void arch_capture_regs(struct trapframe *tf) - the caller's registers,
 * for a panic report.
 * Entry: a0 = tf (so tf->a0 shows the pointer, not the caller's a0),
 *   ra = return address, which is stored as sepc: the caller's PC.
 * Exit: tf filled; sp is the caller's (a call does not move it); scause
 *   and stval are 0 (no trap happened). Clobbers t0. Leaf: no stack used.
 */
    .globl arch_capture_regs
arch_capture_regs:
    sd      zero, TF_X(0)(a0)
    .irp n, 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    sd      x\n, TF_X(\n)(a0)
    .endr
    sd      ra, TF_SEPC(a0)
    csrr    t0, sstatus
    sd      t0, TF_SSTATUS(a0)
    sd      zero, TF_SCAUSE(a0)
    sd      zero, TF_STVAL(a0)
    ret
