/* SPDX-License-Identifier: MIT */
/*
 * boot/efi/handoff_aarch64.c - enter the kernel from the arm64 UEFI loader.
 *
 * Contract (boot/bootinfo.h, in the style of the Linux arm64 boot protocol): MMU and D-cache off,
 * the image cleaned to the Point of Coherency, x0 = boot_info, x1 = BOOT_INFO_MAGIC (booti leaves
 * x1 = 0, which is how the kernel tells the two paths apart). This file decides *what* to clean;
 * mmu_off_aarch64.S does the cache and SCTLR work that C cannot.
 */
#include "loader.h"

void aa64_dcache_clean_poc(UINT64 start, UINT64 size);
__attribute__((noreturn)) void aa64_mmu_off_enter(UINT64 entry, UINT64 bi, UINT64 magic);
extern const char aa64_handoff_start[], aa64_handoff_end[];

void arch_handoff(UINT64 entry, struct boot_info *bi)
{
    /*
     * Everything the kernel reads with its caches off: its image, boot_info, the FDT, and the
     * few instructions that run after the MMU goes off (fetched from memory from then on).
     * ACPI tables are left alone: with acpi=off QEMU has none, and a kernel that parses them
     * would do so after turning its own MMU and caches on.
     */
    aa64_dcache_clean_poc(bi->kernel_phys, bi->kernel_size);
    aa64_dcache_clean_poc(bi->fdt_phys, fdt_total_size(bi->fdt_phys));
    aa64_dcache_clean_poc((UINT64)(UINTN)aa64_handoff_start,
                          (UINT64)(aa64_handoff_end - aa64_handoff_start));
    aa64_dcache_clean_poc((UINT64)(UINTN)bi, sizeof(*bi)); /* last: no writes to bi after this */
    aa64_mmu_off_enter(entry, (UINT64)(UINTN)bi, BOOT_INFO_MAGIC);
}
