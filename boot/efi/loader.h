/* SPDX-License-Identifier: MIT */
/*
 * boot/efi/loader.h - interfaces between the parts of the UEFI loader (BOOTX64.EFI and
 * BOOTAA64.EFI): loader.c drives, elf.c places the kernel, mmap.c leaves boot services and
 * converts the memory map, handoff_<arch>.c enters the kernel.
 *
 * The loader uses gnu-efi's headers and library only; it shares nothing with the kernel except
 * boot/bootinfo.h.
 */
#ifndef BOOT_EFI_LOADER_H
#define BOOT_EFI_LOADER_H

#include <efi.h>
#include <efilib.h>

#include "../bootinfo.h"

#if defined(__x86_64__) && !defined(HAVE_USE_MS_ABI)
/* Firmware calls below are plain C calls; that is only right when EFIAPI means ms_abi. */
#error "build the x86_64 loader with -DGNU_EFI_USE_MS_ABI (see boot/efi/efi.mk)"
#endif

#define SZ_4K    0x1000ull
#define SZ_2M    0x200000ull
/* AllocateMaxAddress limit: every page of the allocation below 4 GiB. */
#define BELOW_4G 0xffffffffull

/* Where the kernel ended up (physical addresses; the loader runs identity mapped). */
struct kernel_image {
    UINT64 phys;  /* first loaded byte, 2 MiB aligned */
    UINT64 size;  /* bytes from the lowest PT_LOAD vaddr to the highest vaddr+memsz */
    UINT64 entry; /* physical entry point: phys + (e_entry - lowest vaddr) */
};

/*
 * Entry point called by gnu-efi's crt0 (x86_64: crt0 converts the firmware's MS ABI call, so
 * this is a SysV function and must not be declared EFIAPI; boot-notes 5.2).
 */
EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);

/* Size of the flattened devicetree at `fdt` from its header, or 0 if there is none. */
UINT64 fdt_total_size(UINT64 fdt);

/*
 * elf.c: validate the ELF64 kernel in file[0..size) and copy its PT_LOAD segments into one
 * freshly allocated, 2 MiB aligned block below 4 GiB (EfiLoaderData), .bss zeroed.
 * Prints the reason and returns an error status if the file is not a kernel for this arch.
 */
EFI_STATUS elf_load(const VOID *file, UINTN size, struct kernel_image *out);

/*
 * mmap.c: take the final memory map, call ExitBootServices and fill bi->mmap. On success boot
 * services are gone (no Print, no allocation); on failure the status says why and boot services
 * may or may not still work.
 */
EFI_STATUS exit_boot_services(EFI_HANDLE image, struct boot_info *bi);

/*
 * handoff_<arch>.c: enter the kernel per the contract in boot/bootinfo.h. Called after
 * ExitBootServices with bi complete; never returns.
 */
__attribute__((noreturn)) void arch_handoff(UINT64 entry, struct boot_info *bi);

#endif
