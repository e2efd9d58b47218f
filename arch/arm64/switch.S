/* SPDX-License-Identifier: MIT */
/*
 * arch/arm64/switch.S - switching threads, and switching the kernel's
 * translation table.
 */
#include <arch/impl.h>

#include "switch_frame.h"

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
