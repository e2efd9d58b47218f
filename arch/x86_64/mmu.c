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
 *   CR4.SMAP  the kernel can only touch user pages inside the copy
 *             routines (stac/clac in uaccess.S)
 */
#include "kernel/arch_callbacks.h"
#include "x86.h"

#define EFER_NXE (1ull << 11)
#define CR0_WP   (1ull << 16)
#define CR4_PGE  (1ull << 7)
#define CR4_SMEP (1ull << 20)
#define CR4_SMAP (1ull << 21)

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

void arch_aspace_activate(uint64_t user_root)
{
    write_cr3(user_root ? user_root : kernel_root); /* also flushes non-global entries */
}

uint64_t x86_kernel_root(void)
{
    return kernel_root;
}

/*
 * TLB shootdown: x86 has no broadcast invalidation, so the other CPUs are
 * asked with an IPI to flush their user translations (a CR3 reload drops
 * every non-global entry, SDM vol. 3A 4.10.4.1) and the caller waits for
 * each to clear its request flag. While waiting it serves requests aimed
 * at itself, so two CPUs shooting at each other with IRQs off cannot
 * deadlock.
 */
void x86_tlb_serve_request(void)
{
    struct cpu *c = arch_this_cpu();
    if (__atomic_load_n(&c->arch.tlb_flush_request, __ATOMIC_ACQUIRE)) {
        write_cr3(x86_read_cr3());
        __atomic_store_n(&c->arch.tlb_flush_request, 0, __ATOMIC_RELEASE);
    }
}

void arch_tlb_shootdown(uintptr_t va, size_t len)
{
    struct cpu *self = arch_this_cpu();
    for (uintptr_t p = va; p < va + len; p += PAGE_SIZE)
        arch_tlb_flush_page(p);
    for (unsigned i = 0; i < MAX_CPUS; i++) {
        if (&cpus[i] != self && READ_ONCE(cpus[i].online)) {
            __atomic_store_n(&cpus[i].arch.tlb_flush_request, 1, __ATOMIC_RELEASE);
            x86_lapic_send((uint32_t)cpus[i].hwid, (1u << 14) | VECTOR_TLB_SHOOTDOWN);
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
