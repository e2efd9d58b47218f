/* SPDX-License-Identifier: MIT */
/*
 * kernel/bootinfo.h - the kernel's own copy of what the boot path told it.
 * Whatever the firmware (UEFI loader or U-Boot/OpenSBI with a devicetree),
 * after bootinfo_setup() the kernel reads one struct boot_info.
 */
#ifndef KERNEL_BOOTINFO_H
#define KERNEL_BOOTINFO_H

#include "boot/bootinfo.h"
#include "kernel/types.h"
#include "lib/fdt.h"

extern struct boot_info boot_info;

/*
 * Called first in kmain. boot_arg is the physical address of a struct
 * boot_info when boot_magic == BOOT_INFO_MAGIC, else of a flattened
 * devicetree; hartid is the riscv64 boot hart (0 elsewhere).
 */
struct boot_info *bootinfo_setup(uint64_t boot_arg, uint64_t boot_magic, uint64_t hartid);
/* The validated boot devicetree, or NULL if there is none. */
const struct fdt *boot_fdt(void);
/* mm_init switched page tables: find the devicetree through the direct map. */
void bootinfo_relocate(void);
/* What went wrong with the devicetree, if one was passed but rejected. */
/* "uefi", "booti", "direct" */
const char *boot_path_name(uint32_t path);

#endif
