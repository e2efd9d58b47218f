/* SPDX-License-Identifier: MIT */
/*
 * kernel/mm/kvmap.c - permanent, virtually contiguous kernel memory (see
 * kvmap.h). A bump allocator over [KVMAP_BASE, + KVMAP_SIZE): each area
 * takes one guard page and then its own pages.
 */
#include "kernel/mm/kvmap.h"

#include "kernel/cpu.h" /* MAX_CPUS */
#include "kernel/mm/kernel_stack.h"
#include "kernel/mm/vm.h"

/* Right after the kernel-stack slots, in the same top-level table entry. */
#define KVMAP_BASE (ARCH_KSTACK_BASE + KSTACK_AREA_SIZE)

static struct spinlock lock = SPINLOCK_INIT;
static uintptr_t next = KVMAP_BASE;
/* The bottom of every area handed out, so a guard page can be recognised:
 * room for each CPU's pool ring and emergency stacks, and as many again. */
#define KVMAP_AREAS (2 * MAX_CPUS * (1 + ARCH_EMERGENCY_STACKS))
static uintptr_t bottoms[KVMAP_AREAS];
static unsigned areas;

static uintptr_t take_range(size_t size)
{
    uintptr_t bottom = 0;
    unsigned long flags = spin_lock_irqsave(&lock);
    if (areas < KVMAP_AREAS && next + PAGE_SIZE + size <= KVMAP_BASE + KVMAP_SIZE) {
        bottom = next + PAGE_SIZE;
        next = bottom + size;
        bottoms[areas++] = bottom;
    }
    spin_unlock_irqrestore(&lock, flags);
    return bottom;
}

void *kvmap_alloc(size_t size)
{
    size = ALIGN_UP(size, PAGE_SIZE);
    uintptr_t bottom = size ? take_range(size) : 0;
    if (!bottom)
        return NULL;
    for (uintptr_t va = bottom; va < bottom + size; va += PAGE_SIZE) {
        uint64_t pa = page_alloc(); /* zeroed */
        if (!pa || vm_map(&kernel_aspace, va, pa, PAGE_SIZE, VM_READ | VM_WRITE) != 0) {
            if (pa)
                page_free(pa);
            /* Never used, so no CPU has it in its TLB; the range stays taken. */
            vm_unmap(&kernel_aspace, bottom, va - bottom, true);
            return NULL;
        }
    }
    return (void *)bottom;
}

uintptr_t kvmap_reserve(size_t size)
{
    return size ? take_range(ALIGN_UP(size, PAGE_SIZE)) : 0;
}

bool kvmap_is_guard(uintptr_t addr)
{
    unsigned n = READ_ONCE(areas);
    for (unsigned i = 0; i < n; i++) {
        if (addr >= bottoms[i] - PAGE_SIZE && addr < bottoms[i])
            return true;
    }
    return false;
}
