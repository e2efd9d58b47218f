/* SPDX-License-Identifier: MIT */
/*
 * kernel/latency/latency.h - in-kernel system call latency timers.
 *
 * When switched on (SYS_latency_ctl), the entry code calls the timed copy
 * of the system call path, syscall_dispatch_timed() (kernel/syscall/syscall.c),
 * which reads the timestamp counter (arch_timestamp_begin/end) right at
 * entry and right before returning, so the window holds the stack offset
 * work, the handler and the exit update. The path itself only queues the
 * raw sample in this CPU's ring, with IRQs still off (latency_record):
 * three stores (the stamp difference, the number the caller passed, the
 * strategy) and a pointer bump and test. Everything else happens off the
 * timed path, in the drain: picking the slot from the number, subtracting
 * the measured cost of the two reads (read_cost), and adding the sample to
 * a per-CPU histogram (lib/hist.h) for its strategy and system call.
 *
 * The stamp: each end is (counter << 8) + this CPU's mark, where the mark
 * is the CPU id in the low 8 bits (which the shifted counter leaves 0) plus
 * LATENCY_MARK_IRQ (2^57) per interrupt taken (interrupt_enter), so the
 * path keeps one live word from entry to exit. In the difference, low
 * bits other than 0 mean the call began on another CPU: it is dropped and
 * counted (migrated), because two CPUs' counters need not agree, and this
 * holds whatever they read; top bits other than 0 mean an interrupt was
 * taken: the sample is still added, and counted as interrupted, so a tail
 * can be explained (a call with a multiple of 128 interrupts in it would
 * look quiet: 128 ms of ticks at least); the 49 bits between are the ticks,
 * exact below 2^49 (two days at 3 GHz).
 *
 * A CPU's ring is drained only on that CPU, with IRQs off, under the CPU's
 * drain lock (latency.c): by the path itself when the page is full (one
 * call in LATENCY_RING = 128 then also adds 128 samples to the
 * histograms, about 40 instructions each, after its own exit timestamp, so
 * no kernel sample includes that work; the user-side round trip of that
 * call does), at every timer tick, and by a SYS_latency_read on that CPU
 * before it copies. So a read sees every sample of its own CPU, and
 * another CPU's as of that CPU's last tick (1 ms at SCHED_TICK_HZ). No
 * sample is lost: the ring is never full when the path writes to it
 * (user/tests/test_latency.c, latency.no_sample_lost). The histograms are
 * written only under the drain lock, which a read (and its reset) takes
 * too, so a copy is never torn.
 *
 * Memory per CPU: one page per histogram, LATENCY_HISTS of them (10
 * strategies x 5 slots: 200 KiB), and one page of ring (128 samples of 32
 * bytes), allocated for every CPU present the first time timing is
 * switched on. Off, the cost on the path is the entry code's one load and
 * one well-predicted branch.
 */
#ifndef KERNEL_LATENCY_LATENCY_H
#define KERNEL_LATENCY_LATENCY_H

#include "kernel/cpu.h"
#include "kernel/uapi/kstack.h"
#include "kernel/uapi/latency.h"
#include "kernel/uapi/syscall.h"

struct hist;
struct kstack_strategy;

#define LATENCY_STRATEGIES (KSTACK_NR + 1) /* the named ones and `fixed` */
#define LATENCY_HISTS      (LATENCY_STRATEGIES * LATENCY_SLOTS)
#define LATENCY_NO_SLOT    0xff

/* One sample as the path leaves it; read_cost is not yet subtracted. */
struct latency_sample {
    uint64_t stamp;         /* (end << 8 + mark at the end) - (start << 8 + mark at entry) */
    unsigned long nr;       /* the number the caller passed */
    unsigned long strategy; /* the copy of the path that ran: its KSTACK_* */
    uint64_t unused;        /* 32 bytes: samples tile the page */
};
/* A stamp is the counter shifted up by 8 plus the CPU's mark (struct
 * latency_cpu): its id in the low 8 bits, which the shifted counter leaves
 * 0, plus LATENCY_MARK_IRQ per interrupt taken, in the top 7 bits. */
#define LATENCY_STAMP_SHIFT 8
#define LATENCY_MARK_CPU    0xffull            /* a difference here: another CPU began it */
#define LATENCY_MARK_IRQ    (1ull << 57)       /* a difference up here: interrupts taken */
#define LATENCY_TICKS_MASK  ((1ull << 49) - 1) /* the ticks between: exact below 2^49 */
#define LATENCY_RING_BYTES  4096ul /* one page, page-aligned: full when `next` crosses it */
#define LATENCY_RING        (LATENCY_RING_BYTES / sizeof(struct latency_sample))

/* The slot of system call nr (implemented: whether the table has it). */
static inline unsigned latency_slot(unsigned long nr, bool implemented)
{
    if (!implemented)
        return LATENCY_INVALID;
    switch (nr) {
    case SYS_getpid: return LATENCY_GETPID;
    case SYS_getppid: return LATENCY_GETPPID;
    case SYS_gettid: return LATENCY_GETTID;
    case SYS_debug_spin: return LATENCY_DEBUG_SPIN;
    default: return LATENCY_NO_SLOT;
    }
}

/* Boot CPU after arch_init: calibrate the counter and say which it is. */
void latency_init(void);
/* This CPU's ring is full (IRQs off): drain it. */
void latency_drain_full(struct cpu *c);
/* The timer tick on this CPU (IRQs off): drain its ring if it has samples. */
void latency_tick(struct cpu *c);

/*
 * The end of a timed call, on the CPU it ends on, IRQs off: start is
 * (arch_timestamp_begin() << LATENCY_STAMP_SHIFT) + c->latency.mark, taken
 * at entry, perhaps on another CPU. Just the raw sample into the ring; the drain does the rest.
 */
static inline __attribute__((always_inline)) void
latency_record(struct cpu *c, unsigned long strategy, unsigned long nr, uint64_t start)
{
    uint64_t end = (arch_timestamp_end() << LATENCY_STAMP_SHIFT) + c->latency.mark;
    struct latency_sample *p = c->latency.next;
    p->stamp = end - start;
    p->nr = nr;
    p->strategy = strategy;
    c->latency.next = ++p;
    if (__builtin_expect(((uintptr_t)p & (LATENCY_RING_BYTES - 1)) == 0, 0))
        latency_drain_full(c); /* the page is full: empty it now, bounded */
}

/* SYS_latency_ctl / SYS_latency_read helpers. */
int latency_switch(bool on);
void latency_status(struct latency_status *st);
/* Copy histogram (cpu or all, strategy, slot) into *out, then optionally
 * empty it; -EINVAL for a bad index, -ENODATA... (see sys_latency.c). */
int latency_copy(long cpu, unsigned strategy, unsigned slot, struct hist *out, bool reset);

#endif
