/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/timer.c - the scheduler tick: the local APIC's timer (SDM
 * vol. 3A 11.5.4), in TSC-deadline mode where the CPU has it, else
 * periodic with a count calibrated against the TSC. The APIC's registers
 * are irq.c's (x86_lapic_read, x86_lapic_write).
 */
#include "kernel/arch_callbacks.h"
#include "x86.h"

#define LAPIC_LVT_TIMER    0x320
#define LAPIC_TIMER_INIT   0x380
#define LAPIC_TIMER_CUR    0x390
#define LAPIC_TIMER_DIV    0x3e0
#define TIMER_PERIODIC     (1u << 17)
#define TIMER_TSC_DEADLINE (2u << 17)
#define MSR_TSC_DEADLINE   0x6e0

static uint32_t ticks_per_period; /* APIC timer counts per scheduler tick (periodic mode) */
static bool tsc_deadline;         /* CPUID.1:ECX[24]: the timer fires at a TSC value */
static uint64_t tsc_period;       /* TSC ticks per scheduler tick (deadline mode) */
static unsigned timer_hz;         /* scheduler ticks a second */

/* APIC timer counts (divided by 16) per 1/hz seconds, measured against the TSC. */
static uint32_t calibrate(unsigned hz)
{
    x86_lapic_write(LAPIC_TIMER_DIV, 0x3); /* divide by 16 */
    x86_lapic_write(LAPIC_LVT_TIMER, 1u << 16 /* masked */);
    x86_lapic_write(LAPIC_TIMER_INIT, 0xffffffff);
    uint64_t end = arch_counter() + arch_counter_hz() / 100;
    while (arch_counter() < end)
        arch_cpu_relax();
    uint32_t counted = 0xffffffff - x86_lapic_read(LAPIC_TIMER_CUR);
    x86_lapic_write(LAPIC_TIMER_INIT, 0);
    return (uint32_t)((uint64_t)counted * 100 / hz);
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
        x86_lapic_write(LAPIC_LVT_TIMER, TIMER_TSC_DEADLINE | VECTOR_TIMER);
        __asm__ volatile("mfence" : : : "memory"); /* SDM: order the LVT write before the MSR */
        arm_deadline();
        return;
    }
    if (!ticks_per_period)
        ticks_per_period = calibrate(hz);
    x86_lapic_write(LAPIC_TIMER_DIV, 0x3);
    x86_lapic_write(LAPIC_LVT_TIMER, TIMER_PERIODIC | VECTOR_TIMER);
    x86_lapic_write(LAPIC_TIMER_INIT, ticks_per_period);
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
    return ticks_per_period - x86_lapic_read(LAPIC_TIMER_CUR);
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
