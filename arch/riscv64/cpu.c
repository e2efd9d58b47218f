/* SPDX-License-Identifier: MIT */
/*
 * arch/riscv64/cpu.c - the early arch hooks: trap vector, per-CPU pointer,
 * and what the devicetree and the SBI firmware say.
 */
#include "kernel/arch_callbacks.h"
#include "lib/printf.h"
#include "riscv.h"
#include "sbi.h"

#define FDT_MAX_SIZE (4u << 20) /* as kernel/bootinfo.c: refuse larger claims */

extern char riscv_trap_entry[];
extern uint64_t kernel_phys_base; /* start.S */

static uint32_t boot_hart;
static long sbi_spec, sbi_impl, sbi_impl_ver;
static struct fdt fdt;

/* Let user mode read cycle, time and instret (scounteren CY, TM, IR: priv
 * spec 4.1.5), so benchmarks can time single calls; whether S mode itself
 * may, and so U mode, is up to the firmware's mcounteren. Every hart. */
void riscv_counters_init(void)
{
    csr_write(scounteren, 0x7);
}

/* Boot hart, interrupts off: sscratch = 0 ("in the kernel", vectors.S),
 * tp = this CPU, then stvec = the entry in direct mode (priv spec 4.1.2). */
void arch_early_init(struct cpu *boot_cpu)
{
    csr_write(sscratch, 0);
    __asm__ volatile("mv tp, %0" : : "r"(boot_cpu));
    csr_write(stvec, (uintptr_t)riscv_trap_entry);
    riscv_counters_init();
}

static const struct fdt *open_fdt(uint64_t phys)
{
    if (!phys)
        return NULL;
    const void *blob = phys_to_virt(phys);
    uint32_t size = fdt_header_size(blob);
    if (!size || size > FDT_MAX_SIZE || fdt_init(&fdt, blob, size) != FDT_OK)
        return NULL;
    return &fdt;
}

void arch_init(const struct boot_info *bi)
{
    const struct fdt *f = open_fdt(bi->fdt_phys);
    boot_hart = bi->boot_hartid;
    this_cpu()->hwid = boot_hart; /* IPIs address harts by id */
    riscv_time_init(f, boot_hart);
    riscv_timer_init(f, boot_hart);
    riscv_fpu_check(f, boot_hart);
    riscv_power_init(f);
    sbi_spec = sbi_spec_version();
    if (sbi_spec > 0) { /* BASE exists (SBI v0.2 and later) */
        sbi_impl = sbi_impl_id();
        sbi_impl_ver = sbi_impl_version();
    }
}

/* S mode cannot read mhartid: the id is what the loader passed in a0
 * (start.S -> kmain -> boot_info.boot_hartid), noted by arch_init. */
uint64_t arch_cpu_hwid(void)
{
    return boot_hart;
}

uint64_t arch_kernel_phys_base(void)
{
    return kernel_phys_base;
}

/* "OpenSBI 1.1, SBI 1.0, boot hart 0". OpenSBI encodes its version as
 * major << 16 | minor; other implementations are shown raw. */
void arch_describe_firmware(char *buf, size_t size)
{
    unsigned hart = boot_hart;
    if (sbi_spec <= 0) {
        snprintf(buf, size, "SBI v0.1 (legacy), boot hart %u", hart);
        return;
    }
    unsigned long major = (unsigned long)sbi_spec >> 24 & 0x7f, minor = sbi_spec & 0xffffff;
    if (sbi_impl == SBI_IMPL_OPENSBI)
        snprintf(buf, size, "OpenSBI %lu.%lu, SBI %lu.%lu, boot hart %u",
                 (unsigned long)sbi_impl_ver >> 16, (unsigned long)sbi_impl_ver & 0xffff, major,
                 minor, hart);
    else
        snprintf(buf, size, "%s %#lx, SBI %lu.%lu, boot hart %u", sbi_impl_name(sbi_impl),
                 (unsigned long)sbi_impl_ver, major, minor, hart);
}
