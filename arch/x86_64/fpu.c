/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/fpu.c - x87 and SSE state for user programs.
 *
 * User programs are built for the x86-64 baseline (SSE2) and the kernel for
 * no FP at all, so the registers belong to user threads: eight x87/MMX
 * registers, XMM0-XMM15, their control and status words and MXCSR, exactly
 * what one FXSAVE image holds (SDM vol. 1 10.5, "FXSAVE and FXRSTOR";
 * vol. 2A "FXSAVE", table 3-53). XSAVE is not used: the AVX and later
 * states it exists for stay off (CR4.OSXSAVE = 0 makes every VEX/EVEX
 * instruction #UD, SDM vol. 2A 2.3.7 / "Instruction Exception
 * Specification"), so 512 bytes cover all the state a program can touch.
 *
 * Eager switching (arch_fpu_switch, inline in impl.h): every switch saves
 * the outgoing user thread's image and loads the incoming one's. Lazy
 * switching (CR0.TS and #NM) would skip that for threads that do no FP,
 * but then a CPU holds another thread's state after the switch, and a
 * thread migrating to another CPU needs that CPU to give its registers
 * back first; eager has no such cases, and one FXSAVE64 + FXRSTOR64 costs
 * little next to the rest of a switch. x86 has no cheap "registers
 * changed" bit to skip the save with (that is XSAVEOPT, part of XSAVE).
 */
#include "kernel/arch_callbacks.h"
#include "lib/string.h"
#include "x86.h"

/* CR0 (SDM vol. 3A 2.5): MP with EM clear is "x87 present" (WAIT honours
 * TS); TS clear: no #NM, the state is always loaded (eager); NE: an
 * unmasked x87 exception raises #MF (vector 16), not the legacy IRQ 13. */
#define CR0_MP         (1ull << 1)
#define CR0_EM         (1ull << 2)
#define CR0_TS         (1ull << 3)
#define CR0_NE         (1ull << 5)
/* CR4 (SDM vol. 3A 2.5): OSFXSR lets FXSAVE/FXRSTOR cover XMM and MXCSR and
 * enables the SSE instructions (else #UD); OSXMMEXCPT makes an unmasked SIMD
 * FP exception #XM (vector 19) instead of #UD; OSXSAVE off, see above. */
#define CR4_OSFXSR     (1ull << 9)
#define CR4_OSXMMEXCPT (1ull << 10)
#define CR4_OSXSAVE    (1ull << 18)

/* Offsets in the FXSAVE image (table 3-53). */
#define FX_FCW        0
#define FX_MXCSR      24
/* The state FNINIT and reset give (SDM vol. 1 8.1.5 and 10.2.3): every x87
 * exception masked, 64-bit precision, round to nearest; every SIMD
 * exception masked, round to nearest, no flush-to-zero. The abridged tag
 * word 0 (all empty) and the zeroed registers complete it. */
#define FCW_DEFAULT   0x037f
#define MXCSR_DEFAULT 0x1f80

static void write_cr0(uint64_t v)
{
    __asm__ volatile("mov %0, %%cr0" : : "r"(v) : "memory");
}
static void write_cr4(uint64_t v)
{
    __asm__ volatile("mov %0, %%cr4" : : "r"(v) : "memory");
}

/* Every CPU as it starts, IRQs off: FP/SSE usable, exceptions reported. */
void x86_fpu_cpu_init(void)
{
    write_cr0((x86_read_cr0() & ~(CR0_EM | CR0_TS)) | CR0_MP | CR0_NE);
    write_cr4((x86_read_cr4() & ~CR4_OSXSAVE) | CR4_OSFXSR | CR4_OSXMMEXCPT);
}

void arch_fpu_init(struct arch_fpu *f)
{
    uint16_t fcw = FCW_DEFAULT;
    uint32_t mxcsr = MXCSR_DEFAULT;
    memset(f->fxsave, 0, sizeof(f->fxsave));
    memcpy(&f->fxsave[FX_FCW], &fcw, sizeof(fcw));
    memcpy(&f->fxsave[FX_MXCSR], &mxcsr, sizeof(mxcsr));
}

/* Why an x87 (#MF) or SIMD (#XM) exception happened, for the message that
 * ends the program: the status word's or MXCSR's flags, read while the
 * faulting thread's registers are still loaded. */
uint32_t x86_fpu_status(bool simd)
{
    uint32_t mxcsr = 0;
    uint16_t fsw = 0;
    if (simd)
        __asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
    else
        __asm__ volatile("fnstsw %0" : "=m"(fsw));
    return simd ? mxcsr : fsw;
}
