/* SPDX-License-Identifier: MIT */
/*
 * arch/arm64/vectors.S - exception entry and return (no policy here).
 *
 * VBAR_EL1 points at a table of 16 entries of 128 bytes, 2 KiB aligned
 * (Arm ARM, "Exception vectors"; VBAR_EL1 bits [10:0] are RES0): four groups
 * by where the exception came from (current EL on SP_EL0, current EL on
 * SP_EL1, lower EL in AArch64, lower EL in AArch32), each with four kinds
 * (synchronous, IRQ, FIQ, SError). Every entry makes room for a struct
 * trapframe (arch/arm64/include/arch/impl.h) on SP_EL1, saves x0/x1, puts
 * its entry number in x0 and branches to the common code.
 *
 * On any entry the CPU has set DAIF (all masked), saved the return address
 * in ELR_EL1 and PSTATE in SPSR_EL1, set PSTATE.PAN if SCTLR_EL1.SPAN is 0,
 * and switched to SP_EL1. For an exception from EL0, SP_EL1 is the top of
 * the thread's kernel stack (the return path below leaves it there), so
 * the trapframe lands at kstack_top - sizeof(struct trapframe).
 *
 * Kernel (EL1) exceptions: save, arm64_trap(tf), restore, ERET.
 * User (EL0) exceptions:   an SVC takes the fast path el0_svc, which saves
 *   only the registers C may clobber and calls syscall_dispatch_<s>(tf);
 *   anything else saves everything (with SP_EL0) and calls arm64_trap(tf).
 *   Both return with IRQs off after user_return(); restore, ERET.
 */
#include <arch/impl.h>

#include "switch_frame.h"

#define ESR_EC_SHIFT 26 /* ESR_EL1.EC, bits [31:26] */
#define EC_SVC64 0x15   /* SVC instruction executed in AArch64 state */

