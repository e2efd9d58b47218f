/* SPDX-License-Identifier: MIT */
/*
 * kernel/mm/asid.h - address-space identifiers, so that switching between
 * user address spaces needs no TLB flush (kernel/mm/asid.c explains the
 * scheme, docs/ipc.md "Switching address spaces without a TLB flush"
 * the reasons).
 */
#ifndef KERNEL_MM_ASID_H
#define KERNEL_MM_ASID_H

#include "kernel/types.h"

struct aspace;

/* asid_for_switch's answer: the ASID in the low 16 bits, and this bit if
 * the CPU must first drop every non-global translation of every ASID. */
#define ASID_VALUE_MASK 0xffffu
#define ASID_NEED_FLUSH (1u << 16)

/* Boot CPU, IRQs off, after smp_find_cpus and before any user address space
 * is activated: choose how many ASIDs to use, from the hardware's width and
 * mm.asid_limit=N on the command line (which only narrows), and switch the
 * hardware's tagging on for this CPU. Prints one line. */
void asid_init(const char *cmdline);
/* Every other CPU as it starts, IRQs off: the same tagging on for it. */
void asid_cpu_init(void);

/* IRQs off, on this CPU: the ASID to load `as` (NULL: none) with (0 for
 * none), with ASID_NEED_FLUSH if this CPU must flush first (always, if the
 * kernel uses no ASIDs). Gives `as` an ASID of the current generation if
 * it has none, starting a new generation when they run out. */
unsigned asid_for_switch(struct aspace *as);

/* The ASID value `as` was last given (0: never), for TLB shootdowns. Any
 * context, no lock: see asid.c for why an old value is still good enough. */
unsigned asid_of(const struct aspace *as);

/* How many ASIDs the kernel hands out (0: none, every switch flushes), out
 * of the boot CPU's hardware bits, and how many times they ran out (tests
 * check that mm.asid_limit forced some, and never widened them). */
unsigned asid_count(void);
unsigned asid_hw_bits(void);
uint64_t asid_rollovers(void);

#endif
