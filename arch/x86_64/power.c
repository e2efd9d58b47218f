/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/power.c - stopping and powering off.
 *
 * Under QEMU the isa-debug-exit device (port 0xf4, added by the Makefile)
 * ends QEMU with exit code (value << 1) | 1. On a real PC that port write
 * does nothing, and the UEFI runtime service ResetSystem(EfiResetShutdown)
 * (UEFI 2.10, 8.5.1) turns the machine off. The kernel never calls
 * SetVirtualAddressMap, so runtime services expect to run at their physical
 * addresses: x86_power_init maps the runtime regions 1:1 into the lower
 * half of the kernel's own page tables (no user address space has them),
 * each with the permissions the firmware gives it (never write and execute
 * at once), and poweroff switches to those tables before the call.
 */
#include "kernel/arch_callbacks.h"
#include "x86.h"

#define QEMU_DEBUG_EXIT_PORT       0xf4
#define EFI_RESET_SHUTDOWN         2
#define EFI_RT_RESET_SYSTEM_OFFSET (24 + 10 * 8) /* header, then the 11th pointer */

typedef void __attribute__((ms_abi)) (*efi_reset_system_fn)(int type, uint64_t status,
                                                            uint64_t size, void *data);

static uint64_t efi_runtime_phys;

/* How to map a runtime region (boot/bootinfo.h BOOT_MEM_ATTR_*): data never
 * executable, EFI_MEMORY_RO never writable, EFI_MEMORY_XP never executable,
 * code writable only where the firmware said it is not code. A code region
 * with neither RO nor XP would need write and execute at once: 0, it is
 * not mapped, and the runtime services are not used (never a W+X page). */
static unsigned runtime_prot(uint32_t attr)
{
    bool exec = (attr & BOOT_MEM_ATTR_CODE) && !(attr & BOOT_MEM_ATTR_XP);
    bool write = !(attr & BOOT_MEM_ATTR_RO);
    if (exec && write)
        return 0;
    return VM_READ | (write ? VM_WRITE : 0) | (exec ? VM_EXEC : 0);
}

void x86_power_init(const struct boot_info *bi)
{
    efi_runtime_phys = bi->efi_runtime_phys;
    unsigned mapped = 0, refused = 0;
    for (uint32_t i = 0; i < bi->mmap_count && efi_runtime_phys; i++) {
        const struct boot_mem_region *r = &bi->mmap[i];
        unsigned prot = runtime_prot(r->attr);
        if (r->type != BOOT_MEM_FIRMWARE)
            continue;
        if (!prot || vm_map(&kernel_aspace, r->base, r->base, ALIGN_UP(r->size, PAGE_SIZE), prot))
            refused++;
        else
            mapped++;
    }
    if (refused) {
        kprintf("efi: %u runtime regions cannot be mapped without write+execute: ResetSystem "
                "unused\n",
                refused);
        efi_runtime_phys = 0; /* do not call it */
    } else if (efi_runtime_phys) {
        kprintf("efi: %u runtime regions mapped as the firmware describes them\n", mapped);
    }
}

void arch_halt(void)
{
    for (;;)
        __asm__ volatile("cli; hlt");
}

void arch_poweroff(int status)
{
    arch_irq_save();
    arch_pio_write32(QEMU_DEBUG_EXIT_PORT, (uint32_t)status);
    if (efi_runtime_phys) {
        __asm__ volatile("mov %0, %%cr3" : : "r"(x86_kernel_root()) : "memory");
        const uint8_t *rt = (const uint8_t *)efi_runtime_phys;
        efi_reset_system_fn reset = *(efi_reset_system_fn const *)(rt + EFI_RT_RESET_SYSTEM_OFFSET);
        if (reset)
            reset(EFI_RESET_SHUTDOWN, status ? 1 : 0, 0, NULL);
    }
    kprintf("poweroff: no way to turn the machine off; halting\n");
    arch_halt();
}
