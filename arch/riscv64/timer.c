/* SPDX-License-Identifier: MIT */
/*
 * arch/riscv64/timer.c - the scheduler tick.
 *
 * Tick: the supervisor timer interrupt (scause 5), pending while the time
 * CSR >= the hart's compare value. With the Sstc extension S mode owns that
 * value as the stimecmp CSR (0x14d; writing it also clears the pending
 * interrupt); without it the SBI TIME extension's set_timer asks the
 * firmware to program it. Sstc is used when the devicetree's riscv,isa or
 * riscv,isa-extensions names it and the CSR is accessible: the firmware
 * must also have set menvcfg.STCE, or the access is an illegal instruction,
 * which the probe survives through the exception table.
 */
#include "kernel/arch_callbacks.h"
#include "kernel/errno.h"
#include "lib/string.h"
#include "riscv.h"
#include "sbi.h"

static bool use_sstc;
static uint64_t period; /* time CSR ticks per scheduler tick */

/* Read stimecmp, surviving the illegal-instruction trap if S mode may not. */
static bool stimecmp_works(void)
{
    int err = 0;
    unsigned long v;
    __asm__ volatile("1: csrr %1, 0x14d\n"
                     "2:\n"
                     ".pushsection .text.fixup, \"ax\"\n"
                     "3: li %0, %2\n"
                     "   j 2b\n"
                     ".popsection\n" EXTABLE_ENTRY(1b, 3b)
                     : "+r"(err), "=r"(v)
                     : "i"(-EFAULT)
                     : "memory");
    return err == 0;
}

void riscv_timer_init(const struct fdt *f, uint32_t boot_hart)
{
    bool listed = (f && riscv_hart_has_ext(f, boot_hart, "sstc"));
    use_sstc = listed && stimecmp_works();
    kprintf("timer: %s\n", use_sstc ? "Sstc stimecmp"
                           : listed ? "SBI set_timer (Sstc listed, stimecmp not accessible)"
                                    : "SBI set_timer");
}

static void program(uint64_t when)
{
    arch_this_cpu()->arch.timer_deadline = when;
    if (use_sstc)
        __asm__ volatile("csrw 0x14d, %0" : : "r"(when) : "memory");
    else
        sbi_set_timer(when);
}

void arch_timer_start(unsigned hz)
{
    period = arch_counter_hz() / hz;
    program(arch_counter() + period);
    csr_set(sie, SIE_STIE | SIE_SSIE);
}

uint64_t arch_timer_hz(void)
{
    return arch_counter_hz(); /* stimecmp and set_timer compare with `time` */
}

/* Timer interrupt, IRQs off: the next deadline a period from now (not from
 * the last one, so a late tick never causes a burst), then the scheduler. */
void riscv_timer_interrupt(void)
{
    uint64_t now = arch_counter(), due = arch_this_cpu()->arch.timer_deadline;
    timer_fired(now > due ? now - due : 0);
    program(arch_counter() + period);
    sched_tick();
}
