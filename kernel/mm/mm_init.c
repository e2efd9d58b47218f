/* SPDX-License-Identifier: MIT */
/*
 * kernel/mm/mm_init.c - from the boot page tables to the kernel's own.
 *
 * start.S left a minimal mapping: the image at its linked address (with
 * ARCH_EARLY_MAP_SIZE of memory behind it) and an identity map of low
 * memory. Here the kernel builds its real tables: the image with the
 * permissions each part needs (text read+execute, read-only data, data
 * read+write, never write+execute), all RAM in the direct map (read+write,
 * never executable) except the image's text and read-only data, which the
 * direct map has read-only too (W^X in every mapping: code is rewritten only
 * through a mapping made for it, kernel/text_patch.c), the console's
 * registers; then it switches to them, so
 * the identity map and the user half are gone, and frees the remaining RAM.
 * The page tables themselves come from the memory right behind the image
 * (the "boot window"), which the early mapping already reaches.
 */
#include "kernel/bootinfo.h"
#include "kernel/console.h"
#include "kernel/mm.h"
#include "kernel/mm/vm.h"
#include "kernel/panic.h"
#include "kernel/printk.h"

/* Region types that are RAM and belong in the direct map. */
static bool is_ram(uint32_t type)
{
    return type == BOOT_MEM_USABLE || type == BOOT_MEM_KERNEL || type == BOOT_MEM_LOADER ||
           type == BOOT_MEM_ACPI_RECLAIM || type == BOOT_MEM_ACPI_NVS;
}

static void map_direct(const struct boot_info *bi)
{
    for (uint32_t i = 0; i < bi->mmap_count; i++) {
        const struct boot_mem_region *r = &bi->mmap[i];
        uint64_t lo = ALIGN_DOWN(r->base, PAGE_SIZE);
        uint64_t hi = MIN(ALIGN_UP(r->base + r->size, PAGE_SIZE), ARCH_DIRECT_MAP_SIZE);
        if (!is_ram(r->type) || lo >= hi)
            continue;
        /* Neighbouring regions may share a page: map what is not mapped yet. */
        for (uint64_t pa = lo; pa < hi; pa += PAGE_SIZE) {
            uint64_t mapped;
            unsigned prot;
            if (!vm_query(&kernel_aspace, ARCH_DIRECT_MAP_BASE + pa, &mapped, &prot)) {
                uint64_t end = pa + PAGE_SIZE;
                while (end < hi &&
                       !vm_query(&kernel_aspace, ARCH_DIRECT_MAP_BASE + end, &mapped, &prot))
                    end += PAGE_SIZE;
                if (vm_map(&kernel_aspace, ARCH_DIRECT_MAP_BASE + pa, pa, end - pa,
                           VM_READ | VM_WRITE) != 0)
                    panic("mm: cannot map RAM at %#llx", (unsigned long long)pa);
                pa = end - PAGE_SIZE;
            }
        }
    }
}

static void map_image_part(uint64_t kphys, const char *from, const char *to, unsigned prot)
{
    uintptr_t va = (uintptr_t)from;
    uint64_t pa = kphys + (va - (uintptr_t)_kernel_start);
    if (vm_map(&kernel_aspace, va, pa, (uintptr_t)to - va, prot) != 0)
        panic("mm: cannot map the kernel image at %p", (void *)from);
}

/* The direct map's view of the image's text and read-only data: read-only,
 * mapped before map_direct(), which then skips those pages. */
static void map_image_alias(uint64_t kphys)
{
    size_t len = (uintptr_t)_erodata - (uintptr_t)_kernel_start;
    if (vm_map(&kernel_aspace, ARCH_DIRECT_MAP_BASE + kphys, kphys, len, VM_READ) != 0)
        panic("mm: cannot map the kernel image's read-only alias");
}

void mm_init(struct boot_info *bi)
{
    uint64_t kphys = bi->kernel_phys;
    page_alloc_boot_window(bi, kphys + bi->kernel_size, kphys + ARCH_EARLY_MAP_SIZE,
                           (uintptr_t)_kernel_end);
    kernel_aspace.root = page_alloc();
    kernel_aspace.lock = (struct spinlock)SPINLOCK_INIT;
    map_image_part(kphys, _kernel_start, _etext, VM_READ | VM_EXEC);
    map_image_part(kphys, _etext, _erodata, VM_READ);
    map_image_part(kphys, _erodata, _kernel_end, VM_READ | VM_WRITE);
    map_image_alias(kphys);
    map_direct(bi);
    uint64_t con_pa, con_size;
    if (console_mmio(&con_pa, &con_size) &&
        vm_map(&kernel_aspace, ARCH_DIRECT_MAP_BASE + ALIGN_DOWN(con_pa, PAGE_SIZE),
               ALIGN_DOWN(con_pa, PAGE_SIZE), PAGE_SIZE, VM_READ | VM_WRITE | VM_DEVICE) != 0)
        panic("mm: cannot map the console");

    /* The switch: nothing may print between here and console_relocate(). */
    arch_mmu_switch(kernel_aspace.root);
    phys_map_offset = ARCH_DIRECT_MAP_BASE;
    console_relocate();
    bootinfo_relocate();

    page_alloc_init_free_list(bi);
    kprintf("mm: kernel page tables live, %zu pages used for them, %zu MiB free\n",
            page_boot_count(), page_free_count() * PAGE_SIZE >> 20);
}
