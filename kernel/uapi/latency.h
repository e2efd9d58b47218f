/* SPDX-License-Identifier: MIT */
/*
 * kernel/uapi/latency.h - the in-kernel system call latency timers as user
 * space sees them (SYS_latency_ctl, SYS_latency_read; kernel/latency/).
 * The histograms are lib/hist.h's struct hist, copied out whole.
 */
#ifndef KERNEL_UAPI_LATENCY_H
#define KERNEL_UAPI_LATENCY_H

/* Which system calls are timed: a small fixed table of slots. Any number the
 * kernel does not implement counts as "invalid". */
#define LATENCY_GETPID     0
#define LATENCY_GETPPID    1
#define LATENCY_INVALID    2
#define LATENCY_GETTID     3
#define LATENCY_DEBUG_SPIN 4 /* a known delay inside the kernel: the timers' own test */
#define LATENCY_SLOTS      5

/* SYS_latency_ctl operations. */
#define LATENCY_OFF     0 /* () -> 0: stop timing */
#define LATENCY_ON      1 /* () -> 0, or -ENOMEM: time every call in the table */
#define LATENCY_STATUS  2 /* (struct latency_status *) -> 0 */
/* (cpu, struct latency_irqsoff *, reset) -> 0: that CPU's longest IRQs-off
 * window (kernel/latency/irqsoff.h), then, if reset is 1, start over;
 * -ENOSYS in a kernel built without make IRQSOFF=1, -EINVAL for a CPU
 * that is not online. */
#define LATENCY_IRQSOFF 3
/* (cpu or -1 for all, struct hist *out, reset) -> 0: how late the timer
 * interrupt's handler ran after the compare value the kernel programmed,
 * in ticks of the timer's counter (status.timer_hz a second), one sample
 * per tick since timing was first on (kernel/latency/timer_lag.c). */
#define LATENCY_TIMER   4

/* The counter the kernel times with (user programs should read the same one). */
#define LATENCY_COUNTER_TSC     0 /* x86_64 RDTSC */
#define LATENCY_COUNTER_PMCCNTR 1 /* arm64 PMU cycle counter, readable at EL0 */
#define LATENCY_COUNTER_CNTVCT  2 /* arm64 virtual counter */
#define LATENCY_COUNTER_CYCLE   3 /* riscv64 cycle CSR */
#define LATENCY_COUNTER_TIME    4 /* riscv64 time CSR */

struct latency_status {
    unsigned long on;
    unsigned long counter;       /* LATENCY_COUNTER_* */
    unsigned long hz;            /* 0: counts cycles at an unreported rate */
    unsigned long read_cost;     /* ticks of an empty begin/end pair, subtracted */
    unsigned long migrated;      /* samples dropped: the call ended on another CPU */
    unsigned long bytes_per_cpu; /* histogram memory per CPU while timing is on */
    unsigned long timer_hz;      /* the timer's counter (LATENCY_TIMER's unit), ticks a second */
};

/* LATENCY_IRQSOFF's answer. */
struct latency_irqsoff {
    unsigned long
        longest;        /* ticks of the latency counter (instructions under -icount, x 2^shift) */
    unsigned long from; /* kernel address where it opened ... */
    unsigned long to;   /* ... and where it closed (addr2line -f -e kernel.elf) */
    unsigned long windows; /* IRQs-off windows closed since the last reset */
};

/* SYS_latency_read(cpu or -1 for all, strategy, slot, struct hist *out, reset). */

#endif
