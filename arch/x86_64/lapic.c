/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/lapic.c - the local APIC: per-CPU timer and inter-processor
 * interrupts (SDM vol. 3A chapter 11). Register offsets from table 11-1;
 * the xAPIC is memory mapped at the base in IA32_APIC_BASE (MSR 0x1b).
 * The legacy 8259 PICs are masked: every interrupt comes through the APIC.
 */
#include "kernel/arch_callbacks.h"
#include "x86.h"

#define MSR_APIC_BASE 0x1b
#define LAPIC_ID 0x020
#define LAPIC_EOI 0x0b0
#define LAPIC_SVR 0x0f0    /* spurious vector register; bit 8 enables the APIC */
#define LAPIC_ICR_LO 0x300 /* interrupt command */
#define LAPIC_ICR_HI 0x310
#define LAPIC_LVT_TIMER 0x320
#define LAPIC_TIMER_INIT 0x380
#define LAPIC_TIMER_CUR 0x390
#define LAPIC_TIMER_DIV 0x3e0
#define TIMER_PERIODIC (1u << 17)
#define ICR_PENDING (1u << 12)
#define ICR_ASSERT (1u << 14)

static uintptr_t lapic;
static uint32_t ticks_per_period; /* timer counts per scheduler tick */

static uint32_t rd(unsigned reg) { return arch_mmio_read32(lapic + reg); }
static void wr(unsigned reg, uint32_t v) { arch_mmio_write32(lapic + reg, v); }

static void mask_8259(void)
{
    arch_pio_write8(0x21, 0xff);
    arch_pio_write8(0xa1, 0xff);
}

/* APIC timer counts (divided by 16) per 1/hz seconds, measured against the TSC. */
static uint32_t calibrate(unsigned hz)
{
    wr(LAPIC_TIMER_DIV, 0x3); /* divide by 16 */
    wr(LAPIC_LVT_TIMER, 1u << 16 /* masked */);
    wr(LAPIC_TIMER_INIT, 0xffffffff);
    uint64_t end = arch_counter() + arch_counter_hz() / 100;
    while (arch_counter() < end)
        arch_cpu_relax();
    uint32_t counted = 0xffffffff - rd(LAPIC_TIMER_CUR);
    wr(LAPIC_TIMER_INIT, 0);
    return (uint32_t)((uint64_t)counted * 100 / hz);
}

uint32_t x86_lapic_id(void)
{
    return rd(LAPIC_ID) >> 24;
}

void x86_lapic_init(void)
{
    if (!lapic) {
        mask_8259();
        lapic = (uintptr_t)ioremap(x86_rdmsr(MSR_APIC_BASE) & ~0xfffull, 0x1000);
    }
    wr(LAPIC_SVR, 0x100 | VECTOR_SPURIOUS);
}

void arch_timer_start(unsigned hz)
{
    x86_lapic_init();
    if (!ticks_per_period)
        ticks_per_period = calibrate(hz);
    wr(LAPIC_TIMER_DIV, 0x3);
    wr(LAPIC_LVT_TIMER, TIMER_PERIODIC | VECTOR_TIMER);
    wr(LAPIC_TIMER_INIT, ticks_per_period);
}

void x86_lapic_eoi(void)
{
    wr(LAPIC_EOI, 0);
}

void x86_lapic_send(uint32_t apic_id, uint32_t icr)
{
    wr(LAPIC_ICR_HI, apic_id << 24);
    wr(LAPIC_ICR_LO, icr);
    while (rd(LAPIC_ICR_LO) & ICR_PENDING)
        arch_cpu_relax();
}

void arch_send_ipi(unsigned cpu, int kind)
{
    uint32_t vector = kind == IPI_STOP ? VECTOR_IPI_STOP : VECTOR_IPI_RESCHEDULE;
    x86_lapic_send((uint32_t)cpus[cpu].hwid, ICR_ASSERT | vector);
}
