/* SPDX-License-Identifier: MIT */
/*
 * kernel/mm/page_alloc.c - physical pages (see page_alloc.h).
 *
 * Two sources, both O(1): a singly linked list of freed pages (each holds
 * the physical address of the next in its first 8 bytes, written through
 * the direct map), and the ranges of usable memory that have never been
 * handed out. Pages come from the list first, then from the ranges, so boot
 * never has to touch every page of RAM to build a list (which costs seconds
 * under an emulator). Contiguous multi-page allocations are never needed:
 * larger kernel objects (stacks) are mapped page by page.
 */
#include "kernel/mm/page_alloc.h"

#include "kernel/mm.h"
#include "kernel/panic.h"
#include "kernel/spinlock.h"
#include "lib/string.h"

static struct spinlock lock = SPINLOCK_INIT;
static uint64_t free_head; /* physical address of the first freed page, 0 = none */
static size_t free_count;  /* pages on the list and in the ranges */

struct fresh_range {
    uint64_t next, end; /* [next, end): usable pages never handed out */
};
static struct fresh_range ranges[BOOT_MMAP_MAX];
static unsigned nranges;

/* The boot window: a bump allocator used before the direct map exists. */
static const struct boot_info *boot_bi;
static uint64_t boot_next, boot_hi;
static uintptr_t boot_window_va; /* virtual address of boot_window_lo */
static uint64_t boot_window_lo;
static size_t boot_used;

static bool is_usable(const struct boot_info *bi, uint64_t pa)
{
    for (uint32_t i = 0; i < bi->mmap_count; i++) {
        const struct boot_mem_region *r = &bi->mmap[i];
        if (r->type == BOOT_MEM_USABLE && pa >= r->base && pa + PAGE_SIZE <= r->base + r->size)
            return true;
    }
    return false;
}

static uint64_t boot_alloc(void)
{
    while (boot_next + PAGE_SIZE <= boot_hi) {
        uint64_t pa = boot_next;
        boot_next += PAGE_SIZE;
        if (is_usable(boot_bi, pa)) {
            memset(page_va(pa), 0, PAGE_SIZE);
            boot_used++;
            return pa;
        }
    }
    panic("page_alloc: boot window [%#llx, %#llx) exhausted", (unsigned long long)boot_window_lo,
          (unsigned long long)boot_hi);
}

void page_alloc_boot_window(const struct boot_info *bi, uint64_t lo, uint64_t hi, uintptr_t window)
{
    boot_bi = bi;
    boot_window_lo = boot_next = ALIGN_UP(lo, PAGE_SIZE);
    boot_window_va = window + (boot_window_lo - lo);
    boot_hi = hi;
}

void *page_va(uint64_t pa)
{
    if (boot_window_va && pa >= boot_window_lo && pa < boot_hi)
        return (void *)(boot_window_va + (pa - boot_window_lo));
    return phys_to_virt(pa);
}

uint64_t page_alloc(void)
{
    if (boot_bi)
        return boot_alloc();
    unsigned long flags = spin_lock_irqsave(&lock);
    uint64_t pa = free_head;
    if (pa) {
        free_head = *(uint64_t *)phys_to_virt(pa);
    } else {
        while (nranges && ranges[nranges - 1].next == ranges[nranges - 1].end)
            nranges--;
        if (nranges) {
            pa = ranges[nranges - 1].next;
            ranges[nranges - 1].next += PAGE_SIZE;
        }
    }
    if (pa)
        free_count--;
    spin_unlock_irqrestore(&lock, flags);
    if (pa)
        memset(phys_to_virt(pa), 0, PAGE_SIZE);
    return pa;
}

void page_free(uint64_t pa)
{
    BUG_ON(!pa || pa % PAGE_SIZE);
    unsigned long flags = spin_lock_irqsave(&lock);
    *(uint64_t *)phys_to_virt(pa) = free_head;
    free_head = pa;
    free_count++;
    spin_unlock_irqrestore(&lock, flags);
}

size_t page_free_count(void)
{
    return READ_ONCE(free_count);
}

size_t page_boot_count(void)
{
    return boot_used;
}

static void add_range(uint64_t lo, uint64_t hi)
{
    if (lo < hi && nranges < BOOT_MMAP_MAX) {
        ranges[nranges++] = (struct fresh_range){lo, hi};
        free_count += (hi - lo) / PAGE_SIZE;
    }
}

/* Every usable page the direct map reaches, minus those the boot window used.
 * Ranges are consumed from the last one, so high memory goes first. */
void page_alloc_init_free_list(const struct boot_info *bi)
{
    boot_window_va = 0; /* the final page tables map the window only through the direct map */
    for (uint32_t i = 0; i < bi->mmap_count; i++) {
        const struct boot_mem_region *r = &bi->mmap[i];
        if (r->type != BOOT_MEM_USABLE)
            continue;
        uint64_t lo = ALIGN_UP(r->base, PAGE_SIZE), hi = ALIGN_DOWN(r->base + r->size, PAGE_SIZE);
        hi = MIN(hi, (uint64_t)ARCH_DIRECT_MAP_SIZE); /* only what the direct map reaches */
        lo = MAX(lo, (uint64_t)PAGE_SIZE); /* physical page 0 stays unused: 0 means "no page" */
        /* Cut out [boot_window_lo, boot_next), which the boot window handed out. */
        add_range(lo, MIN(hi, boot_window_lo));
        add_range(MAX(lo, boot_next), hi);
    }
    boot_bi = NULL;
}
