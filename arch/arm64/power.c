/* SPDX-License-Identifier: MIT */
/*
 * arch/arm64/power.c - stopping and powering off.
 *
 * First semihosting (Arm "Semihosting for AArch32 and AArch64"): in AArch64
 * state a call is HLT #0xF000 with the operation in w0 and a parameter in
 * x1. SYS_EXIT (0x18) takes a pointer to two 64-bit words, the reason
 * ADP_Stopped_ApplicationExit (0x20026) and the exit status; under QEMU
 * with -semihosting that status becomes QEMU's exit code. (SYS_EXIT_EXTENDED,
 * 0x20, exists because the AArch32 form of SYS_EXIT cannot pass a status;
 * the AArch64 form can.) Without a debugger or -semihosting, HLT is an
 * undefined instruction: the exception table resumes after it.
 * Then PSCI SYSTEM_OFF (0x84000008) through the conduit the devicetree
 * named; it does not return. Then, if nothing worked, halt.
 */
#include "arm64.h"
#include "kernel/arch_callbacks.h"

#define SEMIHOSTING_SYS_EXIT         0x18
#define ADP_STOPPED_APPLICATION_EXIT 0x20026

static void semihosting_exit(int status)
{
    uint64_t block[2] = {ADP_STOPPED_APPLICATION_EXIT, (uint64_t)(int64_t)status};
    register uint64_t x0 __asm__("x0") = SEMIHOSTING_SYS_EXIT;
    register uint64_t x1 __asm__("x1") = (uintptr_t)block;
    __asm__ volatile("1: hlt #0xf000\n"
                     "2:\n" EXTABLE_ENTRY(1b, 2b)
                     : "+r"(x0)
                     : "r"(x1)
                     : "memory");
}

void arch_halt(void)
{
    for (;;)
        __asm__ volatile("msr daifset, #0xf\n\twfi");
}

void arch_poweroff(int status)
{
    arch_irq_save();
    semihosting_exit(status);
    if (arm64_psci_conduit != PSCI_NONE)
        arm64_psci_call(PSCI_SYSTEM_OFF, 0, 0, 0);
    kprintf("poweroff: no way to turn the machine off; halting\n");
    arch_halt();
}
