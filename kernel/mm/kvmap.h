/* SPDX-License-Identifier: MIT */
/*
 * kernel/mm/kvmap.h - permanent, virtually contiguous kernel memory.
 *
 * For per-CPU objects larger than a page (the stack offset pool's ring,
 * emergency stacks) that are made when a CPU is found and kept until
 * power-off: memory then grows with the CPUs actually present, not with
 * MAX_CPUS. Each area is mapped page by page above an unmapped guard page,
 * in the region after the kernel stacks; it is never freed, so kernel
 * mappings still never change under a running CPU.
 */
#ifndef KERNEL_MM_KVMAP_H
#define KERNEL_MM_KVMAP_H

#include "kernel/types.h"

#define KVMAP_SIZE (64ul << 20) /* the region's size: 64 MiB of areas and guards */

/* size bytes (rounded up to pages) of zeroed memory, or NULL when out of
 * pages or region. Any context that may take a spinlock. */
void *kvmap_alloc(size_t size);
/* size bytes (rounded up to pages) of the region, above a guard page like
 * the others, with nothing mapped there: for a caller that maps and unmaps
 * pages there itself (the window code is rewritten through,
 * kernel/text_patch.c). 0 when the region is full. */
uintptr_t kvmap_reserve(size_t size);
/* True if addr lies in the guard page below an area. */
bool kvmap_is_guard(uintptr_t addr);

#endif
