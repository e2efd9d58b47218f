/* SPDX-License-Identifier: MIT */
/*
 * arch/arm64/mmu.c - turning on the kernel's translation tables, user
 * address spaces, and PAN.
 *
 * Two roots are live at once (Arm ARM, "Selection between TTBR0_EL1 and
 * TTBR1_EL1"): TTBR1_EL1 holds the kernel's table for the whole time, and
 * TTBR0_EL1 the current task's user table, or `empty_root` (a zeroed
 * table: every user address faults) for kernel threads. So a user root
 * needs no kernel entries, and changing address space touches TTBR0 only.
 *
 * Protections: descriptors carry UXN on every kernel page and PXN on every
 * user page (impl.h), and PAN (Privileged Access Never, Armv8.1) when the
 * CPU has it: with PSTATE.PAN set, an ordinary EL1 load or store to a page
 * EL0 can access faults, so a kernel bug cannot silently read or write
 * user memory. SCTLR_EL1.SPAN = 0 makes every exception to EL1 set PAN
 * again. User copies still work: they use LDTRB/STTRB (uaccess.S), which
 * PAN does not block because they are checked as EL0 accesses.
 */
#include "arm64.h"
#include "kernel/arch_callbacks.h"

#define SCTLR_SPAN   (1ull << 23)        /* SCTLR_EL1.SPAN: 0 = set PAN on exception entry */
#define MMFR1_PAN(r) (((r) >> 20) & 0xf) /* ID_AA64MMFR1_EL1.PAN, bits [23:20] */
/* MSR PAN, #1 (Armv8.1), encoded so the -march=armv8-a assembler accepts it:
 * MSR (immediate) with op1 = 0, CRm = 1 (the value), op2 = 4. */
#define MSR_PAN_1    ".inst 0xd500419f"

extern uint64_t kernel_phys_base;
static uint64_t empty_root;   /* physical address of the all-invalid TTBR0 table */
static uint64_t kernel_ttbr1; /* physical address of the kernel's root table (TTBR1) */
static bool has_pan;

/* PSTATE.PAN, read as the PAN special register (Arm ARM D17.2, "PAN,
 * Privileged Access Never": op0 3, op1 0, CRn 4, CRm 2, op2 3; bit 22),
 * spelled out for the -march=armv8-a assembler. */
bool arch_user_access_open(void)
{
    unsigned long pan;
    if (!has_pan)
        return false;
    __asm__ volatile("mrs %0, S3_0_C4_C2_3" : "=r"(pan));
    return !(pan & (1ul << 22));
}

bool arch_pt_block_ok(int level)
{
    /* 4 KiB granule: blocks at lookup level 2 (2 MiB, walk level 1) and 1 (1 GiB, walk level 2). */
    return level == 1 || level == 2;
}

/* TTBR0 must still be start.S's identity map here (see arm64_replace_ttbr1). */
void arch_mmu_switch(uint64_t root)
{
    if (!empty_root) {
        empty_root = page_alloc(); /* zeroed: every descriptor invalid */
        if (!empty_root)
            arch_halt(); /* nothing can print here (see mm_init) */
    }
    kernel_ttbr1 = root;
    arm64_replace_ttbr1(root, kernel_phys_base - ARCH_KERNEL_VBASE);
    arm64_mmu_cpu_init();
}

/* Each CPU, once its TTBR1 holds the kernel's tables: the identity map goes
 * from TTBR0, and PAN (PSTATE.PAN and SCTLR_EL1.SPAN are per CPU) comes on. */
void arm64_mmu_cpu_init(void)
{
    arch_aspace_activate(0, 0, true);
    if (MMFR1_PAN(READ_SYSREG(id_aa64mmfr1_el1)) != 0) {
        has_pan = true;
        WRITE_SYSREG(sctlr_el1, READ_SYSREG(sctlr_el1) & ~SCTLR_SPAN);
        __asm__ volatile("isb\n\t" MSR_PAN_1 "\n\tisb" : : : "memory");
    }
}

