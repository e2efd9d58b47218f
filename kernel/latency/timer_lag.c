/* SPDX-License-Identifier: MIT */
/*
 * kernel/latency/timer_lag.c - how late the timer interrupt's handler runs.
 *
 * Each tick's arch handler (arch/<arch>: x86_64's x86_timer_rearm(),
 * arm64's arm64_irq(), riscv64's riscv_timer_interrupt()) calls
 * timer_fired() first, with the timer's counter now less the compare value
 * it had programmed: IA32_TSC_DEADLINE (Intel SDM vol. 3A 11.5.4.1; in
 * periodic mode, the initial count less the current count, 11.5.4),
 * CNTV_CVAL_EL0 (Arm ARM D11.2.4, "Timers") or stimecmp / the SBI
 * set_timer value (RISC-V privileged spec 3.2.1, SBI TIME). The interrupt
 * is raised when the counter reaches that value, so this is its latency in
 * the counter's own ticks (arch_timer_hz: the TSC or the APIC timer,
 * CNTVCT_EL0, `time`): the IRQs-off window the tick landed in, the CPU's
 * wake-up from its idle wait and the entry code. A per-CPU histogram, written by the tick with
 * IRQs off under the CPU's timer lock and read through SYS_latency_ctl
 * (LATENCY_TIMER, behind the debug gate), from the first LATENCY_ON on.
 */
#include "kernel/latency/latency.h"

#include "kernel/arch_callbacks.h"
#include "kernel/errno.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/spinlock.h"
#include "lib/hist.h"

static struct spinlock timer_lock[MAX_CPUS];

void timer_fired(uint64_t late)
{
    struct cpu *c = arch_this_cpu(); /* IRQs off: this CPU */
    struct hist *h = READ_ONCE(c->latency.timer);
    if (!h || late == TIMER_LATE_UNKNOWN)
        return;
    unsigned long flags = spin_lock_irqsave(&timer_lock[c->id]);
    hist_add(h, late);
    spin_unlock_irqrestore(&timer_lock[c->id], flags);
}

int latency_timer_allocate(struct cpu *c)
{
    if (c->latency.timer)
        return 0;
    uint64_t pa = page_alloc();
    if (!pa)
        return -ENOMEM;
    struct hist *h = page_va(pa);
    hist_reset(h);
    WRITE_ONCE(c->latency.timer, h);
    return 0;
}

int latency_timer_copy(long cpu, struct hist *out, bool reset)
{
    if (cpu < -1 || cpu >= MAX_CPUS)
        return -EINVAL;
    hist_reset(out);
    for (long i = 0; i < MAX_CPUS; i++) {
        struct hist *h = READ_ONCE(cpus[i].latency.timer);
        if ((cpu != -1 && i != cpu) || !h)
            continue;
        unsigned long flags = spin_lock_irqsave(&timer_lock[i]);
        hist_merge(out, h);
        if (reset)
            hist_reset(h);
        spin_unlock_irqrestore(&timer_lock[i], flags);
    }
    return 0;
}
