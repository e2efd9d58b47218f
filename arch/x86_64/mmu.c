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
 *             (kernel/mm/asid.c), if the kernel uses ASIDs
 */
#include "kernel/arch_callbacks.h"
#include "x86.h"

#define EFER_NXE  (1ull << 11)
#define CR0_WP    (1ull << 16)
#define CR4_PGE   (1ull << 7)
#define CR4_SMEP  (1ull << 20)
#define CR4_SMAP  (1ull << 21)
#define CR4_UMIP  (1ull << 11)
#define CR4_PCIDE (1ull << 17)

/* With CR4.PCIDE (SDM vol. 3A 4.10.1): CR3[11:0] is the PCID, and a MOV to
 * CR3 with bit 63 set keeps that PCID's translations (4.10.4.1). */
#define CR3_PCID    0xfffull
#define CR3_NOFLUSH (1ull << 63)

/* INVPCID types (SDM vol. 2A "INVPCID"). */
#define INVPCID_ADDRESS        0 /* one address, one PCID (global entries kept) */
#define INVPCID_ALL_NON_GLOBAL 3 /* every PCID, global entries kept */

static uint64_t kernel_root;
bool x86_smap_enabled; /* read by uaccess.S */
static bool has_1g_pages;
static bool pcid_on;     /* CR4.PCIDE on every CPU (arch_asid_enable) */
static bool has_invpcid; /* CPUID.(EAX=07H,ECX=0):EBX.INVPCID[bit 10] */

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
    has_invpcid = r[1] & (1u << 10);
    write_cr4(x86_read_cr4() | CR4_PCIDE);
    pcid_on = true;
}

static void invpcid(uint64_t type, uint64_t pcid, uintptr_t va)
{
    struct {
        uint64_t pcid, va;
    } desc = {pcid, va};
    __asm__ volatile("invpcid %0, %1" : : "m"(desc), "r"(type) : "memory");
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
        invpcid(INVPCID_ALL_NON_GLOBAL, 0, 0);
        return;
    }
    for (unsigned i = 0; i < sizeof(a->stale_pcids) / sizeof(a->stale_pcids[0]); i++)
        __atomic_store_n(&a->stale_pcids[i], ~0ull, __ATOMIC_RELAXED);
}

void arch_aspace_activate(uint64_t user_root, unsigned asid, bool need_flush)
{
    uint64_t root = user_root ? user_root : kernel_root;
    if (!pcid_on) {
        write_cr3(root); /* also flushes non-global entries */
        return;
    }
    struct arch_cpu *a = &arch_this_cpu()->arch;
    if (need_flush)
        forget_every_pcid(a);
    write_cr3(root | asid | (take_stale(a, asid) ? 0 : CR3_NOFLUSH));
}

uint64_t x86_kernel_root(void)
{
    return kernel_root;
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
        write_cr3(x86_read_cr3()); /* bit 63 reads as 0: flushes */
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
        invpcid(INVPCID_ADDRESS, pcid, p);
}

void arch_tlb_shootdown(unsigned asid, uintptr_t va, size_t len)
{
    struct cpu *self = arch_this_cpu();
    for (uintptr_t p = va; p < va + len; p += PAGE_SIZE)
        arch_tlb_flush_page(p); /* INVLPG: the current PCID's */
    if (pcid_on && asid != (x86_read_cr3() & CR3_PCID))
        forget_pages_of(self, asid, va, len);
    for (unsigned i = 0; i < MAX_CPUS; i++) {
        if (&cpus[i] != self && READ_ONCE(cpus[i].online)) {
            if (pcid_on)
                mark_stale(&cpus[i].arch, asid);
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
