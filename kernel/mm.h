/* SPDX-License-Identifier: MIT */
/*
 * kernel/mm.h - physical/virtual address conversion.
 *
 * During early boot every arch keeps an identity map of low physical memory
 * beside the high kernel mapping, so a physical address can be dereferenced
 * as it is (phys_map_offset = 0). mm_init() then switches to the kernel's
 * own page tables, where all RAM is mapped at ARCH_DIRECT_MAP_BASE, and sets
 * phys_map_offset to it.
 */
#ifndef KERNEL_MM_H
#define KERNEL_MM_H

#include "kernel/types.h"

extern uintptr_t phys_map_offset;

static inline void *phys_to_virt(uint64_t pa)
{
    return (void *)(uintptr_t)(pa + phys_map_offset);
}

/* The same, typed for table readers such as lib/acpi.c's acpi_map_fn. */
static inline const void *phys_to_virt_const(uint64_t pa)
{
    return phys_to_virt(pa);
}

/* Kernel image bounds, from the linker script (virtual addresses). */
extern char _kernel_start[], _etext[], _erodata[], _kernel_end[], __bss_start[], __bss_end[];

/* Build the kernel's final page tables and switch to them (kernel/mm/mm_init.c). */
struct boot_info;
void mm_init(struct boot_info *bi);

#endif
