/* SPDX-License-Identifier: MIT */
/*
 * kernel/mm/vm.c - the page-table walk, shared by every arch (see vm.h).
 */
#include "kernel/mm/vm.h"

#include "kernel/errno.h"
#include "kernel/mm.h"
#include "kernel/mm/asid.h"
#include "kernel/panic.h"

#define PT_ENTRIES 512

struct aspace kernel_aspace;
static bool user_spaces_exist; /* after this, the kernel's root entries are frozen */

static unsigned level_shift(int level)
{
    return PAGE_SHIFT + 9 * (unsigned)level;
}

static unsigned pt_index(uintptr_t va, int level)
{
    return (va >> level_shift(level)) & (PT_ENTRIES - 1);
}

static pte_t *table(uint64_t pa)
{
    return page_va(pa);
}

/*
 * The entry for va at `level`. With spare, a missing table above it is
 * made from *spare, a zeroed page the caller allocated (then 0): if one is
 * missing and *spare is 0, NULL and *need_table. Without spare, NULL if a
 * table is missing. NULL too if a block is in the way.
 */
static pte_t *walk(struct aspace *as, uintptr_t va, int level, uint64_t *spare, bool *need_table)
{
    pte_t *t = table(as->root);
    for (int l = ARCH_PT_LEVELS - 1; l > level; l--) {
        pte_t *e = &t[pt_index(va, l)];
        if (!arch_pte_valid(*e)) {
            if (!spare)
                return NULL;
            if (!as->user && l == ARCH_PT_LEVELS - 1 && user_spaces_exist && (va >> 63))
                panic("vm: new kernel root entry for %#lx after user spaces were made",
                      (unsigned long)va);
            uint64_t pa = *spare;
            *spare = 0;
            if (!pa) {
                *need_table = true;
                return NULL;
            }
            /* Release: the zeroed table is visible before the link to it,
             * to other CPUs' table walks and to lock-free vm_query. */
            __atomic_store_n(e, arch_pte_table(pa, as->user), __ATOMIC_RELEASE);
        } else if (arch_pte_is_leaf(*e, l)) {
            return NULL;
        }
        t = table(arch_pte_addr(*e));
    }
    return &t[pt_index(va, level)];
}

/* The biggest level whose block fits at va/pa with `left` bytes to go. */
static int leaf_level(const struct aspace *as, uintptr_t va, uint64_t pa, size_t left)
{
    for (int l = ARCH_PT_LEVELS - 1; l > 0 && !as->user; l--) {
        uint64_t block = 1ull << level_shift(l);
        if (arch_pt_block_ok(l) && left >= block && (va | pa) % block == 0)
            return l;
    }
    return 0;
}

/* One leaf entry of vm_map under the lock (IRQs masked for this alone): the
 * bytes it mapped; 0 with *err set, or with *need_table (walk) to retry. */
static uint64_t map_one(struct aspace *as, uintptr_t va, uint64_t pa, size_t size, unsigned prot,
                        uint64_t *spare, bool *need_table, int *err)
{
    int level = leaf_level(as, va, pa, size);
    uint64_t step = 0;
    unsigned long flags = spin_lock_irqsave(&as->lock);
    pte_t *e = walk(as, va, level, spare, need_table);
    if (!e && !*need_table) {
        *err = -ENOMEM;
    } else if (e && arch_pte_valid(*e)) {
        *err = -EEXIST;
    } else if (e) {
        *e = arch_pte_leaf(pa, prot, level);
        /* Some MMUs may remember "not mapped" (RISC-V without Svvptc): forget it. */
        arch_tlb_flush_page(va);
        step = 1ull << level_shift(level);
    }
    spin_unlock_irqrestore(&as->lock, flags);
    return step;
}

/* A new page table is allocated (and zeroed: 4 KiB) with IRQs on, outside
 * the lock, and the entry tried again: the lock is held for one entry. */
int vm_map(struct aspace *as, uintptr_t va, uint64_t pa, size_t size, unsigned prot)
{
    BUG_ON((va | pa | size) % PAGE_SIZE);
    uint64_t spare = 0;
    int err = 0;
    while (size && !err) {
        bool need_table = false;
        uint64_t step = map_one(as, va, pa, size, prot, &spare, &need_table, &err);
        if (need_table && !(spare = page_alloc()))
            err = -ENOMEM;
        va += step;
        pa += step;
        size -= step;
    }
    if (spare)
        page_free(spare);
    return err;
}

/* Up to UNMAP_BATCH pages are taken out, then every CPU's TLB forgets
 * them, then they are freed: never free a page another CPU may still reach.
 * A batch holds the lock, IRQs masked, and looks at UNMAP_SCAN pages at
 * most, so that unmapping a big range (brk giving back 48 MiB) masks
 * interrupts for one batch at a time, not for the whole range. */
#define UNMAP_BATCH 8
#define UNMAP_SCAN  64

