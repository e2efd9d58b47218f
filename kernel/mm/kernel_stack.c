/* SPDX-License-Identifier: MIT */
/*
 * kernel/mm/kernel_stack.c - kernel stacks with guard pages (see kernel_stack.h).
 * Slot i occupies [ARCH_KSTACK_BASE + i * SLOT, + SLOT): one guard page,
 * then KSTACK_SIZE bytes of stack. A freed stack stays mapped and is handed
 * out again first: kernel mappings then never change after boot, so no CPU
 * can hold a stale TLB entry for a stack page that went back to the page
 * allocator (which would need a cross-CPU TLB shootdown to prevent).
 */
#include "kernel/mm/kernel_stack.h"

#include "kernel/mm/vm.h"
#include "kernel/panic.h"

#define SLOT (KSTACK_SIZE + PAGE_SIZE)

static struct spinlock lock = SPINLOCK_INIT;
static uint64_t used[KSTACK_SLOTS / 64];
static uint64_t mapped[KSTACK_SLOTS / 64];

static bool bit(const uint64_t *map, int i)
{
    return map[i / 64] & (1ull << (i % 64));
}

/* The first free slot whose pages are mapped (or not), or -1: a word of 64
 * slots at a time, so that the lock (IRQs masked) is held briefly. */
static int free_slot(bool want_mapped)
{
    for (int w = 0; w < KSTACK_SLOTS / 64; w++) {
        uint64_t free = ~used[w] & (want_mapped ? mapped[w] : ~mapped[w]);
        for (int b = 0; free && b < 64; b++) /* not __builtin_ctzll: a libgcc call on riscv64 */
            if (free & (1ull << b))
                return w * 64 + b;
    }
    return -1;
}

/* A free slot, preferring one whose pages are still mapped; *was_mapped says which. */
static int take_slot(bool *was_mapped)
{
    unsigned long flags = spin_lock_irqsave(&lock);
    int slot = free_slot(true);
    if (slot < 0)
        slot = free_slot(false);
    if (slot >= 0) {
        used[slot / 64] |= 1ull << (slot % 64);
        *was_mapped = bit(mapped, slot);
        mapped[slot / 64] |= 1ull << (slot % 64);
    }
    spin_unlock_irqrestore(&lock, flags);
    return slot;
}

static void put_slot(int slot, bool still_mapped)
{
    unsigned long flags = spin_lock_irqsave(&lock);
    used[slot / 64] &= ~(1ull << (slot % 64));
    if (!still_mapped)
        mapped[slot / 64] &= ~(1ull << (slot % 64));
    spin_unlock_irqrestore(&lock, flags);
}

uintptr_t kstack_alloc(void)
{
    bool was_mapped;
    int slot = take_slot(&was_mapped);
    if (slot < 0)
        return 0;
    uintptr_t bottom = ARCH_KSTACK_BASE + (uintptr_t)slot * SLOT + PAGE_SIZE;
    if (was_mapped)
        return bottom + KSTACK_SIZE;
    for (uintptr_t va = bottom; va < bottom + KSTACK_SIZE; va += PAGE_SIZE) {
        uint64_t pa = page_alloc();
        if (!pa || vm_map(&kernel_aspace, va, pa, PAGE_SIZE, VM_READ | VM_WRITE) != 0) {
            if (pa)
                page_free(pa);
            vm_unmap(&kernel_aspace, bottom, va - bottom, true); /* never used: no stale TLB */
            put_slot(slot, false);
            return 0;
        }
    }
    return bottom + KSTACK_SIZE;
}

void kstack_free(uintptr_t top)
{
    uintptr_t bottom = top - KSTACK_SIZE;
    int slot = (int)((bottom - PAGE_SIZE - ARCH_KSTACK_BASE) / SLOT);
    BUG_ON(slot < 0 || slot >= KSTACK_SLOTS);
    put_slot(slot, true);
}

size_t kstack_cached_pages(void)
{
    size_t slots = 0;
    unsigned long flags = spin_lock_irqsave(&lock);
    for (int i = 0; i < KSTACK_SLOTS; i++)
        slots += bit(mapped, i) && !bit(used, i);
    spin_unlock_irqrestore(&lock, flags);
    return slots * (KSTACK_SIZE / PAGE_SIZE);
}

bool kstack_is_guard(uintptr_t addr)
{
    if (addr < ARCH_KSTACK_BASE || addr >= ARCH_KSTACK_BASE + (uintptr_t)KSTACK_SLOTS * SLOT)
        return false;
    return (addr - ARCH_KSTACK_BASE) % SLOT < PAGE_SIZE;
}
