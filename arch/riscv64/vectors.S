/* SPDX-License-Identifier: MIT */
/*
 * arch/riscv64/vectors.S - trap entry and exit (no policy here).
 *
 * stvec points at riscv_trap_entry in direct mode (priv spec 4.1.2): every
 * exception and interrupt arrives here; riscv_trap() in trap.c decides.
 *
 * The sscratch convention: while the kernel runs, tp = this CPU's struct
 * cpu and sscratch = 0; while user code runs, sscratch = this CPU's struct
 * cpu and tp (like every other register) belongs to the user. Swapping tp
 * with sscratch on entry therefore tells the two apart in one instruction,
 * without touching any other register: tp != 0 afterwards means "came from
 * user mode", and tp is then already the kernel's. tp is per CPU, not per
 * thread: arch_context_switch leaves it alone and the kernel path below
 * never reloads it, so a thread that resumes on another CPU sees that CPU.
 */
#include <arch/impl.h>

#define SSTATUS_SUM (1 << 18)       /* priv spec 4.1.1 */
#define CAUSE_ECALL_U 8             /* scause: environment call from U-mode */

/* Save x0 (as 0), x1, x3 and x5-x31 into the trapframe at sp. */
.macro save_regs
    sd      zero, TF_X(0)(sp)
    sd      x1, TF_X(1)(sp)
    sd      x3, TF_X(3)(sp)
    .irp n, 5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    sd      x\n, TF_X(\n)(sp)
    .endr
.endm

/* The trap CSRs into the frame; then SUM = 0, so that the handler never
 * reaches user pages by accident, even when the trap interrupted a user
 * copy (whose saved SUM = 1 comes back with the frame's sstatus). */
.macro save_csrs
    csrr    t0, sepc
    sd      t0, TF_SEPC(sp)
    csrr    t0, sstatus
    sd      t0, TF_SSTATUS(sp)
    csrr    t0, scause
    sd      t0, TF_SCAUSE(sp)
    csrr    t0, stval
    sd      t0, TF_STVAL(sp)
    li      t0, SSTATUS_SUM
    csrc    sstatus, t0
.endm

/* sepc and sstatus, then x1, x3, x5-x31 from the frame at sp (not tp or sp). */
.macro restore_regs
    ld      t0, TF_SEPC(sp)
    csrw    sepc, t0
    ld      t0, TF_SSTATUS(sp)
    csrw    sstatus, t0
    ld      x1, TF_X(1)(sp)
    ld      x3, TF_X(3)(sp)
    .irp n, 5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    ld      x\n, TF_X(\n)(sp)
    .endr
.endm

/*
 * riscv_trap_entry - the trap vector.
 * Entry (set by the hart, priv spec 4.1.1, 4.1.7-4.1.9): sepc = PC of the
 *   trapping instruction (or where to resume after an interrupt), scause,
 *   stval; sstatus.SPP = previous mode, SPIE = previous SIE, SIE = 0. Every
 *   general register still holds the interrupted value.
 * From S mode: the trapframe goes below the interrupted sp (kernel stack).
 * From U mode: the trapframe is the top TF_SIZE bytes of the thread's
 *   kernel stack (cpu->arch.kstack_top), with the user's sp and tp in it.
 * Calls riscv_trap(tf): a0 = tf, interrupts off, tp = this CPU, sscratch
 *   = 0; for traps from U also s0 = 0 (backtraces stop at the boundary).
 * Exit: to S mode, every register restored from the frame except tp, which
 *   stays this CPU's; to U mode through riscv_return_to_user. sepc and
 *   sstatus come from the frame too (the handler may move sepc, e.g. to an
 *   exception-table fix-up); sret returns to sepc in mode SPP, SIE = SPIE.
 */
    .text
    .balign 4                       /* stvec BASE: 4-byte aligned, MODE 0 */
    .globl riscv_trap_entry
riscv_trap_entry:
    /* tp <-> sscratch. From the kernel tp is now 0: swap back. */
    csrrw   tp, sscratch, tp
    bnez    tp, .Lfrom_user
    csrrw   tp, sscratch, zero      /* tp = kernel tp again, sscratch = 0 */

    /* A trap taken in S mode does not change sp (priv spec 4.1: only the
     * CSRs above and the PC), so if the kernel stack has run into its
     * guard page, or a trapframe would not fit above it, the frame store
     * would fault again, forever. Check before touching the stack (t0
     * goes to per-CPU memory meanwhile; 8 instructions), and if so move
     * to this CPU's emergency stack. The guard page's base is a constant
     * below the running thread's stack top (impl.h), so the switch keeps
     * one per-CPU word, not two. Traps from U mode start at the top of a
     * fresh stack: that path is not checked. */
    sd      t0, CPU_SCRATCH(tp)
    ld      t0, CPU_KSTACK_TOP(tp)
    sub     t0, sp, t0              /* sp below its stack's top: negative */
    srai    t0, t0, 4
    addi    t0, t0, STACK_GUARD_BELOW_TOP_16 /* (sp - the guard page's base) / 16 */
    sltiu   t0, t0, STACK_OVERFLOW_WINDOW /* (guard page + trapframe) / 16, unsigned */
    bnez    t0, .Lstack_overflow
    ld      t0, CPU_SCRATCH(tp)

    addi    sp, sp, -TF_SIZE
    save_regs
    sd      tp, TF_X(4)(sp)         /* for the register dump only */
    addi    t0, sp, TF_SIZE
    sd      t0, TF_X(2)(sp)         /* the sp the trapped code had */
    save_csrs
    mv      a0, sp
    call    riscv_trap
    restore_regs
    ld      sp, TF_X(2)(sp)         /* last: it is the base of the loads */
    sret

