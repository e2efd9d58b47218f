/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/pcid_load.h - the thread switch's two common loads of a
 * user address space (kernel/mm/aspace_switch.h), inline: impl.h makes
 * them its arch_aspace_activate_tagged and _untagged. Every other load is
 * arch_aspace_activate's (pcid.c), which these fall back on. Included by
 * impl.h, and by tests/host/test_tlb_model.c, which runs them against its
 * TLB model (with its own arch/x86_64/cr3.h and struct arch_cpu).
 */
#ifndef ARCH_X86_64_PCID_LOAD_H
#define ARCH_X86_64_PCID_LOAD_H

#include "arch/x86_64/cr3.h"

/* CR3 with CR4.PCIDE = 1 (SDM vol. 3A 4.10.1, 4.10.4.1): the PCID in bits
 * 11:0; bit 63 set keeps that PCID's translations, clear drops them. */
#define X86_CR3_PCID    0xfffull
#define X86_CR3_NOFLUSH (1ull << 63)

uint64_t x86_kernel_root(void);
void arch_aspace_activate(uint64_t user_root, unsigned asid, bool need_flush);

/* Whether pcid.c marked pcid stale on this CPU (a shootdown it missed):
 * then the next load of that PCID must flush it. */
static inline bool x86_pcid_marked_stale(const uint64_t *stale_pcids, unsigned pcid)
{
    return __atomic_load_n(&stale_pcids[pcid / 64], __ATOMIC_ACQUIRE) >> (pcid % 64) & 1;
}

/*
 * ASIDs in use, so CR4.PCIDE = 1, and pcid is user_root's of the current
 * generation, no flush owed: keep its translations (bit 63), unless it is
 * marked stale; arch_aspace_activate then takes the mark and flushes. A
 * mark set after the check is as one set right after the load: the
 * shootdown's interrupt, taken once IRQs are on, flushes the loaded PCID,
 * and the mark stays for its next load (pcid.c).
 */
static inline void x86_load_tagged(const uint64_t *stale_pcids, uint64_t user_root, unsigned pcid)
{
    if (__builtin_expect(x86_pcid_marked_stale(stale_pcids, pcid), 0))
        arch_aspace_activate(user_root, pcid, false);
    else
        x86_write_cr3(user_root | pcid | X86_CR3_NOFLUSH);
}

/* No ASIDs, so CR4.PCIDE = 0: a MOV to CR3 drops every non-global
 * translation (SDM vol. 3A 4.10.4.1), the flush asid_for_switch asks for
 * then. user_root 0: the kernel's tables alone. */
static inline void x86_load_untagged(uint64_t user_root)
{
    x86_write_cr3(user_root ? user_root : x86_kernel_root());
}

#endif
