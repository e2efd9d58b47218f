/* SPDX-License-Identifier: MIT */
/*
 * kernel/mm/page_alloc.c - physical pages (see page_alloc.h).
 *
 * A singly linked free list: each free page holds the physical address of
 * the next one in its first 8 bytes, written through the direct map. Simple
 * and O(1); contiguous multi-page allocations are never needed because
 * larger kernel objects (stacks) are mapped page by page.
 */
#include "kernel/mm/page_alloc.h"

#include "kernel/mm.h"
#include "kernel/panic.h"
#include "kernel/spinlock.h"
#include "lib/string.h"

static struct spinlock lock = SPINLOCK_INIT;
static uint64_t free_head; /* physical address of the first free page, 0 = none */
static size_t free_count;

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
        free_count--;
    }
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

/* Free usable pages from the top down, so low pages end up first in the list. */
void page_alloc_init_free_list(const struct boot_info *bi)
{
    boot_window_va = 0; /* the final page tables map the window only through the direct map */
    for (uint32_t i = bi->mmap_count; i-- > 0;) {
        const struct boot_mem_region *r = &bi->mmap[i];
        if (r->type != BOOT_MEM_USABLE)
            continue;
        uint64_t lo = ALIGN_UP(r->base, PAGE_SIZE), hi = ALIGN_DOWN(r->base + r->size, PAGE_SIZE);
        if (hi > ARCH_DIRECT_MAP_SIZE)
            hi = ARCH_DIRECT_MAP_SIZE; /* only what the direct map reaches */
        if (lo == 0)
            lo = PAGE_SIZE; /* physical page 0 stays unused: 0 means "no page" */
        for (uint64_t pa = hi; pa > lo;) {
            pa -= PAGE_SIZE;
            bool used_at_boot = pa >= boot_window_lo && pa < boot_next;
            if (!used_at_boot)
                page_free(pa);
        }
    }
    boot_bi = NULL;
}
