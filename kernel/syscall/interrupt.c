/* SPDX-License-Identifier: MIT */
/*
 * kernel/syscall/interrupt.c - the kernel side of an interrupt, and the
 * periodic and background work of the system call path's subsystems.
 *
 * The arch's trap code calls interrupt_enter() first and interrupt_exit()
 * last (kernel/arch_callbacks.h); its timer handler calls tick(). tick()
 * and idle_work() are the one place that calls the scheduler's, the stack
 * offset strategies' and the latency timers' periodic work, so that none
 * of them calls another: kernel/kstack_offset/ and kernel/latency/ call
 * nothing above them, and the scheduler knows neither (it runs
 * idle_work() through the pointer sched_init() was given).
 */
#include "kernel/syscall/interrupt.h"

#include "kernel/arch_callbacks.h"
#include "kernel/kstack_offset/kstack_offset.h"
#include "kernel/latency/irqsoff.h"
#include "kernel/latency/latency.h"
#include "kernel/sched/sched.h"
#include "kernel/text_patch.h"

void interrupt_enter(void)
{
    struct cpu *c = arch_this_cpu(); /* IRQs are off: this CPU */
    irqsoff_entry();                 /* they were on until the CPU took it */
    c->interrupts++;
    /* Kept below 2^32, under the counter's bits in a stamp (latency.h). */
    c->latency.mark = (uint32_t)(c->latency.mark + LATENCY_MARK_IRQ);
    if (__builtin_expect(READ_ONCE(text_patch_generation) & 1, 0))
        text_patch_join(); /* another CPU is rewriting kernel code */
}

void interrupt_exit(void)
{
    sched_preempt_point();
    irqsoff_exit(); /* the interrupted code had IRQs on */
}

/* The latency timers' part of the tick, how late it came, is recorded
 * before this by the arch handler (timer_fired), which must read the
 * timer's compare value before it programs the next one. */
void tick(void)
{
    kstack_offset_tick(this_cpu());
    sched_tick();
}

bool idle_work(struct cpu *c)
{
    /* Top up the offset pool, else move timed samples into their
     * histograms: a step of either, then the idle loop looks again. */
    return kstack_offset_idle(c) || latency_idle(c);
}