/* PXN is part of Armv8.0; PAN is optional (ID_AA64MMFR1_EL1.PAN). */
unsigned arch_user_guards(void)
{
    return (MMFR1_PAN(READ_SYSREG(id_aa64mmfr1_el1)) != 0 ? ARCH_GUARD_NO_ACCESS : 0) |
           ARCH_GUARD_NO_EXEC;
}

uint64_t arm64_kernel_root(void)
{
    return kernel_ttbr1;
}

bool arm64_has_pan(void)
{
    return has_pan;
}

/*
 * Cache maintenance by VA ("Data cache maintenance instructions" and
 * "Instruction cache maintenance instructions" in the Arm ARM). CTR_EL0
 * gives the smallest line sizes, log2 of 4-byte words: DminLine [19:16],
 * IminLine [3:0]; L1Ip [15:14] the L1 instruction cache's indexing (0b11
 * PIPT); IDC (bit 28) = 1: no D-cache clean is needed for instruction
 * fetches to see data stores, DIC (bit 29) = 1: no I-cache invalidation is.
 */
#define CTR_DMINLINE(r) (4ul << (((r) >> 16) & 0xf))
#define CTR_IMINLINE(r) (4ul << (((r) >> 0) & 0xf))
#define CTR_L1IP(r)     (((r) >> 14) & 3)
#define CTR_L1IP_PIPT   3
#define CTR_L1IP_AIVIVT 1 /* ASID-tagged virtual I-cache (Armv8.0 only) */
#define CTR_IDC         (1ul << 28)
#define CTR_DIC         (1ul << 29)

/* DC CVAC: clean to the Point of Coherency, where an access with the MMU
 * (and so the caches) off reads memory. DSB SY: done before anything the
 * caller does next, e.g. a PSCI call that starts another CPU. */
void arm64_dcache_clean_poc(const void *va, size_t len)
{
    uint64_t line = CTR_DMINLINE(READ_SYSREG(ctr_el0));
    uintptr_t end = (uintptr_t)va + len;
    for (uintptr_t a = (uintptr_t)va & ~(line - 1); a < end; a += line)
        __asm__ volatile("dc cvac, %0" : : "r"(a) : "memory");
    __asm__ volatile("dsb sy" : : : "memory");
}

/*
 * New code at kva (through the direct map) for user space, maybe run on any
 * CPU: clean the data cache to the Point of Unification (DC CVAU), where
 * instruction fetches meet data, then invalidate those lines from every
 * instruction cache (IC IVAU, broadcast to the Inner Shareable domain), each
 * step completed by a DSB ISH, and an ISB for this CPU's own pipeline.
 * IC IVAU by the direct-map address reaches the user alias only if the
 * I-cache is PIPT; for VIPT or ASID-tagged VIVT ones, invalidate them all
 * (IC IALLUIS). Other CPUs fetch afresh after their next exception return.
 */
void arch_sync_icache_done(void) {} /* IC IVAU / IC IALLUIS were broadcast */

void arch_sync_icache(const void *kva, size_t len)
{
    uint64_t ctr = READ_SYSREG(ctr_el0);
    uintptr_t start = (uintptr_t)kva, end = start + len;
    if (!(ctr & CTR_IDC)) {
        uint64_t line = CTR_DMINLINE(ctr);
        for (uintptr_t a = start & ~(line - 1); a < end; a += line)
            __asm__ volatile("dc cvau, %0" : : "r"(a) : "memory");
    }
    __asm__ volatile("dsb ish" : : : "memory");
    if (!(ctr & CTR_DIC)) {
        if (CTR_L1IP(ctr) == CTR_L1IP_PIPT) {
            uint64_t line = CTR_IMINLINE(ctr);
            for (uintptr_t a = start & ~(line - 1); a < end; a += line)
                __asm__ volatile("ic ivau, %0" : : "r"(a) : "memory");
        } else {
            __asm__ volatile("ic ialluis" : : : "memory");
        }
        __asm__ volatile("dsb ish" : : : "memory");
    }
    __asm__ volatile("isb" : : : "memory");
}

