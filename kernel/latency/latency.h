/* SPDX-License-Identifier: MIT */
/*
 * kernel/latency/latency.h - in-kernel system call latency timers.
 *
 * When switched on (SYS_latency_ctl), the entry code calls the timed copy
 * of the system call path (syscall_dispatch_<strategy>_timed,
 * kernel/syscall/syscall.c), which reads the timestamp counter
 * (arch_timestamp_begin/end) right at entry and right before returning, so
 * the window holds the stack offset work, the handler and the exit update.
 * The path itself only appends one word to this CPU's ring for that copy,
 * with IRQs still off (latency_record): a store, a pointer bump and a
 * test. Everything else happens off the timed path, in the drain: picking
 * the slot from the number, subtracting the measured cost of the two reads
 * (read_cost), and adding the sample to a per-CPU histogram (lib/hist.h)
 * for its strategy and system call.
 *
 * The sample: each end is (counter << 32) + this CPU's mark, and the entry
 * also subtracts the call's table index << 8, so that
 *     stamp = end - start = ticks << 32 | interrupts << 16 | index << 8 | cpus
 * one word in which the path keeps everything from entry to exit:
 *   - bits 0-7, the mark's CPU id: not 0 when the call began on another
 *     CPU, whose counter need not agree; the sample is dropped and counted
 *     (migrated). (Nothing below bit 8 can borrow: this field is safe.)
 *   - bits 8-15, the index into the system call table (0 for a number
 *     with no handler), which picks the histogram's slot;
 *   - bits 16-31, the interrupts taken meanwhile (LATENCY_MARK_IRQ per
 *     interrupt_enter, modulo 2^16): not 0 means the sample is counted as
 *     interrupted, so a tail can be explained;
 *   - bits 32-63, the ticks, modulo 2^32: exact for calls shorter than
 *     2^32 ticks (1.4 s at 3 GHz; the longest timed call, SYS_debug_spin,
 *     is capped at 0.1 s). When the mark's interrupt count wraps inside a
 *     call (once per 65,536 interrupts) the ticks read one low.
 *
 * Each copy of the path has its own ring (LATENCY_RING_BYTES, 2048 samples,
 * per strategy per CPU), so no sample needs to say which strategy it
 * timed, even one that ends after a switch. A CPU's rings are drained only
 * on that CPU, with IRQs off, under the CPU's drain lock (latency.c), and
 * never where a timed program would count the work: by the idle loop, one
 * step of 32 samples at a time (latency_idle), and by a SYS_latency_read
 * on that CPU before it copies (the benchmark reads after every block, in
 * its untimed part). Only a ring that fills, after 2048 calls with no idle
 * moment or read between them, is drained by the path itself, after the
 * call's exit timestamp: that one call's user-side round trip then carries
 * 2048 samples' work (about 40 instructions each), one call in 2048, below
 * the p99.9 make bench prints. The path tests only
 * whether `next` crossed a page (one call in 512), and the out-of-line
 * part looks whether that was the ring's end. Before, the timer tick left
 * a note that drained a busy CPU's rings on its next return to user mode,
 * and a ring was one page: the drain then landed in a timed program's
 * user-side sample every few hundred calls, 25,856 instructions in one
 * sample, and the user-side p99.9 of every strategy was that drain. So a
 * read sees every sample of its own CPU, and another CPU's as of that
 * CPU's last idle moment or full ring. No
 * sample is lost: a ring is never full when the path writes to it
 * (user/tests/test_latency.c, latency.no_sample_lost). The histograms are
 * written only under the drain lock, which a read (and its reset) takes
 * too, so a copy is never torn.
 *
 * Memory per CPU: one page per histogram, LATENCY_HISTS of them (10
 * strategies x 5 slots: 200 KiB), one for the timer's lateness, and 16
 * KiB of ring per strategy (160 KiB, kvmap_alloc), allocated for every CPU
 * present the first time timing is switched on. Off, the path carries
 * none of it: the entry code calls the untimed copy.
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

/* One sample as the path leaves it (above); read_cost is not yet subtracted. */
struct latency_sample {
    uint64_t stamp;
};
#define LATENCY_MARK_CPU   0xffull      /* a difference here: another CPU began it */
#define LATENCY_INDEX_BITS 8            /* the table index, above the CPU id */
#define LATENCY_MARK_IRQ   (1ull << 16) /* per interrupt; the mark stays below 2^32 */
#define LATENCY_TICKS_AT   32           /* the counter's low 32 bits, up here */
#define LATENCY_RING_PAGE  4096ul       /* the path's test: `next` crossed one of these */
#define LATENCY_RING_BYTES (4 * LATENCY_RING_PAGE) /* page-aligned; full at its end */
#define LATENCY_RING       (LATENCY_RING_BYTES / sizeof(struct latency_sample))

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

/* Boot CPU after arch_init: calibrate the counter and say which it is.
 * table_has(nr): whether the system call table has a handler
 * for nr (a sample of a number without one goes to LATENCY_INVALID). */
void latency_init(bool (*table_has)(unsigned long nr));
/* A ring of this CPU's crossed a page (IRQs off): if one is full, drain
 * them; returns ret as it came (latency_record). */
long latency_drain_full(long ret);
/* The idle loop on this CPU (IRQs off): one step of draining its rings;
 * false if they were empty. */
bool latency_idle(struct cpu *c);

/* The start of a timed call, at entry, IRQs off: the counter and where it
 * was read, in the stamp's layout (above). */
static inline __attribute__((always_inline)) uint64_t latency_begin(void)
{
    uint64_t now = arch_timestamp_begin() << LATENCY_TICKS_AT;
    return now + arch_this_cpu()->latency.mark;
}

/*
 * The end of a timed call by copy `strategy`, on the CPU it ends on, IRQs
 * off: start is latency_begin()'s, perhaps on another CPU, less the index
 * << LATENCY_INDEX_BITS. Just the sample into the ring; the drain does the
 * rest. True when that crossed a page of the ring: the caller then calls
 * latency_drain_full(), passing the call's result through it, so that no
 * saved register has to keep the result across that rare call.
 */
static inline __attribute__((always_inline)) bool latency_record(unsigned strategy, uint64_t start)
{
    struct cpu *c = arch_this_cpu();
    uint64_t end = (arch_timestamp_end() << LATENCY_TICKS_AT) + c->latency.mark;
    struct latency_sample *p = c->latency.next[strategy];
    p->stamp = end - start;
    c->latency.next[strategy] = ++p;
    return __builtin_expect(((uintptr_t)p & (LATENCY_RING_PAGE - 1)) == 0, 0);
}

/* The timer interrupt's lateness (timer_lag.c): CPU c's histogram, made
 * with its rings (latency_allocate); one CPU's or all CPUs' summed into *out,
 * then optionally emptied: 0 or -EINVAL. */
int latency_timer_allocate(struct cpu *c);
int latency_timer_copy(long cpu, struct hist *out, bool reset);

/* SYS_latency_ctl / SYS_latency_read helpers. Before the timed copies of
 * the path run (kernel/syscall/sys_latency.c switches to them): every CPU's
 * histograms and rings, once; 0 or -ENOMEM. */
int latency_allocate(void);
/* Everything but st->on, which copy of the path runs (the caller knows). */
void latency_status(struct latency_status *st);
/* Copy histogram (cpu or all, strategy, slot) into *out, then optionally
 * empty it; -EINVAL for a bad index, -ENODATA... (see sys_latency.c). */
int latency_copy(long cpu, unsigned strategy, unsigned slot, struct hist *out, bool reset);

#endif
