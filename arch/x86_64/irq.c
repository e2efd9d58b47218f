/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/irq.c - the local APIC: per-CPU timer and inter-processor
 * interrupts (SDM vol. 3A chapter 11). Register offsets from table 11-1.
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

#define MSR_APIC_BASE      0x1b
#define APIC_BASE_EXTD     (1ull << 10) /* x2APIC mode (SDM 11.12.1, figure 11-26) */
#define APIC_BASE_EN       (1ull << 11) /* APIC globally enabled */
#define CPUID1_ECX_X2APIC  (1u << 21)
#define MSR_X2APIC_BASE    0x800 /* + xAPIC offset / 16 (SDM table 11-6) */
#define MSR_X2APIC_ICR     0x830 /* one 64-bit register: destination in bits 63:32 */
#define LAPIC_EOI          0x0b0
#define LAPIC_SVR          0x0f0 /* spurious vector register; bit 8 enables the APIC */
#define LAPIC_ICR_LO       0x300 /* interrupt command */
#define LAPIC_ICR_HI       0x310
#define LAPIC_LVT_TIMER    0x320
#define LAPIC_TIMER_INIT   0x380
#define LAPIC_TIMER_CUR    0x390
#define LAPIC_TIMER_DIV    0x3e0
#define TIMER_PERIODIC     (1u << 17)
#define TIMER_TSC_DEADLINE (2u << 17)
#define MSR_TSC_DEADLINE   0x6e0
#define ICR_PENDING        (1u << 12)
#define ICR_ASSERT         (1u << 14)

static uintptr_t lapic;           /* xAPIC: the mapped register page */
static bool x2apic;               /* decided once, by the boot CPU; every CPU then uses that mode */
static uint32_t ticks_per_period; /* APIC timer counts per scheduler tick (periodic mode) */
static bool tsc_deadline;         /* CPUID.1:ECX[24]: the timer fires at a TSC value */
static uint64_t tsc_period;       /* TSC ticks per scheduler tick (deadline mode) */
static unsigned timer_hz;         /* scheduler ticks a second */

static uint32_t rd(unsigned reg)
{
    if (x2apic)
        return (uint32_t)x86_rdmsr(MSR_X2APIC_BASE + reg / 16);
    return arch_mmio_read32(lapic + reg);
}

static void wr(unsigned reg, uint32_t v)
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
    wr(LAPIC_SVR, 0x100 | VECTOR_SPURIOUS);
}

const char *x86_lapic_mode(void)
{
    return x2apic ? "x2APIC" : "xAPIC";
}

static const char *x86_timer_mode_name(void);

/* The next tick a period from now, in TSC-deadline mode. */
static void arm_deadline(void)
{
    uint64_t when = arch_counter() + tsc_period;
    arch_this_cpu()->arch.timer_deadline = when;
    x86_wrmsr(MSR_TSC_DEADLINE, when);
}

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
    timer_hz = hz;
    if (arch_this_cpu()->id == 0)
        kprintf("timer: local APIC (%s), %s mode, %u Hz\n", x86_lapic_mode(), x86_timer_mode_name(),
                hz);
    if (tsc_deadline) {
        tsc_period = arch_counter_hz() / hz;
        wr(LAPIC_LVT_TIMER, TIMER_TSC_DEADLINE | VECTOR_TIMER);
        __asm__ volatile("mfence" : : : "memory"); /* SDM: order the LVT write before the MSR */
        arm_deadline();
        return;
    }
    if (!ticks_per_period)
        ticks_per_period = calibrate(hz);
    wr(LAPIC_TIMER_DIV, 0x3);
    wr(LAPIC_LVT_TIMER, TIMER_PERIODIC | VECTOR_TIMER);
    wr(LAPIC_TIMER_INIT, ticks_per_period);
}

/* How long ago the timer raised this interrupt: in TSC-deadline mode the
 * TSC past the deadline it was armed for; in periodic mode the APIC
 * timer's counts since it reached 0 and reloaded (SDM vol. 3A 11.5.4). */
static uint64_t late(void)
{
    if (tsc_deadline) {
        uint64_t now = arch_counter(), due = arch_this_cpu()->arch.timer_deadline;
        return due ? (now > due ? now - due : 0) : TIMER_LATE_UNKNOWN;
    }
    return ticks_per_period - rd(LAPIC_TIMER_CUR);
}

uint64_t arch_timer_hz(void)
{
    return tsc_deadline ? arch_counter_hz() : (uint64_t)ticks_per_period * timer_hz;
}

/* Timer interrupt: say how late it is, then arm the next deadline
 * (periodic mode needs nothing). */
void x86_timer_rearm(void)
{
    timer_fired(late());
    if (tsc_deadline)
        arm_deadline();
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
    if (x2apic) {
        /* WRMSR to the x2APIC is not serializing (SDM 11.12.3): order the
         * stores the target will look at before the interrupt. There is no
         * delivery-status bit to wait for in x2APIC mode. */
        __asm__ volatile("mfence; lfence" : : : "memory");
        x86_wrmsr(MSR_X2APIC_ICR, (uint64_t)apic_id << 32 | icr);
        return;
    }
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
