/* SPDX-License-Identifier: MIT */
/*
 * arch/arm64/fpu.c - FP/SIMD state for user programs.
 *
 * The kernel is built -mgeneral-regs-only, so V0-V31, FPCR and FPSR (Arm
 * ARM B1.2.2, "SIMD and floating-point registers") belong to user threads;
 * cpu.c lets EL0 use them (CPACR_EL1.FPEN = 0b11). SVE and SME stay off,
 * so the 128-bit V registers are the whole state.
 *
 * Eager switching: every switch saves the outgoing user thread's registers
 * and loads the incoming one's. Arm has no "registers changed" bit to skip
 * the save with; lazy switching (trapping the first FP instruction through
 * FPEN) would leave a CPU holding another thread's state after a switch,
 * which a thread migrating to another CPU would first have to get back;
 * 32 stores and loads of 128 bits are cheaper than that bookkeeping.
 */
#include "arm64.h"
#include "kernel/arch_callbacks.h"
#include "lib/string.h"

void arm64_fpu_save(struct arch_fpu *f);       /* fpu_regs.S */
void arm64_fpu_load(const struct arch_fpu *f); /* fpu_regs.S */

/* Everything 0: FPCR 0 is round to nearest, no flush-to-zero, default NaN
 * off, no exception traps; FPSR 0 is no cumulative exception flags. */
void arch_fpu_init(struct arch_fpu *f)
{
    memset(f, 0, sizeof(*f));
}

void arch_fpu_switch(struct arch_fpu *prev, struct arch_fpu *next)
{
    if (prev)
        arm64_fpu_save(prev);
    if (next)
        arm64_fpu_load(next);
}
