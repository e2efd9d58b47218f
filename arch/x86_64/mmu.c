/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/mmu.c - turning on the kernel's page tables, user address
 * spaces, and the paging-related protections.
 *
 * One CR3 holds both halves: every user PML4 gets a copy of the kernel's
 * upper-half entries (256-511), so the kernel is mapped whatever the
 * current address space. Protections enabled here (SDM vol. 3A 4.1.3, 4.6):
 *   EFER.NXE  the NX bit works (data and user pages are not executable)
 *   CR0.WP    the kernel cannot write through read-only entries either
 *   CR4.PGE   kernel (global) entries survive CR3 loads
 *   CR4.SMEP  the kernel can never execute a user page
 *   CR4.UMIP  SGDT, SIDT, SLDT, SMSW and STR fault in user mode (#GP), so a
 *             program learns no kernel address from the descriptor tables
 *             (SDM vol. 3A 2.5; CPUID.(EAX=7,ECX=0):ECX.UMIP[bit 2])
 *   CR4.SMAP  the kernel can only touch user pages inside the copy
 *             routines (stac/clac in uaccess.S)
 *   CR4.PCIDE user translations tagged with the address space's PCID
 *             (kernel/mm/asid.c), if the kernel uses ASIDs; loads and
 *             shootdowns under PCIDs are arch/x86_64/pcid.c's
 */
#include "kernel/arch_callbacks.h"
#include "pcid.h"
#include "x86.h"

#define EFER_NXE  (1ull << 11)
#define CR0_WP    (1ull << 16)
#define CR4_PGE   (1ull << 7)
#define CR4_SMEP  (1ull << 20)
#define CR4_SMAP  (1ull << 21)
#define CR4_UMIP  (1ull << 11)
#define CR4_PCIDE (1ull << 17)

static uint64_t kernel_root;
bool x86_smap_enabled; /* read by uaccess.S */
static bool has_1g_pages;

static void write_cr0(uint64_t v)
{
    __asm__ volatile("mov %0, %%cr0" : : "r"(v) : "memory");
}
static void write_cr3(uint64_t v)
{
    __asm__ volatile("mov %0, %%cr3" : : "r"(v) : "memory");
}
static void write_cr4(uint64_t v)
{
    __asm__ volatile("mov %0, %%cr4" : : "r"(v) : "memory");
}

/* This CPU's paging protections; every CPU runs it before using the tables. */
void x86_paging_features_init(void)
{
    uint32_t r[4];
    x86_wrmsr(MSR_EFER, x86_rdmsr(MSR_EFER) | EFER_NXE);
    write_cr0(x86_read_cr0() | CR0_WP);
    uint64_t cr4 = x86_read_cr4() | CR4_PGE;
    x86_cpuid(7, 0, r);
    if (r[1] & (1u << 7)) /* CPUID.(EAX=7,ECX=0):EBX.SMEP[bit 7] */
        cr4 |= CR4_SMEP;
    if (r[1] & (1u << 20)) { /* EBX.SMAP[bit 20] */
        cr4 |= CR4_SMAP;
        x86_smap_enabled = true;
    }
    if (r[2] & (1u << 2)) /* ECX.UMIP[bit 2] */
        cr4 |= CR4_UMIP;
    write_cr4(cr4);
    x86_cpuid(0x80000001, 0, r);
    has_1g_pages = r[3] & (1u << 26); /* EDX.Page1GB */
}

unsigned arch_user_guards(void)
{
    uint32_t r[4];
    x86_cpuid(7, 0, r);
    return ((r[1] & (1u << 20)) ? ARCH_GUARD_NO_ACCESS : 0) | /* EBX.SMAP */
           ((r[1] & (1u << 7)) ? ARCH_GUARD_NO_EXEC : 0);     /* EBX.SMEP */
}

/* RFLAGS.AC (bit 18) lets supervisor accesses reach user pages while
 * CR4.SMAP is on (SDM vol. 3A 4.6.1). */
bool arch_user_access_open(void)
{
    unsigned long flags;
    __asm__ volatile("pushfq; popq %0" : "=r"(flags));
    return x86_smap_enabled && (flags & (1ul << 18));
}

bool arch_pt_block_ok(int level)
{
    return level == 1 || (level == 2 && has_1g_pages);
}

void arch_mmu_switch(uint64_t root)
{
    x86_paging_features_init();
    kernel_root = root;
    write_cr3(root);
}

void arch_aspace_init(pte_t *user_root, const pte_t *kernel_root_table)
{
    for (int i = 256; i < 512; i++)
        user_root[i] = kernel_root_table[i];
}

/* CPUID.01H:ECX.PCID[bit 17]: 12-bit process-context identifiers. */
unsigned arch_asid_bits(void)
{
    uint32_t r[4];
    x86_cpuid(1, 0, r);
    return (r[2] & (1u << 17)) ? 12 : 0;
}

/* Setting CR4.PCIDE faults unless CR3[11:0] = 0 (SDM vol. 3A 4.10.1): so
 * here, with the kernel's root loaded as it was by arch_mmu_switch. */
void arch_asid_enable(void)
{
    uint32_t r[4];
    x86_cpuid(7, 0, r);
    write_cr4(x86_read_cr4() | CR4_PCIDE);
    x86_pcid_enable(r[1] & (1u << 10)); /* CPUID.(EAX=07H,ECX=0):EBX.INVPCID[bit 10] */
}

uint64_t x86_kernel_root(void)
{
    return kernel_root;
}
