/* SPDX-License-Identifier: MIT */
/*
 * kernel/mm/vm.h - address spaces and page tables.
 *
 * All three arches use 512-entry tables of 8-byte entries over 4 KiB pages
 * (x86_64 4 levels, arm64 4 levels with a 48-bit VA, riscv64 Sv39 3
 * levels), so the walk is written once, here; the arch supplies the entry
 * format (arch_pte_* in its impl.h) and how to switch tables.
 *
 * Level numbering: level 0 holds 4 KiB pages, level 1 2 MiB blocks, level 2
 * 1 GiB blocks, level ARCH_PT_LEVELS - 1 is the root.
 *
 * Layout, the same on every arch (addresses are the arch's constants):
 *   [0, USER_TOP)                  user space, one per task
 *   ARCH_DIRECT_MAP_BASE + pa      all RAM and, via ioremap, device registers
 *   ARCH_KSTACK_BASE               kernel stacks, each above an unmapped guard page,
 *                                  then per-CPU areas (kvmap.h), the same way
 *   ARCH_KERNEL_VBASE              the kernel image
 */
#ifndef KERNEL_MM_VM_H
#define KERNEL_MM_VM_H

#include "arch/arch.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/spinlock.h"
#include "kernel/uapi/syscall.h" /* USER_TOP */

struct aspace {
    uint64_t root; /* physical address of the top-level table */
    bool user;     /* user address space (lower half) or the kernel's */
    struct spinlock lock;
    uint64_t asid; /* its ASID, tagged with the generation it is of (kernel/mm/asid.c) */
    /* Bumped under lock by every unmap that removed a page: a translation
     * read under lock at count n still holds while the count is n (the
     * IPC fastpath keeps its threads' buffers' so: kernel/ipc/fastpath_long.c). */
    unsigned long unmaps;
};

extern struct aspace kernel_aspace;

/* Map [va, va + size) to [pa, ...) with VM_* protection; all page aligned.
 * Kernel mappings use 2 MiB / 1 GiB blocks where alignment allows.
 * Returns 0, -ENOMEM, or -EEXIST if something is already mapped there. */
int vm_map(struct aspace *as, uintptr_t va, uint64_t pa, size_t size, unsigned prot);
/* Remove mappings of 4 KiB pages in [va, va + size); free the pages too if
 * free_pages. Flushes the TLB entries of this CPU. */
void vm_unmap(struct aspace *as, uintptr_t va, size_t size, bool free_pages);
/* Translate va; false if unmapped. */
bool vm_query(struct aspace *as, uintptr_t va, uint64_t *pa, unsigned *prot);

/* Call fn for every leaf entry of the address space (va, pa, the bytes it
 * maps and its VM_* protection), under its lock: the tests' view of what is
 * mapped how. fn must not map or unmap. */
typedef void (*vm_leaf_fn)(uintptr_t va, uint64_t pa, uint64_t size, unsigned prot, void *arg);
void vm_for_each_leaf(struct aspace *as, vm_leaf_fn fn, void *arg);

/* A new, empty user address space (shares the kernel's upper half). */
int aspace_create(struct aspace *as);
/* Free every user page and page table of an address space. */
void aspace_destroy(struct aspace *as);
/* Make it (NULL: none) this CPU's current user address space, under its
 * ASID where the hardware has them (kernel/mm/asid.c): no TLB flush then. */
void aspace_activate(struct aspace *as);
/* The same on CPU c (this one) with IRQs already off: the scheduler's
 * switch, under sched_lock, saves no IRQ state a second time. */
struct cpu;
void aspace_activate_irqs_off(struct cpu *c, struct aspace *as);

/* Map device registers into the direct map with device attributes
 * (kernel/mm/ioremap.c); NULL, said on the console, for a range that is
 * empty, reaches past the direct map, or holds RAM. */
void *ioremap(uint64_t pa, size_t size);

#endif
