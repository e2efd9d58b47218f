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
#define ASID_VALUE_BITS 16 /* the widest hardware ASID (arm64, riscv64 Sv39) */

/* asid.c's generation and per-CPU flush flags, read by the inline below
 * (asid.c says what they mean); written only there. */
extern uint64_t asid_generation;
extern bool asid_flush_pending[];
/* Whether the kernel hands out ASIDs at all (asid_init decides it once, at
 * boot, before any user address space is loaded): if not, every switch
 * loads ASID 0 and flushes (kernel/mm/aspace_switch.h, inline). */
extern bool asids_in_use;

/* Lock-free: the tag an address space has (its `asid` word) if it is of
 * this generation and this CPU owes no flush, else 0. Tags are stored with
 * release (under the lock, after the generation they are of began), so
 * reading one with acquire shows this CPU's flag as that generation left
 * it. A new generation starting after these loads is the same as one
 * starting right after the switch: the CPU goes on under a value of the
 * old generation until its next switch, which asid.c's comment allows.
 * (The tag is read once: read again, it could already be a value of the
 * next generation.) Inline for the switch's common case
 * (kernel/mm/aspace_switch.h); asid_for_switch asks it first too. */
static inline uint64_t asid_tag_without_lock(const uint64_t *asid_word, unsigned cpu)
{
    uint64_t tag = __atomic_load_n(asid_word, __ATOMIC_ACQUIRE);
    bool current = tag >> ASID_VALUE_BITS == __atomic_load_n(&asid_generation, __ATOMIC_ACQUIRE);
    return current && !__atomic_load_n(&asid_flush_pending[cpu], __ATOMIC_RELAXED) ? tag : 0;
}

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
