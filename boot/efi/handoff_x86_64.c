/* SPDX-License-Identifier: MIT */
/*
 * boot/efi/handoff_x86_64.c - enter the kernel from the x86_64 UEFI loader.
 *
 * Contract (boot/bootinfo.h): long mode with the firmware's identity-mapped page tables still in
 * CR3, interrupts masked, %rdi = boot_info. The kernel entry is a SysV function
 * `void entry(struct boot_info *)`; this file is compiled SysV too (only EFIAPI functions are
 * ms_abi), and the attribute below says so explicitly. The firmware's stack (boot-services data,
 * reported USABLE) is still in use: the kernel must switch to its own stack before it reuses free
 * memory. The firmware GDT and IDT are also still loaded (Intel SDM vol. 3A, 2.4 "Memory-
 * Management Registers"); the kernel replaces them first thing.
 */
#include "loader.h"

typedef void __attribute__((sysv_abi)) kernel_entry_fn(struct boot_info *bi);

void arch_handoff(UINT64 entry, struct boot_info *bi)
{
    kernel_entry_fn *kernel = (kernel_entry_fn *)(UINTN)entry;

    /* Boot services are gone, so no firmware interrupt handler may run any more. */
    __asm__ volatile("cli" ::: "memory");
    kernel(bi);
    for (;;) /* the kernel does not return; if it does, park the CPU */
        __asm__ volatile("hlt");
}
