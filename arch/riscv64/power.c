/* SPDX-License-Identifier: MIT */
/*
 * arch/riscv64/power.c - stopping and powering off.
 *
 * In order of preference:
 *  1. the SiFive test device ("sifive,test0"; QEMU virt has one at
 *     0x100000): writing 0x5555 ends QEMU with status 0, and
 *     (status << 16) | 0x3333 ends it with `status` (boot-notes 6);
 *  2. SBI SRST system_reset(shutdown), reason "system failure" when
 *     status != 0 (SBI spec 10.1); the firmware picks the mechanism, and
 *     OpenSBI on QEMU exits 0 whatever the reason, hence 1 first. It
 *     returns an error where the board has no way to power off (SiFive's
 *     HiFive boards and QEMU's sifive_u model only reset);
 *  3. semihosting SYS_EXIT (RISC-V Semihosting spec, which reuses the Arm
 *     operation numbers): a debugger, or QEMU with -semihosting, ends the
 *     run with `status`; without one the ebreak is a breakpoint exception
 *     that the exception table resumes after;
 *  4. the legacy SBI shutdown call, for SBI v0.1 firmware;
 *  5. halt.
 */
#include "kernel/arch_callbacks.h"
#include "riscv.h"
#include "sbi.h"

#define SIFIVE_TEST_PASS 0x5555
#define SIFIVE_TEST_FAIL 0x3333 /* the exit status goes in bits 31:16 */

static uintptr_t sifive_test; /* virtual address of the register, 0 if none */

#define SEMIHOSTING_SYS_EXIT         0x18
#define ADP_STOPPED_APPLICATION_EXIT 0x20026

/* The call is the three uncompressed instructions slli x0,x0,31; ebreak;
 * srai x0,x0,7 in one page (the spec's "semihosting trap sequence"), with
 * the operation in a0 and, for SYS_EXIT on RV64, a0-a1's block of two
 * words: the reason and the status. */
static void semihosting_exit(int status)
{
    uint64_t block[2] = {ADP_STOPPED_APPLICATION_EXIT, (uint64_t)(int64_t)status};
    register uint64_t a0 __asm__("a0") = SEMIHOSTING_SYS_EXIT;
    register uint64_t a1 __asm__("a1") = (uintptr_t)block;
    __asm__ volatile(".option push\n"
                     ".option norvc\n"
                     ".balign 16\n"
                     "slli x0, x0, 0x1f\n"
                     "1: ebreak\n"
                     "srai x0, x0, 7\n"
                     ".option pop\n"
                     "2:\n" EXTABLE_ENTRY(1b, 2b)
                     : "+r"(a0)
                     : "r"(a1)
                     : "memory");
}

void riscv_power_init(const struct fdt *f)
{
    uint64_t base, size;
    int node = f ? fdt_find_compatible(f, -1, "sifive,test0") : -1;
    if (node < 0 || fdt_reg_cpu(f, node, 0, &base, &size, NULL) != 0)
        return;
    sifive_test = (uintptr_t)ioremap(base, 4); /* the direct map holds only RAM */
    kprintf("poweroff: sifive,test0 @ %#llx\n", (unsigned long long)base);
}

void arch_halt(void)
{
    arch_irq_save();
    csr_write(sie, 0); /* nothing enabled: WFI can only wait */
    for (;;)
        __asm__ volatile("wfi");
}

void arch_poweroff(int status)
{
    arch_irq_save();
    if (sifive_test)
        arch_mmio_write32(sifive_test,
                          status ? (uint32_t)status << 16 | SIFIVE_TEST_FAIL : SIFIVE_TEST_PASS);
    sbi_system_reset(SBI_RESET_SHUTDOWN, status ? SBI_REASON_SYSTEM_FAILURE : SBI_REASON_NONE);
    semihosting_exit(status);
    sbi_legacy_shutdown();
    kprintf("poweroff: no way to turn the machine off; halting\n");
    arch_halt();
}
