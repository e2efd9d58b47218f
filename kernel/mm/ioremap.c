/* SPDX-License-Identifier: MIT */
/*
 * kernel/mm/ioremap.c - device registers mapped into the direct map.
 *
 * The addresses come from the devicetree (a reg translated through its
 * buses' ranges) or the firmware's tables: a trimmed or malformed one can
 * name any range. Device attributes on RAM would give the kernel an
 * uncached alias of memory it also maps as normal memory (Arm ARM B2.8
 * "mismatched memory attributes"; SDM vol. 3A 11.12.4 for x86), and a
 * driver would write its "registers" into whatever the page holds. So a
 * range is refused, with a line on the console, when it is empty, runs
 * past the direct map, or touches a page the memory map calls RAM (any
 * region but reserved and MMIO ones) or the direct map holds as memory.
 */
#include "kernel/bootinfo.h"
#include "kernel/mm.h"
#include "kernel/mm/vm.h"
#include "kernel/panic.h"
#include "kernel/printk.h"

static bool is_ram_type(uint32_t type)
{
    return type != BOOT_MEM_RESERVED && type != BOOT_MEM_MMIO;
}

/* Whether [base, end) meets a RAM region of the boot memory map. */
static bool meets_ram(uint64_t base, uint64_t end)
{
    for (uint32_t i = 0; i < boot_info.mmap_count; i++) {
        const struct boot_mem_region *r = &boot_info.mmap[i];
        if (is_ram_type(r->type) && base < r->base + r->size && r->base < end)
            return true;
    }
    return false;
}

/* Why [pa, pa + size) may not be mapped as a device, or NULL. */
static const char *refused(uint64_t pa, size_t size)
{
    if (size == 0 || pa + size < pa)
        return "an empty or wrapping range";
    if (pa + size > ARCH_DIRECT_MAP_SIZE)
        return "past the direct map";
    if (meets_ram(ALIGN_DOWN(pa, PAGE_SIZE), ALIGN_UP(pa + size, PAGE_SIZE)))
        return "RAM";
    return NULL;
}

void *ioremap(uint64_t pa, size_t size)
{
    const char *why = refused(pa, size);
    uint64_t base = ALIGN_DOWN(pa, PAGE_SIZE);
    size_t len = why ? 0 : ALIGN_UP(pa + size, PAGE_SIZE) - base;
    for (size_t off = 0; off < len && !why; off += PAGE_SIZE) {
        uint64_t mapped;
        unsigned prot;
        uintptr_t va = ARCH_DIRECT_MAP_BASE + base + off;
        if (!vm_query(&kernel_aspace, va, &mapped, &prot)) {
            if (vm_map(&kernel_aspace, va, base + off, PAGE_SIZE, VM_READ | VM_WRITE | VM_DEVICE) !=
                0)
                panic("ioremap: cannot map %#llx", (unsigned long long)(base + off));
        } else if (!(prot & VM_DEVICE)) {
            why = "memory the direct map holds"; /* RAM the memory map did not name */
        } /* else mapped already: another device in the same page */
    }
    if (why) {
        kprintf("ioremap: %#llx, %#zx bytes refused: %s\n", (unsigned long long)pa, size, why);
        return NULL;
    }
    return (void *)(ARCH_DIRECT_MAP_BASE + pa);
}
