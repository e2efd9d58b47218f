/* SPDX-License-Identifier: MIT */
/*
 * kernel/mm/page_alloc.h - the physical page allocator.
 *
 * Hands out 4 KiB physical pages from the firmware's usable memory. Before
 * the direct map exists (during mm_init) pages come from a boot window right
 * behind the kernel image, reachable through the kernel's own mapping; after
 * it, every remaining usable page is on a free list threaded through the
 * direct map. Pages are returned zeroed.
 */
#ifndef KERNEL_MM_PAGE_ALLOC_H
#define KERNEL_MM_PAGE_ALLOC_H

#include "boot/bootinfo.h"
#include "kernel/types.h"

#define PAGE_SIZE  4096ul
#define PAGE_SHIFT 12

/* A zeroed page's physical address, or 0 when memory is exhausted. Any context. */
uint64_t page_alloc(void);
void page_free(uint64_t pa);
/* How many pages are free right now (tests compare before and after). */
size_t page_free_count(void);
/* The kernel virtual address of a page from page_alloc (boot window or direct map). */
void *page_va(uint64_t pa);
/* Pages handed out by the boot window (page tables built before the direct map). */
size_t page_boot_count(void);

/* mm_init: serve pages from usable memory in [lo, hi), written through `window`
 * (a virtual address for lo), until page_alloc_init_free_list() takes over. */
void page_alloc_boot_window(const struct boot_info *bi, uint64_t lo, uint64_t hi, uintptr_t window);
/* mm_init, after the direct map is live: free every usable page not yet used. */
void page_alloc_init_free_list(const struct boot_info *bi);

#endif
