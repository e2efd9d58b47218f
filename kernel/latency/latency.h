/* SPDX-License-Identifier: MIT */
/*
 * kernel/latency/latency.h - in-kernel system call latency timers.
 *
 * When switched on (SYS_latency_ctl), syscall_dispatch() reads the
 * timestamp counter (arch_timestamp_begin/end) right at entry and right
 * before returning, so the window holds the stack offset work, the handler
 * and the exit update, and adds the difference, minus the measured cost of
 * the two reads, to a per-CPU histogram (lib/hist.h) for its strategy and
 * system call. Per CPU and updated with IRQs masked: no locks, no atomics.
 * A sample during which an interrupt was taken on the CPU is still added
 * and also counted as interrupted, so a tail can be explained; a call that
 * ended on another CPU (it was moved) is dropped and counted, because two
 * CPUs' cycle counters need not agree.
 *
 * Memory: one page per histogram, LATENCY_HISTS of them per CPU (200 KiB),
 * allocated for the online CPUs the first time timing is switched on.
 * Off, the cost on the path is one load and one well-predicted branch.
 */
#ifndef KERNEL_LATENCY_LATENCY_H
#define KERNEL_LATENCY_LATENCY_H

#include "kernel/cpu.h"
#include "kernel/uapi/kstack.h"
#include "kernel/uapi/latency.h"
#include "kernel/uapi/syscall.h"

struct hist;

#define LATENCY_STRATEGIES (KSTACK_NR + 1) /* the named ones and `fixed` */
#define LATENCY_HISTS      (LATENCY_STRATEGIES * LATENCY_SLOTS)
#define LATENCY_NO_SLOT    0xff

extern bool latency_on;

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
/* Add one sample on this CPU (IRQs off). start/irqs_at_start were read at
 * entry on CPU start_cpu. */
void latency_record(struct cpu *c, unsigned strategy, unsigned slot, uint64_t start,
                    unsigned start_cpu, uint64_t irqs_at_start);
/* SYS_latency_ctl / SYS_latency_read helpers. */
int latency_switch(bool on);
void latency_status(struct latency_status *st);
/* Copy histogram (cpu or all, strategy, slot) into *out, then optionally
 * empty it; -EINVAL for a bad index, -ENODATA... (see sys_latency.c). */
int latency_copy(long cpu, unsigned strategy, unsigned slot, struct hist *out, bool reset);

#endif
