/* SPDX-License-Identifier: MIT */
/* kernel/text_patch.c - see text_patch.h. */
#include "kernel/text_patch.h"
#include "kernel/arch_callbacks.h"
#include "kernel/cpu.h"
#include "kernel/mm/kvmap.h"
#include "kernel/mm/vm.h"
#include "kernel/panic.h"
#include "kernel/time.h"

unsigned long text_patch_generation;
static unsigned arrived;              /* CPUs stopped in this generation */
static unsigned long owner;           /* 1 + id of the CPU rewriting, 0: free */
static struct text_patch_stats stats; /* written by the owner only */

/* Where code is written: two pages (an instruction may cross into the
 * next), reserved once, mapped to the code's physical pages only while one
 * patch is written; used by one CPU at a time (the owner, or the boot CPU
 * alone). */
#define WINDOW_PAGES 2
static uintptr_t window;
static bool window_mapped;

/* This CPU forgets any translation of the window it may hold: a TLB may
 * keep one made speculatively while it was mapped (SDM vol. 3A 4.10.2.3),
 * and each CPU's must be invalidated by that CPU (4.10.5; RISC-V
 * privileged spec, "Supervisor Memory-Management Fence Instruction":
 * SFENCE.VMA orders this hart only). The window is a global kernel
 * mapping: INVLPG drops global entries too (4.10.4.1), SFENCE.VMA with
 * rs2 = x0 every address space's; arm64's TLBI in arch_tlb_flush_page is
 * broadcast to every CPU and ASID already (VAAE1IS). */
static void forget_window(void)
{
    uintptr_t w = READ_ONCE(window);
    for (unsigned i = 0; w && i < WINDOW_PAGES; i++)
        arch_tlb_flush_page(w + i * PAGE_SIZE);
}

void text_patch_join(void)
{
    unsigned long gen = __atomic_load_n(&text_patch_generation, __ATOMIC_ACQUIRE);
    if (!(gen & 1))
        return;
    __atomic_fetch_add(&arrived, 1, __ATOMIC_ACQ_REL);
    while (__atomic_load_n(&text_patch_generation, __ATOMIC_ACQUIRE) == gen) {
        arch_serve_ipis();
        arch_cpu_relax();
    }
    forget_window();
    arch_text_sync();
}

void text_patch_stats(struct text_patch_stats *st)
{
    st->stops = READ_ONCE(stats.stops);
    st->ns_total = READ_ONCE(stats.ns_total);
    st->ns_max = READ_ONCE(stats.ns_max);
}

unsigned text_patch_cpus_stopped(void)
{
    return __atomic_load_n(&arrived, __ATOMIC_ACQUIRE);
}

/* IRQs off: become the one CPU that rewrites, joining any other's stop
 * while waiting (it could be waiting for this CPU). */
static void take_ownership(struct cpu *self)
{
    unsigned long free = 0;
    while (!__atomic_compare_exchange_n(&owner, &free, 1 + self->id, false, __ATOMIC_ACQUIRE,
                                        __ATOMIC_RELAXED)) {
        free = 0;
        text_patch_join();
        arch_serve_ipis();
        arch_cpu_relax();
    }
}

void text_patch_run(void (*fn)(void *arg), void *arg)
{
    unsigned long flags = arch_irq_save();
    struct cpu *self = arch_this_cpu();
    take_ownership(self);
    uint64_t start = time_now_ns();
    unsigned others = 0;
    __atomic_store_n(&arrived, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&text_patch_generation, text_patch_generation + 1, __ATOMIC_RELEASE);
    for (unsigned i = 0; i < MAX_CPUS; i++) {
        if (&cpus[i] != self && READ_ONCE(cpus[i].online)) {
            arch_send_ipi(i, IPI_RESCHEDULE);
            others++;
        }
    }
    while (__atomic_load_n(&arrived, __ATOMIC_ACQUIRE) < others) {
        arch_serve_ipis();
        arch_cpu_relax();
    }
    fn(arg);
    text_patch_unalias();
    arch_text_sync();
    __atomic_store_n(&text_patch_generation, text_patch_generation + 1, __ATOMIC_RELEASE);
    uint64_t held = time_now_ns() - start;
    WRITE_ONCE(stats.stops, stats.stops + 1);
    WRITE_ONCE(stats.ns_total, stats.ns_total + held);
    WRITE_ONCE(stats.ns_max, held > stats.ns_max ? held : stats.ns_max);
    __atomic_store_n(&owner, 0, __ATOMIC_RELEASE);
    arch_irq_restore(flags);
}

void *text_patch_alias(const void *text)
{
    uintptr_t offset = (uintptr_t)text - (uintptr_t)_kernel_start;
    if (!window)
        window = kvmap_reserve(WINDOW_PAGES * PAGE_SIZE);
    if (!window)
        panic("text_patch: no room for the patch window");
    text_patch_unalias();
    uint64_t pa = arch_kernel_phys_base() + ALIGN_DOWN(offset, PAGE_SIZE);
    if (vm_map(&kernel_aspace, window, pa, WINDOW_PAGES * PAGE_SIZE, VM_READ | VM_WRITE) != 0)
        panic("text_patch: cannot map the patch window");
    window_mapped = true;
    return (void *)(window + offset % PAGE_SIZE);
}

void text_patch_unalias(void)
{
    if (!window_mapped)
        return;
    /* Unmapped, then this CPU's TLB entries go (vm_unmap); the others
     * forget theirs as they leave text_patch_join. */
    vm_unmap(&kernel_aspace, window, WINDOW_PAGES * PAGE_SIZE, false);
    window_mapped = false;
}

bool text_patch_window(uintptr_t *va, size_t *size)
{
    *va = window;
    *size = WINDOW_PAGES * PAGE_SIZE;
    return window_mapped;
}

void text_patch_timestamp_reads(uint32_t field, uint32_t from, uint32_t to)
{
    extern const uintptr_t __timestamp_reads_start[], __timestamp_reads_end[];
    for (const uintptr_t *site = __timestamp_reads_start; site < __timestamp_reads_end; site++) {
        uint32_t *insn = text_patch_alias((void *)*site);
        if ((*insn & field) != from)
            panic("text_patch: the counter read at %p is not 0x%x", (void *)*site, from);
        WRITE_ONCE(*insn, (*insn & ~field) | to);
        arch_sync_icache(insn, sizeof(*insn));
    }
    text_patch_unalias();
    arch_text_sync();
}
