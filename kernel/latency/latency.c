/* SPDX-License-Identifier: MIT */
/* kernel/latency/latency.c - the system call latency timers (see latency.h). */
#include "kernel/latency/latency.h"

#include "kernel/arch_callbacks.h"
#include "kernel/errno.h"
#include "kernel/latency/irqsoff.h"
#include "kernel/mm/kvmap.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "lib/hist.h"
#include "lib/string.h"

_Static_assert(sizeof(struct hist) <= PAGE_SIZE, "a histogram fits in one page");
_Static_assert(MAX_CPUS <= LATENCY_MARK_CPU + 1, "a CPU id fits in the stamp's low 8 bits");
_Static_assert(NR_SYSCALLS <= 1 << LATENCY_INDEX_BITS, "a table index fits in its 8 bits");
_Static_assert(LATENCY_RING_PAGE == PAGE_SIZE && LATENCY_RING_BYTES % PAGE_SIZE == 0,
               "the ring is whole pages, page-aligned (kvmap_alloc)");
_Static_assert(LATENCY_RING_BYTES % sizeof(struct latency_sample) == 0,
               "samples tile the ring: `next` lands exactly on its end");

static uint64_t read_cost; /* ticks of an empty begin/end pair */
/* implemented[i]: the system call table has a handler at index i (from
 * latency_init), looked up by the drain for every change of index. */
static bool implemented[1u << LATENCY_INDEX_BITS];
static struct spinlock alloc_lock = SPINLOCK_INIT;
/* drain_lock[i]: cpus[i]'s histograms and `migrated`, which only CPU i's
 * drains and the reads write. CPU i's rings and `next` are CPU i's alone. */
static struct spinlock drain_lock[MAX_CPUS];

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

