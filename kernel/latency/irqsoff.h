/* SPDX-License-Identifier: MIT */
/*
 * kernel/latency/irqsoff.h - the IRQs-off tracker (make IRQSOFF=1).
 *
 * Every window in which this CPU has interrupts masked delays any
 * interrupt raised meanwhile by up to its length, so the longest such
 * window is the kernel's worst interrupt latency of its own making. The
 * tracker times every one of them on the latency timers' counter
 * (instructions under QEMU -icount, times 2^shift) and keeps, per CPU, the
 * longest since the last reset with the kernel addresses where it opened
 * and closed (addr2line -f -e kernel.elf names them).
 *
 * A window opens when IRQs go from on to masked: arch_irq_save() or
 * arch_irq_disable() finding them on (the wrappers at the end of
 * arch/arch.h), a system call's entry and an interrupt's entry (the CPU
 * masked them). It closes when they are about to be on again:
 * arch_irq_restore() of "on", arch_irq_enable(), the return to user mode,
 * the return from an interrupt to the kernel code it interrupted, and the
 * idle wait. A window that closes in code the tracker does not see (an
 * exception's return) is simply dropped by the next opening: windows are
 * never merged.
 *
 * The default kernel has none of it: every hook below is empty, and the
 * masks and unmasks are the arch's own instructions.
 */
#ifndef KERNEL_LATENCY_IRQSOFF_H
#define KERNEL_LATENCY_IRQSOFF_H

#include <stdbool.h>
#include <stdint.h>

struct latency_irqsoff;

/* Per CPU (in struct cpu), written only by that CPU. */
struct irqsoff_cpu {
    uint64_t opened;     /* counter when the open window began; 0: none open */
    uintptr_t opened_at; /* ... and where */
    uint64_t longest;    /* the longest window closed since the reset, in ticks */
    uintptr_t from, to;  /* ... where it opened and closed */
    uint64_t windows;    /* windows closed since the reset */
    uint32_t seq;        /* odd while the four fields above are being written */
    bool reset;          /* set by a reader: start over at the next close (not counted) */
};

#if CONFIG_IRQSOFF
/* The hooks: see arch/arch.h for the masks and unmasks themselves. */
void irqsoff_opened(void);
void irqsoff_closing(void);
/* Kernel entry from user mode or an interrupt (IRQs masked by the CPU). */
static inline void irqsoff_entry(void)
{
    irqsoff_opened();
}
/* The last thing before IRQs come back on without an unmask the wrappers
 * see: the return to user mode, the return from an interrupt, the idle wait. */
static inline void irqsoff_exit(void)
{
    irqsoff_closing();
}
#else
static inline void irqsoff_entry(void) {}
static inline void irqsoff_exit(void) {}
#endif

/* Boot CPU, once every CPU is online: start timing windows. */
void irqsoff_start(void);
/* CPU cpu's record into *out (IRQs on, any CPU), then, if reset, have that
 * CPU start over. 0, -ENOSYS (not built with IRQSOFF=1) or -EINVAL. */
int irqsoff_read(long cpu, struct latency_irqsoff *out, bool reset);

#endif
