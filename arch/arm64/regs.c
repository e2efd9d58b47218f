/* SPDX-License-Identifier: MIT */
/* arch/arm64/regs.c - register dumps and frame-record walking for panic reports. */
#include "arm64.h"
#include "kernel/arch_callbacks.h"

void arch_print_regs(const struct trapframe *tf)
{
    for (int i = 0; i < 28; i += 4)
        kprintf("  x%-2d %016lx x%-2d %016lx x%-2d %016lx x%-2d %016lx\n", i, tf->x[i], i + 1,
                tf->x[i + 1], i + 2, tf->x[i + 2], i + 3, tf->x[i + 3]);
    kprintf("  x28 %016lx fp  %016lx lr  %016lx sp  %016lx\n", tf->x[28], tf->x[29], tf->x[30],
            tf->sp);
    kprintf("  elr %016lx spsr %08lx esr %08lx far %016lx\n", tf->elr, tf->spsr, tf->esr, tf->far);
    /* SPSR M[3:2] is the EL the exception came from, M[0] whether it ran on SP_ELx. */
    kprintf("  CurrentEL %lu, interrupted EL%lu on SP_EL%s, ", (READ_SYSREG(CurrentEL) >> 2) & 3,
            (tf->spsr >> 2) & 3, (tf->spsr & 1) ? "x" : "0");
    if (tf->vector == ~0ul)
        kprintf("registers captured by panic()\n");
    else
        kprintf("vector entry %lu\n", tf->vector);
}

/*
 * AAPCS64 frame records: with frame pointers, x29 points at a pair
 * {caller's x29, x30}, x30 being the return address into the caller.
 */
void arch_frame_next(uintptr_t fp, uintptr_t *caller_fp, uintptr_t *ret_pc)
{
    uint64_t prev, ret;
    /* Read safely: a corrupt chain ends the backtrace, not the panic report. */
    if (arch_safe_read64(fp, &prev) != 0 || arch_safe_read64(fp + 8, &ret) != 0)
        prev = ret = 0;
    *caller_fp = prev;
    *ret_pc = ret;
}