void latency_init(bool (*table_has)(unsigned long nr))
{
    for (unsigned long nr = 0; nr < NR_SYSCALLS; nr++)
        implemented[nr] = table_has(nr);
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

/* Samples a drain moves under one hold of the drain lock, IRQs masked:
 * about 40 instructions each, so a step stays near 1,300 instructions. */
#define DRAIN_STEP 32

/*
 * The newest DRAIN_STEP samples (or fewer) in this CPU's ring for
 * `strategy` into its histograms, and out of the ring (their order does
 * not matter to a histogram). On CPU c with IRQs off (so the path cannot
 * add one meanwhile) and c's drain lock held.
 */
static void drain_ring(struct cpu *c, unsigned strategy)
{
    struct latency_sample *end = c->latency.next[strategy];
    struct latency_sample *p = end - MIN((long)(end - c->latency.ring[strategy]), DRAIN_STEP);
    struct latency_sample *from = p;
    /* A run of samples is mostly one call: look the histogram up again
     * only when it changes. */
    unsigned long index = ~0ul; /* none yet */
    struct hist *h = NULL;
    uint64_t cost = read_cost;
    for (; p < end; p++) {
        if (p->stamp & LATENCY_MARK_CPU) { /* began on another CPU: its counter */
            c->latency.migrated++;
            continue;
        }
        unsigned long i = (p->stamp >> LATENCY_INDEX_BITS) & ((1u << LATENCY_INDEX_BITS) - 1);
        if (i != index) {
            index = i;
            unsigned slot = latency_slot(i, implemented[i]);
            h = slot == LATENCY_NO_SLOT ? NULL : c->latency.hist[strategy][slot];
        }
        if (!h) /* a call without a slot: not timed */
            continue;
        uint64_t ticks = p->stamp >> LATENCY_TICKS_AT;
        uint64_t d = ticks > cost ? ticks - cost : 0;
        uint32_t interrupts = (uint32_t)p->stamp / LATENCY_MARK_IRQ;
        hist_add_irq(h, d, interrupts != 0);
    }
    c->latency.next[strategy] = from;
}

/* A ring of c's that has samples, or -1 (IRQs off, on c). */
static int ring_with_samples(struct cpu *c)
{
    /* NULL until timing is first on; allocate() may be setting them from
     * another CPU right now, and either may then still read NULL. */
    for (unsigned s = 0; s < LATENCY_STRATEGIES; s++) {
        struct latency_sample *ring = READ_ONCE(c->latency.ring[s]);
        struct latency_sample *next = READ_ONCE(c->latency.next[s]);
        if (ring && next && next != ring)
            return (int)s;
    }
    return -1;
}

/* One step of draining this CPU's rings (IRQs off); false if all were empty.
 * The lock only waits for a read copying one of this CPU's histograms. */
static bool drain_step(struct cpu *c)
{
    int s = ring_with_samples(c);
    if (s < 0)
        return false;
    unsigned long flags = spin_lock_irqsave(&drain_lock[c->id]);
    drain_ring(c, (unsigned)s);
    spin_unlock_irqrestore(&drain_lock[c->id], flags);
    return true;
}

/* This CPU's rings into its histograms, called and returning with IRQs off
 * where IRQs may come on (not in an interrupt): one step at a time, IRQs on
 * between steps and preemption held off, so that no system call adds to a
 * ring meanwhile and an interrupt waits for one step at most. */
static void drain(struct cpu *c)
{
    c->preempt_count++;
    while (ring_with_samples(c) >= 0) {
        arch_irq_enable(); /* a pending interrupt is taken here */
        arch_irq_disable();
        drain_step(c);
    }
    c->preempt_count--;
}

/* `next` crossed a page of strategy s's ring: drain only at its end. */
static bool ring_full(struct cpu *c, unsigned s)
{
    return c->latency.next[s] == c->latency.ring[s] + LATENCY_RING;
}

long latency_drain_full(long ret)
{
    struct cpu *c = arch_this_cpu(); /* IRQs are off: this CPU */
    for (unsigned s = 0; s < LATENCY_STRATEGIES; s++) {
        if (ring_full(c, s)) {
            drain(c);
            break;
        }
    }
    return ret;
}

/* The idle loop (IRQs off): one step of draining, if a ring has samples.
 * The loop looks for work again between steps, so a thread that wakes
 * meanwhile waits for one step at most. */
bool latency_idle(struct cpu *c)
{
    return drain_step(c);
}

/* Drain the rings of the CPU this runs on (IRQs on, from a system call). */
static void drain_here(void)
{
    arch_irq_disable();
    drain(arch_this_cpu());
    arch_irq_enable();
}

/* Give every CPU present its histograms (a page each) and rings, once. */
static int allocate(void)
{
    for (unsigned i = 0; i < cpus_present; i++) {
        struct latency_cpu *l = &cpus[i].latency;
        for (unsigned s = 0; s < LATENCY_STRATEGIES; s++) {
            for (unsigned k = 0; k < LATENCY_SLOTS; k++) {
                if (l->hist[s][k])
                    continue;
                uint64_t pa = page_alloc();
                if (!pa)
                    return -ENOMEM;
                struct hist *h = page_va(pa);
                hist_reset(h);
                WRITE_ONCE(l->hist[s][k], h);
            }
        }
        if (latency_timer_allocate(&cpus[i]))
            return -ENOMEM;
        for (unsigned s = 0; s < LATENCY_STRATEGIES; s++) {
            if (l->ring[s])
                continue;
            struct latency_sample *ring = kvmap_alloc(LATENCY_RING_BYTES);
            if (!ring)
                return -ENOMEM;
            WRITE_ONCE(l->ring[s], ring);
            WRITE_ONCE(l->next[s], l->ring[s]);
        }
    }
    return 0;
}

int latency_allocate(void)
{
    unsigned long flags = spin_lock_irqsave(&alloc_lock);
    int err = allocate();
    spin_unlock_irqrestore(&alloc_lock, flags);
    return err;
}

void latency_status(struct latency_status *st)
{
    static const char *const names[] = {"tsc", "pmccntr", "cntvct", "cycle", "time"};
    memset(st, 0, sizeof(*st)); /* st->on: the caller's (which copy of the path runs) */
    for (unsigned i = 0; i < ARRAY_SIZE(names); i++) {
        if (strcmp(names[i], arch_timestamp_name()) == 0)
            st->counter = i;
    }
    st->hz = arch_timestamp_hz();
    st->timer_hz = arch_timer_hz();
    st->read_cost = read_cost;
    for (unsigned i = 0; i < cpus_present; i++)
        st->migrated += READ_ONCE(cpus[i].latency.migrated);
    st->bytes_per_cpu = (LATENCY_HISTS + 1) * PAGE_SIZE + LATENCY_STRATEGIES * LATENCY_RING_BYTES;
}

int latency_copy(long cpu, unsigned strategy, unsigned slot, struct hist *out, bool reset)
{
    if (strategy >= LATENCY_STRATEGIES || slot >= LATENCY_SLOTS || cpu < -1 || cpu >= MAX_CPUS)
        return -EINVAL;
    hist_reset(out);
    /* This CPU's samples so far are all in; another CPU's as of its last
     * tick (its ring is its own: see latency.h). */
    drain_here();
    for (long i = 0; i < MAX_CPUS; i++) {
        struct hist *h = READ_ONCE(cpus[i].latency.hist[strategy][slot]);
        if ((cpu != -1 && i != cpu) || !h)
            continue;
        unsigned long flags = spin_lock_irqsave(&drain_lock[i]);
        hist_merge(out, h);
        if (reset)
            hist_reset(h);
        spin_unlock_irqrestore(&drain_lock[i], flags);
    }
    return 0;
}
