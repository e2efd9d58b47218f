/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/pcid.c - loading a user address space under its PCID, and
 * TLB shootdowns that reach every PCID.
 *
 * With CR4.PCIDE (SDM vol. 3A 4.10.1) CR3[11:0] is the PCID the loaded
 * tables' translations are tagged with, and a MOV to CR3 with bit 63 set
 * keeps that PCID's translations (4.10.4.1). kernel/mm/asid.c chooses the
 * PCID; this file decides when a load must flush (the thread switch's
 * common loads are inline, arch/x86_64/pcid_load.h). The instructions come
 * from arch/x86_64/pcid_hw.h and cr3.h, included by their full paths so
 * that the host test tests/host/test_tlb_model.c runs this file against a
 * TLB model.
 */
#include "arch/x86_64/pcid.h"
#include "arch/x86_64/pcid_hw.h"
#include "arch/x86_64/pcid_load.h"

/* INVPCID types (SDM vol. 2A "INVPCID"). */
#define INVPCID_ADDRESS        0 /* one address, one PCID (global entries kept) */
#define INVPCID_ALL_NON_GLOBAL 3 /* every PCID, global entries kept */

static bool pcid_on;     /* CR4.PCIDE on every CPU */
static bool has_invpcid; /* CPUID.(EAX=07H,ECX=0):EBX.INVPCID[bit 10] */

void x86_pcid_enable(bool invpcid)
{
    has_invpcid = invpcid;
    pcid_on = true;
}

/*
 * Stale PCIDs. INVLPG and a MOV to CR3 reach only the current PCID's
 * translations (SDM vol. 3A 4.10.4.1), and INVPCID only this CPU's. So a
 * CPU that must drop translations of a PCID it has not loaded (another
 * CPU's shootdown, or a new ASID generation) marks that PCID stale here,
 * and the next load of it flushes it (CR3 bit 63 clear). No IPI needed for
 * that part: the PCID is not in use on that CPU until then.
 */
static void mark_stale(struct arch_cpu *a, unsigned pcid)
{
    __atomic_fetch_or(&a->stale_pcids[pcid / 64], 1ull << (pcid % 64), __ATOMIC_SEQ_CST);
}

static bool take_stale(struct arch_cpu *a, unsigned pcid)
{
    uint64_t bit = 1ull << (pcid % 64), *word = &a->stale_pcids[pcid / 64];
    return (__atomic_load_n(word, __ATOMIC_ACQUIRE) & bit) &&
           (__atomic_fetch_and(word, ~bit, __ATOMIC_ACQ_REL) & bit);
}

/* Every non-global translation of every PCID, on this CPU. */
static void forget_every_pcid(struct arch_cpu *a)
{
    if (has_invpcid) {
        x86_invpcid(INVPCID_ALL_NON_GLOBAL, 0, 0);
        return;
    }
    for (unsigned i = 0; i < sizeof(a->stale_pcids) / sizeof(a->stale_pcids[0]); i++)
        __atomic_store_n(&a->stale_pcids[i], ~0ull, __ATOMIC_RELAXED);
}

/* The thread switch's common cases are pcid_load.h's, inline; this is
 * every load (those fall back on it for a stale PCID). */
void arch_aspace_activate(uint64_t user_root, unsigned asid, bool need_flush)
{
    if (!pcid_on) {
        x86_load_untagged(user_root); /* flushes every non-global entry */
        return;
    }
    struct arch_cpu *a = &arch_this_cpu()->arch;
    uint64_t root = user_root ? user_root : x86_kernel_root();
    if (need_flush)
        forget_every_pcid(a);
    x86_write_cr3(root | asid | (take_stale(a, asid) ? 0 : X86_CR3_NOFLUSH));
}

/*
 * TLB shootdown: x86 has no broadcast invalidation, so the other CPUs are
 * asked with an IPI to flush their user translations (a CR3 reload drops
 * every non-global entry, SDM vol. 3A 4.10.4.1; with PCIDs, those of the
 * PCID loaded, whatever value of the address space that is: a CPU may run
 * it under an older one, kernel/mm/asid.c) and the caller waits for each
 * to clear its request flag. Translations under the address space's
 * current PCID on CPUs that have not loaded it are marked stale first. While
 * waiting it serves requests aimed at itself, so two CPUs shooting at each
 * other with IRQs off cannot deadlock.
 */
void x86_tlb_serve_request(void)
{
    struct cpu *c = arch_this_cpu();
    if (__atomic_load_n(&c->arch.tlb_flush_request, __ATOMIC_ACQUIRE)) {
        x86_write_cr3(x86_read_cr3()); /* bit 63 reads as 0: flushes */
        __atomic_store_n(&c->arch.tlb_flush_request, 0, __ATOMIC_RELEASE);
    }
}

/* This CPU's translations of [va, va + len) under a PCID it has not loaded. */
static void forget_pages_of(struct cpu *self, unsigned pcid, uintptr_t va, size_t len)
{
    if (!has_invpcid) {
        mark_stale(&self->arch, pcid);
        return;
    }
    for (uintptr_t p = va; p < va + len; p += PAGE_SIZE)
        x86_invpcid(INVPCID_ADDRESS, pcid, p);
}

void arch_tlb_shootdown(unsigned asid, uintptr_t va, size_t len)
{
    struct cpu *self = arch_this_cpu();
    for (uintptr_t p = va; p < va + len; p += PAGE_SIZE)
        arch_tlb_flush_page(p); /* INVLPG: the current PCID's */
    if (pcid_on && asid != (x86_read_cr3() & X86_CR3_PCID))
        forget_pages_of(self, asid, va, len);
    for (unsigned i = 0; i < MAX_CPUS; i++) {
        if (&cpus[i] != self && READ_ONCE(cpus[i].online)) {
            if (pcid_on)
                mark_stale(&cpus[i].arch, asid);
            __atomic_store_n(&cpus[i].arch.tlb_flush_request, 1, __ATOMIC_RELEASE);
            x86_send_shootdown(&cpus[i]);
        }
    }
    for (unsigned i = 0; i < MAX_CPUS; i++) {
        while (&cpus[i] != self &&
               __atomic_load_n(&cpus[i].arch.tlb_flush_request, __ATOMIC_ACQUIRE)) {
            x86_tlb_serve_request();
            arch_cpu_relax();
        }
    }
}