void arch_aspace_init(pte_t *user_root, const pte_t *kernel_root)
{
    /* Nothing: the kernel half is TTBR1's, never part of a user root. */
}

/*
 * ASIDs (Arm ARM, "Address Space IDentifiers"): ID_AA64MMFR0_EL1.ASIDBits,
 * bits [7:4], says 0b0000 for 8 bits and 0b0010 for 16; TCR_EL1.AS (bit
 * 36) = 1 uses all 16. TCR_EL1.A1 stays 0 (start.S): the ASID is the one in
 * TTBR0_EL1[63:48], so the user table and its ASID change in one write. User
 * pages carry nG (impl.h), so their translations are tagged; the kernel's
 * (TTBR1) are global and shared by every ASID.
 */
#define MMFR0_ASIDBITS(r) (((r) >> 4) & 0xf)
#define ASIDBITS_16       2
#define TCR_AS            (1ull << 36)
#define TTBR_ASID_SHIFT   48

unsigned arch_asid_bits(void)
{
    return MMFR0_ASIDBITS(READ_SYSREG(id_aa64mmfr0_el1)) == ASIDBITS_16 ? 16 : 8;
}

/* TCR_EL1 fields may be held in the TLB ("TLB maintenance requirements on
 * changing translation control registers"): invalidate after the change. */
void arch_asid_enable(void)
{
    if (arch_asid_bits() != 16)
        return;
    WRITE_SYSREG(tcr_el1, READ_SYSREG(tcr_el1) | TCR_AS);
    __asm__ volatile("isb\n\ttlbi vmalle1\n\tdsb nsh\n\tisb" : : : "memory");
}

/*
 * Without ASIDs (asid 0 always) every user mapping looks alike to the TLB,
 * so a new TTBR0 means invalidating this CPU's whole EL1 TLB (TLBI VMALLE1;
 * the kernel's entries go too and are walked again): need_flush. With
 * them, entries of different address spaces coexist and a switch needs no
 * invalidation; TLBI VMALLE1 (every ASID) only when kernel/mm/asid.c starts
 * a new generation of them. Kernel threads get empty_root under ASID 0,
 * which caches nothing. DSB ISHST first: the new table's contents visible
 * to the walker; ISB after the TTBR write so the TLBI cannot run before
 * it; DSB NSH for the TLBI to finish (only this CPU uses this TTBR0); ISB
 * so later instructions translate with the new tables ("TLB maintenance").
 */
void arch_aspace_activate(uint64_t user_root, unsigned asid, bool need_flush)
{
    __asm__ volatile("dsb ishst" : : : "memory"); /* table writes reach the walker first */
    WRITE_SYSREG(ttbr0_el1,
                 (user_root ? user_root : empty_root) | (uint64_t)asid << TTBR_ASID_SHIFT);
    __asm__ volatile("isb" : : : "memory");
    if (need_flush) {
        __asm__ volatile("tlbi vmalle1\n\tdsb nsh\n\tisb" : : : "memory");
        if (asid && CTR_L1IP(READ_SYSREG(ctr_el0)) == CTR_L1IP_AIVIVT) /* tagged by ASID too */
            __asm__ volatile("ic iallu\n\tdsb nsh\n\tisb" : : : "memory");
    }
}

/* TLBI VAAE1IS (in arch_tlb_flush_page) already reaches every CPU in the
 * inner-shareable domain, and every ASID ("all ASIDs" is the AA in its
 * name), so a shootdown is just the loop, whatever ASID (or older one,
 * kernel/mm/asid.c) the address space's translations carry. */
void arch_tlb_shootdown(unsigned asid, uintptr_t va, size_t len)
{
    (void)asid;
    for (uintptr_t p = va; p < va + len; p += PAGE_SIZE)
        arch_tlb_flush_page(p);
}