/*
 * .Lstack_overflow - a trap from S mode that found no room on its kernel
 *   stack; does not return. Entry: tp = this CPU, t0 in CPU_SCRATCH(tp),
 *   sp = the overflowed stack. Saves everything in a frame at the top of
 *   the emergency stack, the overflowed sp in its sp slot (s0 stays the
 *   interrupted frame pointer, so the report's backtrace walks the
 *   overflowed stack), and calls riscv_stack_overflow(tf).
 */
.Lstack_overflow:
    mv      t0, sp
    ld      sp, CPU_OVERFLOW_STACK(tp)
    addi    sp, sp, -TF_SIZE
    sd      t0, TF_X(2)(sp)
    ld      t0, CPU_SCRATCH(tp)
    save_regs
    sd      tp, TF_X(4)(sp)
    save_csrs
    mv      a0, sp
    call    riscv_stack_overflow

.Lfrom_user:
    /* tp = struct cpu, sscratch = user tp, sp = user sp. */
    sd      sp, CPU_USER_SP(tp)
    ld      sp, CPU_KSTACK_TOP(tp)
    addi    sp, sp, -TF_SIZE
    sd      t0, TF_X(5)(sp)
    csrr    t0, scause
    addi    t0, t0, -CAUSE_ECALL_U
    beqz    t0, .Lsyscall
    ld      t0, TF_X(5)(sp)
    save_regs
    ld      t0, CPU_USER_SP(tp)
    sd      t0, TF_X(2)(sp)
    csrrw   t0, sscratch, zero      /* the user's tp; sscratch = 0: kernel */
    sd      t0, TF_X(4)(sp)
    save_csrs
    li      s0, 0
    mv      a0, sp
    call    riscv_trap              /* returns with IRQs off */
    j       .Lto_user

/*
 * .Lsyscall - an ecall from U mode, the fast path.
 * Entry: sp = the new trapframe, t0 saved in it, tp = this CPU.
 *   Saves only what the C code may clobber: ra, t0-t6, a0-a7 (the psABI's
 *   caller-saved registers), the user's sp and tp (the kernel's differ),
 *   and sepc and sstatus, which a trap taken during the call would
 *   overwrite. s0-s11 are preserved by every C function and gp by the
 *   kernel, which never uses it (a thread switch saves it, switch.S), so
 *   their slots stay unwritten (but by ipc_call and ipc_reply_recv, whose
 *   table entries fill them for a direct resume: ipc_entry.S): only this
 *   path and syscall_dispatch (a0-a5, a7) read the frame on the way back. s0 is left as the user had it: backtraces stop at
 *   the first frame pointer that is not a kernel address. sstatus.SUM is
 *   already 0: a return to U mode always restores a frame saved from U
 *   mode, where it was 0, so the clear that other traps need is skipped.
 *   sepc is the ecall itself (priv spec 3.3.1): resume 4 bytes on.
 * Exit: a0 = syscall_dispatch_<s>(tf) (the copy in force: the kernel rewrites
 *   the call), everything else as it was, sret.
 */
.Lsyscall:
    sd      ra, TF_X(1)(sp)
    sd      t1, TF_X(6)(sp)
    sd      t2, TF_X(7)(sp)
    .irp n, 10,11,12,13,14,15,16,17,28,29,30,31
    sd      x\n, TF_X(\n)(sp)
    .endr
    ld      t0, CPU_USER_SP(tp)
    sd      t0, TF_X(2)(sp)
    csrrw   t0, sscratch, zero      /* the user's tp; sscratch = 0: kernel */
    sd      t0, TF_X(4)(sp)
    csrr    t0, sepc
    addi    t0, t0, 4
    sd      t0, TF_SEPC(sp)
    csrr    t0, sstatus
    sd      t0, TF_SSTATUS(sp)
    mv      a0, sp
    .option push
    .option norelax                 /* auipc + jalr, as text_patch.c expects */
    .globl  arch_syscall_call_site
arch_syscall_call_site:
    call    syscall_dispatch_off    /* rewritten: kernel/syscall/path.c */
    .option pop
    csrw    sscratch, tp
    ld      t0, TF_SEPC(sp)
    csrw    sepc, t0
    ld      t0, TF_SSTATUS(sp)
    csrw    sstatus, t0
    ld      ra, TF_X(1)(sp)
    .irp n, 5,6,7,11,12,13,14,15,16,17,28,29,30,31
    ld      x\n, TF_X(\n)(sp)
    .endr
    ld      tp, TF_X(4)(sp)
    ld      sp, TF_X(2)(sp)
    sret

/*
 * void riscv_return_to_user(struct trapframe *tf) - enter or resume U mode.
 * Entry: a0 = a complete user trapframe (its sstatus has SPP = 0, SIE = 0)
 *   at the top of this thread's kernel stack; IRQs off; tp = this CPU.
 * Exit: sscratch = tp, for the next trap from U; every register, the
 *   user's tp, gp and sp included, loaded from the frame; sret to U mode.
 *   Nothing here may trap once sscratch is set (the entry would take the
 *   trap for one from U): only loads from the kernel stack follow.
 */
    .globl riscv_return_to_user
riscv_return_to_user:
    mv      sp, a0
.Lto_user:
    csrw    sscratch, tp
    restore_regs
    ld      tp, TF_X(4)(sp)
    ld      sp, TF_X(2)(sp)
    sret

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
