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
static uint64_t empty_root; /* physical address of the all-invalid TTBR0 table */
static bool has_pan;

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
    arm64_replace_ttbr1(root, kernel_phys_base - ARCH_KERNEL_VBASE);
    arch_aspace_activate(0); /* the identity map goes */
    if (MMFR1_PAN(READ_SYSREG(id_aa64mmfr1_el1)) != 0) {
        has_pan = true;
        WRITE_SYSREG(sctlr_el1, READ_SYSREG(sctlr_el1) & ~SCTLR_SPAN);
        __asm__ volatile("isb\n\t" MSR_PAN_1 "\n\tisb" : : : "memory");
    }
}

bool arm64_has_pan(void)
{
    return has_pan;
}

void arch_aspace_init(pte_t *user_root, const pte_t *kernel_root)
{
    /* Nothing: the kernel half is TTBR1's, never part of a user root. */
}

/*
 * Without ASIDs every user mapping looks alike to the TLB, so a new TTBR0
 * means invalidating this CPU's whole EL1 TLB (TLBI VMALLE1; the kernel's
 * entries go too and are walked again). ASIDs (TTBR0_EL1.ASID, with the nG
 * bit user pages already carry) are the faster alternative: entries of
 * different address spaces coexist and a switch needs no invalidation.
 * DSB ISHST first: the new table's contents visible to the walker; ISB
 * after the TTBR write so the TLBI cannot run before it; DSB NSH for
 * the TLBI to finish (only this CPU uses this TTBR0); ISB so later
 * instructions translate with the new tables ("TLB maintenance").
 */
void arch_aspace_activate(uint64_t user_root)
{
    __asm__ volatile("dsb ishst" : : : "memory"); /* table writes reach the walker first */
    WRITE_SYSREG(ttbr0_el1, user_root ? user_root : empty_root);
    __asm__ volatile("isb\n\ttlbi vmalle1\n\tdsb nsh\n\tisb" : : : "memory");
}
