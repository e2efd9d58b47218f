/* SPDX-License-Identifier: MIT */
/* kernel/latency/irqsoff.c - the IRQs-off tracker (see irqsoff.h). */
#include "kernel/latency/irqsoff.h"

#include "kernel/cpu.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "lib/string.h"

#if CONFIG_IRQSOFF
static bool started; /* every CPU online, its counter set up (latency_init, bring-up) */

/* IRQs are masked, and were on until now. */
void irqsoff_opened(void)
{
    if (!READ_ONCE(started))
        return;
    struct irqsoff_cpu *w = &arch_this_cpu()->irqsoff; /* IRQs off: this CPU */
    w->opened = arch_timestamp_begin() | 1;            /* never 0, "none open" */
    w->opened_at = (uintptr_t)__builtin_return_address(0);
}

/* The longest window so far is `ticks` long, from w->opened_at to `to`. */
static void record(struct irqsoff_cpu *w, uint64_t ticks, uintptr_t to)
{
    WRITE_ONCE(w->seq, w->seq + 1);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    w->longest = ticks;
    w->from = w->opened_at;
    w->to = to;
    __atomic_thread_fence(__ATOMIC_RELEASE);
    WRITE_ONCE(w->seq, w->seq + 1);
}

/* IRQs are masked and about to be unmasked. */
void irqsoff_closing(void)
{
    if (!READ_ONCE(started))
        return;
    struct irqsoff_cpu *w = &arch_this_cpu()->irqsoff;
    if (!w->opened)
        return;
    uint64_t ticks = arch_timestamp_end() - w->opened;
    w->opened = 0;
    if (READ_ONCE(w->reset)) { /* start over; this window may have begun before the ask */
        record(w, 0, 0);
        w->windows = 0;
        WRITE_ONCE(w->reset, false);
        return;
    }
    w->windows++;
    if (ticks > w->longest)
        record(w, ticks, (uintptr_t)__builtin_return_address(0));
}

void irqsoff_start(void)
{
    WRITE_ONCE(started, true);
    kprintf("irqsoff: timing every IRQs-off window (make IRQSOFF=1)\n");
}

/* A consistent copy of w's longest window (the owner may be writing it). */
static void copy(const struct irqsoff_cpu *w, struct latency_irqsoff *out)
{
    uint32_t seq;
    do {
        while ((seq = READ_ONCE(w->seq)) & 1)
            arch_cpu_relax();
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        out->longest = w->longest;
        out->from = w->from;
        out->to = w->to;
        out->windows = READ_ONCE(w->windows);
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
    } while (READ_ONCE(w->seq) != seq);
}

int irqsoff_read(long cpu, struct latency_irqsoff *out, bool reset)
{
    if (cpu < 0 || cpu >= (long)cpus_present || !cpus[cpu].online)
        return -EINVAL;
    struct irqsoff_cpu *w = &cpus[cpu].irqsoff;
    memset(out, 0, sizeof(*out));
    if (!READ_ONCE(w->reset)) /* else nothing since the last reset yet */
        copy(w, out);
    if (reset)
        WRITE_ONCE(w->reset, true);
    return 0;
}
#else
void irqsoff_start(void) {}

int irqsoff_read(long cpu, struct latency_irqsoff *out, bool reset)
{
    return -ENOSYS;
}
#endif