/* Entry `idx`: x0/x1 saved in a new trapframe, x0 = idx, then `save`. */
.macro VENTRY idx, save
    .balign 128
    sub     sp, sp, #TF_SIZE
    stp     x0, x1, [sp, #TF_X(0)]
    mov     x0, #\idx
    b       \save
.endm

/*
 * Entry `idx` from EL1 on SP_EL1, where a kernel stack can have overflowed.
 * The exception did not move SP_EL1 (Arm ARM D1, "Exception entry": only
 * SPSel and PSTATE change), so if sp lies in the running thread's guard
 * page, or a trapframe would not fit above it, the first store would fault
 * again, and again, forever. So the check comes before any store. It needs
 * a register: x0 is parked in TPIDRRO_EL0, which the kernel uses for
 * nothing else and zeroes again at once (EL0 can read it). When it fires,
 * the entry moves to this CPU's emergency stack and el1_stack_overflow.
 * The guard page's base is worked out from the stack's top, which is all
 * the thread switch stores (arch_set_kernel_stack, impl.h: one instruction
 * less at every switch, one more here). 8 instructions more than VENTRY
 * on the normal path; system calls and other exceptions from EL0 do not
 * come here.
 */
.macro VENTRY_EL1 idx
    .balign 128
    msr     tpidrro_el0, x0
    mrs     x0, tpidr_el1                   // this CPU's struct cpu
    ldr     x0, [x0, #CPU_KSTACK_TOP]
    sub     x0, sp, x0                      // sp - top, modulo 2^64
    add     x0, x0, #KSTACK_GUARD_BELOW_TOP // sp above the guard page's base
    lsr     x0, x0, #4
    cmp     x0, #STACK_OVERFLOW_WINDOW      // (guard page + trapframe) / 16, unsigned
    b.lo    1f
    mrs     x0, tpidrro_el0
    msr     tpidrro_el0, xzr
    sub     sp, sp, #TF_SIZE
    stp     x0, x1, [sp, #TF_X(0)]
    mov     x0, #\idx
    b       save_sp_el1
1:  mrs     x0, tpidr_el1
    ldr     x0, [x0, #CPU_OVERFLOW_STACK]
    add     sp, sp, x0                      // swap sp and x0 without a third register:
    sub     x0, sp, x0                      //   x0 = the overflowed sp
    sub     sp, sp, x0                      //   sp = the emergency stack's top
    sub     sp, sp, #TF_SIZE
    stp     x0, x1, [sp, #TF_X(0)]          // x0's slot holds the overflowed sp for now
    mov     x0, #\idx
    b       el1_stack_overflow
.endm

    .text
    .balign 2048
    .globl arm64_vectors
arm64_vectors:
    VENTRY  0, save_sp_el0          // current EL, SP_EL0: sync (the kernel never runs on SP_EL0)
    VENTRY  1, save_sp_el0          //   IRQ
    VENTRY  2, save_sp_el0          //   FIQ
    VENTRY  3, save_sp_el0          //   SError
    VENTRY_EL1 4                    // current EL, SP_EL1: sync
    VENTRY_EL1 5                    //   IRQ
    VENTRY_EL1 6                    //   FIQ
    VENTRY_EL1 7                    //   SError
    .balign 128                     // lower EL, AArch64: sync (SVC, aborts, ...)
    sub     sp, sp, #TF_SIZE
    stp     x0, x1, [sp, #TF_X(0)]
    mrs     x0, esr_el1
    lsr     x0, x0, #ESR_EC_SHIFT
    cmp     x0, #EC_SVC64
    b.eq    el0_svc
    mov     x0, #8
    b       save_el0
    VENTRY  9, save_el0             //   IRQ
    VENTRY  10, save_el0            //   FIQ
    VENTRY  11, save_el0            //   SError
    VENTRY  12, save_el0            // lower EL, AArch32: sync (never: EL0 is AArch64 only)
    VENTRY  13, save_el0            //   IRQ
    VENTRY  14, save_el0            //   FIQ
    VENTRY  15, save_el0            //   SError

/* x2-x19 into their trapframe slots at sp: AAPCS64's caller-saved x2-x18,
 * and x19, which rides along in the last pair. SAVE_REST and el0_svc. */
.macro SAVE_X2_X19
    stp     x2, x3, [sp, #TF_X(2)]
    stp     x4, x5, [sp, #TF_X(4)]
    stp     x6, x7, [sp, #TF_X(6)]
    stp     x8, x9, [sp, #TF_X(8)]
    stp     x10, x11, [sp, #TF_X(10)]
    stp     x12, x13, [sp, #TF_X(12)]
    stp     x14, x15, [sp, #TF_X(14)]
    stp     x16, x17, [sp, #TF_X(16)]
    stp     x18, x19, [sp, #TF_X(18)]
.endm

/* x2-x17 back from the trapframe at sp. RESTORE_X and el0_svc. */
.macro LOAD_X2_X17
    ldp     x2, x3, [sp, #TF_X(2)]
    ldp     x4, x5, [sp, #TF_X(4)]
    ldp     x6, x7, [sp, #TF_X(6)]
    ldp     x8, x9, [sp, #TF_X(8)]
    ldp     x10, x11, [sp, #TF_X(10)]
    ldp     x12, x13, [sp, #TF_X(12)]
    ldp     x14, x15, [sp, #TF_X(14)]
    ldp     x16, x17, [sp, #TF_X(16)]
.endm

/*
 * SAVE_REST - In: sp = the trapframe (x0, x1 saved), x0 = entry number,
 *   x1 = the interrupted SP. Saves x2-x30, that SP, ELR/SPSR/ESR/FAR_EL1
 *   and the entry number. Out: x2 = ESR_EL1; x0-x30 otherwise unchanged.
 */
.macro SAVE_REST
    SAVE_X2_X19
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
.endm

/* RESTORE_X - x0-x30 from the trapframe at sp; pops it with the last
 * load (post-index: the pair at sp, then sp += TF_SIZE). */
.macro RESTORE_X
    LOAD_X2_X17
    ldp     x18, x19, [sp, #TF_X(18)]
    ldp     x20, x21, [sp, #TF_X(20)]
    ldp     x22, x23, [sp, #TF_X(22)]
    ldp     x24, x25, [sp, #TF_X(24)]
    ldp     x26, x27, [sp, #TF_X(26)]
    ldp     x28, x29, [sp, #TF_X(28)]
    ldr     x30, [sp, #TF_X(30)]
    ldp     x0, x1, [sp], #TF_SIZE
.endm

/*
 * save_sp_el0 / save_sp_el1 - kernel-mode exceptions (and the impossible
 *   "current EL on SP_EL0" group, which arm64_trap reports).
 *   In: sp = the trapframe, x0 = entry number. Calls arm64_trap(tf), then
 *   restores everything from the frame (the handler may change elr, e.g.
 *   an exception-table fix-up) and returns with ERET.
 */
save_sp_el0:
    mrs     x1, sp_el0
    b       kernel_trap
save_sp_el1:
    add     x1, sp, #TF_SIZE
kernel_trap:
    SAVE_REST
    mov     x0, sp
    bl      arm64_trap
    ldp     x2, x3, [sp, #TF_ELR]
    msr     elr_el1, x2
    msr     spsr_el1, x3
    RESTORE_X
    eret

/*
 * el1_stack_overflow - an exception from EL1 that found no room on its
 *   kernel stack (VENTRY_EL1 above); does not return.
 *   In: sp = a trapframe at the top of this CPU's emergency stack, x1
 *   saved in it and its x0 slot holding the overflowed sp; x0 = entry
 *   number; the interrupted x0 in TPIDRRO_EL0. Saves the rest as for any
 *   kernel trap (x29 stays the interrupted frame pointer, so the report's
 *   backtrace walks the overflowed stack) and calls arm64_stack_overflow(tf).
 */
el1_stack_overflow:
    ldr     x1, [sp, #TF_X(0)]
    SAVE_REST                           // clobbers x2, x3 once they are saved
    mrs     x2, tpidrro_el0
    msr     tpidrro_el0, xzr
    str     x2, [sp, #TF_X(0)]
    mov     x0, sp
    bl      arm64_stack_overflow

/*
 * save_el0 - exceptions from user mode other than SVC (entry 8 sends an
 *   SVC, ESR_EL1.EC 0x15, to el0_svc below).
 *   In: sp = the trapframe at the top of the kernel stack, x0 = entry
 *   number. Saves the user's registers including SP_EL0 and TPIDR_EL0
 *   (the user thread pointer), so that a fault report shows them all;
 *   clears x29 so kernel backtraces end here rather than wander into user
 *   memory. arm64_trap(tf) returns with IRQs off, user_return() done.
 */
save_el0:
    mrs     x1, sp_el0
    SAVE_REST
    mrs     x3, tpidr_el0
    str     x3, [sp, #TF_TPIDR]
    mov     x29, xzr
    mov     x0, sp
    bl      arm64_trap
    b       arm64_return_to_user_sp

/*
 * el0_svc - a system call (SVC from AArch64 EL0), the fast path.
 *   In: sp = the new trapframe, x0/x1 saved in it. Saves only what the C
 *   code may clobber: x2-x18 and x30 (AAPCS64 caller-saved; x19 rides
 *   along in a pair) and ELR/SPSR_EL1, which an interrupt taken during the
 *   call would overwrite. x19-x29 are preserved by every C function, and
 *   SP_EL0 and TPIDR_EL0 by the kernel (it never writes them; a thread
 *   switch saves them, switch.S). So the frame's other slots stay
 *   unwritten: only this path and syscall_dispatch (x0-x5, x8) read it.
 *   x29 is left as the user had it: backtraces stop at the first frame
 *   pointer that is not a kernel address. ELR_EL1 already points past the
 *   SVC (Arm ARM, "Exception entry": the preferred return address of a
 *   supervisor call is the next instruction).
 *   Out: x0 = syscall_dispatch_<s>(tf) (the copy in force: the kernel rewrites
 *   the BL), x1-x18 and x30 restored, ERET.
 */
el0_svc:
    SAVE_X2_X19
    str     x30, [sp, #TF_X(30)]
    mrs     x2, elr_el1
    mrs     x3, spsr_el1
    stp     x2, x3, [sp, #TF_ELR]
    mov     x0, sp
    .globl  arch_syscall_call_site
arch_syscall_call_site:
    bl      syscall_dispatch_off        // rewritten: kernel/syscall/path.c

    ldp     x2, x3, [sp, #TF_ELR]
    msr     elr_el1, x2
    msr     spsr_el1, x3
    ldr     x1, [sp, #TF_X(1)]
    LOAD_X2_X17
    ldr     x18, [sp, #TF_X(18)]
    ldr     x30, [sp, #TF_X(30)]
    add     sp, sp, #TF_SIZE
    eret

/*
 * void arm64_return_to_user(struct trapframe *tf)  (noreturn)
 *   In: x0 = a complete user trapframe at the top of this thread's kernel
 *   stack (kstack_top - sizeof *tf), IRQs off, user_return() done. Loads
 *   it (SP_EL0, TPIDR_EL0, x0-x30; ELR/SPSR_EL1) and ERETs to EL0.
 *   SP_EL1 ends at kstack_top: where the next exception from EL0 will
 *   build its frame.
 * arm64_return_to_user_sp: the same with the trapframe at sp (save_el0
 *   above, and arch_switch_to_user below, the IPC fastpath's direct
 *   resume, which runs into it).
 */
    .globl arm64_return_to_user
    .globl arm64_return_to_user_sp
arm64_return_to_user:
    mov     sp, x0
    b       arm64_return_to_user_sp

/*
 * void arch_switch_to_user(uintptr_t *save_sp, struct trapframe *tf, uint32_t *lock)
 *   x0: where to store this thread's stack pointer; x1: the trapframe of
 *   the thread to run, at the top of its kernel stack, complete (its
 *   callee-saved registers, SP_EL0 and TPIDR_EL0 stored by ipc_entry.S, its
 *   result in x0); x2: the sched_lock word. Saves this thread exactly as
 *   arch_context_switch does (SAVE_SWITCH_FRAME, switch_frame.h: so
 *   arch_context_switch(..., *save_sp) later resumes it as if this function
 *   had returned), then moves to the other thread's stack, releases the
 *   lock and runs into arm64_return_to_user_sp: every register from tf,
 *   ERET. Here, beside that code, so that it needs no branch.
 *   The release is a store-release of 0 (STLR, Arm ARM B2, "Load-Acquire,
 *   Store-Release"): every write this CPU made before it, this thread's
 *   frame included, is seen by a CPU that then takes the lock and resumes
 *   this thread; nothing on this stack is touched after it. IRQs off
 *   throughout (the ERET restores the user's PSTATE from tf's SPSR).
 *   Returns only when the saved context is resumed; x2-x4 clobbered.
 */
    .globl arch_switch_to_user
arch_switch_to_user:
    SAVE_SWITCH_FRAME x3, x4
    mov     sp, x1
    stlr    wzr, [x2]
arm64_return_to_user_sp:
    ldp     x2, x3, [sp, #TF_ELR]
    msr     elr_el1, x2
    msr     spsr_el1, x3
    ldp     x1, x2, [sp, #TF_SP]        // SP_EL0 and TPIDR_EL0, side by side
    msr     sp_el0, x1
    msr     tpidr_el0, x2
    RESTORE_X
    eret

/*
 * void arch_capture_regs(struct trapframe *tf)
 *   In: x0 = tf. A snapshot of the caller's registers for a panic report:
 *   x0-x30 as they are now, sp = the caller's sp, elr = x30 (where the
 *   caller resumes), spsr = NZCV | DAIF | CurrentEL | SPSel, which is the
 *   layout SPSR_EL1 would have; esr = far = tpidr = 0, vector = -1 (not
 *   a trap).
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
    str     xzr, [x0, #TF_TPIDR]
    mov     x1, #-1
    str     x1, [x0, #TF_VECTOR]        // not a trap
    ret