/* One batch from va on (below end): where the next one begins. */
static uintptr_t unmap_batch(struct aspace *as, uintptr_t va, uintptr_t end, bool free_pages)
{
    uint64_t freed[UNMAP_BATCH];
    uintptr_t start = va;
    unsigned n = 0;
    unsigned long flags = spin_lock_irqsave(&as->lock);
    for (unsigned seen = 0; va < end && n < UNMAP_BATCH && seen < UNMAP_SCAN; va += PAGE_SIZE) {
        seen++;
        pte_t *e = walk(as, va, 0, NULL, NULL);
        if (!e || !arch_pte_valid(*e))
            continue;
        /* Device registers are not RAM: flushed, never freed (bit 0 says so). */
        freed[n++] = arch_pte_addr(*e) | !!(arch_pte_prot(*e) & VM_DEVICE);
        *e = 0;
    }
    as->unmaps += n > 0;
    if (n > 0 && as->user)
        arch_tlb_shootdown(asid_of(as), start, va - start);
    else if (n > 0)
        for (uintptr_t p = start; p < va; p += PAGE_SIZE) /* kernel: never live elsewhere */
            arch_tlb_flush_page(p);
    spin_unlock_irqrestore(&as->lock, flags);
    for (unsigned i = 0; free_pages && i < n; i++)
        if (!(freed[i] & 1))
            page_free(freed[i]);
    return va;
}

void vm_unmap(struct aspace *as, uintptr_t va, size_t size, bool free_pages)
{
    for (uintptr_t end = va + size; va < end;)
        va = unmap_batch(as, va, end, free_pages);
}

bool vm_query(struct aspace *as, uintptr_t va, uint64_t *pa, unsigned *prot)
{
    pte_t *t = table(as->root);
    for (int l = ARCH_PT_LEVELS - 1; l >= 0; l--) {
        pte_t e = t[pt_index(va, l)];
        if (!arch_pte_valid(e))
            return false;
        if (l == 0 || arch_pte_is_leaf(e, l)) {
            uint64_t mask = (1ull << level_shift(l)) - 1;
            *pa = arch_pte_addr(e) + (va & mask);
            *prot = arch_pte_prot(e);
            return true;
        }
        t = table(arch_pte_addr(e));
    }
    return false;
}

/* The address a table index path names: sign-extended from the top bit the
 * tables translate (the upper half is the kernel's). */
static uintptr_t canonical(uint64_t va)
{
    unsigned bits = level_shift(ARCH_PT_LEVELS);
    return (uintptr_t)((int64_t)(va << (64 - bits)) >> (64 - bits));
}

static void each_leaf(uint64_t table_pa, int level, uint64_t base, vm_leaf_fn fn, void *arg)
{
    const pte_t *t = table(table_pa);
    for (unsigned i = 0; i < PT_ENTRIES; i++) {
        pte_t e = READ_ONCE(t[i]);
        uint64_t va = base | (uint64_t)i << level_shift(level);
        if (!arch_pte_valid(e))
            continue;
        if (level == 0 || arch_pte_is_leaf(e, level))
            fn(canonical(va), arch_pte_addr(e), 1ull << level_shift(level), arch_pte_prot(e), arg);
        else
            each_leaf(arch_pte_addr(e), level - 1, va, fn, arg);
    }
}

void vm_for_each_leaf(struct aspace *as, vm_leaf_fn fn, void *arg)
{
    unsigned long flags = spin_lock_irqsave(&as->lock);
    each_leaf(as->root, ARCH_PT_LEVELS - 1, 0, fn, arg);
    spin_unlock_irqrestore(&as->lock, flags);
}

int aspace_create(struct aspace *as)
{
    as->root = page_alloc();
    if (!as->root)
        return -ENOMEM;
    as->user = true;
    as->lock = (struct spinlock)SPINLOCK_INIT;
    as->asid = 0; /* none yet: the first activation gives it one */
    as->unmaps = 0;
    user_spaces_exist = true;
    arch_aspace_init(table(as->root), table(kernel_aspace.root));
    return 0;
}

/* Free the user half below `level`: leaf pages and the tables holding them. */
static void free_tree(uint64_t table_pa, int level, unsigned first, unsigned last)
{
    pte_t *t = table(table_pa);
    for (unsigned i = first; i <= last; i++) {
        if (!arch_pte_valid(t[i]))
            continue;
        if (level > 0 && !arch_pte_is_leaf(t[i], level))
            free_tree(arch_pte_addr(t[i]), level - 1, 0, PT_ENTRIES - 1);
        else if (!(arch_pte_prot(t[i]) & VM_DEVICE)) /* device registers are not RAM */
            page_free(arch_pte_addr(t[i]));
        t[i] = 0;
    }
    page_free(table_pa);
}

void aspace_destroy(struct aspace *as)
{
    int top = ARCH_PT_LEVELS - 1;
    free_tree(as->root, top, 0, pt_index(USER_TOP - 1, top));
    as->root = 0;
    /* Its ASID is not given back: the value waits for the next generation,
     * by when every TLB has been flushed of it (kernel/mm/asid.c). */
}

void aspace_activate_irqs_off(struct cpu *c, struct aspace *as)
{
    c->sched.user_as = as;
    unsigned asid = asid_for_switch(as);
    arch_aspace_activate(as ? as->root : 0, asid & ASID_VALUE_MASK, asid & ASID_NEED_FLUSH);
}

void aspace_activate(struct aspace *as)
{
    unsigned long flags = arch_irq_save();
    aspace_activate_irqs_off(arch_this_cpu(), as);
    arch_irq_restore(flags);
}
