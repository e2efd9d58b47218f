/* SPDX-License-Identifier: MIT */
/*
 * arch/arm64/timer.c - the scheduler tick: the generic timer's virtual
 * timer (Arm ARM, "The Generic Timer in AArch64 state"; registers
 * CNTV_CTL_EL0 and CNTV_TVAL_EL0), free of any EL2 setup because it counts
 * CNTVCT_EL0. Its interrupt comes through irq.c.
 */
#include "arm64.h"
#include "kernel/arch_callbacks.h"

#define CNTV_CTL_ENABLE  (1u << 0) /* CNTV_CTL_EL0.ENABLE; IMASK (bit 1) = 0 */
#define CNTV_CTL_ISTATUS (1u << 2) /* the timer condition is met */

static uint64_t timer_period;

/* TVAL is a down-counter: writing it sets the compare value to now + period,
 * which also clears the (level) timer condition. */
static void timer_rearm(void)
{
    WRITE_SYSREG(cntv_tval_el0, timer_period);
    __asm__ volatile("isb" : : : "memory");
}

uint64_t arch_timer_hz(void)
{
    return arch_counter_hz(); /* the virtual timer counts CNTVCT_EL0 */
}

/* Every CPU (the boot CPU from kmain, the others from secondary_main), IRQs
 * off: this CPU's part of the GIC, with the IPIs and the tick enabled. */
void arch_timer_start(unsigned hz)
{
    arm64_irq_cpu_init();
    timer_period = arch_counter_hz() / hz;
    timer_rearm();
    WRITE_SYSREG(cntv_ctl_el0, CNTV_CTL_ENABLE);
    __asm__ volatile("isb" : : : "memory");
}

/* The timer's interrupt, IRQs masked: whether its condition was met (then
 * it is re-armed a period from now). */
bool arm64_timer_interrupt(void)
{
    bool fired = READ_SYSREG(cntv_ctl_el0) & CNTV_CTL_ISTATUS;
    if (fired) {
        /* CNTV_CVAL_EL0: the CNTVCT_EL0 value it fired at (TVAL's write
         * set it to the count then plus TVAL; Arm ARM D11.2.4). */
        uint64_t now = arch_counter(), due = READ_SYSREG(cntv_cval_el0);
        timer_fired(now > due ? now - due : 0);
        timer_rearm();
    }
    return fired;
}
