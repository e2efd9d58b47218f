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
#define TIMER_TSC_DEADLINE (2u << 17)
#define MSR_TSC_DEADLINE 0x6e0
#define ICR_PENDING (1u << 12)
#define ICR_ASSERT (1u << 14)

static uintptr_t lapic;
static uint32_t ticks_per_period; /* APIC timer counts per scheduler tick (periodic mode) */
static bool tsc_deadline;         /* CPUID.1:ECX[24]: the timer fires at a TSC value */
static uint64_t tsc_period;       /* TSC ticks per scheduler tick (deadline mode) */

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

static const char *x86_timer_mode_name(void);

/*
 * The tick. With TSC-deadline mode (SDM vol. 3A 11.5.4.1) the timer fires
 * when the TSC reaches IA32_TSC_DEADLINE, so no calibration against the
 * APIC's own clock is needed and each tick is re-armed from the TSC;
 * otherwise the APIC timer runs in periodic mode with a calibrated count.
 */
void arch_timer_start(unsigned hz)
{
    uint32_t r[4];
    x86_lapic_init();
    x86_cpuid(1, 0, r);
    tsc_deadline = r[2] & (1u << 24);
    if (arch_this_cpu()->id == 0)
        kprintf("timer: local APIC, %s mode, %u Hz\n", x86_timer_mode_name(), hz);
    if (tsc_deadline) {
        tsc_period = arch_counter_hz() / hz;
        wr(LAPIC_LVT_TIMER, TIMER_TSC_DEADLINE | VECTOR_TIMER);
        __asm__ volatile("mfence" : : : "memory"); /* SDM: order the LVT write before the MSR */
        x86_wrmsr(MSR_TSC_DEADLINE, arch_counter() + tsc_period);
        return;
    }
    if (!ticks_per_period)
        ticks_per_period = calibrate(hz);
    wr(LAPIC_TIMER_DIV, 0x3);
    wr(LAPIC_LVT_TIMER, TIMER_PERIODIC | VECTOR_TIMER);
    wr(LAPIC_TIMER_INIT, ticks_per_period);
}

/* Timer interrupt: arm the next deadline (periodic mode needs nothing). */
void x86_timer_rearm(void)
{
    if (tsc_deadline)
        x86_wrmsr(MSR_TSC_DEADLINE, arch_counter() + tsc_period);
}

static const char *x86_timer_mode_name(void)
{
    return tsc_deadline ? "TSC-deadline" : "periodic";
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
