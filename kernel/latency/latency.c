/* SPDX-License-Identifier: MIT */
/* kernel/latency/latency.c - the system call latency timers (see latency.h). */
#include "kernel/latency/latency.h"

#include "kernel/arch_callbacks.h"
#include "kernel/errno.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "lib/hist.h"
#include "lib/string.h"

_Static_assert(sizeof(struct hist) <= PAGE_SIZE, "a histogram fits in one page");

bool latency_on;
static uint64_t read_cost;     /* ticks of an empty begin/end pair */
static unsigned long migrated; /* samples dropped (approximate: not atomic) */
static struct spinlock switch_lock = SPINLOCK_INIT;

void interrupt_enter(void)
{
    arch_this_cpu()->interrupts++; /* IRQs are off: this CPU */
}

/* The cheapest of 1000 empty measurements, IRQs off: what every sample
 * includes besides the timed code. */
static uint64_t calibrate(void)
{
    uint64_t best = ~0ull;
    unsigned long flags = arch_irq_save();
    for (int i = 0; i < 1000; i++) {
        uint64_t t0 = arch_timestamp_begin();
        uint64_t d = arch_timestamp_end() - t0;
        best = d < best ? d : best;
    }
    arch_irq_restore(flags);
    return best;
}

void latency_init(void)
{
    arch_timestamp_init();
    read_cost = calibrate();
    uint64_t hz = arch_timestamp_hz();
    if (hz)
        kprintf("latency: counter %s at %llu Hz; an empty read pair costs %llu ticks "
                "(subtracted from every sample)\n",
                arch_timestamp_name(), (unsigned long long)hz, (unsigned long long)read_cost);
    else
        kprintf("latency: counter %s (CPU cycles; instructions under QEMU -icount); an empty "
                "read pair costs %llu ticks (subtracted from every sample)\n",
                arch_timestamp_name(), (unsigned long long)read_cost);
}

void latency_record(struct cpu *c, unsigned strategy, unsigned slot, uint64_t start,
                    unsigned start_cpu, uint64_t irqs_at_start)
{
    uint64_t end = arch_timestamp_end();
    struct hist *h = c->latency[strategy][slot];
    if (c->id != start_cpu || !h) {
        migrated += c->id != start_cpu;
        return;
    }
    uint64_t d = end - start;
    d = d > read_cost ? d - read_cost : 0;
    hist_add_irq(h, d, c->interrupts != irqs_at_start);
}

/* Give every online CPU its histograms (one page each), once. */
static int allocate(void)
{
    for (unsigned i = 0; i < MAX_CPUS; i++) {
        if (!READ_ONCE(cpus[i].online))
            continue;
        for (unsigned s = 0; s < LATENCY_STRATEGIES; s++) {
            for (unsigned k = 0; k < LATENCY_SLOTS; k++) {
                if (cpus[i].latency[s][k])
                    continue;
                uint64_t pa = page_alloc();
                if (!pa)
                    return -ENOMEM;
                struct hist *h = page_va(pa);
                hist_reset(h);
                WRITE_ONCE(cpus[i].latency[s][k], h);
            }
        }
    }
    return 0;
}

int latency_switch(bool on)
{
    unsigned long flags = spin_lock_irqsave(&switch_lock);
    int err = on ? allocate() : 0;
    if (!err)
        WRITE_ONCE(latency_on, on);
    spin_unlock_irqrestore(&switch_lock, flags);
    return err;
}

void latency_status(struct latency_status *st)
{
    static const char *const names[] = {"tsc", "pmccntr", "cntvct", "cycle", "time"};
    memset(st, 0, sizeof(*st));
    st->on = READ_ONCE(latency_on);
    for (unsigned i = 0; i < ARRAY_SIZE(names); i++) {
        if (strcmp(names[i], arch_timestamp_name()) == 0)
            st->counter = i;
    }
    st->hz = arch_timestamp_hz();
    st->read_cost = read_cost;
    st->migrated = READ_ONCE(migrated);
    st->bytes_per_cpu = LATENCY_HISTS * PAGE_SIZE;
}

int latency_copy(long cpu, unsigned strategy, unsigned slot, struct hist *out, bool reset)
{
    if (strategy >= LATENCY_STRATEGIES || slot >= LATENCY_SLOTS || cpu < -1 || cpu >= MAX_CPUS)
        return -EINVAL;
    hist_reset(out);
    for (long i = 0; i < MAX_CPUS; i++) {
        struct hist *h = READ_ONCE(cpus[i].latency[strategy][slot]);
        if ((cpu != -1 && i != cpu) || !h)
            continue;
        /* Another CPU may be adding a sample right now: a copy can be one
         * sample behind, never corrupt, since each field is one word. */
        hist_merge(out, h);
        if (reset)
            hist_reset(h);
    }
    return 0;
}
