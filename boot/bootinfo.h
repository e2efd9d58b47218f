/* SPDX-License-Identifier: MIT */
/*
 * boot/bootinfo.h - the hand-off between a boot loader and the kernel.
 *
 * Defined once, here, and shared by the UEFI loader (boot/efi/) and the
 * kernel. The UEFI loader fills one struct boot_info and passes its physical
 * address to the kernel entry point. When the kernel is started by U-Boot
 * `booti` (a flattened devicetree in x0/a1 instead), the kernel fills the
 * same structure itself from the devicetree (kernel/bootinfo.c), so the rest
 * of the kernel sees one format whatever firmware it came through.
 *
 * Kernel entry contract (what the loader guarantees at the jump):
 *   x86_64: long mode, paging on with an identity map of all memory the
 *           loader touched, IRQs masked; %rdi = boot_info (physical).
 *   arm64:  EL2 or EL1, MMU and D-cache off, DAIF masked, the image cleaned to
 *           the point of coherency; x0 = boot_info (physical),
 *           x1 = BOOT_INFO_MAGIC, x2 = x3 = 0.
 *           (booti from U-Boot: x0 = FDT, x1 = 0, per the Linux arm64 boot
 *           protocol; the kernel tells the two apart by x1.)
 *   riscv64: S-mode, MMU off; a0 = hart id, a1 = FDT (OpenSBI/U-Boot).
 * On the UEFI paths the kernel starts on the firmware's stack, which lies in
 * memory the map reports usable (switch away before allocating), and the
 * devicetree (arm64) is the loader's copy, in LOADER memory.
 * In every case the kernel image is one contiguous copy of its PT_LOAD
 * segments, starting at a 2 MiB aligned physical address, with .bss zeroed
 * by the loader (the kernel zeroes it again, booti does not promise it).
 *
 * All fields are fixed-width and all addresses physical, so the structure
 * means the same thing to the loader (PE/COFF, MS ABI on x86_64) and the
 * kernel (ELF, SysV ABI).
 */
#ifndef BOOT_BOOTINFO_H
#define BOOT_BOOTINFO_H

#include <stdint.h>

#define BOOT_INFO_MAGIC   0x2154464948534b53ull /* "SKSHIFT!" little endian */
#define BOOT_INFO_VERSION 1

#define BOOT_MMAP_MAX     256
#define BOOT_CMDLINE_MAX  512
#define BOOT_SEED_MAX     64
#define BOOT_FIRMWARE_MAX 64

/* Which way the kernel was started. */
enum boot_path {
    BOOT_PATH_UNKNOWN = 0,
    BOOT_PATH_UEFI = 1,  /* our gnu-efi loader, BOOTX64.EFI / BOOTAA64.EFI */
    BOOT_PATH_BOOTI = 2, /* Linux-style Image booted by U-Boot `booti` */
    BOOT_PATH_DIRECT = 3 /* QEMU -kernel or another loader passing only an FDT */
};

/* Memory region types, coarser than UEFI's: what the kernel may do with it. */
enum boot_mem_type {
    BOOT_MEM_USABLE = 1,       /* free RAM */
    BOOT_MEM_RESERVED = 2,     /* never touch */
    BOOT_MEM_ACPI_RECLAIM = 3, /* ACPI tables: usable once parsed */
    BOOT_MEM_ACPI_NVS = 4,     /* firmware keeps it across sleep */
    BOOT_MEM_MMIO = 5,         /* device registers */
    BOOT_MEM_LOADER = 6,       /* loader data (kernel image, this struct): reclaimable */
    BOOT_MEM_FIRMWARE = 7,     /* EFI runtime services or M-mode firmware */
    BOOT_MEM_BAD = 8,          /* failed memory */
    BOOT_MEM_KERNEL = 9        /* the kernel image itself (marked by the kernel) */
};

struct boot_mem_region {
    uint64_t base;
    uint64_t size;
    uint32_t type; /* enum boot_mem_type */
    uint32_t attr; /* BOOT_MEM_ATTR_*: for BOOT_MEM_FIRMWARE from UEFI, else 0 */
};

/* How the firmware asks a BOOT_MEM_FIRMWARE region from UEFI to be mapped:
 * by its memory type (UEFI 2.10 section 7.2) and, where the firmware
 * publishes an EFI_MEMORY_ATTRIBUTES_TABLE (section 4.6), by that table's
 * entries, which the loader uses instead of the memory map's runtime
 * entries (the map's own RO/XP bits are capabilities, not settings). */
#define BOOT_MEM_ATTR_CODE 1u /* EfiRuntimeServicesCode or EfiPalCode: holds code */
#define BOOT_MEM_ATTR_RO   2u /* the table's EFI_MEMORY_RO: never written */
#define BOOT_MEM_ATTR_XP   4u /* the table's EFI_MEMORY_XP: never executed */
#define BOOT_MEM_ATTR_MAT  8u /* described by the memory attributes table */

/* Console the loader knows about (x86 has no devicetree to name one). */
enum boot_console_kind {
    BOOT_CONSOLE_NONE = 0,
    BOOT_CONSOLE_NS16550_PIO = 1,  /* 16550 in x86 I/O port space */
    BOOT_CONSOLE_NS16550_MMIO = 2, /* 16550 memory-mapped, reg_shift applies */
    BOOT_CONSOLE_PL011 = 3         /* Arm PrimeCell UART */
};

struct boot_console {
    uint32_t kind; /* enum boot_console_kind */
    uint32_t reg_shift;
    uint64_t base; /* I/O port or physical MMIO address */
};

struct boot_info {
    uint64_t magic;   /* BOOT_INFO_MAGIC */
    uint32_t version; /* BOOT_INFO_VERSION */
    uint32_t size;    /* sizeof(struct boot_info) as the loader built it */

    uint32_t path;        /* enum boot_path */
    uint32_t boot_hartid; /* riscv64: hart id from a0; else 0 */

    uint64_t kernel_phys; /* physical address of the first loaded byte */
    uint64_t kernel_size; /* bytes, including .bss */

    uint64_t fdt_phys;         /* flattened devicetree, 0 if none */
    uint64_t acpi_rsdp_phys;   /* ACPI RSDP, 0 if none */
    uint64_t efi_runtime_phys; /* EFI_RUNTIME_SERVICES, 0 if not UEFI */

    char firmware[BOOT_FIRMWARE_MAX]; /* e.g. "EDK II rev 0x10000, UEFI 2.70" */
    char cmdline[BOOT_CMDLINE_MAX];   /* NUL-terminated ASCII */

    /* Seed bytes from EFI_RNG_PROTOCOL; the kernel wipes them after use. */
    uint32_t seed_len;
    uint8_t seed[BOOT_SEED_MAX];
    uint32_t seed_reserved; /* explicit padding: keeps the layout obvious */

    struct boot_console console;

    uint32_t mmap_count;
    uint32_t mmap_dropped; /* regions the loader had to drop to fit BOOT_MMAP_MAX */
    struct boot_mem_region mmap[BOOT_MMAP_MAX]; /* sorted by base, no overlaps */
};

/* The loader (PE/COFF, built with gnu-efi) and the kernel must agree exactly. */
_Static_assert(sizeof(struct boot_info) == 6880, "struct boot_info layout changed");

#endif
