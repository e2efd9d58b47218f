/* SPDX-License-Identifier: MIT */
/*
 * arch/riscv64/mmu.c - the kernel's page tables and user address spaces.
 *
 * One satp holds both halves (priv spec 4.1.11, 4.4): every user root table
 * gets a copy of the kernel root's upper-half entries (256-511), so the
 * kernel is mapped whatever the current address space; its leaves are
 * global (PTE.G). Without ASIDs every address space uses ASID 0, so a
 * switch flushes the non-global translations of ASID 0 (SFENCE.VMA x0, rs2
 * with rs2 = 0: the global ones stay, priv spec 4.2.1); with them (satp.ASID,
 * kernel/mm/asid.c) a switch flushes nothing. Protections: W and X are never both
 * given to kernel memory (kernel/mm/mm_init.c), U pages are out of the
 * kernel's reach while sstatus.SUM = 0 (uaccess.S) and never executable
 * in S mode.
 */
#include "kernel/arch_callbacks.h"
#include "riscv.h"
#include "sbi.h"

uint64_t riscv_kernel_root_pa; /* impl.h: arch_aspace_activate loads it without a user root */

uint64_t riscv_kernel_root(void)
{
    return riscv_kernel_root_pa;
}

/* Megapages (level 1) and gigapages (level 2) are part of Sv39 itself. */
/* sstatus.SUM lets S mode reach U pages (priv spec 4.1.1.2). */
bool arch_user_access_open(void)
{
    unsigned long s;
    __asm__ volatile("csrr %0, sstatus" : "=r"(s));
    return s & SSTATUS_SUM;
}

bool arch_pt_block_ok(int level)
{
    return level == 1 || level == 2;
}

void arch_mmu_switch(uint64_t root)
{
    csr_clear(sstatus, SSTATUS_SUM | SSTATUS_MXR); /* whatever the loader left */
    riscv_kernel_root_pa = root;
    csr_write(satp, SATP_MODE_SV39 | root >> 12);
    /* Everything, global entries too: start.S's identity map was global. */
    __asm__ volatile("sfence.vma zero, zero" : : : "memory");
}

/* S mode never executes U pages, and reaches them only with SUM = 1 (priv
 * spec 4.1.1.2): both are part of the base architecture. */
unsigned arch_user_guards(void)
{
    return ARCH_GUARD_NO_ACCESS | ARCH_GUARD_NO_EXEC;
}

void arch_aspace_init(pte_t *user_root, const pte_t *kernel_root_table)
{
    for (int i = 256; i < 512; i++)
        user_root[i] = kernel_root_table[i];
}

/*
 * ASIDLEN (priv spec 4.1.11, "satp"): write ones to every bit of satp.ASID
 * and read back which stayed; the implemented ones are the low ASIDLEN,
 * possibly none. Harmless to try: only user translations carry an ASID, and
 * none is loaded here (the kernel's are global).
 */
#define SATP_ASID_MASK (0xfffful << SATP_ASID_SHIFT)

bool riscv_asids_on; /* impl.h: arch_aspace_activate's flush covers every ASID */

unsigned arch_asid_bits(void)
{
    uint64_t old = csr_read(satp);
    csr_write(satp, old | SATP_ASID_MASK);
    uint64_t ones = (csr_read(satp) & SATP_ASID_MASK) >> SATP_ASID_SHIFT;
    csr_write(satp, old);
    unsigned bits = 0;
    while (ones & (1ul << bits))
        bits++;
    return bits;
}

void arch_asid_enable(void)
{
    riscv_asids_on = true;
}

/*
 * TLB shootdown. SFENCE.VMA orders and flushes only the hart that executes
 * it (priv spec 4.2.1), so the other harts are asked through the firmware:
 * RFENCE remote_sfence_vma (SBI spec 8.2) over [va, va + len), on every
 * hart (hart_mask_base = -1). The page-table stores go first (FENCE), so a
 * hart that walks the tables again after its flush sees the new entries.
 * This hart flushes itself directly too, which keeps a one-hart kernel
 * correct on firmware without RFENCE (it has no HSM either: one hart).
 * Both forms cover every ASID: SFENCE.VMA with rs2 = x0 (priv spec 4.2.1)
 * and remote_sfence_vma (the _asid variant is the one limited to one), so
 * the address space's translations go under whatever ASID they carry
 * (kernel/mm/asid.c: possibly an older one than `asid`). The
 * spec defines success as "the fences were requested"; the caller frees
 * the pages next, so this relies on the firmware returning only once every
 * hart has done its fence, as OpenSBI does.
 */
void arch_tlb_shootdown(unsigned asid, uintptr_t va, size_t len)
{
    (void)asid;
    __asm__ volatile("fence rw, rw" : : : "memory");
    for (uintptr_t p = va; p < va + len; p += PAGE_SIZE)
        arch_tlb_flush_page(p);
    if (sbi_has_rfence())
        sbi_remote_sfence_vma(0, -1ul, va, len);
}
