/* SPDX-License-Identifier: MIT */
/*
 * arch/arm64/switch.S - switching threads, and switching the kernel's
 * translation table.
 */
#include <arch/impl.h>

#define SWITCH_FRAME 112 /* x19-x28, x29, x30, SP_EL0, TPIDR_EL0: 14 registers */

/*
 * This thread's switch frame: x19-x30 and the user's SP_EL0 and TPIDR_EL0
 * pushed on its stack, the new sp stored at [x0]. One macro for both ways
 * out (arch_context_switch, arch_switch_to_user), so that either may resume
 * what the other saved. \a and \b: two scratch registers.
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

    .text
/*
 * void arch_context_switch(uintptr_t *save_sp, uintptr_t load_sp)
 *   x0: where to store this thread's stack pointer; x1: the next thread's
 *   saved stack pointer. Pushes the AAPCS64 callee-saved registers x19-x28,
 *   x29 (frame pointer) and x30 (return address) on this stack, and the
 *   user's SP_EL0 and TPIDR_EL0, swaps stacks, pops the next thread's and
 *   returns to its x30. The two user registers belong to the thread: the
 *   system call path (vectors.S, el0_svc) does not save them, since the
 *   kernel never changes them, so they must survive a switch here. The
 *   stack layout is the one arch_thread_init (thread.c) builds for a new
 *   thread. IRQs off throughout; x2, x3 clobbered.
 */
    .globl arch_context_switch
arch_context_switch:
    SAVE_SWITCH_FRAME x2, x3
    mov     sp, x1
    ldp     x2, x3, [sp, #96]
    msr     sp_el0, x2
    msr     tpidr_el0, x3
    ldp     x21, x22, [sp, #16]
    ldp     x23, x24, [sp, #32]
    ldp     x25, x26, [sp, #48]
    ldp     x27, x28, [sp, #64]
    ldp     x29, x30, [sp, #80]
    ldp     x19, x20, [sp], #SWITCH_FRAME
    ret

/*
 * void arch_switch_to_user(uintptr_t *save_sp, struct trapframe *tf, uint32_t *lock)
 *   x0: where to store this thread's stack pointer; x1: the trapframe of
 *   the thread to run, at the top of its kernel stack, complete (its
 *   callee-saved registers, SP_EL0 and TPIDR_EL0 stored by ipc_entry.S, its
 *   result in x0); x2: the sched_lock word. Saves this thread exactly as
 *   arch_context_switch does (the same frame, so arch_context_switch(...,
 *   *save_sp) later resumes it as if this function had returned), then
 *   moves to the other thread's stack, releases the lock and leaves to EL0
 *   through arm64_return_to_user (vectors.S): every register from tf, ERET.
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
    b       arm64_return_to_user_sp

/*
 * void arm64_replace_ttbr1(uint64_t root, uint64_t pa_minus_va)
 *   x0: the new TTBR1_EL1 (physical address of the kernel's root table);
 *   x1: physical minus virtual address of the kernel image. TTBR0_EL1 must
 *   still hold start.S's identity map, which maps the image executable.
 *   The old and new tables map the image with different block sizes, so
 *   no instruction may be fetched through TTBR1 while both sets of TLB
 *   entries may exist (a TLB conflict abort, Arm ARM "TLB conflict
 *   aborts"; the usual remedy is break-before-make). So this code jumps
 *   to its identity-mapped alias, changes TTBR1, invalidates the whole EL1
 *   TLB (TLBI VMALLE1, this CPU), and only then returns to the caller's
 *   high address. DSB ISHST first: the new tables' contents must be
 *   visible to the table walker. IRQs off; no stack use; x2 clobbered.
 */
    .globl arm64_replace_ttbr1
arm64_replace_ttbr1:
    dsb     ishst
    adr     x2, 1f
    add     x2, x2, x1
    br      x2
1:  msr     ttbr1_el1, x0
    isb
    tlbi    vmalle1
    dsb     nsh
    isb
    ret
