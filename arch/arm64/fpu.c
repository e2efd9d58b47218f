/* SPDX-License-Identifier: MIT */
/*
 * arch/arm64/fpu.c - FP/SIMD state for user programs.
 *
 * The kernel is built -mgeneral-regs-only, so V0-V31, FPCR and FPSR (Arm
 * ARM B1.2.2, "SIMD and floating-point registers") belong to user threads;
 * cpu.c starts every CPU with EL0's use trapping (CPACR_EL1.FPEN = 0b01).
 * SVE and SME stay off, so the 128-bit V registers are the whole state.
 *
 * Lazy loading: a switch loads nothing and makes EL0's FP/SIMD use trap
 * (CPACR_EL1.FPEN = 0b01); the thread's first FP instruction traps (EC
 * 0x07) into arm64_fpu_first_use, which loads its registers, lets EL0 use
 * them (FPEN = 0b11) and runs the instruction again. FPEN itself says
 * which of the two states the CPU is in (arm64_fp_live, impl.h). Arm has
 * no "registers changed" bit, so the switch away from a thread that
 * loaded its registers always saves them; a thread that did no FP since
 * it was switched in pays neither the load nor the save, nor a CPACR
 * write. Every switch saves what is live, so no CPU holds the only copy
 * of another thread's registers (a thread migrates freely), and the
 * thread switched in cannot read what is left in them: its use traps
 * until its own are loaded.
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

/* CPACR_EL1 writes take effect after a context synchronization event
 * (Arm ARM D19.2, "CPACR_EL1"): the ISB. */
static void el0_fp(unsigned long fpen)
{
    WRITE_SYSREG(cpacr_el1, fpen);
    __asm__ volatile("isb" : : : "memory");
}

_Static_assert((CPACR_EL1_FPEN_ON >> CPACR_EL1_FPEN_EL0_BIT) & 1, "arm64_fp_live (impl.h)");
_Static_assert(!((CPACR_EL1_FPEN_EL0_TRAP >> CPACR_EL1_FPEN_EL0_BIT) & 1), "arm64_fp_live");

/* arch_fpu_switch (impl.h, inline) found the registers loaded: save them
 * into prev (NULL: a kernel thread's, or a dead thread's, which nobody
 * reads) and make EL0's FP/SIMD use trap for the next thread. In the
 * switch, IRQs off. */
void arm64_fpu_switch_live(struct arch_fpu *prev)
{
    if (prev)
        arm64_fpu_save(prev);
    el0_fp(CPACR_EL1_FPEN_EL0_TRAP);
}

/* An exception from EL0, IRQs off: the trap. */
bool arm64_fpu_first_use(void)
{
    struct arch_fpu *f = current_user_fpu();
    if (!f || arm64_fp_live())
        return false; /* a kernel thread, or FP was on: not the lazy trap */
    arm64_fpu_load(f);
    el0_fp(CPACR_EL1_FPEN_ON);
    return true;
}
