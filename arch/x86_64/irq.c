/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/irq.c - the local APIC: this CPU's interrupt controller and
 * inter-processor interrupts (SDM vol. 3A chapter 11); its timer is
 * timer.c's. Register offsets from table 11-1.
 * Two ways in: the xAPIC, memory mapped at the base in IA32_APIC_BASE (MSR
 * 0x1b), with 8-bit APIC ids; and the x2APIC (SDM 11.12), the same
 * registers as MSRs 0x800 + offset / 16, with 32-bit ids, which machines
 * whose APIC ids pass 255 need. The x2APIC is used whenever the CPU has it
 * (CPUID.1:ECX[21]), and always if the firmware already switched to it
 * (IA32_APIC_BASE.EXTD set: the xAPIC window is then gone, SDM 11.12.1).
 * The legacy 8259 PICs are masked: every interrupt comes through the APIC.
 */
#include "kernel/arch_callbacks.h"
#include "x86.h"

#define MSR_APIC_BASE     0x1b
#define APIC_BASE_EXTD    (1ull << 10) /* x2APIC mode (SDM 11.12.1, figure 11-26) */
#define APIC_BASE_EN      (1ull << 11) /* APIC globally enabled */
#define CPUID1_ECX_X2APIC (1u << 21)
#define MSR_X2APIC_BASE   0x800 /* + xAPIC offset / 16 (SDM table 11-6) */
#define MSR_X2APIC_ICR    0x830 /* one 64-bit register: destination in bits 63:32 */
#define LAPIC_EOI         0x0b0
#define LAPIC_SVR         0x0f0 /* spurious vector register; bit 8 enables the APIC */
#define LAPIC_ICR_LO      0x300 /* interrupt command */
#define LAPIC_ICR_HI      0x310
#define ICR_PENDING       (1u << 12)
#define ICR_ASSERT        (1u << 14)

static uintptr_t lapic; /* xAPIC: the mapped register page */
static bool x2apic;     /* decided once, by the boot CPU; every CPU then uses that mode */

uint32_t x86_lapic_read(unsigned reg)
{
    if (x2apic)
        return (uint32_t)x86_rdmsr(MSR_X2APIC_BASE + reg / 16);
    return arch_mmio_read32(lapic + reg);
}

void x86_lapic_write(unsigned reg, uint32_t v)
{
    if (x2apic)
        x86_wrmsr(MSR_X2APIC_BASE + reg / 16, v);
    else
        arch_mmio_write32(lapic + reg, v);
}

static void mask_8259(void)
{
    arch_pio_write8(0x21, 0xff);
    arch_pio_write8(0xa1, 0xff);
}

static bool cpu_has_x2apic(void)
{
    uint32_t r[4];
    x86_cpuid(1, 0, r);
    return r[2] & CPUID1_ECX_X2APIC;
}

/* Boot CPU first, then each CPU as it starts (APs come up in xAPIC mode,
 * SDM 11.12.5; EN must already be set when EXTD is, 11.12.5 figure 11-27). */
void x86_lapic_init(void)
{
    uint64_t base = x86_rdmsr(MSR_APIC_BASE);
    if (arch_this_cpu()->id == 0 && !lapic && !x2apic) {
        mask_8259();
        x2apic = (base & APIC_BASE_EXTD) || cpu_has_x2apic();
        if (!x2apic)
            lapic = (uintptr_t)ioremap(base & ~0xfffull, 0x1000);
    }
    if (x2apic && !(base & APIC_BASE_EXTD))
        x86_wrmsr(MSR_APIC_BASE, base | APIC_BASE_EN | APIC_BASE_EXTD);
    x86_lapic_write(LAPIC_SVR, 0x100 | VECTOR_SPURIOUS);
}

const char *x86_lapic_mode(void)
{
    return x2apic ? "x2APIC" : "xAPIC";
}

void x86_lapic_eoi(void)
{
    x86_lapic_write(LAPIC_EOI, 0);
}

void x86_lapic_send(uint32_t apic_id, uint32_t icr)
{
    if (x2apic) {
        /* WRMSR to the x2APIC is not serializing (SDM 11.12.3): order the
         * stores the target will look at before the interrupt. There is no
         * delivery-status bit to wait for in x2APIC mode. */
        __asm__ volatile("mfence; lfence" : : : "memory");
        x86_wrmsr(MSR_X2APIC_ICR, (uint64_t)apic_id << 32 | icr);
        return;
    }
    x86_lapic_write(LAPIC_ICR_HI, apic_id << 24);
    x86_lapic_write(LAPIC_ICR_LO, icr);
    while (x86_lapic_read(LAPIC_ICR_LO) & ICR_PENDING)
        arch_cpu_relax();
}

void arch_send_ipi(unsigned cpu, int kind)
{
    uint32_t vector = kind == IPI_STOP ? VECTOR_IPI_STOP : VECTOR_IPI_RESCHEDULE;
    x86_lapic_send((uint32_t)cpus[cpu].hwid, ICR_ASSERT | vector);
}
